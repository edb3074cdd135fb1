"""The frame history binned into graph columns, and a y axis that stays calm until it must grow.

A graph 500 pixels wide cannot show 2,000 frames one by one, and should not try: each column
(a *bin* of time) shows the worst frame that touched it. A time axis, not a frame axis: a 200 ms
stall is wide as well as tall, so a spiral of death looks like what it is, frames getting longer.

Pure numpy: the graph panel turns these arrays into pixels.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from game.display.live import JudderTrace
from game.session.history import HistoryWindow

Floats = NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class Bins:
    """Per time bin, oldest first: the peak of every frame that touched the bin."""

    filled: NDArray[np.bool_]
    """False where no frame touched the bin (before the history starts)."""
    frame_ms: NDArray[np.float64]
    steps: NDArray[np.int64]
    dropped_ms: NDArray[np.float64]
    overloaded: NDArray[np.bool_]

    def __len__(self) -> int:
        return int(self.filled.shape[0])

    @classmethod
    def empty(cls, count: int) -> Bins:
        nothing = np.zeros(count, dtype=np.bool_)
        return cls(nothing, np.zeros(count), np.zeros(count, np.int64), np.zeros(count), nothing)


def bin_frames(
    window: HistoryWindow, *, seconds: float, count: int, end: float | None = None
) -> Bins:
    """Split the `seconds` before `end` (by default the newest frame's end) into `count` bins,
    and take the peak of the frames touching each bin.

    A frame lasts from `wall_s - frame_ms` to `wall_s`, and frames follow each other, so the
    frames touching a bin are those that *end* inside it (short ones, maybe several) plus the
    one frame that is running at the bin's end (a long one, maybe spanning many bins).
    """
    frames = len(window)
    if frames == 0 or count <= 0:
        return Bins.empty(max(count, 0))

    end = float(window.wall_s[-1]) if end is None else end
    start = end - seconds
    width = seconds / count
    bin_ends = start + width * np.arange(1, count + 1)

    # The frame running at each bin's end: the first frame that ends at or after it.
    found = np.searchsorted(window.wall_s, bin_ends, side="left")
    running = np.minimum(found, frames - 1)
    began = window.wall_s[running] - window.frame_ms[running] / 1000.0
    filled = (found < frames) & (began < bin_ends)
    frame_ms = np.where(filled, window.frame_ms[running], 0.0)
    steps = np.where(filled, window.steps[running], 0)
    dropped_ms = np.where(filled, window.dropped_ms[running], 0.0)
    overloaded = filled & window.overloaded[running]

    # The frames that end inside a bin, (start, end]: runs of equal bin numbers, a peak per run.
    which = np.ceil((window.wall_s - start) / width).astype(np.int64) - 1
    inside = (which >= 0) & (which < count)
    which = which[inside]
    if which.shape[0]:
        runs = np.flatnonzero(np.diff(which, prepend=-1))
        hit = which[runs]
        filled[hit] = True
        for peaks, values in (
            (frame_ms, window.frame_ms),
            (steps, window.steps),
            (dropped_ms, window.dropped_ms),
        ):
            peaks[hit] = np.maximum(peaks[hit], np.maximum.reduceat(values[inside], runs))
        overloaded[hit] |= np.logical_or.reduceat(window.overloaded[inside], runs)
    return Bins(filled, frame_ms, steps, dropped_ms, overloaded)


def axis_top(peak: float, minimum: float) -> float:
    """The top of a y axis: at least `minimum`, else the next 1-2-5 step above `peak`.

    A calm game keeps the fixed minimum (its frames sit low and look calm); a spike lifts the
    axis to a round number, so the scale label always reads cleanly ("100 ms", not "87.3 ms").
    """
    if peak <= minimum:
        return minimum
    magnitude = 10.0 ** math.floor(math.log10(peak))
    return next(nice * magnitude for nice in (1, 2, 5, 10) if nice * magnitude >= peak)


def bin_judder(trace: JudderTrace, *, seconds: float, count: int, end: float) -> Floats:
    """The RMS judder (%) of the refreshes in each of `count` bins over the `seconds` before
    `end` (seconds, the frame history's clock): the meter's own figure, bar by bar, so a bar
    means what the DISPLAY row's judder means. A bin with no refresh in it stays 0."""
    if count <= 0:
        return np.zeros(max(count, 0))
    start = end - seconds
    width = seconds / count
    times = trace.refresh_ns / 1e9
    which = np.ceil((times - start) / width).astype(np.int64) - 1
    inside = (which >= 0) & (which < count)
    squares = np.bincount(which[inside], weights=trace.error_pct[inside] ** 2, minlength=count)
    refreshes = np.bincount(which[inside], minlength=count)
    return np.sqrt(squares / np.maximum(refreshes, 1))
