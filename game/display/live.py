"""The judder meter in the live game, estimated from the loop's own frame-end times.

The game cannot see its photons: the window system does not say when a frame reached the panel.
What the loop knows is when each frame was finished and handed over (the pacer's frame end) and
the display's refresh rate, read from pygame or guessed. So the estimate puts every frame on the
panel at the first refresh after it was finished (no tearing, no compositor queue) and samples
the refresh grid, as `game.workshop.runs.display_run` does for a headless run without vsync; the
figures are then those of the judder table's rows with the same tick rate, cap and refresh.

The vblanks are taken to fall on one fixed grid from the first frame recorded (the display's
real grid is fixed too, only unknown), so the meter's figures for the last second and the
graph's judder strip over the last few seconds sample the same refreshes.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from fractions import Fraction
from math import ceil, floor

import numpy as np

from game.display.judder import Floats, Ints, JudderReport, measure, on_screen, velocity_errors
from game.display.model import DisplaySettings
from timestep_lab import NS_PER_SECOND

REPORT_NS = NS_PER_SECOND
"""How much recent history the meter's figures describe: a key press shows within a second."""
KEEP_NS = 6 * NS_PER_SECOND
"""How much history is kept: enough for the graph's judder strip (the last 5 s) and a bin."""
LAG = 1 - DisplaySettings().phase
"""Refresh k falls (k - LAG) periods after the first frame: the headless display's default
phase, so that a live row and its judder-table row sample alike."""


@dataclass(frozen=True, slots=True)
class JudderTrace:
    """The displayed-velocity error of every refresh in a window, for the graph."""

    refresh_ns: Ints
    """When each refresh was (the same clock as the frame ends), oldest first."""
    error_pct: Floats
    """Its velocity error in % of the true speed (`game.display.judder.velocity_errors`)."""


class LiveJudder:
    """Frame ends in; a `JudderReport` for the last second and a `JudderTrace` out."""

    def __init__(
        self, refresh_hz: Fraction, *, speed_m_s: float = 1.0, time_scale: float = 1.0
    ) -> None:
        self.refresh_hz = refresh_hz
        self.speed_m_s = speed_m_s
        self.time_scale = time_scale
        """The time scale the kept frames ran under (the watch starts afresh when it changes)."""
        self._period = period = NS_PER_SECOND / refresh_hz
        # Vblank k is at anchor + ceil((k - LAG) x period): with period = a/b and LAG = p/q,
        # ceil(((k q - p) a) / (q b)). The integers, worked out once rather than every frame.
        self._k_times = period.numerator * LAG.denominator  # a q
        self._lag_times = LAG.numerator * period.numerator  # p a
        self._over = LAG.denominator * period.denominator  # q b
        self._frames: deque[tuple[int, int, int]] = deque()
        self._anchor: int | None = None
        self._last_refresh = -1
        """k of the refresh that will first show the last kept frame."""

    def record(self, frame_end_ns: int, drawn_ns: int, tick: int) -> None:
        """A frame handed over at `frame_end_ns` (any monotonic origin) showing simulated time
        `drawn_ns` after tick `tick`.

        A frame followed by another before the next refresh is never on screen: it is replaced,
        so an uncapped loop at 2,000 fps keeps one frame per refresh, not 12,000 per 6 s."""
        frames = self._frames
        if self._anchor is None:
            self._anchor = frame_end_ns
        refresh = self._next_refresh(frame_end_ns)
        if frames and self._last_refresh == refresh:
            frames.pop()
        self._last_refresh = refresh
        frames.append((frame_end_ns, drawn_ns, tick))
        while frames and frames[0][0] < frame_end_ns - KEEP_NS:
            frames.popleft()

    @property
    def frames_kept(self) -> int:
        """Frames held for the figures: at most one per refresh of the last `KEEP_NS`."""
        return len(self._frames)

    def _next_refresh(self, frame_end_ns: int) -> int:
        """k of the first refresh at or after a frame end: vblank k is at or after the end
        exactly when (k - LAG) x period > end - anchor - 1 (the vblank is rounded up to whole
        ns), so k = floor((end - anchor - 1) / period + LAG) + 1, in integers."""
        since = frame_end_ns - (self._anchor or 0) - 1
        return (since * self._over + self._lag_times) // self._k_times + 1

    def clear(self, time_scale: float | None = None) -> None:
        """Forget the history (after a pause, a new tick rate or a new time scale)."""
        self._frames.clear()
        self._anchor = None
        self._last_refresh = -1
        if time_scale is not None:
            self.time_scale = time_scale

    def report(self) -> JudderReport:
        """The figures over the refreshes of the last second."""
        refreshes, drawn, ticks = self._sampled(REPORT_NS)
        return measure(
            refreshes, drawn, ticks, time_scale=self.time_scale, speed_m_s=self.speed_m_s
        )

    def trace(self) -> JudderTrace:
        """Every kept refresh's velocity error, for the graph's judder strip."""
        refreshes, drawn, _ = self._sampled(KEEP_NS)
        if refreshes.shape[0] < 2:
            return JudderTrace(np.zeros(0, np.int64), np.zeros(0))
        return JudderTrace(refreshes[1:], velocity_errors(refreshes, drawn, self.time_scale))

    def recent(self, count: int) -> tuple[Ints, Ints]:
        """The last `count` refreshes on the grid (or as many as there are) and the drawn time
        of the frame on screen at each: what `game.display.screen_marks` draws."""
        refreshes, drawn, _ = self._sampled(int(self._period * (count + 1)))
        return refreshes[-count:], drawn[-count:]

    def _sampled(self, within_ns: int) -> tuple[Ints, Ints, Ints]:
        """The refreshes on the grid in the last `within_ns` of kept frames, and the drawn time
        and tick of the frame on screen at each."""
        frames, anchor = self._frames, self._anchor
        if len(frames) < 3 or anchor is None:
            empty = np.zeros(0, np.int64)
            return empty, empty, empty
        ends, drawn, ticks = np.array(frames, dtype=np.int64).T
        start = max(int(ends[0]), int(ends[-1]) - within_ns)
        first = max(1, ceil((start - anchor) / self._period + LAG))
        last = floor((int(ends[-1]) - anchor) / self._period + LAG)
        grid = np.array(self._vblanks(anchor, first, last), dtype=np.int64)
        index = on_screen(ends, grid)
        return grid, drawn[index], ticks[index]

    def _vblanks(self, anchor: int, first: int, last: int) -> list[int]:
        """Refreshes `first` to `last` in whole ns, exactly, with integers (a few hundred
        Fractions a time would cost milliseconds)."""
        k_times, lag_times, over = self._k_times, self._lag_times, self._over
        return [anchor - ((lag_times - k * k_times) // over) for k in range(first, last + 1)]
