"""`GrowthWatch`: whether a run's frames kept growing over its whole second half, and the ticks
they owed with them (a slow spiral).

The spiral rule (`game.session.spiral.SpiralRule`) looks frame to frame, for frames 5% longer
than the last that owe more ticks than the last; a spiral whose step cost is barely above the
step (16.7 ms per 16.667 ms tick) grows 0.2% per frame and never climbs that fast, yet its frames
go from 17 ms to seconds. This watch applies the same rule's ground to the whole run instead:
frames growing *with* the ticks they owe.

The run is cut into four quarters of wall time (a frame belongs to the quarter its end falls in).
The frames *kept growing* when

- the mean frame length of the second, third and fourth quarters each exceeds the one before
  by at least `GROWTH` (10%),
- the mean ticks owed per frame (run and carried, `FrameLoad.owed`) of those quarters each
  exceeds the one before too (frames that grow over flat ticks are a slow machine, not a
  spiral), and
- the last frame is at least `LAST_OVER_FIRST` (4) times the mean frame of the first quarter.

A capped policy under the same load grows for a few frames and levels off: its last three
quarters have the same mean, so it does not qualify; one stall raises one quarter, not three.

Memory is bounded: the frames are summed into at most `BINS` bins of consecutive frames (end,
total length, ticks owed, count); when the bins are full, neighbours are merged in pairs, so a
bin may straddle a quarter's edge by at most 1/`BINS` of the run, far inside the 10% margin.
"""

from __future__ import annotations

from fractions import Fraction

BINS = 1024
GROWTH = Fraction(11, 10)
LAST_OVER_FIRST = 4


class GrowthWatch:
    """Fed every frame's end, length (whole ns) and ticks owed; `growing()` at the end of the
    run."""

    def __init__(self) -> None:
        self._ends: list[int] = []
        self._sums: list[int] = []
        self._owed: list[int] = []
        self._counts: list[int] = []
        self._per_bin = 1  # frames a full bin holds
        self.last_ns = 0

    def add(self, end_ns: int, frame_ns: int, owed: int) -> None:
        self.last_ns = frame_ns
        if self._counts and self._counts[-1] < self._per_bin:
            self._ends[-1] = end_ns
            self._sums[-1] += frame_ns
            self._owed[-1] += owed
            self._counts[-1] += 1
            return
        if len(self._counts) == BINS:
            self._halve()
            self.add(end_ns, frame_ns, owed)
            return
        self._ends.append(end_ns)
        self._sums.append(frame_ns)
        self._owed.append(owed)
        self._counts.append(1)

    def _halve(self) -> None:
        self._ends = self._ends[1::2]
        self._sums = [a + b for a, b in zip(self._sums[::2], self._sums[1::2], strict=True)]
        self._owed = [a + b for a, b in zip(self._owed[::2], self._owed[1::2], strict=True)]
        self._counts = [a + b for a, b in zip(self._counts[::2], self._counts[1::2], strict=True)]
        self._per_bin *= 2

    def quarters(self) -> list[tuple[int, int]]:
        """(total frame length, frames) in each quarter of the run's wall time."""
        return [(total, frames) for total, _, frames in self._quarters()]

    def _quarters(self) -> list[tuple[int, int, int]]:
        """(total frame length, total ticks owed, frames) in each quarter of the wall time."""
        totals = [(0, 0, 0)] * 4
        if not self._ends:
            return totals
        end = self._ends[-1]
        bins = zip(self._ends, self._sums, self._owed, self._counts, strict=True)
        for bin_end, total, owed, count in bins:
            quarter = min(3, max(0, bin_end - 1) * 4 // max(end, 1))
            done, owed_before, frames = totals[quarter]
            totals[quarter] = (done + total, owed_before + owed, frames + count)
        return totals

    def growing(self) -> bool:
        """The frames, and the ticks they owed, kept growing over the second half of the run
        (see the module)."""
        means: list[Fraction] = []
        owed: list[Fraction] = []
        for total, owed_total, frames in self._quarters():
            if not frames:
                return False
            means.append(Fraction(total, frames))
            owed.append(Fraction(owed_total, frames))
        rising = all(means[i + 1] >= means[i] * GROWTH for i in range(3))
        owing_more = all(owed[i + 1] > owed[i] for i in range(3))
        return rising and owing_more and self.last_ns >= LAST_OVER_FIRST * means[0]
