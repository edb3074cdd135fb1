"""The judder meter in the live game, estimated from the loop's own frame-end times.

The game cannot see its photons: the window system does not say when a frame reached the panel.
What the loop knows is when each frame was finished and handed over (the pacer's frame end) and
the display's refresh rate, read from pygame or guessed. So the estimate puts every frame on the
panel at the first refresh after it was finished (no tearing, no compositor queue) and samples
the refresh grid, as `game.workshop.display_run` does for a headless run without vsync; the
figures are then those of the judder table's rows with the same tick rate, cap and refresh.

Only the last second is kept, so a key press shows on the meter within a second.
"""

from __future__ import annotations

from collections import deque
from fractions import Fraction

import numpy as np

from game.clock.units import NS_PER_SECOND
from game.display.judder import JudderReport, measure, on_screen
from game.display.model import DisplaySettings

KEEP_NS = NS_PER_SECOND
"""How much recent history the live meter looks at."""
PHASE = DisplaySettings().phase
"""Where the unknown vblanks are taken to fall after the first kept frame: the headless
display's default phase, so that a live row and its judder-table row sample alike."""


class LiveJudder:
    """Frame ends in, a `JudderReport` for the last second out."""

    def __init__(self, refresh_hz: Fraction, *, speed_m_s: float = 1.0) -> None:
        self.refresh_hz = refresh_hz
        self.speed_m_s = speed_m_s
        self._frames: deque[tuple[int, int, int]] = deque()

    def record(self, frame_end_ns: int, drawn_ns: int, tick: int) -> None:
        """A frame handed over at `frame_end_ns` (any monotonic origin) showing simulated time
        `drawn_ns` after tick `tick`."""
        frames = self._frames
        frames.append((frame_end_ns, drawn_ns, tick))
        while frames and frames[0][0] < frame_end_ns - KEEP_NS:
            frames.popleft()

    def clear(self) -> None:
        """Forget the history (after a pause or a change of tick rate)."""
        self._frames.clear()

    def report(self, time_scale: float = 1.0) -> JudderReport:
        """The figures over the kept frames, sampled on the refresh grid."""
        if len(self._frames) < 3:
            return measure(np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0, np.int64))
        ends, drawn, ticks = np.array(self._frames, dtype=np.int64).T
        period = NS_PER_SECOND / self.refresh_hz
        count = int((ends[-1] - ends[0]) / period)
        phase = 1 - PHASE  # the vblanks fall where the headless display puts them
        grid = ends[0] + np.array(
            [((index - phase) * period).__ceil__() for index in range(1, count + 1)],
            dtype=np.int64,
        )
        index = on_screen(ends, grid)
        return measure(
            grid, drawn[index], ticks[index], time_scale=time_scale, speed_m_s=self.speed_m_s
        )
