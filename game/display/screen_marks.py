"""A screen you do not have, refresh by refresh: where a moving ball is shown at each refresh.

A 60 Hz projector cannot show 165 Hz judder: it shows its own refreshes. But the judder is only
where the ball is at each refresh of the faster screen, and that is a row of marks. A ball moving
at a steady speed is at an even mark every refresh (the upper row); the screen shows it where the
frame on screen at that refresh drew it (the lower row). Even gaps are smooth motion; a mark
repeated two or three times, then a long gap, is judder (60 Hz ticks held for 3, 3, 2 refreshes
at 165 Hz). The marks come from the live meter's refresh grid (`LiveJudder.recent`), so on the
lesson clock they move in the same slow motion as everything else.

Pure integers: a mark's pixel is exact, so a test can state the marks of a known cadence.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import NamedTuple


class ScreenMarks(NamedTuple):
    """Pixels along a line of `width` px, one mark per refresh, oldest first."""

    even_px: tuple[int, ...]
    """Where a ball in even motion is at each refresh."""
    shown_px: tuple[int, ...]
    """Where the screen shows it: the frame on screen at that refresh, as it was drawn."""
    stacked: tuple[int, ...]
    """For each shown mark, how many refreshes before it in a row showed the same pixel (0:
    a new position): a held frame is drawn as a stack."""


NO_MARKS = ScreenMarks((), (), ())


def screen_marks(
    refresh_ns: Sequence[int], drawn_ns: Sequence[int], time_scale: Fraction, width: int
) -> ScreenMarks:
    """The marks of the refreshes at `refresh_ns` (wall time, oldest first), each showing a
    frame drawn at simulated time `drawn_ns`, on a line `width` px long.

    The first refresh is at pixel 0 and the last at `width - 1`; a shown mark is where its drawn
    time falls on that scale, once the simulated time is turned back into wall time
    (/ `time_scale`) and the rows are centred on each other (the frames' latency is not judder).
    """
    count = len(refresh_ns)
    if count < 2 or len(drawn_ns) != count or width < 2:
        return NO_MARKS
    first, span = refresh_ns[0], refresh_ns[-1] - refresh_ns[0]
    if span <= 0:
        return NO_MARKS
    latency = Fraction(sum(drawn_ns), count) / time_scale - Fraction(sum(refresh_ns), count)
    scale = Fraction(width - 1, span)

    def pixel(wall: Fraction | int) -> int:
        return int((wall - first) * scale // 1)

    even = tuple(pixel(at) for at in refresh_ns)
    shown = tuple(pixel(drawn / time_scale - latency) for drawn in drawn_ns)
    return ScreenMarks(even, shown, _stacks(shown))


def _stacks(shown: tuple[int, ...]) -> tuple[int, ...]:
    """How many marks in a row before each one sit at the same pixel."""
    stacks: list[int] = []
    for index, px in enumerate(shown):
        stacks.append(stacks[-1] + 1 if index and shown[index - 1] == px else 0)
    return tuple(stacks)
