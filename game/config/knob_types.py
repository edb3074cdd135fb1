"""The knobs of each file section, typed, written from the knob table (`game.knobs.table`) by
`python -m game.knobs.generate --write`: do not edit. `game.knobs.generate` says why it exists."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from game.config.section import Section


class SchedulerKnobs(Section):
    """`[scheduler]`'s knobs, as a type checker sees them."""

    if TYPE_CHECKING:
        hz: Fraction = Fraction(60)
        policy: str = "drop"
        max_steps: int = 5
        max_frame_ms: Fraction = Fraction(250)
        max_backlog_ms: Fraction = Fraction(1000)
        time_scale: Fraction = Fraction(1)
        alpha: str = "correct"
        overload_frames: int = 3
        conditioning: str = "raw"
        snap_tolerance_ms: Fraction = Fraction(1)
        average_frames: int = 4
        jitter_fix: Fraction = Fraction(1, 2)


class RenderKnobs(Section):
    """`[render]`'s knobs, as a type checker sees them."""

    if TYPE_CHECKING:
        width: int = 1280
        height: int = 720
        fullscreen: bool = False
        vsync: bool = False
        fps_cap: int = 144
        interpolation: str = "interpolate"


class WorldKnobs(Section):
    """`[world]`'s knobs, as a type checker sees them."""

    if TYPE_CHECKING:
        integrator: str = "semi-implicit"
        gravity: float = 9.81
        seed: int = 1
        cannon_period_ticks: int = 45
        precision: str = "float64"


class LoadKnobs(Section):
    """`[load]`'s knobs, as a type checker sees them."""

    if TYPE_CHECKING:
        step_cost_ms: Fraction = Fraction(0)


class HudKnobs(Section):
    """`[hud]`'s knobs, as a type checker sees them."""

    if TYPE_CHECKING:
        graphs: bool = True
        help: bool = False
        presentation: bool = False
        graph_seconds: int = 5


class OverlaysKnobs(Section):
    """`[overlays]`'s knobs, as a type checker sees them."""

    if TYPE_CHECKING:
        ghost: bool = False
        tick_markers: bool = False
        trails: bool = False


class AppKnobs(Section):
    """`[app]`'s knobs, as a type checker sees them."""

    if TYPE_CHECKING:
        pause_on_focus_loss: bool = True
        screenshot_dir: str = "screenshots"


class InputKnobs(Section):
    """`[input]`'s knobs, as a type checker sees them."""

    if TYPE_CHECKING:
        model: str = "frame-edge"


class NetworkKnobs(Section):
    """`[network]`'s knobs, as a type checker sees them."""

    if TYPE_CHECKING:
        latency_ms: Fraction = Fraction(100)
        jitter_ms: Fraction = Fraction(0)
        loss: Fraction = Fraction(0)


class ClockKnobs(Section):
    """`[clock]`'s knobs, as a type checker sees them."""

    if TYPE_CHECKING:
        render_fps: Fraction = Fraction(144)
        render_cost_ms: Fraction = Fraction(0)
        jitter_ms: Fraction = Fraction(0)
        jitter_seed: int = 0
        tick_phase: Fraction = Fraction(1, 2)


class LessonKnobs(Section):
    """A lesson step's knobs, each None unless set."""

    if TYPE_CHECKING:
        hz: Fraction | None = None
        policy: str | None = None
        max_steps: int | None = None
        time_scale: Fraction | None = None
        alpha: str | None = None
        conditioning: str | None = None
        fps_cap: int | None = None
        interpolation: str | None = None
        integrator: str | None = None
        step_cost_ms: Fraction | None = None
        graphs: bool | None = None
        ghost: bool | None = None
        tick_markers: bool | None = None
        trails: bool | None = None
        input_model: str | None = None
        clock: str | None = None
        refresh_hz: Fraction | None = None
        jitter_ms: Fraction | None = None
        network: bool | str | None = None
        latency_ms: Fraction | None = None
        input_delay: int | None = None
        prediction_window: int | None = None
        time_sync: str | None = None
        remote_late_ms: Fraction | None = None
        remote_flips_per_s: Fraction | None = None


class ChangeKnobs(Section):
    """A scenario change's knobs, each None unless set."""

    if TYPE_CHECKING:
        hz: Fraction | None = None
        policy: str | None = None
        max_steps: int | None = None
        time_scale: Fraction | None = None
        conditioning: str | None = None
        step_cost_ms: Fraction | None = None
        render_fps: Fraction | None = None
        render_cost_ms: Fraction | None = None
        paused: bool | None = None
