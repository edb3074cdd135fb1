"""Hitches: the frames of a capture that a person would call a stutter, by one stated rule.

A frame is a hitch when it lasts at least twice the capture's median frame (the lower median,
in whole ns): on a steady game that is a frame the eye sees as one held image too many, and
the rule needs no setting of its own. The figures mark them and the per-frame CSV flags them,
so a hitch can be found again in the user's own tool by its row.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from game.clock.units import format_ms

HITCH_TIMES_MEDIAN = 2


def median_frame_ns(elapsed_ns: NDArray[np.int64]) -> int:
    """The lower median of the frame times, a whole number of ns (0 without frames)."""
    if not len(elapsed_ns):
        return 0
    middle = (len(elapsed_ns) - 1) // 2
    return int(np.partition(elapsed_ns, middle)[middle])


def hitches(elapsed_ns: NDArray[np.int64]) -> NDArray[np.bool_]:
    """Which frames are hitches (see the module)."""
    return np.asarray(elapsed_ns >= HITCH_TIMES_MEDIAN * median_frame_ns(elapsed_ns))


def hitch_rule(elapsed_ns: NDArray[np.int64]) -> str:
    """The rule in words, with this capture's threshold and count."""
    median = median_frame_ns(elapsed_ns)
    count = int(hitches(elapsed_ns).sum()) if len(elapsed_ns) else 0
    return (
        f"a frame at least {HITCH_TIMES_MEDIAN}x the median frame ({format_ms(median)} ms): "
        f"{format_ms(HITCH_TIMES_MEDIAN * median)} ms or longer; {count:,} here"
    )
