"""What happens during a headless run, and when.

Two clocks, two kinds of event. Things a *person* does to the loop (turn a knob, stall the
machine, pause) happen at a wall-clock time, and a frame boundary is the first moment the loop
can notice them: they are stamped in wall nanoseconds. Things that change the *simulation* (fire,
reset, switch integrator, a recorded order, a new tick rate) are stamped with the tick they
apply to, so they land on the same tick whatever the frame rate: that is what makes a replay
identical at 30 and at 240 fps.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from game.knobs import Knob, Where, knobs_where
from game.knobs.generated import ChangeValues
from game.network.settings import NetworkSettings
from game.session.controls import ControlsChange
from game.session.rollback import Arrival
from game.world.orders import Order

InputAction = Literal["fire", "reset", "integrator"]


class SettingsChange(ChangeValues):
    """At wall time `at_ns`, turn the knobs given (like keys pressed between frames); the others
    stay. The knobs are those a scenario's `[[changes]]` may turn (`Where.CHANGE` in
    `game.knobs`), by their short names: `SettingsChange(at_ns, max_steps=1, render_fps=30)`.

    A change of tick rate this way lands on whichever tick the frame boundary falls on, as a T
    key press does; record the run to pin it to a tick (see `TickRateChange`). A change of
    `conditioning` is a U key press: the frame planned at that boundary has its measured delta
    conditioned by the new mode, which inherits the conditioning account as it stands.
    """

    __slots__ = ("at_ns", "turned")

    def __init__(self, at_ns: Fraction, **turned: object) -> None:
        unknown = [name for name in turned if name not in CHANGE_KNOBS]
        if unknown:
            raise TypeError(f"not a knob a scenario change may turn: {', '.join(unknown)}")
        self.at_ns = at_ns
        self.turned: dict[str, object] = {
            name: value for name, value in turned.items() if value is not None
        }
        """The knobs this change turns, by short name, in the order given."""

    def controls(self) -> ControlsChange:
        """What it turns of the session's controls (a headless run has one lane: the policy and
        the conditioning are set for both lane slots, as `[scheduler]` sets them)."""
        return ControlsChange(
            **{
                CHANGE_KNOBS[name].control: CHANGE_KNOBS[name].control_value(value)
                for name, value in self.turned.items()
                if CHANGE_KNOBS[name].control
            }
        )

    def _turned_value(self, name: str) -> object:
        """The value it turns a knob to, or None if it leaves it (`change.max_steps`)."""
        return self.turned.get(name)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SettingsChange):
            return NotImplemented
        return self.at_ns == other.at_ns and self.turned == other.turned

    def __hash__(self) -> int:
        return hash((self.at_ns, frozenset(self.turned.items())))

    def __repr__(self) -> str:
        turned = "".join(f", {name}={value!r}" for name, value in self.turned.items())
        return f"SettingsChange({self.at_ns!r}{turned})"


CHANGE_KNOBS: dict[str, Knob] = {knob.short: knob for knob in knobs_where(Where.CHANGE)}


@dataclass(frozen=True, slots=True)
class Stall:
    """At wall time `at_ns`, the machine stops for `length_ns` (a GC pause, a breakpoint).

    The frame that starts at the first boundary at or after `at_ns` lasts that much longer.
    """

    at_ns: Fraction
    length_ns: Fraction


@dataclass(frozen=True, slots=True)
class PlayerInput:
    """Before tick `tick` runs, the player fires (at a target point in metres, or along the
    cannon's aim), resets the scene, or switches the integrator. It goes through the session,
    exactly as a key press does, so it is stamped and recorded the same way."""

    tick: int
    action: InputAction
    x: float | None = None
    y: float | None = None
    integrator: str | None = None


@dataclass(frozen=True, slots=True)
class RecordedOrder:
    """A world order from a recording, submitted as it is when the world reaches its tick."""

    order: Order

    @property
    def tick(self) -> int:
        return self.order.tick


@dataclass(frozen=True, slots=True)
class TickRateChange:
    """From tick `tick` on, the step is 1/hz. The frame stops at that tick to make the switch,
    because a step's length is what the physics integrates over: it belongs to the record."""

    tick: int
    hz: Fraction


@dataclass(frozen=True, slots=True)
class KeyEdge:
    """A key of the avatar going down or up at wall time `at_ns` (ns since the run began). The
    run hands it to the session at the first frame boundary at or after it, as the game's loop
    reads its keys (`game.workshop.files.input_script` writes them)."""

    at_ns: int
    button: str
    down: bool


@dataclass(frozen=True, slots=True)
class RemoteArrival:
    """Remote inputs from a recording of a network session, handed to rollback right before
    the tick they arrived at (`game.session.rollback.Arrival`)."""

    arrival: Arrival

    @property
    def tick(self) -> int:
        return self.arrival.tick


@dataclass(frozen=True, slots=True)
class LinkChange:
    """From a recording of the live game: right before tick `tick`, its simulated peer was
    connected afresh with these settings (None: disconnected)."""

    tick: int
    settings: NetworkSettings | None


TickEvent = PlayerInput | RecordedOrder | TickRateChange | RemoteArrival | LinkChange


@dataclass(frozen=True, slots=True)
class Timeline:
    """Everything scheduled for one run, each list in time order (stable for ties)."""

    changes: tuple[SettingsChange, ...] = ()
    stalls: tuple[Stall, ...] = ()
    tick_events: tuple[TickEvent, ...] = ()
    key_edges: tuple[KeyEdge, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "changes", tuple(sorted(self.changes, key=_at)))
        object.__setattr__(self, "stalls", tuple(sorted(self.stalls, key=_at)))
        for event in self.tick_events:
            if event.tick < 0:
                raise ValueError(f"an event cannot happen before tick 0 (got tick {event.tick})")
        object.__setattr__(self, "tick_events", tuple(sorted(self.tick_events, key=_tick)))
        edges = sorted(self.key_edges, key=lambda edge: (edge.at_ns, not edge.down))
        object.__setattr__(self, "key_edges", tuple(edges))


def _at(event: SettingsChange | Stall) -> Fraction:
    return event.at_ns


def _tick(event: TickEvent) -> int:
    return event.tick
