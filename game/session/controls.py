"""`Controls`: every knob a player can turn live, as one frozen value, and the ladders they move on.

A key press never pokes the scheduler or the world directly. It turns the controls into new
controls (`controls.after(action)`), and the difference between the two is a `ControlsChange`:
the one value that every source of change produces (keys, lesson steps, scripts, scenarios,
`--set`), applied by one function, `LabSession.change`. That keeps each key's meaning in one
readable place, and makes the same change scriptable from a scenario, a lesson or a test.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from enum import StrEnum

from game.knobs import CONTROL_KNOBS, PICTURE_ONLY, Knob, Move, Scope, partner_input_model
from game.knobs.generated import ControlChangeValues, ControlFields
from game.knobs.moves import moved
from timestep_lab import NS_PER_MS


class Act(StrEnum):
    """What a key (or a script line, or a lesson) asks for: turn a knob, or do something."""

    TURN = "turn"
    """Turn a knob: `Action.knob` by `Action.move` (every knob key, read off the table)."""
    TOGGLE_SPLIT = "toggle_split"
    SINGLE_STEP = "single_step"
    RESET = "reset"
    TOGGLE_CANNON = "toggle_cannon"
    FIRE = "fire"
    STALL = "stall"
    LESSON_MENU = "lesson_menu"
    NEXT_LESSON_STEP = "next_lesson_step"
    REWATCH = "rewatch"
    SCREENSHOT = "screenshot"
    FULLSCREEN = "fullscreen"
    ESCAPE = "escape"
    QUIT = "quit"


@dataclass(frozen=True, slots=True)
class Action:
    """One request. `number` carries the stall length in ms (STALL) or a ladder's rung (a
    number key's PICK); `x`, `y` carry a fire target in metres (FIRE); `knob` and `move` say
    which knob a TURN turns, and how (`game.knobs.moves`)."""

    act: Act
    number: int = 0
    x: float | None = None
    y: float | None = None
    knob: str = ""
    move: Move | None = None

    @classmethod
    def turn(cls, knob: str, move: Move, number: int = 0) -> Action:
        """A key's turn of `knob` (its path, `scheduler.hz`)."""
        return cls(Act.TURN, number, knob=knob, move=move)


def partner_policy(first: str) -> str:
    """The policy the split screen puts beside `first`: the one that spirals, for contrast."""
    return "uncapped" if first != "uncapped" else "drop"


@dataclass(frozen=True, slots=True)
class Controls(ControlFields):
    """The live settings. `policies` has one entry per lane (two in split screen).

    Each field is a live knob of `game.knobs` (its `control`), at the knob's default: the fields
    are written out from the table (`game.knobs.generated`), because the loop reads them every
    frame, a plain slotted dataclass is the fastest record to read, and a type checker must see
    them. Here is what the controls do.
    """

    @property
    def step_cost_ns(self) -> int:
        return int(self.step_cost_ms * NS_PER_MS)

    @property
    def lesson_jitter_ns(self) -> int:
        return int(self.lesson_jitter_ms * NS_PER_MS)

    @property
    def split(self) -> bool:
        return len(self.policies) == 2

    def after(self, action: Action) -> Controls:
        """The controls once `action` is applied: a knob turned by its key (the move its row
        names), or the split screen opened or closed. Actions that are not about controls
        (fire, stall, screenshot, quit...) leave them as they are."""
        if action.act is Act.TURN and action.move is not None:
            return self._turned(KNOB_AT[action.knob], action.move, action.number)
        if action.act is Act.TOGGLE_SPLIT:
            return self._split_toggled()
        return self

    def _turned(self, knob: Knob, move: Move, number: int) -> Controls:
        """A knob's key pressed: a per-lane knob turns in the focused lane only."""
        value = getattr(self, knob.control)
        if knob.scope is Scope.LANE:
            lanes = list(value)
            lanes[self.focus_lane] = moved(knob, lanes[self.focus_lane], move, number)
            value = tuple(lanes)
        else:
            value = moved(knob, value, move, number)
            value = value if knob.as_control is None else knob.as_control(value)
        turned = replace(self, **{knob.control: value})
        if turned.focus_lane >= len(turned.policies):  # one lane: the focus stays on it
            turned = replace(turned, focus_lane=0)
        return turned

    def _split_toggled(self) -> Controls:
        """V: a second lane beside the first, with a policy and an input model that contrast
        with lane 1's, or back to one lane."""
        if self.split:
            return replace(self, policies=self.policies[:1], focus_lane=0)
        first = self.input_models[0]
        return replace(
            self,
            policies=(self.policies[0], partner_policy(self.policies[0])),
            input_models=(first, partner_input_model(first)),
        )

    @classmethod
    def of(cls, values: Mapping[str, object]) -> Controls:
        """The default controls with `values` (by field name) turned."""
        return replace(cls(), **values)  # type: ignore[arg-type]


DRAWING_ONLY: frozenset[str] = PICTURE_ONLY
"""Controls that change only what is drawn, or what the next key or drag will send (the knobs
whose scope is `Scope.PICTURE`): they never touch a scheduler or a world, so they take effect
at once, even in the middle of a frame."""


class ControlsChange(ControlChangeValues):
    """Some of the controls, turned to new values; a control not given (or given as None) stays
    as it is: `ControlsChange(hz=Fraction(30), paused=True)`. The names are `Controls`' fields,
    the live knobs of `game.knobs`.

    Every source of change produces one: a key (`ControlsChange.between(old, old.after(key))`),
    a lesson step, a script, a scenario's timed change. `LabSession.change` applies it.
    """

    __slots__ = ("_turned",)

    def __init__(self, **turned: object) -> None:
        unknown = [name for name in turned if name not in CONTROL_KNOBS]
        if unknown:
            raise TypeError(f"not a control: {', '.join(unknown)}")
        self._turned = {name: value for name, value in turned.items() if value is not None}

    @classmethod
    def between(cls, old: Controls, new: Controls) -> ControlsChange:
        """The change that turns `old` into `new` (only the controls that differ)."""
        return cls(
            **{
                item.name: getattr(new, item.name)
                for item in fields(Controls)
                if getattr(new, item.name) != getattr(old, item.name)
            }
        )

    def _turned_value(self, name: str) -> object:
        """A control's new value, or None if this change leaves it as it is (`change.hz`)."""
        return self._turned.get(name)

    def turned(self) -> dict[str, object]:
        """The controls this change sets, by name."""
        return dict(self._turned)

    def applied_to(self, controls: Controls) -> Controls:
        """`controls` with this change made. A split screen's focus follows its lanes: leaving
        the split sends the policy keys back to lane 1."""
        changed = replace(controls, **self._turned)  # type: ignore[arg-type]
        if changed.focus_lane >= len(changed.policies):
            changed = replace(changed, focus_lane=0)
        return changed

    @property
    def empty(self) -> bool:
        return not self._turned

    @property
    def drawing_only(self) -> bool:
        """True if it changes nothing but the picture: safe at any moment of a frame."""
        return self._turned.keys() <= DRAWING_ONLY

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ControlsChange):
            return NotImplemented
        return self._turned == other._turned

    def __hash__(self) -> int:
        return hash(frozenset(self._turned.items()))

    def __repr__(self) -> str:
        turned = ", ".join(f"{name}={value!r}" for name, value in self._turned.items())
        return f"ControlsChange({turned})"


KNOB_AT: dict[str, Knob] = {knob.path: knob for knob in CONTROL_KNOBS.values()}
"""The live knobs by path: what a TURN names."""
