"""The INPUT rows of the stats panel: the input lab's counters, lane by lane.

Shown only while the input lab runs (an input model is chosen: Y, a lesson step, a script).
Every press is seen once, doubled, merged, lost, or still waiting for a tick; a lost or
doubled press is the bug the input lab is about, and shows red.
"""

from __future__ import annotations

from collections.abc import Callable

from game.hud.hud_colours import Meaning
from game.hud.rows import ESSENTIAL, IMPORTANT, USEFUL, Cell, Row
from game.session.input_readout import Fate, InputReadout
from game.session.readout import LaneReadout


def input_rows(lanes: tuple[LaneReadout, ...]) -> tuple[Row, ...]:
    """The input lab's counters (none without one): every press is seen once, doubled, merged,
    lost, or still waiting for a tick."""
    inputs = [lane.inputs for lane in lanes]
    if not all(inputs):
        return ()
    labs = tuple(lab for lab in inputs if lab is not None)

    def row(label: str, cell: Callable[[InputReadout], Cell], priority: int) -> Row:
        return Row(label, tuple(cell(lab) for lab in labs), priority)

    return (
        Row("input model", tuple(Cell(lab.model) for lab in labs), IMPORTANT, strong=True),
        row("presses · seen", _presses, IMPORTANT),
        row("lost / doubled", _lost_and_doubled, ESSENTIAL),
        row("merged", lambda lab: _counter(lab.counts.merged, Meaning.STRAINED), USEFUL),
        row("last press", _last_press, IMPORTANT),
        row("wait+interp+flip", _latency_parts, USEFUL),
    )


def _presses(lab: InputReadout) -> Cell:
    return Cell(f"{lab.counts.presses:,} · {lab.counts.seen:,}")


def _lost_and_doubled(lab: InputReadout) -> Cell:
    """Any press lost or doubled is the bug the input lab is about: red."""
    lost, doubled = lab.counts.lost, lab.counts.doubled
    return Cell(f"{lost:,} / {doubled:,}", Meaning.BAD if lost or doubled else Meaning.OK)


def _counter(count: int, meaning: Meaning) -> Cell:
    return Cell(f"{count:,}", meaning if count else Meaning.PLAIN)


def _last_press(lab: InputReadout) -> Cell:
    """The latest press that was shown (its latency, press to flip) or lost."""
    if lab.last_fate is Fate.LOST:
        return Cell("LOST", Meaning.BAD, badge=True)
    if lab.last_latency is None:
        return Cell("-")
    text = f"{lab.last_latency.total_ns / 1e6:.1f} ms"
    return Cell(text + (" x2" if lab.last_fate is Fate.DOUBLED else ""))


def _latency_parts(lab: InputReadout) -> Cell:
    latency = lab.last_latency
    if latency is None or lab.last_fate is Fate.LOST:
        return Cell("-")
    parts = (latency.wait_ns, latency.interpolation_ns, latency.present_ns)
    return Cell("+".join(f"{part / 1e6:.1f}" for part in parts))
