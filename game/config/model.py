"""`GameConfig`: every setting of the game, validated once, as one frozen value.

Each `[section]` of a config file is a nested model and each key a field, named exactly as in
`configs/default.toml`. The defaults live here; the shipped file repeats them with a comment
for each, and a test keeps the two equal.

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
from typing import Annotated, Self

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, model_validator

from game.clock.units import NS_PER_MS, NS_PER_SECOND, hz_to_step_ns, ms_to_ns
from game.config.choices import one_of
from game.config.exact import decimal_text, exact_number
from game.config.problems import SettingError
from game.limits import LARGEST_WINDOW, SMALLEST_WINDOW
from game.scheduler.settings import (
    MAX_AVERAGE_FRAMES,
    MAX_BACKLOG_LIMIT_NS,
    MAX_CATCH_UP_STEPS,
    MAX_FRAME_LIMIT_NS,
    MAX_OVERLOAD_FRAMES,
    MAX_STEP_NS,
    MAX_TIME_SCALE,
    MIN_STEP_NS,
    AlphaMode,
    SchedulerSettings,
)
from game.vocabulary import (
    ALPHA_MODES,
    CONDITIONING_NAMES,
    INPUT_MODEL_NAMES,
    INTEGRATOR_NAMES,
    INTERPOLATION_NAMES,
    POLICY_NAMES,
    PRECISION_NAMES,
    RENDER_CAPS,
)

# The scheduler's own limits, restated in the units a config file uses, so that every
# config that validates also builds a valid `SchedulerSettings`.
MIN_HZ = NS_PER_SECOND / MAX_STEP_NS  # 0.1 Hz: one tick per 10 s
MAX_HZ = NS_PER_SECOND / MIN_STEP_NS  # 10 kHz
MAX_FRAME_MS = MAX_FRAME_LIMIT_NS / NS_PER_MS
MAX_BACKLOG_MS = MAX_BACKLOG_LIMIT_NS / NS_PER_MS
MAX_STEP_COST_MS = 40
MAX_SEED = 2**64 - 1
"""A seed is a 64-bit number, as the world's generator and the recording's JSON take it."""
MAX_NAME_BYTES = 255
"""The longest file or folder name the file systems the game runs on accept."""
FPS_CAPS = tuple(sorted(RENDER_CAPS))
"""A config may start on any of the render-rate caps the F key cycles through (0: uncapped)."""

# The exact quantities, each with its bounds, and the settings that take one of a few values.
TickRate = Annotated[Fraction, exact_number(at_least=MIN_HZ, at_most=MAX_HZ, example="60 or 59.94")]
FrameLimitMs = Annotated[Fraction, exact_number(more_than=0, at_most=MAX_FRAME_MS)]
BacklogLimitMs = Annotated[Fraction, exact_number(at_least=0, at_most=MAX_BACKLOG_MS)]
TimeScale = Annotated[
    Fraction, exact_number(more_than=0, at_most=MAX_TIME_SCALE, ratios=True, example="1/8 or 0.5")
]
StepCostMs = Annotated[Fraction, exact_number(at_least=0, at_most=MAX_STEP_COST_MS)]
PolicyName = Annotated[str, AfterValidator(one_of(*POLICY_NAMES))]
FpsCap = Annotated[int, AfterValidator(one_of(*FPS_CAPS))]
AlphaName = Annotated[str, AfterValidator(one_of(*ALPHA_MODES))]
IntegratorName = Annotated[str, AfterValidator(one_of(*INTEGRATOR_NAMES))]
InterpolationName = Annotated[str, AfterValidator(one_of(*INTERPOLATION_NAMES))]
PrecisionName = Annotated[str, AfterValidator(one_of(*PRECISION_NAMES))]
ConditioningName = Annotated[str, AfterValidator(one_of(*CONDITIONING_NAMES))]
InputModelName = Annotated[str, AfterValidator(one_of(*INPUT_MODEL_NAMES))]


class Section(BaseModel):
    """One `[section]` of a config file: strict, frozen, and refusing unknown keys."""

    model_config = ConfigDict(
        strict=True, frozen=True, extra="forbid", use_attribute_docstrings=True
    )


class SchedulerSection(Section):
    """`[scheduler]`: the fixed-step scheduler's knobs (see `SchedulerSettings`)."""

    hz: TickRate = Fraction(60)
    """Ticks per second. T cycles 10/30/60/120 in the game; a file may ask for any rate."""
    policy: PolicyName = "drop"
    """What a frame does with more time than it can simulate; one of `POLICIES`."""
    max_steps: Annotated[int, Field(ge=1, le=MAX_CATCH_UP_STEPS)] = 5
    """The catch-up cap M: at most this many ticks in one frame."""
    max_frame_ms: FrameLimitMs = Fraction(250)
    """The max frame F: the longest frame clamp, reset and variable count. At least one step."""
    max_backlog_ms: BacklogLimitMs = Fraction(1000)
    """The max backlog B the `backlog` policy may carry."""
    time_scale: TimeScale = Fraction(1)
    """Simulated seconds per wall second: "1/8" is slow motion, 2 is double speed."""
    alpha: AlphaName = "correct"
    """How the interpolation factor is computed (see `AlphaMode`)."""
    overload_frames: Annotated[int, Field(ge=1, le=MAX_OVERLOAD_FRAMES)] = 3
    """Consecutive strained frames before the overload indicator lights up."""
    conditioning: ConditioningName = "raw"
    """What the measured frame time goes through before it is counted (U cycles them)."""
    snap_tolerance_ms: Annotated[Fraction, exact_number(at_least=0, at_most=8)] = Fraction(1)
    """`snap`: how close to a whole number of refresh periods a frame must be to snap."""
    average_frames: Annotated[int, Field(ge=1, le=MAX_AVERAGE_FRAMES)] = 4
    """`average`: how many frames the running mean takes."""
    jitter_fix: Annotated[Fraction, exact_number(at_least=0, at_most=2, example="0.5")] = Fraction(
        1, 2
    )
    """`godot`: how much of a step may move between frames (Godot's default, 0.5)."""

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


class RenderSection(Section):
    """`[render]`: the window and how frames are drawn between ticks."""

    width: Annotated[int, Field(ge=SMALLEST_WINDOW[0], le=LARGEST_WINDOW[0])] = 1280
    """Window width in pixels."""
    height: Annotated[int, Field(ge=SMALLEST_WINDOW[1], le=LARGEST_WINDOW[1])] = 720
    """Window height in pixels."""
    fullscreen: bool = False
    """Start in fullscreen (F11 toggles)."""
    vsync: bool = False
    """Let the display's refresh pace the frames, on top of the cap."""
    fps_cap: FpsCap = 144
    """The render-rate cap held by the game's own pacer (F cycles them), or 0 for none."""
    interpolation: InterpolationName = "interpolate"
    """How a frame places bodies between two ticks."""


class WorldSection(Section):
    """`[world]`: the simulated scene."""

    integrator: IntegratorName = "semi-implicit"
    """The integrator at tick 0 (E cycles them)."""
    gravity: Annotated[float, Field(ge=0, le=100, allow_inf_nan=False)] = 9.81
    """Downward acceleration on projectiles, m/s^2."""
    seed: Annotated[int, Field(ge=0, le=MAX_SEED)] = 1
    """Seeds the world's random generator, so every run and replay fires the same volley."""
    cannon_period_ticks: Annotated[int, Field(ge=0)] = 45
    """The cannon fires every this many ticks; 0 turns it off."""
    precision: PrecisionName = "float64"
    """The float type of the world's state: a game engine's float32 or a reference float64."""


class LoadSection(Section):
    """`[load]`: artificial work, to push the loop into overload on purpose."""

    step_cost_ms: StepCostMs = Fraction(0)
    """CPU time burnt (a busy wait) in every tick; above one step it feeds the spiral."""


class HudSection(Section):
    """`[hud]`: what the heads-up display shows."""

    graphs: bool = True
    """The frame-time, steps and dropped-time graphs (G toggles)."""
    help: bool = False
    """The key help overlay (F1 or H toggles)."""
    presentation: bool = False
    """Double-size HUD, readable on a projector from the back of the room."""
    graph_seconds: Annotated[int, Field(ge=1, le=30)] = 5
    """How much history the graphs show, in seconds."""


class OverlaysSection(Section):
    """`[overlays]`: drawings on top of the scene that show what the loop does."""

    ghost: bool = False
    """The analytic trajectory of each projectile, to compare the integrators against."""
    tick_markers: bool = False
    """Where bodies really are at each tick, without interpolation."""
    trails: bool = False
    """Motion trails behind projectiles."""


def _folder(path: str) -> str:
    """A folder path the file functions will take: F12 is no time to find out it is not one."""
    if any(ord(character) < 32 or ord(character) == 127 for character in path):
        raise ValueError("must not hold control characters (such as NUL or a line break)")
    if any(len(part.encode("utf-8")) > MAX_NAME_BYTES for part in path.split("/")):
        raise ValueError(f"must not hold a name longer than {MAX_NAME_BYTES} bytes")
    return path


class AppSection(Section):
    """`[app]`: how the program behaves on the desktop."""

    pause_on_focus_loss: bool = True
    """Pause when the window loses focus or is minimised; the hidden time is not billed."""
    screenshot_dir: Annotated[str, Field(min_length=1), AfterValidator(_folder)] = "screenshots"
    """Where F12 saves screenshots."""


class InputSection(Section):
    """`[input]`: how the fixed ticks see the avatar's key presses (`game.session.input_models`)."""

    model: InputModelName = "frame-edge"
    """The input model at the start (Y cycles them); split screen puts a fix beside it."""


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
