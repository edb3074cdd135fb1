"""`Controls`: every knob a player can turn live, as one frozen value, and the ladders they move on.

A key press never pokes the scheduler or the world directly. It turns the controls into new
controls (`controls.after(action)`); the session then applies the difference between the two.
That keeps each key's meaning in one readable place, and makes the same change scriptable from
a scenario, a lesson or a test.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from fractions import Fraction
from typing import Any, TypeVar

from game.clock.units import NS_PER_MS
from game.scheduler.policies import POLICIES
from game.scheduler.settings import AlphaMode

POLICY_ORDER: tuple[str, ...] = tuple(POLICIES)
TIME_SCALES: tuple[Fraction, ...] = (
    Fraction(1, 8), Fraction(1, 4), Fraction(1, 2), Fraction(1), Fraction(2), Fraction(4),
)  # fmt: skip
TICK_RATES: tuple[Fraction, ...] = (Fraction(10), Fraction(30), Fraction(60), Fraction(120))
FPS_CAPS: tuple[int, ...] = (30, 60, 144, 240, 0)
"""Render-rate caps; 0 means uncapped."""
STEP_COSTS_MS: tuple[int, ...] = (0, 1, 2, 4, 8, 12, 16, 20, 25, 30, 40)
"""Busy-wait per tick. 16 ms fits in a 60 Hz step (16.7 ms); 20 ms does not: that is the spiral."""
MIN_CATCH_UP, MAX_CATCH_UP = 1, 20
INTERPOLATIONS: tuple[str, ...] = ("off", "interpolate", "extrapolate")
INTEGRATOR_ORDER: tuple[str, ...] = ("explicit", "semi-implicit", "verlet")


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
    RESET = "reset"
    FIRE = "fire"
    STALL = "stall"
    TOGGLE_GRAPHS = "toggle_graphs"
    TOGGLE_HELP = "toggle_help"
    TOGGLE_PRESENTATION = "toggle_presentation"
    TOGGLE_GHOST = "toggle_ghost"
    TOGGLE_MARKERS = "toggle_markers"
    TOGGLE_TRAILS = "toggle_trails"
    TOGGLE_SPLIT = "toggle_split"
    SELECT_LANE = "select_lane"
    SWITCH_LANE = "switch_lane"
    LESSON_MENU = "lesson_menu"
    NEXT_LESSON_STEP = "next_lesson_step"
    SCREENSHOT = "screenshot"
    FULLSCREEN = "fullscreen"
    QUIT = "quit"


@dataclass(frozen=True, slots=True)
class Action:
    """One request. `number` carries the policy index (SET_POLICY), the stall length in ms
    (STALL) or the lane (SELECT_LANE); `x`, `y` carry a fire target in metres (FIRE)."""

    act: Act
    number: int = 0
    x: float | None = None
    y: float | None = None


T = TypeVar("T")


def _step(values: tuple[T, ...], current: T, delta: int, *, wrap: bool) -> int:
    """Index of the value `delta` places from `current` (wrapping, or stopping at the ends)."""
    index = values.index(current) if current in values else 0
    moved = index + delta
    return moved % len(values) if wrap else max(0, min(len(values) - 1, moved))


@dataclass(frozen=True, slots=True)
class Controls:
    """The live settings. `policies` has one entry per lane (two in split screen)."""

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

    @property
    def step_cost_ns(self) -> int:
        return int(self.step_cost_ms * NS_PER_MS)

    @property
    def split(self) -> bool:
        return len(self.policies) == 2

    def after(self, action: Action) -> Controls:
        """The controls once `action` is applied. Actions that are not about controls (fire,
        stall, screenshot, quit...) leave them as they are."""
        act = action.act
        if act in (Act.NEXT_POLICY, Act.PREVIOUS_POLICY, Act.SET_POLICY):
            lane = self.focus_lane
            if act is Act.SET_POLICY:
                if not 1 <= action.number <= len(POLICY_ORDER):
                    raise ValueError(f"policy number must be 1-{len(POLICY_ORDER)}")
                chosen = POLICY_ORDER[action.number - 1]
            else:
                delta = 1 if act is Act.NEXT_POLICY else -1
                chosen = POLICY_ORDER[_step(POLICY_ORDER, self.policies[lane], delta, wrap=True)]
            policies = list(self.policies)
            policies[lane] = chosen
            return replace(self, policies=tuple(policies))
        if act in (Act.SLOWER, Act.FASTER):
            delta = 1 if act is Act.FASTER else -1
            return replace(
                self, time_scale=TIME_SCALES[_step(TIME_SCALES, self.time_scale, delta, wrap=False)]
            )
        if act in (Act.MORE_COST, Act.LESS_COST):
            delta = 1 if act is Act.MORE_COST else -1
            current = int(self.step_cost_ms) if self.step_cost_ms in STEP_COSTS_MS else 0
            index = _step(STEP_COSTS_MS, current, delta, wrap=False)
            return replace(self, step_cost_ms=Fraction(STEP_COSTS_MS[index]))
        if act in (Act.FEWER_CATCH_UP, Act.MORE_CATCH_UP):
            delta = 1 if act is Act.MORE_CATCH_UP else -1
            return replace(
                self, max_steps=max(MIN_CATCH_UP, min(MAX_CATCH_UP, self.max_steps + delta))
            )
        if act is Act.CYCLE_INTERPOLATION:
            return replace(self, interpolation=_next(INTERPOLATIONS, self.interpolation))
        if act is Act.CYCLE_ALPHA:
            naive = self.alpha_mode is AlphaMode.CORRECT
            return replace(self, alpha_mode=AlphaMode.NAIVE if naive else AlphaMode.CORRECT)
        if act is Act.CYCLE_INTEGRATOR:
            return replace(self, integrator=_next(INTEGRATOR_ORDER, self.integrator))
        if act is Act.CYCLE_TICK_RATE:
            return replace(self, hz=_next(TICK_RATES, self.hz))
        if act is Act.CYCLE_FPS_CAP:
            return replace(self, fps_cap=_next(FPS_CAPS, self.fps_cap))
        if act is Act.TOGGLE_SPLIT:
            if self.split:
                return replace(self, policies=self.policies[:1], focus_lane=0)
            second = "uncapped" if self.policies[0] != "uncapped" else "drop"
            return replace(self, policies=(self.policies[0], second))
        if act is Act.SWITCH_LANE:
            return replace(self, focus_lane=(self.focus_lane + 1) % len(self.policies))
        if act is Act.SELECT_LANE:
            if not 0 <= action.number < len(self.policies):
                raise ValueError(f"there is no lane {action.number + 1}")
            return replace(self, focus_lane=action.number)
        toggles = {
            Act.TOGGLE_GRAPHS: "graphs",
            Act.TOGGLE_HELP: "help",
            Act.TOGGLE_PRESENTATION: "presentation",
            Act.TOGGLE_GHOST: "ghost",
            Act.TOGGLE_MARKERS: "tick_markers",
            Act.TOGGLE_TRAILS: "trails",
        }
        if act in toggles:
            name = toggles[act]
            flipped: dict[str, Any] = {name: not getattr(self, name)}
            return replace(self, **flipped)
        return self


def _next(values: tuple[T, ...], current: T) -> T:
    return values[_step(values, current, 1, wrap=True)]
