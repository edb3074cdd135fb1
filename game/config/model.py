"""`GameConfig`: every setting of the game, validated once, as one frozen value.

Each `[section]` of a config file is a nested model and each key a field, named exactly as in
`configs/default.toml`. The fields, their defaults and their checks are read off the knob table
(`game.knobs`), and their types too (`game.knobs.generated`, so a misspelt setting is a type
error); a section declares only what is its own (a check across fields, properties).
The shipped file is written from the same table (`game.config.default_file`).

Validation is strict: a TOML string is not a number and a number is not a switch, so
`hz = "abc"`, `fps_cap = "60"` and `graphs = "yes"` are refused rather than guessed at, and so
is any key the model does not know (a typo would otherwise be ignored without a word).

Every setting that feeds the clock is an exact `Fraction`, read as described in
`game.config.exact`: a TOML float such as `max_frame_ms = 16.7` counts as the decimal 16.7
that the user wrote (its shortest repr), never as the binary float tomllib produced. The
properties ending in `_ns` convert milliseconds to exact nanoseconds, and
`config.scheduler.settings()` builds the scheduler's own `SchedulerSettings`. Display and
physics values (gravity) stay floats.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, Self

from pydantic import model_validator

from game.clock.units import ms_to_ns
from game.config.exact import decimal_text
from game.config.knob_fields import field_type, with_section
from game.config.knob_types import (
    AppKnobs,
    HudKnobs,
    InputKnobs,
    LoadKnobs,
    NetworkKnobs,
    OverlaysKnobs,
    RenderKnobs,
    SchedulerKnobs,
    WorldKnobs,
)
from game.config.problems import SettingError
from game.config.section import Section
from game.knobs import BY_SHORT_NAME, Where, knobs_where
from timestep_lab import AlphaMode, SchedulerSettings, hz_to_step_ns

# The types of the knobs that other models reuse beside their own (a lesson's second lane, a
# scenario's inputs, a display's interpolation), read off the table like the sections' fields.
IntegratorName = field_type(BY_SHORT_NAME["integrator"])
ConditioningName = field_type(BY_SHORT_NAME["conditioning"])
InterpolationName = field_type(BY_SHORT_NAME["interpolation"])
InputModelName = field_type(BY_SHORT_NAME["input_model"])
PolicyName = field_type(BY_SHORT_NAME["policy"])


@with_section("scheduler")
class SchedulerSection(SchedulerKnobs):
    """`[scheduler]`: the fixed-step scheduler's knobs (see `SchedulerSettings`)."""

    @model_validator(mode="after")
    def _max_frame_holds_a_step(self) -> Self:
        # A frame limit shorter than one step would never let a clamped frame run a tick.
        step_ms = 1000 / self.hz
        if self.max_frame_ms < step_ms:
            shown = Fraction(math.ceil(step_ms * 1000), 1000)  # rounded up: a true minimum
            raise SettingError(
                "max_frame_ms",
                f"must be at least one step, {decimal_text(shown)} ms at "
                f"{decimal_text(self.hz)} Hz",
                self.max_frame_ms,
                involves=("hz",),
            )
        return self

    @property
    def step_ns(self) -> Fraction:
        """One tick, exactly: 1/60 s is 50,000,000/3 ns."""
        return hz_to_step_ns(self.hz)

    @property
    def max_frame_ns(self) -> Fraction:
        return ms_to_ns(self.max_frame_ms)

    @property
    def max_backlog_ns(self) -> Fraction:
        return ms_to_ns(self.max_backlog_ms)

    def settings(self, refresh_hz: Fraction = Fraction(60)) -> SchedulerSettings:
        """The scheduler's settings; they always validate, because this section did. The
        display's `refresh_hz` is `snap`'s unit (the snap tolerance is kept within half of it)."""
        refresh_ns = hz_to_step_ns(refresh_hz)
        return SchedulerSettings(
            step_ns=self.step_ns,
            policy=self.policy,
            max_steps=self.max_steps,
            max_frame_ns=self.max_frame_ns,
            max_backlog_ns=self.max_backlog_ns,
            time_scale=self.time_scale,
            alpha_mode=AlphaMode(self.alpha),
            overload_frames=self.overload_frames,
            conditioning=self.conditioning,
            refresh_ns=refresh_ns,
            snap_tolerance_ns=min(ms_to_ns(self.snap_tolerance_ms), refresh_ns / 2),
            average_frames=self.average_frames,
            jitter_fix=self.jitter_fix,
        )


@with_section("render")
class RenderSection(RenderKnobs):
    """`[render]`: the window and how frames are drawn between ticks."""


@with_section("world")
class WorldSection(WorldKnobs):
    """`[world]`: the simulated scene."""


@with_section("load")
class LoadSection(LoadKnobs):
    """`[load]`: artificial work, to push the loop into overload on purpose."""


@with_section("hud")
class HudSection(HudKnobs):
    """`[hud]`: what the heads-up display shows."""


@with_section("overlays")
class OverlaysSection(OverlaysKnobs):
    """`[overlays]`: drawings on top of the scene that show what the loop does."""


@with_section("app")
class AppSection(AppKnobs):
    """`[app]`: how the program behaves on the desktop."""


@with_section("input")
class InputSection(InputKnobs):
    """`[input]`: how the fixed ticks see the avatar's key presses (`game.session.input_models`)."""


@with_section("network", tuple(knobs_where(Where.CONFIG)))
class LinkSection(NetworkKnobs):
    """`[network]`: the link's latency, jitter and loss. The simulated peer's latency; in a match,
    what this side's link conditioner adds to each datagram it sends (`game.network.conditioner`).
    The rest of the network's knobs are live ones (a key, a lesson step), not a file's."""


class GameConfig(Section):
    """Every setting of the game; `GameConfig()` is the shipped `configs/default.toml`."""

    scheduler: SchedulerSection = SchedulerSection()
    render: RenderSection = RenderSection()
    world: WorldSection = WorldSection()
    load: LoadSection = LoadSection()
    hud: HudSection = HudSection()
    overlays: OverlaysSection = OverlaysSection()
    app: AppSection = AppSection()
    input: InputSection = InputSection()
    network: LinkSection = LinkSection()

    def value(self, path: str) -> Any:
        """A setting by its dotted path: `config.value("scheduler.hz")`."""
        section, _, key = path.partition(".")
        return getattr(getattr(self, section), key)
