"""Scheduler figures: the cost of `advance()` per policy, and exactness over long runs.

Baseline: the naive 5-line float accumulator (`game.scheduler.naive`), measured in the same run.
"""

from __future__ import annotations

import random
from fractions import Fraction

from bench.harness import Section, median_ns_per_call, us, verdict
from game.scheduler.naive import NaiveFloatAccumulator
from game.scheduler.policies import POLICIES
from game.scheduler.scheduler import FixedStepScheduler
from game.scheduler.settings import SchedulerSettings

FRAME_NS = 16_666_667  # a 60 fps frame, as a real clock would report it
TARGET_DROP_NS = 3_000


def advance_cost(quick: bool) -> Section:
    number, repeat = (2_000, 5) if quick else (20_000, 31)
    section = Section(
        title="Scheduler: `advance()` cost per frame",
        intro=(
            f"Median time of one `advance({FRAME_NS})` call at 60 Hz ({repeat} batches of "
            f"{number:,} frames), beside the naive float accumulator on the same frames. "
            f"Target: <= {TARGET_DROP_NS / 1000:g} us per frame for `drop`."
        ),
        columns=["policy", "median per frame", "naive float accumulator", "ratio", "target"],
    )
    naive = NaiveFloatAccumulator(1 / 60, max_steps=5)
    naive_ns = median_ns_per_call(
        lambda: naive.advance(FRAME_NS / 1e9), number=number, repeat=repeat
    )
    for name in POLICIES:
        clock = FixedStepScheduler(SchedulerSettings.at_hz(60, policy=name))
        cost = median_ns_per_call(lambda c=clock: c.advance(FRAME_NS), number=number, repeat=repeat)
        target = verdict(cost <= TARGET_DROP_NS) if name == "drop" else ""
        section.add(name, us(cost), us(naive_ns), f"{cost / naive_ns:.1f}x", target)
    section.notes.append(
        "The exact scheduler does more per frame than the float loop (an overload light, a full "
        "`StepPlan` with its own ledger), and still costs about 0.01% of a 16.7 ms frame."
    )
    return section


def _exact_counts(hz: int, frames_ns: list[int]) -> list[int]:
    clock = FixedStepScheduler(SchedulerSettings.at_hz(hz, policy="uncapped"))
    return [clock.advance(frame).steps for frame in frames_ns]


def _float_counts(hz: int, frames_ns: list[int]) -> list[int]:
    accumulator = NaiveFloatAccumulator(1 / hz)
    return [accumulator.advance(frame / 1e9) for frame in frames_ns]


def _uneven_day(seed: int) -> list[int]:
    """24 h of frames between 4 ms and 40 ms (whole microseconds), from a fixed seed."""
    rng = random.Random(seed)
    frames, total = [], 0
    day = 86_400 * 10**9
    while total < day:
        frame = min(rng.randint(4_000, 40_000) * 1_000, day - total)
        frames.append(frame)
        total += frame
    return frames


def exactness(quick: bool) -> Section:
    section = Section(
        title="Scheduler: exactness over long runs",
        intro=(
            "Ticks and per-frame step counts, exact scheduler vs the naive float accumulator "
            "(seconds in a double, `while acc >= dt: acc -= dt`), on the same frames. The "
            "expected ticks are floor(total time / step), computed with `Fraction`."
        ),
        columns=[
            "run",
            "frames",
            "expected ticks",
            "exact scheduler",
            "float accumulator",
            "frames with a wrong step count (float)",
        ],
    )
    runs: list[tuple[str, int, list[int]]] = [
        ("100 ms frames at 50 Hz", 50, [100_000_000] * 10_000),
        ("50 ms frames at 144 Hz", 144, [50_000_000] * 10_000),
    ]
    if not quick:
        runs.append(("24 h of uneven 4-40 ms frames at 60 Hz", 60, _uneven_day(2026)))
    for label, hz, frames in runs:
        expected = int(Fraction(sum(frames)) / Fraction(10**9, hz))
        exact, floating = _exact_counts(hz, frames), _float_counts(hz, frames)
        wrong = sum(1 for e, f in zip(exact, floating, strict=True) if e != f)
        section.add(
            label,
            f"{len(frames):,}",
            f"{expected:,}",
            f"{sum(exact):,}",
            f"{sum(floating):,}",
            f"{wrong:,}",
        )
    return section


def run(quick: bool) -> list[Section]:
    return [advance_cost(quick), exactness(quick)]
