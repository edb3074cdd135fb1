"""Workshop figures: what a 10-minute headless simulation costs in CPU time.

Target (issue 5): a 10-minute scenario at 60 Hz with the default scene simulates in under 10 s
of CPU. Baseline, measured in the same run: the same frames (the exact run's own frame times)
fed to the naive float accumulator driving the same world, with nothing else: no books, no
`StepPlan`, no history, no spiral light, no Fractions. The ratio is the price of the exact
pipeline that the game itself runs.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TypeVar

from bench.harness import Section, verdict
from game.from_config import session_from
from game.scheduler.naive import NaiveFloatAccumulator
from game.workshop.files.scenario import Scenario
from game.workshop.files.scenario_loading import Flag, load_scenario
from game.workshop.runs.runner import RunResult
from game.workshop.runs.simulation import run_scenario, scenario_config

SCENARIOS = Path(__file__).resolve().parents[1] / "configs" / "scenarios"
TARGET_CPU_S = 10.0
TARGET_RATIO = 2.0
"""Issue 32: the exact pipeline at most 2x the float loop measured in the same run (a ratio holds
on a loaded machine, where the seconds do not)."""
FALLBACK_RATIO = 2.3
"""Issue 32: where 2x cannot be reached without giving up an exact figure, 2.3x, with BENCHMARKS.md
saying where the rest of the time goes."""
REPEAT = 5
"""Runs of each loop, taking turns in this process; the table shows the medians."""
T = TypeVar("T")


def _cpu_s(work: Callable[[], T]) -> tuple[float, T]:
    """CPU seconds spent in `work()`, and what it returned."""
    start = time.process_time_ns()
    value = work()
    return (time.process_time_ns() - start) / 1e9, value


def _float_baseline(scenario: Scenario, result: RunResult) -> int:
    """The exact run's frame times through `acc += dt; while acc >= h` on the same world."""
    world = session_from(scenario_config(scenario)).lanes[0].world
    step = 1 / float(scenario.scheduler.hz)
    accumulator = NaiveFloatAccumulator(step, max_steps=scenario.scheduler.max_steps)
    for frame in result.frames:
        for _ in range(accumulator.steps_for(frame.frame_ns / 1e9)):
            world.step(step)
    return world.tick


def ten_minutes(quick: bool) -> Section:
    repeat = 1 if quick else REPEAT
    section = Section(
        title="Workshop: a 10-minute headless simulation",
        intro=(
            f"CPU time (`time.process_time`, median of {repeat}, the two loops taking turns in "
            "one process) of `run_scenario` for 600 s of wall time at 60 Hz with the default "
            "scene, beside the naive float accumulator stepping the same world on the same "
            f"frame times. Target (issue 32): at most {TARGET_RATIO:g}x the float loop, or "
            f"{FALLBACK_RATIO:g}x with the reason written below (and < {TARGET_CPU_S:g} s on a "
            "quiet machine)."
        ),
        columns=[
            "scenario",
            "frames",
            "ticks (exact / float)",
            "exact pipeline",
            "float baseline",
            "ratio",
            f"at most {TARGET_RATIO:g}x",
            f"at most {FALLBACK_RATIO:g}x",
        ],
    )
    runs = [
        ("ten_minutes.toml (144 fps, jitter, a stall a minute)", "ten_minutes", []),
        ("steady_144.toml for 600 s", "steady_144", [Flag("--seconds", ("seconds",), "600")]),
    ]
    for label, name, flags in runs:
        scenario = load_scenario(SCENARIOS / f"{name}.toml", flags)
        exact_times, float_times = [], []
        for _ in range(repeat):
            seconds, result = _cpu_s(partial(run_scenario, scenario))
            exact_times.append(seconds)
            seconds, float_ticks = _cpu_s(partial(_float_baseline, scenario, result))
            float_times.append(seconds)
        exact, floating = statistics.median(exact_times), statistics.median(float_times)
        section.add(
            label,
            f"{len(result.frames):,}",
            f"{result.tick:,} / {float_ticks:,}",
            f"{exact:.2f} s",
            f"{floating:.2f} s",
            f"{exact / floating:.2f}x",
            verdict(exact <= TARGET_RATIO * floating),
            verdict(exact <= FALLBACK_RATIO * floating),
        )
    section.notes.append(
        "The exact pipeline does per frame what the game does: a full `StepPlan` with its "
        "ledger, the books in `Fraction`s, the frame history ring, the spiral light, the lag; "
        "plus the virtual clock's exact boundaries. The world runs the same ticks in both (they "
        "cost more between the pipeline's frames than back to back: see below)."
    )
    section.notes.append(
        "The float loop runs more ticks after the stalls because it has no policy: what its cap "
        "leaves in the accumulator is simply run later, where `drop` drops it."
    )
    return section


def with_display(quick: bool) -> Section:
    """The same 10 minutes with the virtual display and the judder meter, beside the run without."""
    repeat = 1 if quick else 3
    section = Section(
        title="Workshop: 10 minutes with the display model",
        intro=(
            f"CPU time (median of {repeat}) of `run_scenario` for 600 s of a display scenario "
            "(vsync, present queue, judder meter over every refresh), beside the same scenario "
            "without its `[display]`, its render cap set to the refresh rate so that both run "
            f"the same number of frames. Target: < {TARGET_CPU_S:g} s with the display."
        ),
        columns=["scenario", "frames", "without display", "with display", "ratio", "target"],
    )
    ten_minutes_flag = [Flag("--seconds", ("seconds",), "600")]
    for name in ("vsync_60", "judder_144"):
        scenario = load_scenario(SCENARIOS / f"{name}.toml", ten_minutes_flag)
        assert scenario.display is not None
        paced = scenario.clock.model_copy(update={"render_fps": scenario.display.refresh_hz})
        bare = scenario.model_copy(update={"display": None, "clock": paced})
        shown, plain = [], []
        result = None
        for _ in range(repeat):
            seconds, result = _cpu_s(partial(run_scenario, scenario))
            shown.append(seconds)
            seconds, _ = _cpu_s(partial(run_scenario, bare))
            plain.append(seconds)
        assert result is not None
        with_it, without = statistics.median(shown), statistics.median(plain)
        section.add(
            f"{name}.toml for 600 s",
            f"{len(result.frames):,}",
            f"{without:.2f} s",
            f"{with_it:.2f} s",
            f"{with_it / without:.2f}x",
            verdict(with_it < TARGET_CPU_S),
        )
    section.notes.append(
        "The difference is the display's own work per frame: `present` on exact vblanks, the "
        "drawn time of each frame, and the judder meter over the whole run at the end."
    )
    return section


def run(quick: bool) -> list[Section]:
    return [ten_minutes(quick), with_display(quick)]
