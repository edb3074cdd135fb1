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

A long run is not held frame by frame: `SeriesBuilder` hears each frame as it is made and keeps at
most `MAX_POINTS` points. Until then a point is a frame; past it, neighbouring points are merged in
pairs (and each later point holds as many frames): a merged point sits at its last frame's end
with the longest frame, the sums of ticks, dropped time and frame lengths (`span_ms`), and the
last frame's owed time and lag, its lag peak the highest. A run of up to `MAX_POINTS` frames is
drawn exactly as before; a 1 h run at 1000 fps is drawn from 20,000 points, not 3.6 M frames.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from game.workshop.runs.runner import FrameReport, RunResult
from timestep_lab import NS_PER_MS, NS_PER_SECOND

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


MAX_POINTS = 20_000
"""The most points a `SeriesBuilder` keeps (see the module)."""
_END, _FRAME, _SPAN, _STEPS, _DROPPED, _OWED, _LAG, _PEAK = range(8)


class SeriesBuilder:
    """A frame sink that keeps a run's frames for plotting in at most `MAX_POINTS` points."""

    def __init__(self, max_points: int = MAX_POINTS) -> None:
        self.max_points = max(2, max_points + max_points % 2)  # even: pairs merge whole
        self.points: list[list[float]] = []
        self._per_point = 1
        self._in_last = 0

    def __call__(self, frame: FrameReport) -> None:
        plan = frame.plan
        lag = float(frame.lag_ns)
        point = [
            float(frame.wall_ns),
            float(frame.frame_ns),
            float(frame.frame_ns),
            float(plan.steps),
            float(plan.dropped_ns),
            float(plan.carried_out_ns - plan.remainder_ns),
            lag,
            lag + float(plan.steps * plan.dt_ns),
        ]
        if self.points and self._in_last < self._per_point:
            _merge(self.points[-1], point)
            self._in_last += 1
            return
        if len(self.points) == self.max_points:
            pairs = zip(self.points[::2], self.points[1::2], strict=True)
            self.points = [_merge(first, second) for first, second in pairs]
            self._per_point *= 2
            self(frame)
            return
        self.points.append(point)
        self._in_last = 1

    def series(self) -> FrameSeries:
        return FrameSeries.from_points(self.points)


def _merge(into: list[float], later: list[float]) -> list[float]:
    """`into` and the point after it as one point (in place)."""
    into[_END] = later[_END]
    into[_FRAME] = max(into[_FRAME], later[_FRAME])
    for column in (_SPAN, _STEPS, _DROPPED):
        into[column] += later[column]
    into[_OWED], into[_LAG] = later[_OWED], later[_LAG]
    into[_PEAK] = max(into[_PEAK], later[_PEAK])
    return into


class FrameSeries:
    """One run's frames as float arrays (ms and s), index i being frame i + 1 (or point i, when
    a `SeriesBuilder` merged frames: see the module)."""

    def __init__(self, result: RunResult) -> None:
        builder = SeriesBuilder(max(2, len(result.frames)))
        for frame in result.frames:
            builder(frame)
        self._fill(builder.points)

    @classmethod
    def from_points(cls, points: list[list[float]]) -> FrameSeries:
        series = cls.__new__(cls)
        series._fill(points)
        return series

    def _fill(self, points: list[list[float]]) -> None:
        table = np.array(points, dtype=np.float64).reshape(len(points), 8)
        self.count = len(points)
        self.end_ns: Ints = table[:, _END].astype(np.int64)
        self.end_s: Floats = self.end_ns / NS_PER_SECOND
        self.frame_ms: Floats = table[:, _FRAME] / NS_PER_MS
        """The frame's length (a merged point: its longest frame's)."""
        self.span_ms: Floats = table[:, _SPAN] / NS_PER_MS
        """The wall time the point covers: its frames' lengths added up."""
        self.steps: Floats = table[:, _STEPS].copy()
        self.dropped_ms: Floats = table[:, _DROPPED] / NS_PER_MS
        self.owed_ms: Floats = table[:, _OWED] / NS_PER_MS
        self.lag_ms: Floats = table[:, _LAG] / NS_PER_MS
        self.peak_lag_ms: Floats = table[:, _PEAK] / NS_PER_MS
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
        starts = ends - self.span_ms / 1_000
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
