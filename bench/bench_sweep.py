"""Sweep: 200 headless runs of 3 s each, on 2 worker processes, beside the same runs serially.

Target (issue 9): the spiral map's 200 runs in under 60 s of wall time on 2 cores. They were 60 s
runs; issue 20's limits let one command take 100,000 frames, all its runs together, so the map
is now 200 runs of 3 s (86,400 frames at 144 fps).
Baseline, measured in the same run: the same cells one after another in this process. The two
take turns, so a busy moment on this shared machine hits both alike; the ratio is the speed-up
the process pool buys. Both must give identical measures (the runs are deterministic).
"""

from __future__ import annotations

import os
import resource
import statistics
import tempfile
import time
from pathlib import Path
from typing import NamedTuple

from bench.harness import Section, verdict
from game.workshop.files.scenario_loading import Flag
from game.workshop.sweep.grid import Axis, SweepCell, SweepRecipe, cells, parse_vary
from game.workshop.sweep.report import Run, runs, write_csv
from game.workshop.sweep.running import CellRun, run_all

SCENARIO = Path(__file__).resolve().parents[1] / "configs" / "scenarios" / "spiral_map.toml"
VARY = ("load.step_cost_ms=0:39:1", "scheduler.max_steps=1,2,3,5,8")
SECONDS = "3"
WORKERS = 2
TARGET_S = 60.0
COMMAND = (
    "python -m game sweep --scenario configs/scenarios/spiral_map.toml "
    "--vary load.step_cost_ms=0:39:1 --vary scheduler.max_steps=1,2,3,5,8 --policies drop "
    "--seconds 3 --workers 2 --out DIR"
)


def _children_cpu_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _timed(
    recipe: SweepRecipe, grid: list[SweepCell], workers: int
) -> tuple[float, float, list[CellRun]]:
    """Wall seconds, CPU seconds (this process and its finished children) and the measures."""
    cpu_before = time.process_time() + _children_cpu_s()
    start = time.perf_counter()
    measures = run_all(recipe, grid, workers)
    wall = time.perf_counter() - start
    return wall, time.process_time() + _children_cpu_s() - cpu_before, measures


class Turns(NamedTuple):
    """Serial and pooled runs of the whole grid, taking turns: each one's seconds."""

    serial_wall: list[float]
    serial_cpu: list[float]
    parallel_wall: list[float]
    parallel_cpu: list[float]
    same: bool
    """Every turn's pooled measures were the serial ones."""
    pooled: list[CellRun]
    """The last pooled turn's measures."""


def _take_turns(recipe: SweepRecipe, grid: list[SweepCell], repeat: int) -> Turns:
    serial_wall, serial_cpu, parallel_wall, parallel_cpu = [], [], [], []
    same = True
    pooled: list[CellRun] = []
    for _ in range(repeat):
        wall, cpu, alone = _timed(recipe, grid, 1)
        serial_wall.append(wall)
        serial_cpu.append(cpu)
        wall, cpu, pooled = _timed(recipe, grid, WORKERS)
        parallel_wall.append(wall)
        parallel_cpu.append(cpu)
        same = same and alone == pooled
    return Turns(serial_wall, serial_cpu, parallel_wall, parallel_cpu, same, pooled)


def _write_outputs(
    grid: list[SweepCell], axes: list[Axis], pooled: list[CellRun]
) -> tuple[list[Run], float]:
    """What `sweep --out` writes (`sweep.csv` and the map, PNG + SVG), into a folder thrown
    away: the runs, and the seconds the writing took."""
    with tempfile.TemporaryDirectory() as out:
        from game.workshop.figures.plotting import THEMES
        from game.workshop.sweep.figures import sweep_figure

        written = time.perf_counter()
        done = runs(grid, pooled)
        write_csv(Path(out) / "sweep.csv", axes, done)
        sweep_figure(Path(out) / "sweep_drop.png", axes, done, "Spiral map", THEMES["light"])
        return done, time.perf_counter() - written


def _section(count: int, repeat: int) -> Section:
    """The table, before its row: what was timed, and how."""
    return Section(
        title=f"Sweep: the spiral map, 200 runs of {SECONDS} s",
        intro=(
            f"Wall time (median of {repeat}) of the runs of `{COMMAND}`: {count} headless "
            f"runs of {SECONDS} s of wall time each (step cost 0-39 ms x M = 1, 2, 3, 5, 8, "
            f"`drop`, `spiral_map.toml`), on {WORKERS} worker processes (`ProcessPoolExecutor`, "
            "fork), beside the same cells run one after another in one process, taking turns. "
            f"Target: < {TARGET_S:g} s on 2 cores. CPU is user + system time of the process "
            "and its workers."
        ),
        columns=[
            "runs",
            "serial (1 process)",
            f"parallel ({WORKERS} workers)",
            "speed-up",
            "CPU serial / parallel",
            "same measures",
            "target",
        ],
    )


def spiral_map(quick: bool) -> Section:
    repeat = 1 if quick else 3
    axes = [parse_vary(text) for text in VARY]
    built = time.perf_counter()
    recipe = SweepRecipe.read(SCENARIO, [Flag("--seconds", ("seconds",), SECONDS)], axes)
    grid = cells(recipe, ["drop"])
    built = time.perf_counter() - built
    load = os.getloadavg()[0]
    turns = _take_turns(recipe, grid, repeat)
    done, written = _write_outputs(grid, axes, turns.pooled)
    serial, parallel = statistics.median(turns.serial_wall), statistics.median(turns.parallel_wall)
    pooled_cpu = statistics.median(turns.parallel_cpu)
    agree = sum(run.agrees for run in done)
    section = _section(len(grid), repeat)
    section.add(
        len(grid),
        f"{serial:.1f} s",
        f"{parallel:.1f} s",
        f"{serial / parallel:.2f}x",
        f"{statistics.median(turns.serial_cpu):.1f} s / {pooled_cpu:.1f} s",
        "yes" if turns.same else "NO",
        verdict(parallel < TARGET_S),
    )
    section.notes.append(
        f"Checking the grid (each value, and the largest run) took {built:.2f} s; each "
        "cell's scenario is built in its worker; writing `sweep.csv` and the map (PNG + SVG) "
        f"{written:.1f} s. The theory's frontier agrees with {agree} of the {len(done)} runs. "
        f"This machine has {os.cpu_count()} cores; its load average was {load:.1f} when the "
        "suite started (other work on a shared machine takes cores from both columns)."
    )
    section.notes.append(
        f"The parallel runs had {pooled_cpu / (parallel * WORKERS):.0%} of the {WORKERS} cores "
        f"(CPU over {WORKERS} x wall time): on {WORKERS} cores of their own, their "
        f"{pooled_cpu:.1f} s of CPU would take at least {pooled_cpu / WORKERS:.1f} s of wall "
        "time. When the share is well below 100%, other processes had the rest, and the wall "
        "times say more about the machine than about the sweep."
    )
    section.notes.append(
        "A run costs what the game's own frames cost: per frame the session plans, runs the "
        "ticks and keeps the books, and each tick steps the world's numpy arrays. Runs below "
        "the frontier at a low cost are the dearest (432 frames of 1/144 s in 3 s); runs "
        "past it have fewer, longer frames."
    )
    return section


def run(quick: bool) -> list[Section]:
    return [spiral_map(quick)]
