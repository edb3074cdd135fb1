"""Frame-edge presses on a capture: the share of uniformly placed presses lost and doubled.

The input lab's formula (`game.workshop.tables.frame_edge.frame_edge_shares`), on arrays: under
`frame-edge`, a press made during a frame is read when the next frame starts and every tick of
that frame acts on it. A frame's elapsed time is the frame during which the press was made, and
its ticks are those of the frame that reads it (the scheduler plans a frame from the time since
the last one began), so for presses placed uniformly in time:

    lost share    = time of the frames whose plan runs no tick     / all the time
    doubled share = time of the frames whose plan runs 2 or more / all the time

Exact: sums of whole ns, as `Fraction`s.
"""

from __future__ import annotations

from fractions import Fraction
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from game.workshop.captures.frame_times import exact_sum


class PressShares(NamedTuple):
    lost: Fraction
    doubled: Fraction


def press_shares(elapsed_ns: NDArray[np.int64], steps: NDArray[np.int64]) -> PressShares:
    """(lost, doubled) under frame-edge input, by the input lab's formula (see the module)."""
    total = exact_sum(elapsed_ns)
    if not total:
        return PressShares(Fraction(0), Fraction(0))
    lost = exact_sum(elapsed_ns[steps == 0])
    doubled = exact_sum(elapsed_ns[steps >= 2])
    return PressShares(Fraction(lost, total), Fraction(doubled, total))
