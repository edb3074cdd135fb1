"""`FrameHistory`: the last few seconds of frames, for the HUD's graphs.

A fixed-size ring of numpy arrays: appending a frame costs the same at frame 10 and frame 10
million, and the graphs read contiguous arrays without building Python lists every frame.

A lane hands each frame over as it came, `(end, plan, light)` (`record`), and the floats of its
`FrameSample` are worked out and written into the arrays only when someone reads the history.
The game reads it every frame (the graphs, the readout), so it pays the same as before; a
headless run never reads it, and its 75,000 frames in ten minutes cost a tuple each instead of
a sample and six array stores (BENCHMARKS.md, "Workshop: a 10-minute headless simulation").
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from timestep_lab import NS_PER_MS, NS_PER_SECOND, StepPlan


class FrameSample(NamedTuple):
    """What one frame looked like from the outside (a NamedTuple: one a frame, cheap to build)."""

    wall_s: float
    """Wall-clock time at the end of the frame, seconds since the session started."""
    frame_ms: float
    """How long the frame took (the elapsed time handed to the scheduler)."""
    steps: int
    dropped_ms: float
    backlog_steps: int
    overloaded: bool


@dataclass(frozen=True, slots=True)
class HistoryWindow:
    """Read-only arrays of the frames inside a time window, oldest first."""

    wall_s: NDArray[np.float64]
    frame_ms: NDArray[np.float64]
    steps: NDArray[np.int64]
    dropped_ms: NDArray[np.float64]
    backlog_steps: NDArray[np.int64]
    overloaded: NDArray[np.bool_]

    def __len__(self) -> int:
        return int(self.wall_s.shape[0])


class FrameHistory:
    """A ring buffer of `FrameSample`s, `capacity` frames long."""

    def __init__(self, capacity: int = 2_048) -> None:
        if isinstance(capacity, bool) or not isinstance(capacity, int) or capacity < 2:
            raise ValueError(f"capacity must be an int of at least 2 (got {capacity!r})")
        self.capacity = capacity
        self._wall = np.zeros(capacity)
        self._frame = np.zeros(capacity)
        self._steps = np.zeros(capacity, dtype=np.int64)
        self._dropped = np.zeros(capacity)
        self._backlog = np.zeros(capacity, dtype=np.int64)
        self._overloaded = np.zeros(capacity, dtype=np.bool_)
        self._count = 0  # frames ever appended
        self._unread: deque[tuple[int, StepPlan, bool]] = deque(maxlen=capacity)
        """Frames recorded and not yet written into the arrays, oldest first: at most a ring's
        worth, as an older one would be overwritten before anyone read it."""
        self._windows: dict[float, HistoryWindow] = {}
        self._windows_at = 0
        """`_windows` hold the windows asked for since frame `_windows_at` was appended."""

    def __len__(self) -> int:
        return min(self._count, self.capacity)

    def record(self, wall_ns: int, plan: StepPlan, overloaded: bool) -> None:
        """A frame as the lane closed it: the books' wall time at its end, its final plan and
        the overload light. The same as `append` of the `FrameSample` they make, which is made
        only when the history is read (`_write_unread`)."""
        self._unread.append((wall_ns, plan, overloaded))
        self._count += 1

    def append(self, sample: FrameSample) -> None:
        self._write_unread()
        slot = self._count % self.capacity
        self._wall[slot] = sample.wall_s
        self._frame[slot] = sample.frame_ms
        self._steps[slot] = sample.steps
        self._dropped[slot] = sample.dropped_ms
        self._backlog[slot] = sample.backlog_steps
        self._overloaded[slot] = sample.overloaded
        self._count += 1

    def _write_unread(self) -> None:
        """Write the recorded frames into the arrays, each as the `FrameSample` it stands for:
        what every reader does first."""
        unread = self._unread
        if not unread:
            return
        first = self._count - len(unread)
        for index, (wall_ns, plan, overloaded) in enumerate(unread, start=first):
            slot = index % self.capacity
            self._wall[slot] = wall_ns / NS_PER_SECOND
            self._frame[slot] = plan.elapsed_ns / NS_PER_MS
            self._steps[slot] = plan.ledger.steps
            self._dropped[slot] = plan.dropped_ms
            self._backlog[slot] = plan.ledger.backlog_steps
            self._overloaded[slot] = overloaded
        unread.clear()

    @property
    def newest_wall_s(self) -> float | None:
        """When the newest frame ended (None before the first): what the graphs ask each frame,
        without gathering a window."""
        self._write_unread()
        return float(self._wall[(self._count - 1) % self.capacity]) if self._count else None

    @property
    def appended(self) -> int:
        """How many frames were ever appended (the ring holds the last `capacity` of them)."""
        return self._count

    def copy(self) -> FrameHistory:
        """This history as it stands: the copy stays put while this one goes on."""
        self._write_unread()
        return self._with(np.arange(self.capacity), self._count)

    def as_of(self, appended: int) -> FrameHistory:
        """A new history holding this one's frames as they stood when `appended` had been
        appended (as many of them as the ring still holds): what the graphs showed then, for
        the rewatch."""
        if not 0 <= appended <= self._count:
            raise ValueError(f"appended must be from 0 to {self._count} (got {appended})")
        self._write_unread()
        first = max(0, appended - self.capacity, self._count - self.capacity)
        return self._with(np.arange(first, appended) % self.capacity, appended - first)

    def _with(self, order: NDArray[np.int64], count: int) -> FrameHistory:
        """A new history whose ring holds this one's frames at ring positions `order`, in
        that order, having been given `count` frames."""
        frames = self._at(order)
        size = len(frames)
        then = FrameHistory(self.capacity)
        then._wall[:size] = frames.wall_s
        then._frame[:size] = frames.frame_ms
        then._steps[:size] = frames.steps
        then._dropped[:size] = frames.dropped_ms
        then._backlog[:size] = frames.backlog_steps
        then._overloaded[:size] = frames.overloaded
        then._count = count
        return then

    def latest(self, frames: int) -> HistoryWindow:
        """The last `frames` frames (fewer if fewer were recorded), oldest first."""
        self._write_unread()
        frames = max(0, min(frames, len(self)))
        end = self._count
        order = np.arange(end - frames, end) % self.capacity
        return self._at(order)

    def window(self, seconds: float) -> HistoryWindow:
        """The frames that ended within the last `seconds` of wall time, oldest first.

        Several readers ask for the same window each frame (the readout's fps and dropped time,
        the graphs), so each window is kept until the next frame is appended; and only the
        frames inside it are gathered from the ring.
        """
        self._write_unread()
        if self._windows_at != self._count:
            self._windows_at = self._count
            self._windows.clear()
        kept = self._windows.get(seconds)
        if kept is None:
            kept = self._windows[seconds] = self._gathered(seconds)
        return kept

    def _at(self, order: NDArray[np.int64]) -> HistoryWindow:
        """The frames at the ring positions `order`, in that order."""
        return HistoryWindow(
            wall_s=self._wall[order],
            frame_ms=self._frame[order],
            steps=self._steps[order],
            dropped_ms=self._dropped[order],
            backlog_steps=self._backlog[order],
            overloaded=self._overloaded[order],
        )

    def dropped_ms_within(self, seconds: float) -> float:
        """`window(seconds).dropped_ms.sum()`, the same float, without gathering the window's
        other five columns when no reader asked for that window this frame (the second lane
        of a split screen: only its readout's dropped time reads it)."""
        self._write_unread()
        if self._windows_at == self._count and seconds in self._windows:
            return float(self._windows[seconds].dropped_ms.sum())
        start = self._first(seconds)
        return float(self._slice(self._dropped, start, self._count).sum())

    def _gathered(self, seconds: float) -> HistoryWindow:
        """The window's frames, `_first(seconds)` to the newest."""
        return self._span(self._first(seconds), self._count)

    def _first(self, seconds: float) -> int:
        """The first frame (counted as appended) that ended within the last `seconds`, found by
        searching the ring where it lies (at most two sorted runs of wall times) rather than
        gathering the whole ring in order first: the same count of frames at or before the
        window's start, so the same frames."""
        end = self._count
        start = end - len(self)
        if end:
            head = start % self.capacity
            older = self._wall[head : head + len(self)]  # up to the ring's end
            newer = self._wall[: len(self) - older.shape[0]]  # the rest, from its start
            limit = self._wall[(end - 1) % self.capacity] - seconds
            before = int(np.searchsorted(older, limit, side="right"))
            if before == older.shape[0]:
                before += int(np.searchsorted(newer, limit, side="right"))
            start += before
        return start

    def _span(self, start: int, end: int) -> HistoryWindow:
        """Frames `start` to `end` (counted as appended), as `_at` gives them: copied as one
        or two slices of the ring, which is several times cheaper than gathering by index."""
        return HistoryWindow(*(self._slice(ring, start, end) for ring in self._rings()))

    def _slice(self, ring: NDArray[Any], start: int, end: int) -> NDArray[Any]:
        """One ring's frames `start` to `end`, copied (one slice, or two across the wrap)."""
        head = start % self.capacity
        stop = head + end - start
        if stop <= self.capacity:
            return ring[head:stop].copy()
        return np.concatenate((ring[head:], ring[: stop - self.capacity]))

    def _rings(self) -> tuple[NDArray[Any], ...]:
        """The ring's arrays, in the order of `HistoryWindow`'s fields."""
        return (
            self._wall,
            self._frame,
            self._steps,
            self._dropped,
            self._backlog,
            self._overloaded,
        )
