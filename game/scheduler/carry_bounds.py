"""What each conditioning mode promises about its carry, and a vsynced loop's frames to hold it to.

The conditioning modes (`timestep_lab.CONDITIONERS`) move measured time between frames through
one account, the carry. Each promises a bound on abs(carry); `carry_bound` states it, so the
suite's day of frames (`tests/test_scheduler_conditioning.py`) and the full-rate day in
`bench/bench_day.py` check the same promise against the same frames (`vsync_frames`).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from fractions import Fraction

from game.clock.virtual import FrameJitter
from timestep_lab import NS_PER_SECOND, SchedulerSettings


def vsync_frames(
    refresh_hz: Fraction, seconds: int, wake_jitter_ns: int, stall_every: int, stall_ns: int
) -> Iterator[int]:
    """Measured deltas of a vsynced loop: a vblank grid read with wake-up noise (which does not
    pile up) and, every `stall_every` frames, one stall; all floored to whole ns, as a clock."""
    period = NS_PER_SECOND / refresh_hz
    jitter = FrameJitter(wake_jitter_ns, seed=11)
    phase = period * Fraction(37, 100)
    now, read, frame = Fraction(0), 0, 0
    while now < seconds * NS_PER_SECOND:
        frame += 1
        now += period + (stall_ns if frame % stall_every == 0 else 0)
        reading = (now + phase).__floor__() + jitter.draw_ns()
        yield reading - read
        read = reading


def carry_bound(mode: str, settings: SchedulerSettings, recent: deque[int]) -> int:
    """The bound each mode promises for abs(conditioning carry) (conditioning.py's docstring);
    `recent` holds the last measured deltas, which `average` spreads."""
    if mode == "raw":
        return 0
    if mode == "snap":
        return int(settings.snap_tolerance_ns) + 1
    if mode == "average":
        n = settings.average_frames
        return int((n - 1) * max(recent, default=0) / 2) + 1
    return int(settings.jitter_fix * settings.step_ns / settings.time_scale)
