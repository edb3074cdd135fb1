"""`python -m game sweep`: the spiral map, many headless runs over a grid of settings.

    python -m game sweep --scenario configs/scenarios/spiral_map.toml \
        --vary load.step_cost_ms=0:40:1 --vary scheduler.max_steps=1,2,3,5,8 \
        --policies drop,uncapped --out figures/map [--seconds 20] [--workers 2] [--theme dark]

Every combination of the `--vary` values, under every policy, is one run of the scenario
(`game.workshop.sweep.grid`), played out in parallel on all cores (`--workers N` to choose, or
`--cluster ADDRESS` for a Dask cluster's workers: `game.cluster`)
with a progress bar on a terminal. `--out DIR` gets `sweep.csv`, one row per run, and for each
policy `sweep_POLICY.png` and `.svg`: heat maps of what the runs did over the first two axes,
with the theory's frontier on top (`game.workshop.sweep.frontier`); with a third and a fourth
axis, one map for each combination of their values (`sweep_POLICY_KEY=VALUE....png`). The
table printed at the end says, policy by policy, how many runs kept up, fell behind or
spiralled, and on how many the theory agrees.

Everything that can be refused is refused before the first run: an unknown key, an empty range,
a value the setting does not take, an output directory that cannot be written.
"""

from __future__ import annotations

import argparse
import itertools
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from fractions import Fraction
from pathlib import Path

from game.arguments import file_path
from game.commands.options import (
    add_cluster_argument,
    parse_policies,
    refuse_policy_changes,
    say_what_was_left_out,
)
from game.config.exact import decimal_text
from game.errors import BadInput
from game.limits import MAX_VARY_AXES
from game.workshop.files.output import Outputs, add_theme_argument, written_whole
from game.workshop.files.scenario import Scenario
from game.workshop.files.scenario_loading import (
    add_scenario_arguments,
    chosen_scenario,
    flags_from_args,
    load_scenario,
)
from game.workshop.runs.progress import progress_bar
from game.workshop.sweep.grid import Axis, SweepCell, SweepRecipe, cells, check_axes, parse_vary
from game.workshop.sweep.report import Run, by_policy, runs, summary_table, write_csv
from game.workshop.sweep.running import CellRun, Sweep, default_workers
from timestep_lab import POLICIES

HELP = "run a scenario over a grid of settings in parallel: the spiral map, with its theory"
CSV_NAME = "sweep.csv"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_scenario_arguments(parser, policy=False)
    parser.add_argument(
        "--vary",
        action="append",
        default=[],
        metavar="KEY=A:B:STEP|KEY=V1,V2,...",
        help="a setting to vary (one or two): a range, or a list of values",
    )
    parser.add_argument(
        "--policies",
        metavar="A,B,...",
        help=f"comma-separated policies (default: the scenario's; any of {', '.join(POLICIES)})",
    )
    parser.add_argument("--out", type=file_path, metavar="DIR", help="write sweep.csv and the maps")
    parser.add_argument("--workers", type=int, metavar="N", help="processes (default: all cores)")
    add_cluster_argument(parser)
    add_theme_argument(parser)


def run(args: argparse.Namespace) -> int:
    if not args.vary:
        raise BadInput.error(
            f"sweep needs --vary KEY=A:B:STEP or KEY=V1,V2,... (one to {MAX_VARY_AXES})"
        )
    if args.out is None:
        raise BadInput.error("sweep needs --out DIR for sweep.csv and the maps")
    workers = default_workers() if args.workers is None else args.workers
    if workers < 1:
        raise BadInput.error(f"--workers must be at least 1 (got {workers})")
    axes = [parse_vary(text) for text in args.vary]
    flags = flags_from_args(args)
    scenario_file = chosen_scenario(args)
    base = load_scenario(scenario_file, flags)
    say_what_was_left_out(base)
    policies = parse_policies(args.policies or base.scheduler.policy)
    if args.policies:
        refuse_policy_changes(base, "sweep")
    check_axes(axes, flags, base)
    recipe = SweepRecipe.read(scenario_file, flags, axes)
    grid = cells(recipe, policies)
    names = [
        CSV_NAME,
        *(f"{stem}.{kind}" for stem, _ in map_files(axes, policies) for kind in ("png", "svg")),
    ]
    out = Outputs([("--scenario", scenario_file)]).folder("--out", args.out, names)
    every = runs(grid, _run_with_progress(recipe, grid, workers, args.cluster))
    title = base.heading(scenario_file, "sweep")
    seconds = decimal_text(base.seconds)
    sys.stdout.write(f"{title}: {len(grid)} runs of {seconds} s, {_grid_text(axes)}\n")
    sys.stdout.write(summary_table(axes, every))
    written = _write(out, axes, every, base, title, args.theme)
    sys.stdout.write("wrote " + ", ".join(str(path) for path in written) + "\n")
    return 0


def _grid_text(axes: Sequence[Axis]) -> str:
    return " x ".join(f"{len(axis.values)} {axis.name}" for axis in axes)


def _run_with_progress(
    recipe: SweepRecipe, grid: list[SweepCell], workers: int, cluster: str | None
) -> list[CellRun]:
    found: dict[int, CellRun] = {}
    with Sweep(recipe, grid, workers, cluster) as sweep, _progress(len(grid)) as advance:
        for ran in sweep.results():
            found[ran.index] = ran
            advance()
    return [found[cell.index] for cell in grid]


@contextmanager
def _progress(total: int) -> Iterator[Callable[[], None]]:
    """One step of the bar per finished run."""
    finished = 0
    with progress_bar(total, "runs") as done:

        def advance() -> None:
            nonlocal finished
            finished += 1
            done(finished)

        yield advance


def _heading(base: Scenario, axes: Sequence[Axis], title: str) -> str:
    """The maps' title: the scenario, then the settings every run shares (not the varied ones)."""
    varied = {axis.key for axis in axes}
    settings, clock = base.scheduler, base.clock
    knobs = [
        (("scheduler", "hz"), f"{decimal_text(settings.hz)} Hz"),
        (("scheduler", "max_steps"), f"M = {settings.max_steps}"),
        (("load", "step_cost_ms"), f"step cost {decimal_text(base.load.step_cost_ms)} ms"),
        (("clock", "render_fps"), f"render {decimal_text(clock.render_fps)} fps"),
        (("clock", "render_cost_ms"), f"render cost r = {decimal_text(clock.render_cost_ms)} ms"),
        (("scheduler", "time_scale"), f"time scale {settings.time_scale}"),
        (("seconds",), f"{decimal_text(base.seconds)} s per run"),
    ]
    shown = [text for key, text in knobs if key not in varied and text != "time scale 1"]
    return f"{title}\n{'  |  '.join(shown)}"


def _write(
    out: Path, axes: Sequence[Axis], every: Sequence[Run], base: Scenario, title: str, theme: str
) -> list[Path]:
    # matplotlib is imported only now: it takes a second to load.
    from game.workshop.figures.plotting import THEMES
    from game.workshop.sweep.figures import sweep_figure

    written = [out / CSV_NAME]
    heading = _heading(base, axes, title)
    with written_whole(out / CSV_NAME, "--out") as partial:
        write_csv(partial, axes, every)
    for policy, policy_runs in by_policy(every).items():
        for (stem, fixed), group in zip(
            map_files(axes, [policy]), by_the_other_axes(axes, policy_runs), strict=True
        ):
            title = heading + (f"  |  {fixed}" if fixed else "")
            written += sweep_figure(out / f"{stem}.png", axes[:2], group, title, THEMES[theme])
    return written


def map_files(axes: Sequence[Axis], policies: Sequence[str]) -> list[tuple[str, str]]:
    """(file stem, what the map fixes) of each map: one a policy, and with more than two axes,
    one for each combination of the other axes' values (the maps draw the first two)."""
    combinations = list(itertools.product(*(axis.values for axis in axes[2:])))
    files = []
    for policy in policies:
        for values in combinations:
            said = [
                f"{axis.name}={decimal_text(v)}" for axis, v in zip(axes[2:], values, strict=True)
            ]
            files.append(("_".join([f"sweep_{policy}", *said]), ", ".join(said)))
    return files


def by_the_other_axes(axes: Sequence[Axis], policy_runs: Sequence[Run]) -> list[list[Run]]:
    """A policy's runs, one group a map (in `map_files`' order), each in the grid's order."""
    groups: dict[tuple[Fraction, ...], list[Run]] = {}
    for values in itertools.product(*(axis.values for axis in axes[2:])):
        groups[values] = []
    for run in policy_runs:
        groups[run.cell.values[2:]].append(run)
    return list(groups.values())
