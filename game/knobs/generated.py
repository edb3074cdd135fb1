"""Every live knob's field, typed, written from the knob table (`game.knobs.table`) by
`python -m game.knobs.generate --write`: do not edit. `game.knobs.generate` says why it exists."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import cast

from timestep_lab import AlphaMode


@dataclass(frozen=True, slots=True)
class ControlFields:
    """The live controls, at their defaults (`game.session.controls.Controls`)."""

    hz: Fraction = Fraction(60)
    policies: tuple[str, ...] = ("drop",)
    max_steps: int = 5
    time_scale: Fraction = Fraction(1)
    alpha_mode: AlphaMode = AlphaMode.CORRECT
    conditioning: tuple[str, ...] = ("raw", "raw")
    fps_cap: int = 144
    interpolation: str = "interpolate"
    integrator: str = "semi-implicit"
    step_cost_ms: Fraction = Fraction(0)
    graphs: bool = True
    help: bool = False
    presentation: bool = False
    ghost: bool = False
    tick_markers: bool = False
    trails: bool = False
    input_models: tuple[str, ...] = ("frame-edge", "latched")
    clock: str = "real"
    refresh_hz: Fraction = Fraction(0)
    lesson_jitter_ms: Fraction = Fraction(0)
    network: bool | str = False
    latency_ms: Fraction = Fraction(100)
    input_delay: int = 0
    prediction_window: int = 8
    time_sync: str = "none"
    remote_late_ms: Fraction = Fraction(0)
    remote_flips_per_s: Fraction = Fraction(2)
    paused: bool = False
    focus_lane: int = 0
    smear_teleports: bool = False


class ControlChangeValues:
    """Each live control's new value, None unless the change turns it (`ControlsChange`)."""

    __slots__ = ()

    def _turned_value(self, name: str) -> object:
        """The value turned by that name, or None."""
        raise NotImplementedError

    @property
    def hz(self) -> Fraction | None:
        return cast("Fraction | None", self._turned_value("hz"))

    @property
    def policies(self) -> tuple[str, ...] | None:
        return cast("tuple[str, ...] | None", self._turned_value("policies"))

    @property
    def max_steps(self) -> int | None:
        return cast("int | None", self._turned_value("max_steps"))

    @property
    def time_scale(self) -> Fraction | None:
        return cast("Fraction | None", self._turned_value("time_scale"))

    @property
    def alpha_mode(self) -> AlphaMode | None:
        return cast("AlphaMode | None", self._turned_value("alpha_mode"))

    @property
    def conditioning(self) -> tuple[str, ...] | None:
        return cast("tuple[str, ...] | None", self._turned_value("conditioning"))

    @property
    def fps_cap(self) -> int | None:
        return cast("int | None", self._turned_value("fps_cap"))

    @property
    def interpolation(self) -> str | None:
        return cast("str | None", self._turned_value("interpolation"))

    @property
    def integrator(self) -> str | None:
        return cast("str | None", self._turned_value("integrator"))

    @property
    def step_cost_ms(self) -> Fraction | None:
        return cast("Fraction | None", self._turned_value("step_cost_ms"))

    @property
    def graphs(self) -> bool | None:
        return cast("bool | None", self._turned_value("graphs"))

    @property
    def help(self) -> bool | None:
        return cast("bool | None", self._turned_value("help"))

    @property
    def presentation(self) -> bool | None:
        return cast("bool | None", self._turned_value("presentation"))

    @property
    def ghost(self) -> bool | None:
        return cast("bool | None", self._turned_value("ghost"))

    @property
    def tick_markers(self) -> bool | None:
        return cast("bool | None", self._turned_value("tick_markers"))

    @property
    def trails(self) -> bool | None:
        return cast("bool | None", self._turned_value("trails"))

    @property
    def input_models(self) -> tuple[str, ...] | None:
        return cast("tuple[str, ...] | None", self._turned_value("input_models"))

    @property
    def clock(self) -> str | None:
        return cast("str | None", self._turned_value("clock"))

    @property
    def refresh_hz(self) -> Fraction | None:
        return cast("Fraction | None", self._turned_value("refresh_hz"))

    @property
    def lesson_jitter_ms(self) -> Fraction | None:
        return cast("Fraction | None", self._turned_value("lesson_jitter_ms"))

    @property
    def network(self) -> bool | str | None:
        return cast("bool | str | None", self._turned_value("network"))

    @property
    def latency_ms(self) -> Fraction | None:
        return cast("Fraction | None", self._turned_value("latency_ms"))

    @property
    def input_delay(self) -> int | None:
        return cast("int | None", self._turned_value("input_delay"))

    @property
    def prediction_window(self) -> int | None:
        return cast("int | None", self._turned_value("prediction_window"))

    @property
    def time_sync(self) -> str | None:
        return cast("str | None", self._turned_value("time_sync"))

    @property
    def remote_late_ms(self) -> Fraction | None:
        return cast("Fraction | None", self._turned_value("remote_late_ms"))

    @property
    def remote_flips_per_s(self) -> Fraction | None:
        return cast("Fraction | None", self._turned_value("remote_flips_per_s"))

    @property
    def paused(self) -> bool | None:
        return cast("bool | None", self._turned_value("paused"))

    @property
    def focus_lane(self) -> int | None:
        return cast("int | None", self._turned_value("focus_lane"))

    @property
    def smear_teleports(self) -> bool | None:
        return cast("bool | None", self._turned_value("smear_teleports"))


class ChangeValues:
    """Each knob a scenario change may turn, None unless it turns it (`SettingsChange`)."""

    __slots__ = ()

    def _turned_value(self, name: str) -> object:
        """The value turned by that name, or None."""
        raise NotImplementedError

    @property
    def hz(self) -> Fraction | None:
        return cast("Fraction | None", self._turned_value("hz"))

    @property
    def policy(self) -> str | None:
        return cast("str | None", self._turned_value("policy"))

    @property
    def max_steps(self) -> int | None:
        return cast("int | None", self._turned_value("max_steps"))

    @property
    def time_scale(self) -> Fraction | None:
        return cast("Fraction | None", self._turned_value("time_scale"))

    @property
    def conditioning(self) -> str | None:
        return cast("str | None", self._turned_value("conditioning"))

    @property
    def step_cost_ms(self) -> Fraction | None:
        return cast("Fraction | None", self._turned_value("step_cost_ms"))

    @property
    def render_fps(self) -> Fraction | None:
        return cast("Fraction | None", self._turned_value("render_fps"))

    @property
    def render_cost_ms(self) -> Fraction | None:
        return cast("Fraction | None", self._turned_value("render_cost_ms"))

    @property
    def paused(self) -> bool | None:
        return cast("bool | None", self._turned_value("paused"))
