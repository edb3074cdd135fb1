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
from fractions import Fraction
from typing import Any, TypeVar

from game.knobs import CONTROL_KNOBS, PICTURE_ONLY, partner_input_model
from game.knobs.table import LATENCIES_MS
from game.vocabulary import (
    CLOCK_NAMES,
    CONDITIONING_NAMES,
    INPUT_MODEL_NAMES,
    INTEGRATOR_NAMES,
    INTERPOLATION_NAMES,
    POLICY_NAMES,
    RENDER_CAPS,
    STEP_COSTS_MS,
    TICK_RATES,
    TIME_SCALES,
)
from timestep_lab import MAX_CATCH_UP_STEPS, NS_PER_MS, AlphaMode


class Act(StrEnum):
    """What a key (or a script line, or a lesson) asks for."""

    NEXT_POLICY = "next_policy"
    PREVIOUS_POLICY = "previous_policy"
    SET_POLICY = "set_policy"
    SLOWER = "slower"
    FASTER = "faster"
    TOGGLE_PAUSE = "toggle_pause"
    SINGLE_STEP = "single_step"
    MORE_COST = "more_cost"
    LESS_COST = "less_cost"
    FEWER_CATCH_UP = "fewer_catch_up"
    MORE_CATCH_UP = "more_catch_up"
    CYCLE_INTERPOLATION = "cycle_interpolation"
    CYCLE_ALPHA = "cycle_alpha"
    CYCLE_INTEGRATOR = "cycle_integrator"
    CYCLE_TICK_RATE = "cycle_tick_rate"
    CYCLE_FPS_CAP = "cycle_fps_cap"
    CYCLE_CONDITIONING = "cycle_conditioning"
    CYCLE_CLOCK = "cycle_clock"
    RESET = "reset"
    TOGGLE_CANNON = "toggle_cannon"
    FIRE = "fire"
    STALL = "stall"
    TOGGLE_GRAPHS = "toggle_graphs"
    TOGGLE_HELP = "toggle_help"
    TOGGLE_PRESENTATION = "toggle_presentation"
    TOGGLE_GHOST = "toggle_ghost"
    TOGGLE_MARKERS = "toggle_markers"
    TOGGLE_TRAILS = "toggle_trails"
    TOGGLE_SMEAR = "toggle_smear"
    TOGGLE_SPLIT = "toggle_split"
    TOGGLE_NETWORK = "toggle_network"
    MORE_LATENCY = "more_latency"
    LESS_LATENCY = "less_latency"
    SWITCH_LANE = "switch_lane"
    NEXT_INPUT_MODEL = "next_input_model"
    LESSON_MENU = "lesson_menu"
    NEXT_LESSON_STEP = "next_lesson_step"
    REWATCH = "rewatch"
    SCREENSHOT = "screenshot"
    FULLSCREEN = "fullscreen"
    ESCAPE = "escape"
    QUIT = "quit"


@dataclass(frozen=True, slots=True)
class Action:
    """One request. `number` carries the policy index (SET_POLICY) or the stall length in ms
    (STALL); `x`, `y` carry a fire target in metres (FIRE)."""

    act: Act
    number: int = 0
    x: float | None = None
    y: float | None = None


T = TypeVar("T")


def partner_policy(first: str) -> str:
    """The policy the split screen puts beside `first`: the one that spirals, for contrast."""
    return "uncapped" if first != "uncapped" else "drop"


def _along(ladder: tuple[Fraction, ...], current: Fraction, up: bool) -> Fraction:
    """The next rung above (or below) `current` on a rising ladder, stopping at the ends. A value
    from a config that sits between rungs (a 3 ms step cost) moves to its neighbour (4 or 2)."""
    if up:
        return next((rung for rung in ladder if rung > current), ladder[-1])
    return next((rung for rung in reversed(ladder) if rung < current), ladder[0])


@dataclass(frozen=True, slots=True)
class Controls:
    """The live settings. `policies` has one entry per lane (two in split screen).

    Each field is a live knob of `game.knobs` (its `control`), with the knob's default; a test
    keeps the two equal. The fields are spelled out because the loop reads them every frame:
    a plain slotted dataclass is the fastest record to read, and a type checker sees them.
    """

    policies: tuple[str, ...] = ("drop",)
    focus_lane: int = 0
    """Which lane the policy keys change in split screen."""
    hz: Fraction = Fraction(60)
    time_scale: Fraction = Fraction(1)
    max_steps: int = 5
    alpha_mode: AlphaMode = AlphaMode.CORRECT
    integrator: str = "semi-implicit"
    step_cost_ms: Fraction = Fraction(0)
    interpolation: str = "interpolate"
    fps_cap: int = 144
    graphs: bool = True
    help: bool = False
    presentation: bool = False
    ghost: bool = False
    tick_markers: bool = False
    trails: bool = False
    paused: bool = False
    smear_teleports: bool = False
    """A right-drag teleports without resetting the previous buffer: the smear, on purpose."""
    conditioning: tuple[str, str] = ("raw", "raw")
    """Delta-time conditioning of lane 1 and lane 2 (the second is used in split screen)."""
    input_models: tuple[str, str] = ("frame-edge", "latched")
    """How each lane's ticks see the avatar's presses (the second is used in split screen)."""
    clock: str = "real"
    """Which clock runs the frames: the wall, or the lesson clock (`game.clock.lesson`)."""
    refresh_hz: Fraction = Fraction(0)
    """The screen the lesson clock shows the frames on (0: the window's own refresh)."""
    lesson_jitter_ms: Fraction = Fraction(0)
    """How far past its period each frame on the lesson clock may run (seeded wobble)."""
    network: bool = False
    """Lane 0 plays against a remote peer on a simulated network (`game.session.netplay`)."""
    latency_ms: Fraction = Fraction(100)
    input_delay: int = 0
    prediction_window: int = 8
    time_sync: str = "none"
    remote_late_ms: Fraction = Fraction(0)
    remote_flips_per_s: Fraction = Fraction(2)

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
        """The controls once `action` is applied. Actions that are not about controls (fire,
        stall, screenshot, quit...) leave them as they are."""
        act = action.act
        if act in _SWITCHES:
            name = _SWITCHES[act]
            flipped: dict[str, Any] = {name: not getattr(self, name)}
            return replace(self, **flipped)
        if act in _LANE_ACTS:
            return self._lanes_after(action)
        return self._climbed(act)

    def _climbed(self, act: Act) -> Controls:
        """A ladder moved along ([ ], C, - =) or a cycle turned (I, A, E, T, F, D)."""
        if act in (Act.SLOWER, Act.FASTER):
            scale = _along(TIME_SCALES, self.time_scale, up=act is Act.FASTER)
            return replace(self, time_scale=scale)
        if act in (Act.MORE_COST, Act.LESS_COST):
            cost = _along(STEP_COSTS_MS, self.step_cost_ms, up=act is Act.MORE_COST)
            return replace(self, step_cost_ms=cost)
        if act in (Act.MORE_LATENCY, Act.LESS_LATENCY):
            latency = _along(LATENCIES_MS, self.latency_ms, up=act is Act.MORE_LATENCY)
            return replace(self, latency_ms=latency)
        if act in (Act.FEWER_CATCH_UP, Act.MORE_CATCH_UP):
            delta = 1 if act is Act.MORE_CATCH_UP else -1
            return replace(self, max_steps=max(1, min(MAX_CATCH_UP_STEPS, self.max_steps + delta)))
        if act is Act.CYCLE_INTERPOLATION:
            return replace(self, interpolation=_next(INTERPOLATION_NAMES, self.interpolation))
        if act is Act.CYCLE_ALPHA:
            naive = self.alpha_mode is AlphaMode.CORRECT
            return replace(self, alpha_mode=AlphaMode.NAIVE if naive else AlphaMode.CORRECT)
        if act is Act.CYCLE_INTEGRATOR:
            return replace(self, integrator=_next(INTEGRATOR_NAMES, self.integrator))
        if act is Act.CYCLE_TICK_RATE:
            faster = [rate for rate in TICK_RATES if rate > self.hz]
            return replace(self, hz=faster[0] if faster else TICK_RATES[0])
        if act is Act.CYCLE_FPS_CAP:
            return replace(self, fps_cap=_next(RENDER_CAPS, self.fps_cap))
        if act is Act.CYCLE_CLOCK:
            return replace(self, clock=_next(CLOCK_NAMES, self.clock))
        return self

    def _lanes_after(self, action: Action) -> Controls:
        """The keys about lanes: the focused lane's policy, conditioning and input model, the
        split itself (V) and the focus (B)."""
        act, lane = action.act, self.focus_lane
        if act in (Act.NEXT_POLICY, Act.PREVIOUS_POLICY, Act.SET_POLICY):
            policies = list(self.policies)
            policies[lane] = self._chosen_policy(action)
            return replace(self, policies=tuple(policies))
        if act is Act.CYCLE_CONDITIONING:
            modes = list(self.conditioning)
            modes[lane] = _next(CONDITIONING_NAMES, modes[lane])
            return replace(self, conditioning=(modes[0], modes[1]))
        if act is Act.NEXT_INPUT_MODEL:
            models = list(self.input_models)
            models[lane] = _next(INPUT_MODEL_NAMES, models[lane])
            return replace(self, input_models=(models[0], models[1]))
        if act is Act.SWITCH_LANE:
            return replace(self, focus_lane=(lane + 1) % len(self.policies))
        if self.split:  # TOGGLE_SPLIT
            return replace(self, policies=self.policies[:1], focus_lane=0)
        first = self.input_models[0]
        return replace(
            self,
            policies=(self.policies[0], partner_policy(self.policies[0])),
            input_models=(first, partner_input_model(first)),
        )

    def _chosen_policy(self, action: Action) -> str:
        """The focused lane's policy after Tab, Shift+Tab or a number key."""
        if action.act is Act.SET_POLICY:
            if not 1 <= action.number <= len(POLICY_NAMES):
                raise ValueError(f"policy number must be 1-{len(POLICY_NAMES)}")
            return POLICY_NAMES[action.number - 1]
        delta = 1 if action.act is Act.NEXT_POLICY else -1
        index = POLICY_NAMES.index(self.policies[self.focus_lane]) + delta
        return POLICY_NAMES[index % len(POLICY_NAMES)]

    @classmethod
    def of(cls, values: Mapping[str, object]) -> Controls:
        """The default controls with `values` (by field name) turned."""
        return replace(cls(), **values)  # type: ignore[arg-type]


_SWITCHES: dict[Act, str] = {
    Act.TOGGLE_PAUSE: "paused",
    Act.TOGGLE_GRAPHS: "graphs",
    Act.TOGGLE_HELP: "help",
    Act.TOGGLE_PRESENTATION: "presentation",
    Act.TOGGLE_GHOST: "ghost",
    Act.TOGGLE_MARKERS: "tick_markers",
    Act.TOGGLE_TRAILS: "trails",
    Act.TOGGLE_SMEAR: "smear_teleports",
    Act.TOGGLE_NETWORK: "network",
}
"""The keys that flip a switch, and the switch each flips."""
_LANE_ACTS = frozenset(
    {Act.NEXT_POLICY, Act.PREVIOUS_POLICY, Act.SET_POLICY, Act.CYCLE_CONDITIONING,
     Act.NEXT_INPUT_MODEL, Act.SWITCH_LANE, Act.TOGGLE_SPLIT}
)  # fmt: skip


def _next(values: tuple[T, ...], current: T) -> T:
    """The value after `current`, wrapping round (the first one if `current` is not listed)."""
    return values[(values.index(current) + 1) % len(values)] if current in values else values[0]


DRAWING_ONLY: frozenset[str] = PICTURE_ONLY
"""Controls that change only what is drawn, or what the next key or drag will send (the knobs
whose scope is `Scope.PICTURE`): they never touch a scheduler or a world, so they take effect
at once, even in the middle of a frame."""


class ControlsChange:
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

    def __getattr__(self, name: str) -> Any:
        """A control's new value, or None if this change leaves it as it is: `change.hz`."""
        if name in CONTROL_KNOBS:
            return self._turned.get(name)
        raise AttributeError(name)

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
