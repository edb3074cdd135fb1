"""The stats panel's vocabulary, and the rule that makes rows fit.

Each row is a label and one cell per lane (or a single cell for a value of the render loop),
and each cell says how to read it (`Meaning`). The row files say what the panel shows (`stats`,
`input_rows`, `display_rows`, `network_rows`); this module says what a row is and, when the
window is too short for everything, which rows go: one at a time, least important first
(`DETAIL`, then `USEFUL`, ...), and among equals the lowest on the panel first; the
`ESSENTIAL` rows, the ones every lesson is about, go after those, and the rows that must show
(`must_show`: the ones the lesson step watches, and the paused state) last of all.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from game.hud.hud_colours import Meaning
from game.session.readout import Readout

MUST_SHOW = 0
"""Above every priority: the rows `must_show` names."""
ESSENTIAL = 1
IMPORTANT = 2
USEFUL = 3
DETAIL = 4

Position = tuple[int, int]
"""A row's place: (group index, row index within the group)."""


class Cell(NamedTuple):
    """One value as shown: its text, how to read it, and how to draw it.

    `Cell`, `Row` and `Group` are NamedTuples rather than frozen dataclasses because the panel
    builds some eighty of them every frame (the figure: BENCHMARKS.md, "Why the code looks like
    this").
    """

    text: str
    meaning: Meaning = Meaning.PLAIN
    bar: float | None = None
    """Also draw this value as a bar with a 0..1 track; above 1 the bar overflows the track."""
    badge: bool = False
    """Draw the text on a filled badge of its colour, to be seen from across the room."""

    @property
    def overflows(self) -> bool:
        return self.bar is not None and self.bar >= 1.0


class Row(NamedTuple):
    """A label and its values: one cell per lane, or one cell for the whole game."""

    label: str
    cells: tuple[Cell, ...]
    priority: int = ESSENTIAL
    strong: bool = False
    """Set in bold (the policy: the first thing to read in each lane)."""


class Group(NamedTuple):
    """Rows about one thing, under a heading."""

    title: str
    rows: tuple[Row, ...]


def must_show(readout: Readout) -> frozenset[str]:
    """The rows the panel keeps before every other: the ones the lesson step watches (its
    caption talks about them), and the state row while a lane is paused or blew up (a room
    must see why the picture stands still)."""
    stopped = any(lane.paused or lane.non_finite_tick is not None for lane in readout.lanes)
    return frozenset(readout.watch) | ({"state"} if stopped else frozenset())


def rows_to_keep(
    groups: tuple[Group, ...],
    fits: Callable[[tuple[Group, ...]], bool],
    must: frozenset[str] = frozenset(),
) -> frozenset[Position]:
    """The rows to show: all of them if they fit, else without the least important ones.

    Rows are dropped one at a time, highest `priority` number first and, among equals, the
    lowest on the panel first, until `fits` accepts what is left (or nothing is left); the
    rows labelled in `must` count as `MUST_SHOW`, so they go last.
    """

    def priority(p: Position) -> tuple[int, Position]:
        row = groups[p[0]].rows[p[1]]
        return (MUST_SHOW if row.label in must else row.priority, p)

    kept = {(g, r) for g, group in enumerate(groups) for r in range(len(group.rows))}
    order = sorted(kept, key=priority, reverse=True)
    for position in order:
        if fits(select(groups, kept)):
            break
        kept.discard(position)
    return frozenset(kept)


def select(
    groups: tuple[Group, ...], kept: frozenset[Position] | set[Position]
) -> tuple[Group, ...]:
    """Only the rows at `kept` positions; a group left without rows goes, heading and all."""
    chosen = (
        Group(group.title, tuple(row for r, row in enumerate(group.rows) if (g, r) in kept))
        for g, group in enumerate(groups)
    )
    return tuple(group for group in chosen if group.rows)
