"""Finding rows of the knob table: by where they may be set, by path, by section, by the
`Controls` field they set (`game.knobs.table`). Each query takes the table as an argument too
(the game's by default), so that what is built from it can be built from another (a test's
table with a made-up knob)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from game.knobs.knob import Knob, Scope, Where
from game.knobs.table import KNOBS


def knobs_where(where: Where, knobs: Iterable[Knob] = KNOBS) -> Iterator[Knob]:
    """The knobs that may be set `where`, in the table's order."""
    return (knob for knob in knobs if where in knob.where)


def knob_at(path: str) -> Knob:
    """The row of `section.key`."""
    return next(knob for knob in KNOBS if knob.path == path)


def knobs_of(section: str, knobs: Iterable[Knob] = KNOBS) -> tuple[Knob, ...]:
    """The knobs of one `[section]`, in the table's order."""
    return tuple(knob for knob in knobs if knob.section == section)


def config_sections(knobs: Iterable[Knob] = KNOBS) -> tuple[str, ...]:
    """The sections of a config file, in order."""
    return tuple(dict.fromkeys(knob.section for knob in knobs_where(Where.CONFIG, knobs)))


CONTROL_KNOBS: dict[str, Knob] = {knob.control: knob for knob in KNOBS if knob.control}
"""The live controls, each with its knob, by `Controls` field name."""
PICTURE_ONLY: frozenset[str] = frozenset(
    name for name, knob in CONTROL_KNOBS.items() if knob.scope is Scope.PICTURE
)
"""Controls that change only what is drawn, or what the next key or drag will send: they never
touch a scheduler or a world, so they take effect at once, even in the middle of a frame."""
BY_SHORT_NAME: dict[str, Knob] = {knob.short: knob for knob in KNOBS}
"""Each knob by the name a lesson step or a scenario change gives it."""
