"""Running a sweep: every cell of the grid played out headless, in parallel, and measured.

Each run is `run_scenario`, the same headless game as `simulate`, one job (`game.jobs.Jobs`) on
the local worker processes (all cores by default); runs share nothing and are deterministic, so the
results do not depend on how many workers there are or in which order they finish. A worker
sends back a few numbers (`Measures`), not the run's frames.

What is measured, per run:

- `spiral`: the run's own verdict (see `game.workshop.runs.runner`).
- `keeps_up`: no spiral, and the lag does not grow: its highest point in the last quarter of
  the run is less than two ticks (2 h) above its highest point in the second quarter. The lag's
  highest points are the tops of its saw-tooth, just before a frame's ticks run (see
  `frame_series`). A run that keeps up settles into the same saw-tooth; one that falls behind
  drops or owes more time every frame (its lag after each frame grows) or, without a cap, runs
  ever longer frames (the tops grow). This is what the frontier's theory predicts
  (`game.workshop.sweep.frontier`). A run too short to have frames in both quarters is judged by its
  spiral alone.
  In a network scenario (rollback) it is the tick rate's frontier instead: no frame of the
  run's second half lasts longer than the step (whole ns rounded up).
- `dropped_pct`: time dropped, as a share of all the time there was to simulate.
- `max_frame_ns`, `frames`, `ticks`: as in `simulate`'s summary.
- `mean_lag_ns`: the lag averaged over wall time, saw-tooth and all (within a frame the lag
  climbs with the wall clock until the frame's ticks run, see `frame_series`): a spiral's
  multi-second frames count for what they are. Summed in whole nanoseconds.
- `final_lag_ns`: the lag after the last frame.
"""

from __future__ import annotations

import contextlib
import functools
import math
import os
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from types import TracebackType

from game.jobs import Jobs, jobs_on
from game.workshop.runs.runner import FrameReport, RunResult
from game.workshop.runs.simulation import run_scenario
from game.workshop.sweep.frontier import Frontier, frontier
from game.workshop.sweep.grid import SweepCell, SweepRecipe
from timestep_lab import NS_PER_MS

KEEPS_UP_SLACK_STEPS = 2
"""How much higher the lag may climb in the last quarter of a run that keeps up, in ticks."""


@dataclass(frozen=True, slots=True)
class Measures:
    """What one run of a sweep did (see the module for each value)."""

    spiral: bool
    runaway: bool
    keeps_up: bool
    dropped_pct: Fraction
    max_frame_ns: int
    mean_lag_ns: Fraction
    final_lag_ns: Fraction
    frames: int
    ticks: int


class LagWatch:
    """A frame sink that keeps what the sweep measures of a run's frames as running sums, so a
    run of any length is measured in the same memory (the run itself keeps no frames)."""

    def __init__(self, until_ns: Fraction) -> None:
        self.area = 0  # twice the integral of the lag over wall time, in ns^2
        self.before = 0  # the lag the next frame starts from, in whole ns
        self.wall_ns = 0
        self.frames = 0
        self.quarters = (until_ns / 4, until_ns / 2, until_ns * 3 / 4)
        self.tops: list[int | None] = [None, None]  # the highest lag, 2nd and last quarter
        self.late_frame_ns = 0  # the longest frame of the second half

    def __call__(self, frame: FrameReport) -> None:
        plan = frame.plan
        numerator, denominator = frame.lag  # the lag's floor: the same, reduced or not
        after = numerator // denominator
        peak = after + math.floor(plan.steps * plan.dt_ns)
        self.area += (self.before + peak) * frame.frame_ns
        self.before = after
        self.wall_ns += frame.frame_ns
        self.frames += 1
        wall, (first, half, third) = frame.wall_ns, self.quarters
        if wall >= half:
            self.late_frame_ns = max(self.late_frame_ns, frame.frame_ns)
        quarter = 0 if first <= wall < half else 1 if wall >= third else None
        if quarter is not None:
            top = self.tops[quarter]
            self.tops[quarter] = peak if top is None else max(top, peak)


def measure(
    result: RunResult, until_ns: Fraction, step_ns: Fraction, watch: LagWatch | None = None
) -> Measures:
    """The sweep's numbers for one headless run of `until_ns` of wall time at step `step_ns`:
    from `watch`, the sink that saw its frames go by, or else from the frames it kept."""
    if watch is None:
        watch = LagWatch(until_ns)
        for frame in result.frames:
            watch(frame)
    books = result.books
    sim_ns, dropped_ns = int(books["sim_time_ns"]), int(books["dropped_ns"])
    everything = sim_ns + result.lag_ns  # simulated + dropped + still carried
    earlier, later = watch.tops
    grew = later - earlier if earlier is not None and later is not None else 0
    return Measures(
        spiral=result.spiral,
        runaway=result.runaway,
        keeps_up=(
            watch.late_frame_ns <= math.ceil(step_ns)  # rollback: at the tick rate
            if result.rollback is not None
            else not result.spiral and grew < KEEPS_UP_SLACK_STEPS * step_ns
        ),
        dropped_pct=100 * dropped_ns / everything if everything else Fraction(0),
        max_frame_ns=result.max_frame_ns,
        mean_lag_ns=Fraction(watch.area, 2 * watch.wall_ns) if watch.wall_ns else Fraction(0),
        final_lag_ns=result.lag_ns,
        frames=watch.frames,
        ticks=result.tick,
    )


@dataclass(frozen=True, slots=True)
class CellRun:
    """What one cell's run sends back: its index, what it measured, and the theory for its
    settings (worked out where the scenario was built, in the worker)."""

    index: int
    measures: Measures
    frontier: Frontier
    step_cost_ns: Fraction


def run_cell(recipe: SweepRecipe, cell: SweepCell) -> CellRun:
    """Build one cell's scenario, play it and measure it as it goes (in a worker, or here)."""
    scenario = recipe.scenario(cell)
    watch = LagWatch(scenario.until_ns)
    result = run_scenario(scenario, sink=watch, keep=0)
    measured = measure(result, scenario.until_ns, scenario.scheduler.step_ns, watch)
    cost = scenario.load.step_cost_ms * NS_PER_MS
    return CellRun(cell.index, measured, frontier(scenario), cost)


def default_workers() -> int:
    """Every core this process may use (fewer than the machine has, under a CPU affinity)."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return os.cpu_count() or 1


class Sweep:
    """Runs cells on `workers` processes (in this one when `workers` is 1), or on the Dask
    cluster at `cluster` (`game.cluster`), as a context.

    Entering starts the workers and hands them every cell, before anything else (a progress
    bar's thread, say) starts: a process is forked from a single thread, which is always safe.
    Leaving early (a stop signal, a run that failed, a worker that died) stops every worker
    (`game.worker_pool`).
    """

    def __init__(
        self,
        recipe: SweepRecipe,
        cells: list[SweepCell],
        workers: int,
        cluster: str | None = None,
    ) -> None:
        self.recipe = recipe
        self.cluster = cluster
        self.cells = cells
        self.workers = max(1, min(workers, len(cells)))
        self._pool = contextlib.ExitStack()
        self._jobs: Jobs[SweepCell, CellRun] | None = None

    def __enter__(self) -> Sweep:
        job = functools.partial(run_cell, self.recipe)
        with contextlib.ExitStack() as entering:  # a failed hand-over leaves the jobs too
            self._jobs = entering.enter_context(jobs_on(job, self.workers, self.cluster))
            for cell in self.cells:  # a worker dead already breaks the pool here: WorkerDied
                self._jobs.submit(cell)
            self._pool = entering.pop_all()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        problem: BaseException | None,
        trace: TracebackType | None,
    ) -> bool | None:
        return self._pool.__exit__(kind, problem, trace)

    def results(self) -> Iterator[CellRun]:
        """Each cell's run as it finishes."""
        assert self._jobs is not None, "a sweep's results are read inside its `with` block"
        for _, ran in self._jobs.finished():
            yield ran


def run_all(recipe: SweepRecipe, cells: list[SweepCell], workers: int) -> list[CellRun]:
    """Every cell's run, in the cells' order."""
    found: dict[int, CellRun] = {}
    with Sweep(recipe, cells, workers) as sweep:
        for ran in sweep.results():
            found[ran.index] = ran
    return [found[cell.index] for cell in cells]
