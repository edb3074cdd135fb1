"""What the knob table's rows refer to: the limits restated in a config file's units, the
ladders a key climbs that the vocabulary does not hold, and the checks and lane spreaders a row
names (`game.knobs.table`)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from game.display.model import MAX_REFRESH_HZ, MIN_REFRESH_HZ
from game.knobs.knob import FILE, Where
from game.vocabulary import (
    RENDER_CAPS,
)
from timestep_lab import (
    MAX_BACKLOG_LIMIT_NS,
    MAX_FRAME_LIMIT_NS,
    MAX_STEP_NS,
    MIN_STEP_NS,
    NS_PER_MS,
    NS_PER_SECOND,
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


def one_lane(value: Any) -> tuple[Any, ...]:
    return (value,)


def both_lanes(value: Any) -> tuple[Any, ...]:
    return (value, value)


def input_lanes(value: Any) -> tuple[Any, ...]:
    return (value, partner_input_model(value))


def off_or_a_refresh(value: Fraction) -> Fraction:
    """0 (the window's own refresh) or a refresh rate a display has."""
    if 0 < value < MIN_REFRESH_HZ:
        raise ValueError(
            f"must be 0 (the window's own) or from {MIN_REFRESH_HZ} to {MAX_REFRESH_HZ} Hz"
        )
    return value


def below_one(value: Fraction) -> Fraction:
    """A phase within one step: 1 would be the boundary again, a whole step late."""
    if value >= 1:
        raise ValueError("must be less than 1 (one whole step is the tick boundary again)")
    return value
