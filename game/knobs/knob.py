"""One row of the knob table (`game.knobs.table`): what a knob is, how far it reaches (`Scope`)
and where it may be set (`Where`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Flag, StrEnum, auto
from fractions import Fraction
from typing import Any


class Scope(StrEnum):
    """How far a knob reaches when it turns."""

    LANE = "per lane"
    """Each lane of the split screen has its own value (the policy, the conditioning)."""
    SESSION = "session"
    """One value for the whole game: every lane, the world, the clock."""
    PICTURE = "picture only"
    """Only what is drawn (or what the next key sends): safe at any moment of a frame."""


class Where(Flag):
    """Where a knob may be set."""

    CONFIG = auto()
    """A config file's `[section]` (and a scenario's, for the sections a scenario has)."""
    SET = auto()
    """`--set section.key=value` on the command line."""
    KEY = auto()
    """A key while playing (its help row says which)."""
    LESSON = auto()
    """A lesson step's `[steps.settings]`."""
    CHANGE = auto()
    """A scenario's `[[changes]]`, at a wall second."""


FILE = Where.CONFIG | Where.SET
"""Every setting of a config file can be given on the command line too."""


@dataclass(frozen=True, slots=True)
class Range:
    """The values a number may take: the bounds are inclusive unless `more_than`."""

    at_most: Fraction | int | None = None
    at_least: Fraction | int | None = None
    more_than: Fraction | int | None = None
    example: str = "16.7"
    """Shown to someone who typed something that is not a number."""
    ratios: bool = False
    """Also read "p/q" ("1/8"); a config file writes the default quoted."""


class Move(StrEnum):
    """What a key does to its knob (`game.knobs.moves` says how each move is made)."""

    UP = "up"
    """The next rung up the ladder, stopping at the top (a whole number knob with no ladder:
    one more, within its range)."""
    DOWN = "down"
    """The next rung down, stopping at the bottom (or one less)."""
    NEXT = "next"
    """The next rung, round to the first after the last: a cycle."""
    PREVIOUS = "previous"
    """The rung before, round to the last before the first."""
    FLIP = "flip"
    """A switch: on if off, off if on."""
    PICK = "pick"
    """Rung number N of the ladder, counted from 1 (the number keys)."""


@dataclass(frozen=True, slots=True)
class KnobKey:
    """A key that turns a knob: named as a script names it (`game.vocabulary.KEY_NAMES`, with
    "shift+" or "ctrl+" before it), the move it makes, and for `PICK` the rung's number."""

    key: str
    move: Move
    number: int = 0


MAX_NAME_BYTES = 255
"""The longest file or folder name the file systems the game runs on accept."""


def folder(path: str) -> str:
    """A folder path the file functions will take: F12 is no time to find out it is not one."""
    if any(ord(character) < 32 or ord(character) == 127 for character in path):
        raise ValueError("must not hold control characters (such as NUL or a line break)")
    if any(len(part.encode("utf-8")) > MAX_NAME_BYTES for part in path.split("/")):
        raise ValueError(f"must not hold a name longer than {MAX_NAME_BYTES} bytes")
    return path


@dataclass(frozen=True, slots=True)
class Knob:
    """One row of the table. Only `path`, `default` and `about` are needed; the rest says what
    the knob takes and where it shows."""

    path: str
    """`section.key`, as a config file and `--set` write it."""
    default: Any
    """Its value when nothing sets it; its type is the knob's type."""
    about: str
    """One line: what it is (the config field's doc)."""
    comment: str = ""
    """Its comment in `configs/default.toml`, a line per line; empty: the one above covers it."""
    unit: str = ""
    range: Range | None = None
    choices: tuple[Any, ...] = ()
    ladder: tuple[Any, ...] = ()
    """The rungs a key moves along (a config may ask for any value in the range)."""
    scope: Scope = Scope.SESSION
    where: Where = FILE
    name: str = ""
    """What lessons and changes call it, where that is not the key (`input_model`)."""
    control: str = ""
    """The `Controls` field it sets, if it is a live control."""
    lanes: Callable[[Any], tuple[Any, ...]] | None = None
    """A per-lane knob: the lanes' values when one value is set (for lane 1)."""
    as_control: Callable[[Any], Any] | None = None
    """The control's value for a setting's (the alpha mode's name to `AlphaMode`)."""
    keys: tuple[KnobKey, ...] = ()
    """The keys that turn it while playing, and how (only `game.app` maps them to pygame)."""
    help: tuple[str, str] | None = None
    """Its row in the key help: (its keys as people write them, what they do)."""
    flag: tuple[str, str] | None = None
    """Its command-line flag on the commands that take a scenario's settings, and the flag's
    help: ("--hz", "tick rate, exact (default 60)")."""
    mark: str = ""
    """How a figure labels a change of it: "M={}"."""
    check: Callable[[Any], Any] | None = None
    """A last check on the value, beyond its range and choices."""
    min_length: int = 0
    """A text knob's shortest value (1: not empty)."""
    takes: Any = None
    """The value's type, where the default's does not say it all (`bool | str`: the network's
    switch also takes "peer"); None: the default's type."""

    @property
    def section(self) -> str:
        return self.path.partition(".")[0]

    @property
    def key(self) -> str:
        return self.path.partition(".")[2]

    @property
    def short(self) -> str:
        """Its name in a lesson step and a scenario change."""
        return self.name or self.key

    @property
    def kind(self) -> Any:
        return type(self.default) if self.takes is None else self.takes

    def control_value(self, value: Any) -> Any:
        """The control's value when the setting is `value` (both lanes' for a per-lane knob)."""
        if self.lanes is not None:
            return self.lanes(value)
        if self.as_control is not None:
            return self.as_control(value)
        return value
