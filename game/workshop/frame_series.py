"""A headless run's frames as arrays for plotting, each value placed at the frame's END.

A frame's numbers (how long it lasted, the ticks it ran, the time it dropped) are known when it
ends, and that is where a figure draws them: as a dot or a stem at the frame's end, or summed
into a fixed slice of wall time. Drawing a value across the frame's whole duration lies about
long frames: a 2 s stall that ends with 5 ticks would read as 2 s of "5 ticks per frame".

Lag (scaled wall time minus simulated time) is different: it is a quantity at every instant.
During a frame nothing is simulated, so it climbs with the wall clock from the lag the last
frame left to a peak; then the frame's ticks pull it down. `lag_band` follows that saw-tooth
exactly and summarises each slice of wall time by its lowest, highest and time-averaged value,
so a spiral's 3 s frames show their real lag and 144 fps frames do not paint a noisy band.

Exact times become floats here, at the edge, only to be plotted.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from game.clock.units import NS_PER_MS, NS_PER_SECOND
from game.workshop.runner import RunResult

Floats = NDArray[np.float64]
Ints = NDArray[np.int64]

SLICE_SECONDS = (0.1, 0.2, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 15.0, 30.0, 60.0)
"""Widths of the slices of wall time that sums and lag bands are taken over: 100 ms unless the
run is so long that there would be more than `MAX_SLICES` of them."""
MAX_SLICES = 240


def slice_seconds(run_seconds: float) -> float:
    """The narrowest width in `SLICE_SECONDS` that cuts the run into at most `MAX_SLICES`."""
    return next((w for w in SLICE_SECONDS if run_seconds <= w * MAX_SLICES), SLICE_SECONDS[-1])


@dataclass(frozen=True, slots=True)
class LagBand:
    """The lag over slices of wall time: lowest, time-averaged and highest, in ms."""

    edges_s: Floats
    low_ms: Floats
    mean_ms: Floats
    high_ms: Floats


class FrameSeries:
    """One run's frames as float arrays (ms and s), index i being frame i + 1."""

    def __init__(self, result: RunResult) -> None:
        frames = result.frames
        self.count = len(frames)
        self.end_ns: Ints = np.array([frame.wall_ns for frame in frames], dtype=np.int64)
        self.end_s: Floats = self.end_ns / NS_PER_SECOND
        self.frame_ms: Floats = np.array([frame.frame_ns for frame in frames], float) / NS_PER_MS
        self.steps: Floats = np.array([frame.plan.steps for frame in frames], dtype=float)
        self.dropped_ms: Floats = np.array([float(frame.plan.dropped_ns) for frame in frames])
        self.dropped_ms /= NS_PER_MS
        self.owed_ms: Floats = np.array(
            [float(frame.plan.carried_out_ns - frame.plan.remainder_ns) for frame in frames]
        )
        self.owed_ms /= NS_PER_MS
        self.lag_ms: Floats = np.array([float(frame.lag_ns) for frame in frames]) / NS_PER_MS
        ran_ms = np.array([float(frame.plan.steps * frame.plan.dt_ns) for frame in frames])
        self.peak_lag_ms: Floats = self.lag_ms + ran_ms / NS_PER_MS
        """The lag just before the frame's ticks ran: the top of its saw-tooth."""

    @property
    def end(self) -> float:
        """The wall time at the end of the last frame, in s (0 without frames)."""
        return float(self.end_s[-1]) if self.count else 0.0

    def edges(self, width_s: float) -> Floats:
        """The slices' edges from 0 to the last frame's end (the last slice may be shorter)."""
        slices = max(1, math.ceil(self.end / width_s - 1e-9))
        edges: Floats = np.minimum(np.arange(slices + 1) * width_s, self.end)
        return edges

    def per_slice(self, values: Floats, width_s: float) -> Floats:
        """The sum of `values` over the frames that ended in each slice of wall time."""
        width_ns = round(width_s * NS_PER_SECOND)
        slices = len(self.edges(width_s)) - 1
        index = np.maximum(self.end_ns - 1, 0) // width_ns  # a frame ending on an edge is inside
        sums = np.bincount(np.minimum(index, slices - 1), weights=values, minlength=slices)
        return sums.astype(np.float64)

    def lag_band(self, width_s: float) -> LagBand:
        """The saw-tooth lag (see the module) summarised per slice of wall time."""
        edges = self.edges(width_s)
        if not self.count:
            empty = np.zeros(0)
            return LagBand(edges, empty, empty, empty)
        ends, peaks, afters = self.end_s, self.peak_lag_ms, self.lag_ms
        starts = ends - self.frame_ms / 1_000
        rises = np.concatenate(([0.0], afters[:-1]))  # the lag each frame starts from
        durations = np.maximum(ends - starts, 1e-12)
        area = np.concatenate(([0.0], np.cumsum((rises + peaks) / 2 * durations)))

        def at(times: Floats, side: str) -> tuple[Floats, Floats]:
            """The lag at `times` (from the left or the right of a frame end) and its integral
            from 0."""
            frame = np.searchsorted(ends, times, side=side)  # type: ignore[call-overload]
            frame = np.minimum(frame, self.count - 1)
            into = np.clip(times - starts[frame], 0.0, durations[frame])
            slope = (peaks[frame] - rises[frame]) / durations[frame]
            value = rises[frame] + slope * into
            integral = area[frame] + rises[frame] * into + slope * into**2 / 2
            return value, integral

        left_value, integral = at(edges[1:], "left")
        right_value, _ = at(edges[:-1], "right")
        _, start_integral = at(edges[:1], "left")
        integrals = np.concatenate((start_integral, integral))
        widths = np.maximum(np.diff(edges), 1e-12)
        mean = np.diff(integrals) / widths
        width_ns = round(width_s * NS_PER_SECOND)
        slices = len(edges) - 1
        high = np.maximum(left_value, right_value)
        low = np.minimum(left_value, right_value)
        peak_slice = np.minimum(np.maximum(self.end_ns - 1, 0) // width_ns, slices - 1)
        after_slice = np.minimum(self.end_ns // width_ns, slices - 1)
        np.maximum.at(high, peak_slice, peaks)
        np.minimum.at(low, after_slice, afters)
        return LagBand(edges, low, mean, high)
