"""A day at 60 Hz: 24 h of vsynced frames per conditioning mode, every frame checked.

The suite's test (`tests/test_scheduler_conditioning.py`) runs a day scaled down 60 times (a
1 Hz display, 86,400 frames) so that it takes seconds. This runs the day at full rate: a 60 Hz
display and a 60.06 Hz tick (the slow drift that makes raw deltas cross tick boundaries), up to
0.33 ms of wake-up noise, a 5 s stall every hour; 5,177,100 frames per mode (each stall takes
the place of 300), each plan checked
with `balances` and its conditioning account against the mode's stated bound, with the same
frame generator and bound as the test. The modes run in parallel on the stdlib process pool.

Baseline, measured in the same run: the same frames through `raw` (no conditioning), whose
time per frame is the cost of the scheduler and the books alone.
"""

from __future__ import annotations

import time
from collections import deque
from concurrent.futures import ProcessPoolExecutor
from fractions import Fraction

from bench.harness import Section, verdict
from game.limits import MAX_RUN_FRAMES
from game.scheduler.carry_bounds import carry_bound, vsync_frames
from timestep_lab import (
    CONDITIONERS,
    NS_PER_SECOND,
    FixedStepScheduler,
    SchedulerSettings,
    TimeBooks,
    hz_to_step_ns,
)

DAY_S = 86_400
COMMAND = "python -m bench --only day --write"
COLUMNS = ["mode", "frames", "worst carry", "its bound", "every frame ok", "CPU s", "us / frame"]
COLUMNS.append("x raw")


def one_day(mode: str, seconds: int) -> tuple[str, int, int, int, bool, float]:
    """(mode, frames, worst |carry| ns, its bound, every frame balanced and bounded, CPU s)."""
    start = time.process_time()
    settings = SchedulerSettings(
        step_ns=hz_to_step_ns(Fraction(6006, 100)),
        max_frame_ns=Fraction(10 * NS_PER_SECOND),
        conditioning=mode,
        refresh_ns=hz_to_step_ns(60),
    )
    scheduler = FixedStepScheduler(settings)
    books = TimeBooks()
    recent: deque[int] = deque(maxlen=settings.average_frames - 1)
    frames = worst = bound = 0
    ok = True
    for measured in vsync_frames(Fraction(60), seconds, 333_333, 216_000, 5 * NS_PER_SECOND):
        plan = scheduler.advance(measured)
        recent.append(measured)
        books.record(plan)
        carry = abs(plan.conditioning_carry_ns)
        limit = carry_bound(mode, settings, recent)
        ok = ok and plan.balances and carry <= limit
        if carry > worst:
            worst, bound = int(carry), limit
        frames += 1
    ok = ok and books.ledger_ok and books.wall_ns >= seconds * NS_PER_SECOND
    ok = ok and books.wall_ns - books.paused_ns == books.counted_ns + books.conditioning_carry_ns
    return mode, frames, worst, bound, ok, time.process_time() - start


def run(quick: bool) -> list[Section]:
    seconds = 3_600 if quick else DAY_S
    section = Section(
        f"A day of frames at 60 Hz per conditioning mode ({seconds:,} s each)",
        "Every frame's plan balances with `==` and its conditioning account stays within the "
        "mode's stated bound (docs/display.md); `raw` is the baseline (no conditioning). "
        "It calls the scheduler directly, not a command: a day of frames is far past what one "
        f"command may run (`MAX_RUN_FRAMES`, {MAX_RUN_FRAMES:,}). Command: `{COMMAND}`.",
        COLUMNS,
    )
    wall = time.perf_counter()
    with ProcessPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(one_day, CONDITIONERS, [seconds] * len(CONDITIONERS)))
    wall = time.perf_counter() - wall
    raw_us = next(cpu / frames * 1e6 for mode, frames, *_, cpu in results if mode == "raw")
    for mode, frames, worst, bound, ok, cpu in results:
        per_frame = cpu / frames * 1e6
        section.add(
            mode,
            f"{frames:,}",
            f"{worst / 1e6:.3f} ms",
            f"{bound / 1e6:.3f} ms",
            verdict(ok),
            f"{cpu:.0f}",
            f"{per_frame:.1f}",
            f"{per_frame / raw_us:.1f}",
        )
    section.notes.append(f"Wall time for all four on 2 worker processes: {wall:.0f} s.")
    return [section]
