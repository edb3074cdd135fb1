"""`KNOBS`: every knob of the game, one row each, grouped by section in the order of
`configs/default.toml` (see `game.knobs` for what is read off it)."""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from typing import Any

from game.clock.units import NS_PER_MS, NS_PER_SECOND
from game.display.model import MAX_QUEUE_DEPTH, MAX_REFRESH_HZ, MIN_REFRESH_HZ
from game.knobs.knob import FILE, Knob, Range, Scope, Where, folder
from game.limits import LARGEST_WINDOW, MAX_RUN_TICKS, SMALLEST_WINDOW
from game.network.settings import DEFAULT_PREDICTION_WINDOW, TIME_SYNC_MODES
from game.scheduler.settings import (
    MAX_AVERAGE_FRAMES,
    MAX_BACKLOG_LIMIT_NS,
    MAX_CATCH_UP_STEPS,
    MAX_FRAME_LIMIT_NS,
    MAX_JITTER_FIX,
    MAX_OVERLOAD_FRAMES,
    MAX_STEP_NS,
    MAX_TIME_SCALE,
    MIN_STEP_NS,
    AlphaMode,
)
from game.vocabulary import (
    ALPHA_MODES,
    CLOCK_NAMES,
    CONDITIONING_NAMES,
    INPUT_MODEL_NAMES,
    INTEGRATOR_NAMES,
    INTERPOLATION_NAMES,
    POLICY_NAMES,
    PRECISION_NAMES,
    RENDER_CAPS,
    STEP_COSTS_MS,
    TICK_RATES,
    TIME_SCALES,
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
FPS_CAPS = tuple(sorted(RENDER_CAPS))
"""A config may start on any of the render-rate caps the F key cycles through (0: uncapped)."""
MAX_RENDER_FPS = 1_000
MAX_FRAME_COST_MS = 1_000
MAX_LESSON_JITTER_MS = 4
LATENCIES_MS: tuple[Fraction, ...] = tuple(Fraction(ms) for ms in (0, 25, 50, 75, 100, 125, 150))
"""The one-way latencies the latency key steps through."""
MAX_LIVE_LATENCY_MS = 1_000
MAX_LIVE_WINDOW = 120
"""Ticks of prediction, as a scenario's `[network]` allows."""
"""As a lesson demo's `jitter_ms`: wake-up noise, not a stall."""


def partner_input_model(first: str) -> str:
    """The input model the split screen puts beside `first`: a fix beside the bug, or the bug
    beside a fix."""
    return "latched" if first == "frame-edge" else "frame-edge"


LIVE = FILE | Where.KEY | Where.LESSON
"""A setting that a key turns too, and a lesson step."""
LIVE_AND_CHANGE = LIVE | Where.CHANGE


def _one_lane(value: Any) -> tuple[Any, ...]:
    return (value,)


def _both_lanes(value: Any) -> tuple[Any, ...]:
    return (value, value)


def _input_lanes(value: Any) -> tuple[Any, ...]:
    return (value, partner_input_model(value))


def _off_or_a_refresh(value: Fraction) -> Fraction:
    """0 (the window's own refresh) or a refresh rate a display has."""
    if 0 < value < MIN_REFRESH_HZ:
        raise ValueError(
            f"must be 0 (the window's own) or from {MIN_REFRESH_HZ} to {MAX_REFRESH_HZ} Hz"
        )
    return value


def _below_one(value: Fraction) -> Fraction:
    """A phase within one step: 1 would be the boundary again, a whole step late."""
    if value >= 1:
        raise ValueError("must be less than 1 (one whole step is the tick boundary again)")
    return value


KNOBS: tuple[Knob, ...] = (
    # -- [scheduler] ------------------------------------------------------------------------------
    Knob("scheduler.hz", Fraction(60),
         "Ticks per second. T cycles 10/30/60/120 in the game; a file may ask for any rate.",
         "Ticks per second: an integer or a decimal such as 59.94 (0.1 to 10000).\n"
         "T cycles 10, 30, 60 and 120 while playing.",
         unit="Hz", range=Range(MAX_HZ, at_least=MIN_HZ, example="60 or 59.94"),
         ladder=TICK_RATES, where=LIVE_AND_CHANGE, control="hz",
         keys=("T", "tick rate: 10, 30, 60, 120 Hz"), mark="{} Hz"),
    Knob("scheduler.policy", "drop",
         "What a frame does with more time than it can simulate; one of `POLICIES`.",
         "What a frame does with more time than it can simulate (1-6 or Tab while playing):\n"
         "uncapped, clamp, drop, reset, backlog or variable.",
         choices=POLICY_NAMES, ladder=POLICY_NAMES, scope=Scope.LANE, where=LIVE_AND_CHANGE,
         control="policies", lanes=_one_lane,
         keys=("Tab / Shift+Tab, 1-6",
               "overload policy: uncapped, clamp, drop, reset, backlog, variable"),
         mark="{}"),
    Knob("scheduler.max_steps", 5, "The catch-up cap M: at most this many ticks in one frame.",
         "The catch-up cap M: at most this many ticks in one frame (1 to 10000; - and = while "
         "playing).",
         unit="ticks", range=Range(MAX_CATCH_UP_STEPS, at_least=1), where=LIVE_AND_CHANGE,
         control="max_steps", keys=("- and =", "catch-up cap M: fewer / more steps per frame"),
         mark="M={}"),
    Knob("scheduler.max_frame_ms", Fraction(250),
         "The max frame F: the longest frame clamp, reset and variable count. At least one step.",
         "The max frame F, in ms: the longest frame clamp, reset and variable count. At least "
         "one step\n(a slower tick rate chosen with T raises it to one step).",
         unit="ms", range=Range(MAX_FRAME_MS, more_than=0)),
    Knob("scheduler.max_backlog_ms", Fraction(1000),
         "The max backlog B the `backlog` policy may carry.",
         "The max backlog B, in ms: the most time the backlog policy may owe (0 to 3600000).",
         unit="ms", range=Range(MAX_BACKLOG_MS, at_least=0)),
    Knob("scheduler.time_scale", Fraction(1),
         'Simulated seconds per wall second: "1/8" is slow motion, 2 is double speed.',
         'Simulated seconds per wall second: "1/8" is slow motion, 2 double speed (above 0, up '
         "to 64).",
         unit="x", range=Range(MAX_TIME_SCALE, more_than=0, example="1/8 or 0.5", ratios=True),
         ladder=TIME_SCALES, where=LIVE_AND_CHANGE, control="time_scale",
         keys=("[ and ]", "time scale: 1/8, 1/4, 1/2, 1, 2, 4"), mark="x{}"),
    Knob("scheduler.alpha", "correct",
         "How the interpolation factor is computed (see `AlphaMode`).",
         'The interpolation factor alpha: "correct" (remainder / step, always below 1) or '
         '"naive"\n(everything carried / step: the bug that overshoots after a stall).',
         choices=ALPHA_MODES, ladder=ALPHA_MODES, where=LIVE, control="alpha_mode",
         as_control=AlphaMode, keys=("A", "alpha mode: correct / naive")),
    Knob("scheduler.overload_frames", 3,
         "Consecutive strained frames before the overload indicator lights up.",
         "Consecutive strained frames before the overload indicator lights up (1 to 1000).",
         unit="frames", range=Range(MAX_OVERLOAD_FRAMES, at_least=1)),
    Knob("scheduler.conditioning", "raw",
         "What the measured frame time goes through before it is counted (U cycles them).",
         "What the measured frame time goes through before it is counted (U cycles them): "
         '"raw" (as\nmeasured), "snap" (to whole refresh periods), "average" (running mean) '
         'or "godot" (jitter fix).',
         choices=CONDITIONING_NAMES, ladder=CONDITIONING_NAMES, scope=Scope.LANE,
         where=LIVE_AND_CHANGE, control="conditioning", lanes=_both_lanes,
         keys=("U", "delta-time conditioning: raw / snap / average / godot (per lane)"),
         mark="conditioning {}"),
    Knob("scheduler.snap_tolerance_ms", Fraction(1),
         "`snap`: how close to a whole number of refresh periods a frame must be to snap.",
         "snap: how close to a whole number of refresh periods a frame must be, in ms (0 to 8).",
         unit="ms", range=Range(8, at_least=0)),
    Knob("scheduler.average_frames", 4, "`average`: how many frames the running mean takes.",
         "average: how many frames the running mean takes (1 to 120).",
         unit="frames", range=Range(MAX_AVERAGE_FRAMES, at_least=1)),
    Knob("scheduler.jitter_fix", Fraction(1, 2),
         "`godot`: how much of a step may move between frames (Godot's default, 0.5).",
         "godot: how much of a step may move between frames (0 to 2; Godot's default 0.5).",
         unit="steps", range=Range(MAX_JITTER_FIX, at_least=0, example="0.5")),
    # -- [render] ---------------------------------------------------------------------------------
    Knob("render.width", 1280, "Window width in pixels.",
         "Window size in pixels (320 to 7680 by 240 to 4320).",
         unit="px", range=Range(LARGEST_WINDOW[0], at_least=SMALLEST_WINDOW[0])),
    Knob("render.height", 720, "Window height in pixels.",
         unit="px", range=Range(LARGEST_WINDOW[1], at_least=SMALLEST_WINDOW[1])),
    Knob("render.fullscreen", False, "Start in fullscreen (F11 toggles).",
         "Start in fullscreen (F11 toggles)."),
    Knob("render.vsync", False, "Let the display's refresh pace the frames, on top of the cap.",
         "Let the display's refresh pace the frames."),
    Knob("render.fps_cap", 144,
         "The render-rate cap held by the game's own pacer (F cycles them), or 0 for none.",
         "The render-rate cap held by the game's own pacer: 30, 50, 60, 72, 75, 144, 165 or 240 "
         "fps, or\n0 for uncapped (F cycles them; 50, 72, 75 and 165 do not divide a 60 Hz "
         "tick: judder).",
         unit="fps", choices=FPS_CAPS, ladder=RENDER_CAPS, scope=Scope.PICTURE, where=LIVE,
         control="fps_cap",
         keys=("F", "render-rate cap: 30, 50, 60, 72, 75, 144, 165, 240, uncapped")),
    Knob("render.interpolation", "interpolate", "How a frame places bodies between two ticks.",
         'How a frame places bodies between two ticks: "off", "interpolate" or "extrapolate".',
         choices=INTERPOLATION_NAMES, ladder=INTERPOLATION_NAMES, scope=Scope.PICTURE,
         where=LIVE, control="interpolation",
         keys=("I", "interpolation: off / interpolate / extrapolate")),
    # -- [world] ----------------------------------------------------------------------------------
    Knob("world.integrator", "semi-implicit", "The integrator at tick 0 (E cycles them).",
         'The integrator at tick 0: "explicit", "semi-implicit" or "verlet" (E cycles them).',
         choices=INTEGRATOR_NAMES, ladder=INTEGRATOR_NAMES, where=LIVE, control="integrator",
         keys=("E", "integrator: explicit / semi-implicit / verlet")),
    Knob("world.gravity", 9.81, "Downward acceleration on projectiles, m/s^2.",
         "Downward acceleration on projectiles, m/s^2 (0 to 100).",
         unit="m/s^2", range=Range(100, at_least=0)),
    Knob("world.seed", 1,
         "Seeds the world's random generator, so every run and replay fires the same volley.",
         "Seeds the world's random generator: the same seed fires the same volley every run.",
         range=Range(MAX_SEED, at_least=0)),
    Knob("world.cannon_period_ticks", 45, "The cannon fires every this many ticks; 0 turns it off.",
         "The cannon fires every this many ticks (0 to 10000000, the longest run); 0 turns it off.",
         unit="ticks", range=Range(MAX_RUN_TICKS, at_least=0)),
    Knob("world.precision", "float64",
         "The float type of the world's state: a game engine's float32 or a reference float64.",
         'The float type of the world\'s state: "float32" like a game engine, "float64" for '
         "reference.",
         choices=PRECISION_NAMES),
    # -- [load] -----------------------------------------------------------------------------------
    Knob("load.step_cost_ms", Fraction(0),
         "CPU time burnt (a busy wait) in every tick; above one step it feeds the spiral.",
         "CPU time burnt in every tick, in ms (0 to 40). Above one step, the uncapped policy "
         "spirals.",
         unit="ms", range=Range(MAX_STEP_COST_MS, at_least=0), ladder=STEP_COSTS_MS,
         where=LIVE_AND_CHANGE, control="step_cost_ms",
         keys=("C / Shift+C", "step cost up / down: CPU work added to every tick"),
         mark="cost {} ms"),
    # -- [hud] ------------------------------------------------------------------------------------
    Knob("hud.graphs", True, "The frame-time, steps and dropped-time graphs (G toggles).",
         "The frame-time, steps and dropped-time graphs (G toggles).",
         scope=Scope.PICTURE, where=LIVE, control="graphs", keys=("G", "graphs")),
    Knob("hud.help", False, "The key help overlay (F1 or H toggles).",
         "The key help overlay (F1 or H toggles).",
         scope=Scope.PICTURE, where=FILE | Where.KEY, control="help", keys=("F1 / H", "this help")),
    Knob("hud.presentation", False,
         "Double-size HUD, readable on a projector from the back of the room.",
         "Double-size HUD, readable on a projector from the back of the room.",
         scope=Scope.PICTURE, where=FILE | Where.KEY, control="presentation",
         keys=("Z", "presentation mode: double-size HUD")),
    Knob("hud.graph_seconds", 5, "How much history the graphs show, in seconds.",
         "How much history the graphs show, in seconds (1 to 30).",
         unit="s", range=Range(30, at_least=1)),
    # -- [overlays] -------------------------------------------------------------------------------
    Knob("overlays.ghost", False,
         "The analytic trajectory of each projectile, to compare the integrators against.",
         "The analytic trajectory of each projectile, to compare the integrators against.",
         scope=Scope.PICTURE, where=LIVE, control="ghost",
         keys=("O / X / M", "overlays: analytic ghost / raw tick markers / motion trails")),
    Knob("overlays.tick_markers", False, "Where bodies really are at each tick, without "
         "interpolation.", "Where bodies really are at each tick, without interpolation.",
         scope=Scope.PICTURE, where=LIVE, control="tick_markers"),
    Knob("overlays.trails", False, "Motion trails behind projectiles.",
         "Motion trails behind projectiles.",
         scope=Scope.PICTURE, where=LIVE, control="trails"),
    # -- [app] ------------------------------------------------------------------------------------
    Knob("app.pause_on_focus_loss", True,
         "Pause when the window loses focus or is minimised; the hidden time is not billed.",
         "Pause when the window loses focus or is minimised; the hidden time is not billed."),
    Knob("app.screenshot_dir", "screenshots", "Where F12 saves screenshots.",
         "Where F12 saves screenshots.", check=folder, min_length=1),
    # -- [input] ----------------------------------------------------------------------------------
    Knob("input.model", "frame-edge",
         "The input model at the start (Y cycles them); split screen puts a fix beside it.",
         "How the fixed ticks see the avatar's key presses (Y cycles them while playing): "
         '"frame-edge"\n(the engines\' default: lost or doubled), "tick-poll", "latched", '
         '"counted" or "stamped".',
         choices=INPUT_MODEL_NAMES, ladder=INPUT_MODEL_NAMES, scope=Scope.LANE, where=LIVE,
         name="input_model", control="input_models", lanes=_input_lanes,
         keys=("Y", "input model: frame-edge, tick-poll, latched, counted, stamped")),
    # -- a scenario's [clock]: the virtual clock, which only a headless run has -----------------
    Knob("clock.render_fps", Fraction(144),
         "Frames per second when nothing is slow: the shortest a frame can be is 1 / render_fps.",
         unit="fps", range=Range(MAX_RENDER_FPS, at_least=1, example="144 or 59.94"),
         where=Where.CHANGE, mark="{} fps"),
    Knob("clock.render_cost_ms", Fraction(0), "What drawing one frame costs, ms.",
         unit="ms", range=Range(MAX_FRAME_COST_MS, at_least=0), where=Where.CHANGE,
         mark="render {} ms"),
    Knob("clock.jitter_ms", Fraction(0),
         "Each frame lasts up to this much longer, a whole number of ns drawn at random.",
         unit="ms", range=Range(MAX_FRAME_COST_MS, at_least=0), where=Where(0)),
    Knob("clock.jitter_seed", 0, "Seeds the jitter, so the noise is the same in every run.",
         range=Range(MAX_SEED, at_least=0), where=Where(0)),
    # -- a scenario's [display]: the virtual display (game.workshop.files.display_section) ----
    # Their names are their paths: no lesson step or change sets them.
    Knob("display.refresh_hz", Fraction(60), "How often the panel refreshes, exactly.",
         unit="Hz", range=Range(MAX_REFRESH_HZ, at_least=MIN_REFRESH_HZ, example="144 or 59.94"),
         where=Where(0), name="display.refresh_hz"),
    Knob("display.queue_depth", 2,
         "Finished frames the swap chain may hold; one more makes `present` block.",
         unit="frames", range=Range(MAX_QUEUE_DEPTH, at_least=1), where=Where(0),
         name="display.queue_depth"),
    Knob("display.phase", Fraction(37, 100),
         "Where in a refresh period the loop starts (0 to 0.99).",
         unit="refreshes", range=Range(Fraction(99, 100), at_least=0, example="0.37"),
         where=Where(0), name="display.phase"),
    # -- a lesson's clock and screen: set by a lesson step (the clock by a key too) -------------
    Knob("lesson.clock", "real",
         "Which clock runs the frames: the wall, or the lesson clock the game moves itself.",
         choices=CLOCK_NAMES, ladder=CLOCK_NAMES, where=Where.KEY | Where.LESSON, control="clock",
         keys=("D", "clock: real / lesson (each frame as long as the step says, slow motion)")),
    Knob("lesson.refresh_hz", Fraction(0),
         "The screen the lesson clock shows the frames on (0: the window's own).",
         unit="Hz", range=Range(MAX_REFRESH_HZ, at_least=0, example="144 or 165"),
         check=_off_or_a_refresh, scope=Scope.PICTURE, where=Where.LESSON, control="refresh_hz"),
    Knob("lesson.jitter_ms", Fraction(0),
         "How far past its period each frame on the lesson clock may run, seeded: a real "
         "machine's wake-up noise, which snapping and judder need to show.",
         unit="ms", range=Range(MAX_LESSON_JITTER_MS, at_least=0, example="0.5 or 1"),
         scope=Scope.PICTURE, where=Where.LESSON, control="lesson_jitter_ms"),
    Knob("clock.tick_phase", Fraction(1, 2),
         "Where steady frames end within a tick, in steps: the first frame lasts this much of a "
         "step longer. 1/2 (mid-tick) is the input table's; 0 puts frames on the tick "
         "boundary. The input lab (an input script or models) runs at it; other runs at 0 "
         "unless they set it.",
         unit="steps", range=Range(1, at_least=0, example="1/2 or 0", ratios=True),
         check=_below_one, where=Where(0)),
    # -- the live game's remote peer: a key turns it on, a lesson step sets it up ---------------
    Knob("network.enabled", False,
         "Play lane 0 against a remote peer on a simulated network, with rollback.",
         name="network", where=Where.KEY | Where.LESSON, control="network",
         keys=("; / ' / Shift+'", "network: a remote peer (rollback) on / off; latency up / down")),
    Knob("network.latency_ms", Fraction(100), "The remote peer's one-way latency.",
         unit="ms", range=Range(MAX_LIVE_LATENCY_MS, at_least=0), ladder=LATENCIES_MS,
         where=Where.KEY | Where.LESSON, control="latency_ms",
         mark="{} ms away"),
    Knob("network.input_delay", 0, "Ticks between reading an input and the tick it is for.",
         unit="ticks", range=Range(MAX_LIVE_WINDOW, at_least=0), where=Where.LESSON,
         control="input_delay"),
    Knob("network.prediction_window", DEFAULT_PREDICTION_WINDOW,
         "At most this many ticks run on predicted input; the next waits (a window stall).",
         unit="ticks", range=Range(MAX_LIVE_WINDOW, at_least=1), where=Where.LESSON,
         control="prediction_window"),
    Knob("network.time_sync", "none",
         "How the peer that is ahead slows down: not at all, GGPO's wait, GGRS's stretch.",
         choices=TIME_SYNC_MODES, where=Where.LESSON, control="time_sync"),
    Knob("network.remote_late_ms", Fraction(0),
         "The remote joined this much after us: we run that far ahead of it (time sync's job).",
         unit="ms", range=Range(MAX_LIVE_LATENCY_MS, at_least=0), where=Where.LESSON,
         control="remote_late_ms"),
    Knob("network.remote_flips_per_s", Fraction(2),
         "How often, on average, the remote player flips the cannon's trigger.",
         unit="per s", range=Range(1000, at_least=0), where=Where.LESSON,
         control="remote_flips_per_s"),
    # -- live only: turned while playing, never from a file ---------------------------------------
    Knob("live.paused", False, "The simulation is paused (P): no time is billed.",
         where=Where.KEY | Where.CHANGE, control="paused", keys=("P", "pause / resume")),
    Knob("live.focus_lane", 0, "Which lane the policy keys change in split screen.",
         scope=Scope.PICTURE, where=Where.KEY, control="focus_lane",
         keys=("B", "split screen: which half the policy keys change")),
    Knob("live.smear_teleports", False,
         "A right-drag teleports without resetting the previous buffer: the smear, on purpose.",
         scope=Scope.PICTURE, where=Where.KEY, control="smear_teleports",
         keys=("J", "teleports: reset the previous state (jump) / leave it (smear)")),
)  # fmt: skip
"""Grouped by section, in the order of `configs/default.toml`."""


def knobs_where(where: Where) -> Iterator[Knob]:
    """The knobs that may be set `where`, in the table's order."""
    return (knob for knob in KNOBS if where in knob.where)


def knob_at(path: str) -> Knob:
    """The row of `section.key`."""
    return next(knob for knob in KNOBS if knob.path == path)


def knobs_of(section: str) -> tuple[Knob, ...]:
    """The knobs of one `[section]`, in the table's order."""
    return tuple(knob for knob in KNOBS if knob.section == section)


def config_sections() -> tuple[str, ...]:
    """The sections of a config file, in order."""
    return tuple(dict.fromkeys(knob.section for knob in knobs_where(Where.CONFIG)))


CONTROL_KNOBS: dict[str, Knob] = {knob.control: knob for knob in KNOBS if knob.control}
"""The live controls, each with its knob, by `Controls` field name."""
PICTURE_ONLY: frozenset[str] = frozenset(
    name for name, knob in CONTROL_KNOBS.items() if knob.scope is Scope.PICTURE
)
"""Controls that change only what is drawn, or what the next key or drag will send: they never
touch a scheduler or a world, so they take effect at once, even in the middle of a frame."""
BY_SHORT_NAME: dict[str, Knob] = {knob.short: knob for knob in KNOBS}
"""Each knob by the name a lesson step or a scenario change gives it."""
