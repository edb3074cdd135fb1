"""Every setting that takes one of a few values, named once.

The scheduler owns its policies and alpha modes, the world its integrators, interpolation modes
and precisions: each list below is read off the code that gives the values their meaning, so a
new policy or integrator appears everywhere at once. The ladders the keys climb (tick rates,
time scales, step costs, render caps) are defined here. The config model, the keys, the lessons,
the scenarios, the command line and the documentation's tables all take their choices from this
module.
"""

from __future__ import annotations

import string
from fractions import Fraction

from game.world.integrators import INTEGRATORS
from game.world.render_view import InterpolationMode
from game.world.settings import PRECISIONS
from timestep_lab import CONDITIONERS, POLICIES, AlphaMode

POLICY_NAMES: tuple[str, ...] = tuple(POLICIES)
"""The overload policies, in the order of the keys 1-6 and of Tab."""
ALPHA_MODES: tuple[str, ...] = tuple(mode.value for mode in AlphaMode)
INTEGRATOR_NAMES: tuple[str, ...] = tuple(INTEGRATORS)
"""In the order E cycles through them."""
INTERPOLATION_NAMES: tuple[str, ...] = tuple(mode.value for mode in InterpolationMode)
"""In the order I cycles through them."""
PRECISION_NAMES: tuple[str, ...] = PRECISIONS

TICK_RATES: tuple[Fraction, ...] = (Fraction(10), Fraction(30), Fraction(60), Fraction(120))
"""The rates T cycles through. A config file may ask for any rate between the limits."""
TIME_SCALES: tuple[Fraction, ...] = (
    Fraction(1, 8), Fraction(1, 4), Fraction(1, 2), Fraction(1), Fraction(2), Fraction(4),
)  # fmt: skip
"""The rungs [ and ] move along. A config file may ask for any scale between the limits."""
STEP_COSTS_MS: tuple[Fraction, ...] = tuple(
    Fraction(ms) for ms in (0, 1, 2, 4, 8, 12, 16, 20, 25, 30, 40)
)
"""Busy-wait per tick, the rungs C and Shift+C move along. At 60 Hz (16.7 ms a step), 12 ms
leaves room for the frame's drawing; 16 ms fits the step on its own but not with the drawing, so
some frames owe two ticks and the overload light comes on; 20 ms does not fit at all: that is
the spiral."""
RENDER_CAPS: tuple[int, ...] = (30, 50, 60, 72, 75, 144, 165, 240, 0)
"""Render-rate caps in the order F cycles through them; 0 means uncapped. 50, 72, 75 and 165
do not divide a 60 Hz tick rate, so they make judder on any monitor."""
CONDITIONING_NAMES: tuple[str, ...] = tuple(CONDITIONERS)
"""Delta-time conditioning modes, in the order U cycles through them."""
REFRESH_RATES: tuple[Fraction, ...] = tuple(
    Fraction(hz) for hz in ("59.94", "60", "75", "120", "144", "165", "240")
)
"""Common display refresh rates: the judder table's columns, and the live game's guesses."""

CLOCK_NAMES: tuple[str, ...] = ("real", "lesson")
"""Which clock runs the frames (`game.clock.lesson`), in the order D cycles them: the wall, or
the lesson clock the game moves itself (each frame as long as the step says, in slow motion)."""
INPUT_MODEL_NAMES: tuple[str, ...] = ("frame-edge", "tick-poll", "latched", "counted", "stamped")
"""How a fixed tick sees the player's presses (`game.session.input_models`), in the order Y
cycles through them: the engines' default bug first, then the fixes."""
TAP_BUTTONS: tuple[str, ...] = ("jump", "dash")
"""Buttons pressed for one action each: their presses are counted (seen, lost, doubled...)."""
HELD_BUTTONS: tuple[str, ...] = ("left", "right")
"""Buttons held for as long as the action lasts: the avatar runs while one is down."""
KEY_NAMES: tuple[str, ...] = (
    *string.ascii_lowercase, *string.digits, *(f"f{n}" for n in range(1, 13)),
    "space", "tab", "escape", "esc", "return", "enter", "period", ".", "minus", "-", "equals",
    "=", "[", "]", "left", "right", "up", "down", "backspace", "semicolon", ";", "quote", "'",
    *(f"kp{n}" for n in range(10)), "kp_minus", "kp_plus",
)  # fmt: skip
"""The keys a script line or a lesson step's `press` may name ("e", "period", "f12")."""
KEY_MODIFIERS: tuple[str, ...] = ("shift", "ctrl")
"""Modifiers written before a key name, joined by "+": "shift+s", "ctrl+s"."""

HUD_ROWS: tuple[str, ...] = (
    "status", "policy", "tick rate", "cap M", "F / B", "steps", "alpha", "remainder", "backlog",
    "this frame", "last 1 s", "total",
    "counted from", "tick", "sim / wall", "owed", "lag", "time scale", "state",
    "input model", "presses · seen", "lost / doubled", "merged", "last press", "wait+interp+flip",
    "interpolation", "alpha mode", "integrator", "bodies",
    "clock", "capture", "fps", "render cap", "frame", "work", "step cost",
    "refresh", "ticks/refresh", "judder", "pos. error", "conditioning", "to photons",
    "latency", "time sync", "new ticks", "re-simulated", "rollback depth", "depth/frame",
    "pred. misses", "window stalls",
    "graphs",
)  # fmt: skip
"""What a lesson step may name in its `watch` list: the stats panel's rows, by their labels
(`game.hud.stats`, `game.hud.input_rows`, `game.hud.display_rows`), and the graphs. The HUD
keeps a watched row on screen in every mode and at every size; a test checks this list against
the panel's labels."""

CLAIM_MEASURES: tuple[str, ...] = (
    "frame_ms",
    "frame_ms_max",
    "frame_growth",
    "fps",
    "step_ms",
    "ticks_max",
    "ticks_off_pct",
    "dropped_ms",
    "resimulated",
    "rollback_depth_max",
    "window_stalls",
    "backlog_max",
    "alpha_max",
    "carry_ms_max",
    "behind_ms_max",
    "latency_ms",
    "pictures_per_s",
    "judder_pct",
    "presses",
    "lost_pct",
    "doubled_pct",
    "merged_pct",
)
"""The figures a lesson step may claim, by name; each is measured from the step's demo
(`game.workshop.claims.measures.MEASURES`, which a test keeps to these names)."""
MEASURES_FOR_A_SCREEN: frozenset[str] = frozenset({"judder_pct"})
"""The claimable figures measured for a screen: their claims name its `refresh_hz`."""
