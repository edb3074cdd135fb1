"""`analyse`: every policy at every tick rate on one capture's frames, open loop and headroom.

The open-loop runs are numpy work on the whole capture, done here; the headroom's closed-loop
runs go frame by frame (`headroom`), so they go to worker processes (`workers`, as jobs:
`game.jobs`), handed out
before anything else starts (a process is forked from a single thread), and run while the
open-loop runs are made here. Every run is deterministic: the results do not depend on the
number of workers.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from game.jobs import Jobs, local_jobs
from game.workshop.captures.frame_times import FrameTimes
from game.workshop.captures.headroom import Headroom, find_headroom, heaviest_stretch
from game.workshop.captures.open_loop import run_open_loop
from game.workshop.captures.policy_figures import PolicyFigures, figures_of
from timestep_lab import SchedulerSettings


@dataclass(frozen=True, slots=True)
class PolicyResult:
    """One policy at one tick rate: its figures, its headroom (None when not measured) and,
    when kept for the per-frame CSV and the figures, the ticks each frame ran."""

    settings: SchedulerSettings
    figures: PolicyFigures
    headroom: Headroom | None
    steps: NDArray[np.int64] | None


@dataclass(frozen=True, slots=True)
class Analysis:
    """What `analyse` asks for: the tick rates' settings (each with its policy to be replaced),
    the policies, and how much of the work to do."""

    rates: Sequence[SchedulerSettings]
    policies: Sequence[str]
    headroom_frames: int
    """The heaviest stretch's length for the headroom (0: no headroom)."""
    keep_steps: bool = False
    workers: int = 1


def analyse(
    times: FrameTimes, asked: Analysis, done: Callable[[float], None] | None = None
) -> list[list[PolicyResult]]:
    """Per tick rate, per policy, in the order asked; `done(runs_finished)` moves a bar."""
    chosen = [[rate.with_changes(policy=p) for p in asked.policies] for rate in asked.rates]
    every = [settings for rate in chosen for settings in rate]
    finished = 0

    def one_more() -> None:
        nonlocal finished
        finished += 1
        if done is not None:
            done(finished)

    results: list[list[PolicyResult]] = []
    with _Headrooms(times, every, asked.headroom_frames, asked.workers) as headrooms:
        for rate in chosen:
            row = []
            for settings in rate:
                row.append(_open_loop(times, settings, asked.keep_steps))
                one_more()
            results.append(row)
        measured = iter(headrooms.results(one_more))
        results = [[_with(result, next(measured)) for result in row] for row in results]
    return results


def _open_loop(times: FrameTimes, settings: SchedulerSettings, keep_steps: bool) -> PolicyResult:
    """One open-loop run's figures; its arrays are let go on return (but the steps, if kept),
    so that one run's arrays are held at a time, not two."""
    run = run_open_loop(times.elapsed_ns, settings)
    steps = run.steps if keep_steps else None
    return PolicyResult(settings, figures_of(run, times), None, steps)


def _with(result: PolicyResult, headroom: Headroom | None) -> PolicyResult:
    return PolicyResult(result.settings, result.figures, headroom, result.steps)


def _measure(task: tuple[NDArray[np.int64], SchedulerSettings]) -> Headroom:
    return find_headroom(*task)


class _Headrooms:
    """The headroom of every settings value, on worker processes when there are several (the
    one pool of `game.worker_pool`: a stop or a dead worker stops them all)."""

    def __init__(
        self, times: FrameTimes, every: list[SchedulerSettings], frames: int, workers: int
    ) -> None:
        stretch = heaviest_stretch(times.elapsed_ns, frames) if frames else None
        self.tasks = [(stretch, settings) for settings in every] if stretch is not None else []
        self.workers = max(1, min(workers, len(self.tasks)))
        self._pool = contextlib.ExitStack()
        self._jobs: Jobs[tuple[NDArray[np.int64], SchedulerSettings], Headroom] | None = None
        self.count = len(every)

    def __enter__(self) -> _Headrooms:
        with contextlib.ExitStack() as entering:  # a failed hand-over leaves the jobs too
            self._jobs = entering.enter_context(local_jobs(_measure, self.workers))
            for task in self.tasks:  # one worker: run here, as `results` asks for them
                self._jobs.submit(task)
            self._pool = entering.pop_all()
        return self

    def __exit__(self, *problem: Any) -> None:
        self._pool.__exit__(*problem)

    def results(self, finished: Callable[[], None]) -> list[Headroom | None]:
        if not self.tasks:
            return [None] * self.count
        assert self._jobs is not None, "the headrooms are read inside their `with` block"
        by_number: dict[int, Headroom] = {}
        for number, headroom in self._jobs.finished():
            by_number[number] = headroom
            finished()
        return [by_number[number] for number in range(len(self.tasks))]
