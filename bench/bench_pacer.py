"""Pacer figures: how evenly `FramePacer` holds 60 and 144 fps, beside `pygame.time.Clock`.

Each frame does 1 to 3 ms of real CPU work (a busy wait drawn from a seeded generator) and
flips a small window on the dummy video driver, then the pacer under test ends the frame. The
interval between two frame ends is what a player sees. Baselines, measured the same way in the
same run: `Clock.tick(fps)` and `Clock.tick_busy_loop(fps)`.
"""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import itertools
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass

import pygame

from bench.harness import Section, ms, verdict
from game.app.pacer import FramePacer, SleepMargin
from game.clock.wall import WallClock
from timestep_lab import NS_PER_MS, NS_PER_SECOND

TARGET_MEAN_ERROR = 0.005
"""The mean interval within 0.5% of the period."""
TARGET_STDEV_NS = 200_000
"""Standard deviation of the intervals at most 0.2 ms."""
WORK_NS = (1 * NS_PER_MS, 3 * NS_PER_MS)
WARM_UP_FRAMES = 10
ON_TIME_NS = 100_000
"""An interval within 0.1 ms of the period counts as on time."""
PACER = "FramePacer"


@dataclass(frozen=True, slots=True)
class Figures:
    """How regular a run of frame intervals was (or the medians of several runs)."""

    mean_ns: float
    stdev_ns: float
    p99_ns: float
    on_time: float
    """The share of intervals within `ON_TIME_NS` of the period."""
    error: float
    """Relative error of the mean interval against the period (+ means too slow)."""
    cpu: float
    """CPU time over wall time: the frames' own 1-3 ms of work plus whatever the waiting burnt."""

    @classmethod
    def of(cls, intervals: list[int], fps: int, cpu: float) -> Figures:
        period = NS_PER_SECOND / fps
        mean = statistics.fmean(intervals)
        on_time = sum(1 for value in intervals if abs(value - period) <= ON_TIME_NS)
        return cls(
            mean_ns=mean,
            stdev_ns=statistics.stdev(intervals),
            p99_ns=statistics.quantiles(intervals, n=100)[98],
            on_time=on_time / len(intervals),
            error=mean / period - 1,
            cpu=cpu,
        )

    @classmethod
    def median_of(cls, runs: list[Figures]) -> Figures:
        return cls(
            mean_ns=statistics.median(run.mean_ns for run in runs),
            stdev_ns=statistics.median(run.stdev_ns for run in runs),
            p99_ns=statistics.median(run.p99_ns for run in runs),
            on_time=statistics.median(run.on_time for run in runs),
            error=statistics.median(run.error for run in runs),
            cpu=statistics.median(run.cpu for run in runs),
        )

    @property
    def targets_met(self) -> bool:
        return abs(self.error) <= TARGET_MEAN_ERROR and self.stdev_ns <= TARGET_STDEV_NS


def measure(
    screen: pygame.Surface,
    fps: int,
    seconds: float,
    end_frame: Callable[[], object],
    clock: WallClock,
    seed: int,
) -> Figures:
    """Run frames of seeded work, each ended by `end_frame`, for `seconds` of frames."""
    rng = random.Random(seed)
    ends: list[int] = []
    cpu_start = 0
    for frame in range(WARM_UP_FRAMES + round(seconds * fps)):
        if frame == WARM_UP_FRAMES:
            cpu_start = time.process_time_ns()
        clock.busy_wait_ns(rng.randint(*WORK_NS))
        pygame.event.pump()
        screen.fill((20, 24, 32))
        pygame.display.flip()
        end_frame()
        ends.append(clock.now_ns())
    steady = ends[WARM_UP_FRAMES - 1 :]
    cpu = (time.process_time_ns() - cpu_start) / (steady[-1] - steady[0])
    return Figures.of([later - earlier for earlier, later in itertools.pairwise(steady)], fps, cpu)


def frame_enders(fps: int, clock: WallClock) -> tuple[FramePacer, dict[str, Callable[[], object]]]:
    """Fresh ways to end a frame, for one run: the pacer (returned too, to read its margin), the
    pacer told never to sleep, and the two `pygame.time.Clock` baselines."""
    paced = FramePacer(fps)
    spinning = FramePacer(fps, margin=SleepMargin.fixed(NS_PER_SECOND))
    tick, busy = pygame.time.Clock(), pygame.time.Clock()
    return paced, {
        PACER: lambda: paced.wait(clock),
        "FramePacer, spin only": lambda: spinning.wait(clock),
        f"Clock.tick({fps})": lambda: tick.tick(fps),
        f"Clock.tick_busy_loop({fps})": lambda: busy.tick_busy_loop(fps),
    }


def _add_rate(
    section: Section,
    screen: pygame.Surface,
    clock: WallClock,
    fps: int,
    seconds: float,
    repeat: int,
) -> None:
    """One render rate's rows, each way of ending a frame taking turns `repeat` times, and a
    note of what the pacer learnt."""
    runs: dict[str, list[Figures]] = {}
    margins, reanchors = [], 0
    for attempt in range(repeat):
        pacer, enders = frame_enders(fps, clock)
        for name, end_frame in enders.items():
            result = measure(screen, fps, seconds, end_frame, clock, attempt)
            runs.setdefault(name, []).append(result)
        margins.append(pacer.margin.ns / NS_PER_MS)
        reanchors += pacer.reanchors
    for name, figures in runs.items():
        median = Figures.median_of(figures)
        ours = name == PACER
        met = sum(1 for result in figures if result.targets_met)
        section.add(
            fps,
            name,
            ms(median.mean_ns),
            f"{NS_PER_SECOND / median.mean_ns:.2f}",
            f"{median.error:+.3%}",
            ms(median.stdev_ns),
            ms(median.p99_ns),
            f"{median.on_time:.1%}",
            f"{median.cpu:.0%}",
            f"{met}/{len(figures)}" if ours else "",
            verdict(median.targets_met) if ours else "",
        )
    section.notes.append(
        f"At {fps} fps the pacer's learnt sleep margin ended its runs at "
        f"{', '.join(f'{margin:.2f}' for margin in margins)} ms; stalls that re-anchored "
        f"its schedule: {reanchors}."
    )


def accuracy(quick: bool) -> Section:
    seconds, repeat = (1.0, 1) if quick else (3.0, 5)
    section = Section(
        title="Pacer: frame interval accuracy at 60 and 144 fps",
        intro=(
            f"Intervals between frame ends in runs of {seconds:g} s, each frame doing 1-3 ms of "
            "seeded busy work and a flip on the dummy driver. The four ways of ending a frame "
            f"take turns, {repeat} run(s) each; every figure is the median over the runs. "
            f"Targets for `FramePacer`: mean within {TARGET_MEAN_ERROR:.1%} of the period and "
            f"standard deviation <= {TARGET_STDEV_NS / NS_PER_MS:g} ms. CPU busy is process CPU "
            "time over wall time, the frames' own 1-3 ms of work included."
        ),
        columns=[
            "fps",
            "frames ended by",
            "mean interval",
            "effective fps",
            "mean error",
            "stdev",
            "p99",
            f"within {ON_TIME_NS // 1_000} us of the period",
            "CPU busy",
            "runs meeting targets",
            "targets (medians)",
        ],
    )
    pygame.display.init()
    screen = pygame.display.set_mode((320, 180))
    clock = WallClock()
    try:
        for fps in (60, 144):
            _add_rate(section, screen, clock, fps, seconds, repeat)
    finally:
        pygame.display.quit()
    section.notes.append(
        "`Clock.tick(60)` budgets int(1000 / 60) = 16 ms a frame, counted in whole milliseconds "
        "from its previous return: about 62 fps instead of 60. `tick_busy_loop` spins the whole "
        "frame on a core and lands on 16.000 ms: precise, and precisely wrong. The pacer's "
        "deadlines are exact nanoseconds from one anchor, so its mean is exact. Its spread is at "
        "the mercy of the machine: now and then the OS wakes a sleeper 1-4 ms late, or another "
        "process takes the CPU mid-frame, and one such frame can push a 3 s run past 0.2 ms; "
        "hence the count of runs that met the targets beside the medians. `spin only` is the "
        "same pacer with a margin longer than a frame: what never sleeping buys, and its cost."
    )
    return section


def run(quick: bool) -> list[Section]:
    return [accuracy(quick)]
