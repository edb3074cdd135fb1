"""Scheduler figures: the cost of `advance()` per policy, and exactness over long runs.

Baseline: the naive 5-line float accumulator (`game.scheduler.naive`), measured in the same run.
"""

from __future__ import annotations

import functools
import itertools
import random
import statistics
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from bench.harness import Section, median_ns_per_call, us, verdict
from game.scheduler.naive import NaiveFloatAccumulator
from timestep_lab import POLICIES, FixedStepScheduler, SchedulerSettings

FRAME_NS = 16_666_667  # a 60 fps frame, as a real clock would report it
TARGET_DROP_NS = 3_000


def advance_cost(quick: bool) -> Section:
    number, rounds = (2_000, 5) if quick else (20_000, 31)
    section = Section(
        title="Scheduler: `advance()` cost per frame",
        intro=(
            f"Median time of one `advance({FRAME_NS})` call at 60 Hz, beside the naive float "
            f"accumulator on the same frames: {rounds} rounds, in each of which every contender "
            f"runs a batch of {number:,} frames in turn, so a noisy moment on this shared "
            f"machine hits them all alike. Target: <= {TARGET_DROP_NS / 1000:g} us per frame "
            "for `drop`."
        ),
        columns=["policy", "median per frame", "naive float accumulator", "ratio", "target"],
    )
    naive = NaiveFloatAccumulator(1 / 60, max_steps=5)

    def naive_frame() -> int:
        return naive.steps_for(FRAME_NS / 1e9)

    contenders: dict[str, Callable[[], object]] = {"naive": naive_frame}
    for name in POLICIES:
        clock = FixedStepScheduler(SchedulerSettings.at_hz(60, policy=name))
        contenders[name] = functools.partial(clock.advance, FRAME_NS)
    batches: dict[str, list[float]] = {name: [] for name in contenders}
    for _ in range(rounds):
        for name, frame in contenders.items():
            batches[name].append(median_ns_per_call(frame, number=number, repeat=1))
    naive_ns = statistics.median(batches["naive"])
    for name in POLICIES:
        cost = statistics.median(batches[name])
        target = verdict(cost <= TARGET_DROP_NS) if name == "drop" else ""
        section.add(name, us(cost), us(naive_ns), f"{cost / naive_ns:.1f}x", target)
    section.notes.append(
        "The exact scheduler does more per frame than the float loop (an overload light, a full "
        "`StepPlan` with its own ledger), and still costs about 0.01% of a 16.7 ms frame."
    )
    return section


@dataclass(frozen=True, slots=True)
class LongRun:
    label: str
    hz: int
    frames: Callable[[], Iterator[int]]
    """A fresh stream of frame durations (ns): long runs are streamed, never stored."""


def _repeated(frame_ns: int, count: int) -> Callable[[], Iterator[int]]:
    return lambda: itertools.repeat(frame_ns, count)


def _uneven_day(seed: int) -> Iterator[int]:
    """24 h of frames between 4 ms and 40 ms (whole microseconds), from a fixed seed."""
    rng = random.Random(seed)
    left = 86_400 * 10**9
    while left > 0:
        frame = min(rng.randint(4_000, 40_000) * 1_000, left)
        left -= frame
        yield frame


def _paced_day(fps: int) -> Iterator[int]:
    """24 h at `fps`, frames ending on exact 1/fps s boundaries floored to whole ns (the
    virtual clock's frames): 6,944,444 or 6,944,445 ns at 144 fps."""
    previous = 0
    for frame in range(1, 86_400 * fps + 1):
        boundary = frame * 10**9 // fps
        yield boundary - previous
        previous = boundary


def exactness(quick: bool) -> Section:
    section = Section(
        title="Scheduler: exactness over long runs",
        intro=(
            "Ticks and per-frame step counts, exact scheduler vs the naive float accumulator "
            "(seconds in a double, `while acc >= dt: acc -= dt`), on the same frames. The "
            "expected ticks are floor(total time / step), computed exactly."
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
    runs = [
        LongRun("100 ms frames at 50 Hz", 50, _repeated(100_000_000, 10_000)),
        LongRun("50 ms frames at 144 Hz", 144, _repeated(50_000_000, 10_000)),
    ]
    if not quick:
        runs.append(LongRun("24 h of uneven 4-40 ms frames, 60 Hz", 60, lambda: _uneven_day(2026)))
        runs.append(LongRun("24 h at 144 fps (exact frame boundaries), 60 Hz", 60,
                            lambda: _paced_day(144)))  # fmt: skip
    for run_ in runs:
        exact = FixedStepScheduler(SchedulerSettings.at_hz(run_.hz, policy="uncapped"))
        naive = NaiveFloatAccumulator(1 / run_.hz)
        frames = total_ns = exact_ticks = float_ticks = wrong = 0
        for frame_ns in run_.frames():
            steps = exact.advance(frame_ns).steps
            float_steps = naive.steps_for(frame_ns / 1e9)
            frames += 1
            total_ns += frame_ns
            exact_ticks += steps
            float_ticks += float_steps
            wrong += steps != float_steps
        expected = total_ns * run_.hz // 10**9
        section.add(
            run_.label,
            f"{frames:,}",
            f"{expected:,}",
            f"{exact_ticks:,}",
            f"{float_ticks:,}",
            f"{wrong:,}",
        )
    section.notes.append(
        "The float accumulator goes wrong where a frame boundary falls exactly on a tick "
        "boundary (100 ms frames at 50 Hz, 50 ms frames at 144 Hz): there a rounding error of "
        "1e-17 s decides which side it lands on, and one tick is lost for good. In the two "
        "days such coincidences are rare (random whole-microsecond frames meet a tick boundary "
        "only when their sum is a multiple of 50 ms) or impossible (1/144 s floored to whole "
        "nanoseconds always ends a third of a nanosecond off a 60 Hz tick), and this time the "
        "float loop landed on the right side every time. The exact scheduler does not depend "
        "on where the boundaries fall: it is right in every case, by construction."
    )
    return section


def run(quick: bool) -> list[Section]:
    return [advance_cost(quick), exactness(quick)]
