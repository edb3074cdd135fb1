"""`fit_refresh_grid`: a display's vblank grid (period and phase), read off when frames were shown.

A capture that says when each frame reached the screen (PresentMon's display-change times) holds
the display's refresh grid: on a fixed-refresh screen every display time is a vblank,
`offset + n x period` for a whole n, give or take the capture's own timing noise. The fit:

1. A first period. Each interval between two display changes is a whole number of refreshes, and
   the shortest of them are one: the first estimate is the median of the intervals shorter than
   1.5x the tenth percentile of them all (or 1/refresh, when the caller knows the display's rate).
2. Whole refresh indices. Each display time's index is the previous one's plus its interval in
   refreshes, rounded to a whole count (at least 1): counted interval by interval, so that an
   estimate a little off does not drift over a long capture.
3. Least squares. Display time against index is a straight line: its slope is the period, its
   intercept the offset, each an exact Fraction of integer sums. The indices are counted again
   with the new period until they stop changing (at most `MAX_ROUNDS` rounds).

The fit is kept to the picosecond: the exact least-squares fraction's denominator grows with the
number of frames, and a picosecond a refresh is a microsecond over a million refreshes, far below
what a capture's clock resolves (PresentMon's is 100 ns). The residuals (how far each display
time is off its vblank) say whether the times sit on a grid at all: a torn (`immediate`) display
shows frames whenever they come, and its "grid" is only the game's own cadence (`on_a_grid`).

What the fit cannot tell: a display that never showed frames on two neighbouring refreshes (a
game at 25 fps on 60 Hz shows them 2 and 3 refreshes apart) looks like one at a fraction of its
rate; pass `refresh_hz` then.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from operator import mul

import numpy as np
import numpy.typing as npt

from timestep_lab import NS_PER_SECOND

Ints = npt.NDArray[np.int64]

PICOSECONDS = 1_000
"""The fit's resolution: 1/1000 ns."""
MAX_ROUNDS = 8
CHUNK = 1 << 12
"""Pairs summed at a time, for the exact sums (`_exact_sums`)."""
ON_A_GRID = Fraction(1, 10)
"""The largest median residual, as a share of the period, of display times that sit on a grid:
times placed at random about a grid are a quarter of a period off it, by the median. (The
median, not the mean: a few display times far off their refresh do not move it.)"""


@dataclass(frozen=True, slots=True)
class RefreshGrid:
    """The fitted vblanks: `offset_ns + n x period_ns` for every whole n, on the capture's clock."""

    period_ns: Fraction
    offset_ns: Fraction
    """One vblank of the grid (the fitted line's value at index 0: the first display time's)."""
    frames: int
    """Display times fitted (distinct ones: one display change each)."""
    refreshes: int
    """Refreshes from the first display change to the last."""
    median_residual_ns: int
    """The median of how far a display time is off its vblank, in whole ns (rounded down)."""
    worst_residual_ns: int
    """The largest display time less its vblank, either way, in whole ns (rounded up)."""

    @classmethod
    def nominal(cls, refresh_hz: Fraction) -> RefreshGrid:
        """A grid not fitted but stated: `refresh_hz` (kept to the picosecond), a vblank at 0.
        For display times that sit on no grid, whose display's refreshes the capture hides."""
        return cls(_picoseconds(NS_PER_SECOND / Fraction(refresh_hz)), Fraction(0), 0, 0, 0, 0)

    @property
    def fitted(self) -> bool:
        """False for a `nominal` grid."""
        return self.frames > 0

    @property
    def refresh_hz(self) -> Fraction:
        return NS_PER_SECOND / self.period_ns

    @property
    def on_a_grid(self) -> bool:
        """Whether the display times sit on the grid (their median residual at most `ON_A_GRID`
        of a period), as a fixed-refresh display's do and a torn one's do not."""
        return self.median_residual_ns <= self.period_ns * ON_A_GRID

    @property
    def phase(self) -> Fraction:
        """Where in a refresh the capture's time 0 falls (0 up to 1): `DisplaySettings.phase`
        for a display whose grid this is."""
        after_a_vblank = -self.offset_ns % self.period_ns
        return after_a_vblank / self.period_ns

    def nearest_vblanks_ps(self, at_ns: Ints) -> Ints:
        """The vblank nearest to each of whole-ns times, in whole picoseconds (exact: the
        grid is kept to the picosecond; the later of two as near)."""
        offset, period = self.offset_ps, self.period_ps
        vblanks: Ints = at_ns * PICOSECONDS  # in place from here: a million times are 8 MB
        vblanks -= offset - period // 2
        vblanks //= period
        vblanks *= period
        vblanks += offset
        return vblanks

    def vblanks_ns(self, start_ns: int, end_ns: int) -> Ints:
        """The vblanks from `start_ns` to `end_ns` (both included), each to the nearest whole ns
        (halves up), in exact integer arithmetic."""
        offset, period = self.offset_ps, self.period_ps
        first = -((offset - start_ns * PICOSECONDS) // period)  # rounded up
        last = (end_ns * PICOSECONDS - offset) // period
        vblanks: Ints = np.arange(first, max(first, last + 1), dtype=np.int64)
        vblanks *= period  # in place from here: a long capture has a million refreshes
        vblanks += offset
        vblanks *= 2
        vblanks += PICOSECONDS
        vblanks //= 2 * PICOSECONDS
        return vblanks

    @property
    def offset_ps(self) -> int:
        return int(self.offset_ns * PICOSECONDS)

    @property
    def period_ps(self) -> int:
        return int(self.period_ns * PICOSECONDS)


def fit_refresh_grid(display_ns: Ints, *, refresh_hz: Fraction | None = None) -> RefreshGrid:
    """The refresh grid through display times (whole ns, in time order; repeated times count
    once), by the method of the module's docstring, in integer picoseconds. At least two distinct
    times are needed."""
    times = np.asarray(display_ns, dtype=np.int64)
    intervals = np.diff(times)
    if (intervals < 0).any():
        raise ValueError("display times must come in time order")
    if not intervals.all():  # a repeated time counts once
        times = times[np.append(True, intervals != 0)]
        intervals = np.diff(times)
    if times.shape[0] < 2:
        raise ValueError("a refresh grid needs at least two frames shown at different times")
    intervals *= PICOSECONDS
    period = (
        int(_picoseconds(NS_PER_SECOND / Fraction(refresh_hz)) * PICOSECONDS)
        if refresh_hz is not None
        else _first_period(intervals)
    )
    indices = _indices(intervals, period)
    for _ in range(MAX_ROUNDS):
        period, offset = _least_squares(indices, times)
        recounted = _indices(intervals, period)
        if np.array_equal(recounted, indices):
            break
        indices = recounted
    residuals = times * PICOSECONDS  # in place from here: a million frames' fit is a few arrays
    residuals -= offset
    residuals -= indices * period
    np.abs(residuals, out=residuals)
    residuals.sort()
    median = int(residuals[(residuals.shape[0] - 1) // 2])  # the lower of two middle ones
    worst = int(residuals[-1])
    return RefreshGrid(
        period_ns=Fraction(period, PICOSECONDS),
        offset_ns=Fraction(offset, PICOSECONDS),
        frames=int(times.shape[0]),
        refreshes=int(indices[-1]),
        median_residual_ns=median // PICOSECONDS,
        worst_residual_ns=-(-worst // PICOSECONDS),
    )


def _first_period(intervals_ps: Ints) -> int:
    """The median of the shortest intervals (those below 1.5x the tenth percentile), in ps."""
    ordered = np.sort(intervals_ps)
    short = ordered[ordered.shape[0] // 10]
    count = int(np.searchsorted(ordered, (3 * int(short) - 1) // 2, side="right"))  # 2 x < 3 s
    return int(ordered[(count - 1) // 2])  # the median of the first `count`, in order


def _indices(intervals_ps: Ints, period_ps: int) -> Ints:
    """Each display time's whole refresh index, counted interval by interval from 0: each
    interval's refreshes rounded to the nearest whole count (halves down), at least 1."""
    indices: Ints = np.zeros(intervals_ps.shape[0] + 1, dtype=np.int64)
    counts = indices[1:]  # -((-2 x + p) // 2p), at least 1, summed: in place
    np.multiply(intervals_ps, -2, out=counts)
    counts += period_ps
    counts //= 2 * period_ps
    np.negative(counts, out=counts)
    np.maximum(counts, 1, out=counts)
    np.cumsum(counts, out=counts)
    return indices


def _least_squares(indices: Ints, times: Ints) -> tuple[int, int]:
    """(slope, intercept) of time against index, in ps: the exact least-squares fractions (from
    exact integer sums, `_exact_sums`), each to the nearest picosecond."""
    count = int(indices.shape[0])
    sum_n, sum_t, sum_nn, sum_nt = _exact_sums(indices, times)
    slope = Fraction(count * sum_nt - sum_n * sum_t, count * sum_nn - sum_n * sum_n)
    intercept = (sum_t - slope * sum_n) / count
    return round(slope * PICOSECONDS), round(intercept * PICOSECONDS)


def _exact_sums(indices: Ints, times: Ints) -> tuple[int, int, int, int]:
    """The sums of n, t, n^2 and n t over (index, time) pairs, both in increasing order, exactly.

    A chunk at a time, each taken about its first pair (n = n0 + a, t = t0 + b): a and b are
    small within a chunk, so the sums of a, b, a^2 and a b cannot overflow int64 and numpy takes
    them at once, and the chunk's sums are put back together in Python's unbounded integers. A
    chunk whose spans are too wide for that (a long pause between two frames shown) is summed
    in Python integers, one value at a time."""
    sums = [0, 0, 0, 0]
    for start in range(0, int(indices.shape[0]), CHUNK):
        n, t = indices[start : start + CHUNK], times[start : start + CHUNK]
        n0, t0, k = int(n[0]), int(t[0]), int(n.shape[0])
        a_span, b_span = int(n[-1]) - n0, int(t[-1]) - t0
        if k * max(a_span, 1) * max(a_span, b_span, 1) >= 2**63:
            n_list, t_list = n.tolist(), t.tolist()
            sums[0] += sum(n_list)
            sums[1] += sum(t_list)
            sums[2] += sum(map(mul, n_list, n_list))
            sums[3] += sum(map(mul, n_list, t_list))
            continue
        a, b = n - n0, t - t0
        a_sum, b_sum, aa, ab = int(a.sum()), int(b.sum()), int(a @ a), int(a @ b)
        sums[0] += k * n0 + a_sum
        sums[1] += k * t0 + b_sum
        sums[2] += k * n0 * n0 + 2 * n0 * a_sum + aa
        sums[3] += k * n0 * t0 + n0 * b_sum + t0 * a_sum + ab
    return sums[0], sums[1], sums[2], sums[3]


def _picoseconds(ns: Fraction) -> Fraction:
    return Fraction(round(ns * PICOSECONDS), PICOSECONDS)
