"""`GrowthWatch`: whether a run's frames kept growing over its whole second half (a slow spiral).

The game's spiral light (`SpiralDetector`) looks for frames growing 5% per frame; a spiral whose
step cost is barely above the step (16.7 ms per 16.667 ms tick) grows 0.2% per frame and never
lights it, yet its frames go from 17 ms to seconds. This watch looks at the whole run instead.

The run is cut into four quarters of wall time (a frame belongs to the quarter its end falls in).
The frames *kept growing* when

- the mean frame length of the second, third and fourth quarters each exceeds the one before
  by at least `GROWTH` (10%), and
- the last frame is at least `LAST_OVER_FIRST` (4) times the mean frame of the first quarter.

A capped policy under the same load grows for a few frames and levels off: its last three
quarters have the same mean, so it does not qualify; one stall raises one quarter, not three.

Memory is bounded: the frames are summed into at most `BINS` bins of consecutive frames (end,
total length, count); when the bins are full, neighbours are merged in pairs, so a bin may
straddle a quarter's edge by at most 1/`BINS` of the run, far inside the 10% margin.
"""

from __future__ import annotations

from fractions import Fraction

BINS = 1024
GROWTH = Fraction(11, 10)
LAST_OVER_FIRST = 4


class GrowthWatch:
    """Fed every frame's end and length (whole ns); `growing()` at the end of the run."""

    def __init__(self) -> None:
        self._ends: list[int] = []
        self._sums: list[int] = []
        self._counts: list[int] = []
        self._per_bin = 1  # frames a full bin holds
        self.last_ns = 0

    def add(self, end_ns: int, frame_ns: int) -> None:
        self.last_ns = frame_ns
        if self._counts and self._counts[-1] < self._per_bin:
            self._ends[-1] = end_ns
            self._sums[-1] += frame_ns
            self._counts[-1] += 1
            return
        if len(self._counts) == BINS:
            self._halve()
            self.add(end_ns, frame_ns)
            return
        self._ends.append(end_ns)
        self._sums.append(frame_ns)
        self._counts.append(1)

    def _halve(self) -> None:
        self._ends = self._ends[1::2]
        self._sums = [a + b for a, b in zip(self._sums[::2], self._sums[1::2], strict=True)]
        self._counts = [a + b for a, b in zip(self._counts[::2], self._counts[1::2], strict=True)]
        self._per_bin *= 2

    def quarters(self) -> list[tuple[int, int]]:
        """(total frame length, frames) in each quarter of the run's wall time."""
        totals = [(0, 0)] * 4
        if not self._ends:
            return totals
        end = self._ends[-1]
        for bin_end, total, count in zip(self._ends, self._sums, self._counts, strict=True):
            quarter = min(3, max(0, bin_end - 1) * 4 // max(end, 1))
            done, frames = totals[quarter]
            totals[quarter] = (done + total, frames + count)
        return totals

    def growing(self) -> bool:
        """The frames kept growing over the second half of the run (see the module)."""
        means: list[Fraction] = []
        for total, frames in self.quarters():
            if not frames:
                return False
            means.append(Fraction(total, frames))
        rising = all(means[i + 1] >= means[i] * GROWTH for i in range(3))
        return rising and self.last_ns >= LAST_OVER_FIRST * means[0]
