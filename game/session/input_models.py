"""Input sampling models: what a fixed tick sees of the player's presses.

A frame runs zero, one or several ticks, and the player's key presses arrive between them. How a
game hands those presses to its ticks decides whether a tap is lost, acted on once, or acted on
twice. Each model below is that decision, in a few lines, and its docstring's first line is its
definition (docs/input.md's table repeats it):

    frame-edge   the engines' default: "just pressed" flags, read once per frame, seen by every
                 tick of the frame, cleared when it ends. Lost when the frame runs no tick,
                 doubled when it runs two (docs: leafwing-input-manager #522, bevy #7691).
    tick-poll    each tick asks whether the key is down now: a tap between two ticks is lost.
    latched      a press stays set until a tick takes it: nothing lost; two in one tick merge.
    counted      each tick takes every press since the last tick: nothing lost or merged.
    stamped      each press is stamped with the tick its instant falls in: the game's commands.

A model only moves press numbers around; `game.session.input_lab` counts what happened to
them and turns each tick's deliveries into the avatar's command. Every model sees the same
calls in the same order: `press`/`release` as edges arrive (between frames, or between ticks
of a long catch-up), `frame_begins` once the frame is planned, `tick` before each tick runs,
`frame_ends` once it is settled.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from game.vocabulary import INPUT_MODEL_NAMES


@dataclass(frozen=True, slots=True)
class Delivery:
    """One press as a tick acts on it. `presses` are the press numbers it stands for: the first
    is the one acted on, any others were merged into it. `tick_offset_ns` is how far into the
    tick's simulated span the press fell (the `stamped` model keeps it; the others cannot)."""

    button: str
    presses: tuple[int, ...]
    tick_offset_ns: Fraction | None = None


@dataclass(frozen=True, slots=True)
class FrameWindow:
    """Where a frame's ticks fall in time, as planned: what `stamped` needs to place a press.

    After the frame's ticks, the simulation is `carried_ns` (simulated) behind the wall instant
    `now_ns` at which the frame began; the tick `end_tick` starts there, and each tick before it
    one step earlier. Wall time becomes simulated time through the time scale.
    """

    now_ns: int
    next_tick: int
    end_tick: int
    carried_ns: Fraction
    step_ns: Fraction
    time_scale: Fraction

    def tick_of(self, at_ns: int) -> tuple[int, Fraction]:
        """The tick whose simulated span holds the wall instant `at_ns`, and how far into that
        span it fell. A tick that has already run (its time was dropped) gives the next one."""
        past_boundary = self.carried_ns - (self.now_ns - at_ns) * self.time_scale
        whole = math.floor(past_boundary / self.step_ns)
        tick = self.end_tick + whole
        if tick < self.next_tick:
            return self.next_tick, Fraction(0)
        return tick, past_boundary - whole * self.step_ns


class InputModel:
    """The calls every model answers; the base class sees nothing and loses nothing."""

    name = ""
    wants_window = False
    """Only a model that places presses in time needs `frame_begins` to say where the ticks
    fall (it costs exact arithmetic every frame)."""

    def press(self, button: str, press: int, at_ns: int) -> None:
        """A press of a tap button arrived (read by the loop now; it happened at `at_ns`)."""

    def release(self, button: str) -> tuple[int, ...]:
        """The button came up. Returns the presses this loses for good."""
        return ()

    def frame_begins(self, window: FrameWindow | None) -> None:
        """The frame is planned; its ticks come next (`window` only if `wants_window`)."""

    def tick(self, tick: int) -> tuple[Delivery, ...]:
        """The presses tick number `tick` acts on, right before it runs. A press may be acted
        on again only by ticks of the frame that first acted on it (the lab settles its books
        on a press when that frame ends)."""
        return ()

    def frame_ends(self) -> tuple[int, ...]:
        """The frame is settled. Returns the presses this loses for good."""
        return ()


class FrameEdge(InputModel):
    """Just-pressed flags read once per frame, seen by every tick of it, cleared at its end."""

    name = "frame-edge"

    def __init__(self) -> None:
        self._unread: dict[str, list[int]] = {}
        self._flags: dict[str, tuple[int, ...]] = {}
        self._ticks = 0

    def press(self, button: str, press: int, at_ns: int) -> None:
        self._unread.setdefault(button, []).append(press)

    def frame_begins(self, window: FrameWindow | None) -> None:
        self._ticks = 0
        if self._unread:  # else no flag is set: the last frame's end cleared them
            self._flags = {button: tuple(presses) for button, presses in self._unread.items()}
            self._unread = {}

    def tick(self, tick: int) -> tuple[Delivery, ...]:
        self._ticks += 1
        if not self._flags:
            return ()
        return tuple(Delivery(button, presses) for button, presses in self._flags.items())

    def frame_ends(self) -> tuple[int, ...]:
        if not self._flags:
            return ()
        flags, self._flags = self._flags, {}
        if self._ticks:
            return ()
        return tuple(press for presses in flags.values() for press in presses)


class TickPoll(InputModel):
    """Each tick reads whether the key is down now: a tap between two ticks is lost."""

    name = "tick-poll"

    def __init__(self) -> None:
        self._unseen: dict[str, int] = {}
        """The press holding each button down, until a tick has seen it down."""

    def press(self, button: str, press: int, at_ns: int) -> None:
        self._unseen[button] = press

    def release(self, button: str) -> tuple[int, ...]:
        press = self._unseen.pop(button, None)
        return () if press is None else (press,)

    def tick(self, tick: int) -> tuple[Delivery, ...]:
        if not self._unseen:
            return ()
        seen, self._unseen = self._unseen, {}
        return tuple(Delivery(button, (press,)) for button, press in seen.items())


class Latched(InputModel):
    """A press stays set until a tick takes it: nothing lost; two in one tick merge."""

    name = "latched"

    def __init__(self) -> None:
        self._latched: dict[str, list[int]] = {}

    def press(self, button: str, press: int, at_ns: int) -> None:
        self._latched.setdefault(button, []).append(press)

    def tick(self, tick: int) -> tuple[Delivery, ...]:
        if not self._latched:
            return ()
        latched, self._latched = self._latched, {}
        return tuple(Delivery(button, tuple(presses)) for button, presses in latched.items())


class Counted(InputModel):
    """Each tick takes every press since the last tick: nothing lost, nothing merged."""

    name = "counted"

    def __init__(self) -> None:
        self._waiting: list[tuple[str, int]] = []

    def press(self, button: str, press: int, at_ns: int) -> None:
        self._waiting.append((button, press))

    def tick(self, tick: int) -> tuple[Delivery, ...]:
        if not self._waiting:
            return ()
        waiting, self._waiting = self._waiting, []
        return tuple(Delivery(button, (press,)) for button, press in waiting)


class Stamped(InputModel):
    """Each press is stamped with the tick its instant falls in, sub-tick time kept."""

    name = "stamped"

    def __init__(self) -> None:
        self._unstamped: list[tuple[str, int, int]] = []
        self._stamped: list[tuple[int, str, int, Fraction]] = []

    @property
    def wants_window(self) -> bool:  # type: ignore[override]
        """Presses wait for the next frame's plan to be placed (one read between the ticks of
        a catch-up falls after all of them anyway)."""
        return bool(self._unstamped)

    def press(self, button: str, press: int, at_ns: int) -> None:
        self._unstamped.append((button, press, at_ns))

    def frame_begins(self, window: FrameWindow | None) -> None:
        if window is None:
            return
        for button, press, at_ns in self._unstamped:
            tick, into = window.tick_of(at_ns)
            self._stamped.append((tick, button, press, into))
        self._unstamped = []
        self._stamped.sort(key=lambda stamp: (stamp[0], stamp[2]))

    def tick(self, tick: int) -> tuple[Delivery, ...]:
        if not self._stamped or self._stamped[0][0] > tick:
            return ()
        due = [stamp for stamp in self._stamped if stamp[0] <= tick]
        del self._stamped[: len(due)]
        return tuple(Delivery(button, (press,), into) for _, button, press, into in due)


MODELS: dict[str, type[InputModel]] = {
    model.name: model for model in (FrameEdge, TickPoll, Latched, Counted, Stamped)
}
"""Every model by name, in `INPUT_MODEL_NAMES` order (docs/input.md lists them the same way)."""
if tuple(MODELS) != INPUT_MODEL_NAMES:  # pragma: no cover - a mistake caught at import
    raise RuntimeError("input models and game.vocabulary.INPUT_MODEL_NAMES disagree")


def definition(name: str) -> str:
    """A model's one-line definition (its docstring's first line)."""
    return (MODELS[name].__doc__ or "").strip().splitlines()[0]
