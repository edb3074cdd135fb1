"""`python -m game compare`: one scenario under several policies, side by side.

    python -m game compare --scenario configs/scenarios/spiral.toml \
        --policies uncapped,clamp,drop,backlog --out figures/spiral

Every policy sees the same frames until its own answer changes them (a policy that runs more
ticks makes the next frame longer). The table gives each one's longest frame, total dropped
time, final lag, ticks and whether it spiralled; `--out DIR` also writes `compare.csv` and
`compare.png` with `compare.svg` (frame time, ticks per second, time dropped so far and lag, one
column per policy; `--theme dark` for a projector in a dark room). With `--input-script` or
`--input-models`, a table of each input model's counters follows, for each policy.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from game.arguments import file_path
from game.clock.units import format_ms
from game.commands.options import parse_policies, refuse_policy_changes, say_what_was_left_out
from game.config.exact import decimal_text
from game.errors import BadInput
from game.workshop.figures.frame_series import FrameSeries, SeriesBuilder
from game.workshop.files.output import Outputs, add_theme_argument, written_whole
from game.workshop.files.scenario import Scenario
from game.workshop.files.scenario_loading import (
    Flag,
    add_scenario_arguments,
    chosen_scenario,
    flags_from_args,
    load_scenario,
    scenario_line,
)
from game.workshop.runs.input_runs import (
    add_input_arguments,
    input_model_count,
    run_input_models,
    wanted,
)
from game.workshop.runs.progress import progress_bar, wall_seconds
from game.workshop.runs.runner import RUNAWAY_WORK_NS, FrameReport, RunResult
from game.workshop.runs.simulation import UnfinishedRun, run_scenario
from game.workshop.tables.frames import compare_rows, compare_table, write_compare_csv
from timestep_lab import NS_PER_SECOND, POLICIES

HELP = "run one scenario under several overload policies and compare them"
DEFAULT_POLICIES = "uncapped,clamp,drop,backlog"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_scenario_arguments(parser, policy=False)
    parser.add_argument(
        "--policies",
        default=DEFAULT_POLICIES,
        metavar="A,B,...",
        help=f"comma-separated policies (default {DEFAULT_POLICIES}; any of {', '.join(POLICIES)})",
    )
    parser.add_argument(
        "--out", type=file_path, metavar="DIR", help="write compare.csv, compare.png/svg"
    )
    add_theme_argument(parser)
    add_input_arguments(parser)


OUT_FILES = ("compare.csv", "compare.png", "compare.svg")
WITHOUT_SVG = OUT_FILES[:2]
"""What `run(args, svg=False)` writes into `--out` (the handout, whose page shows the PNG)."""


def run(args: argparse.Namespace, *, svg: bool = True) -> int:
    policies = parse_policies(args.policies)
    flags = flags_from_args(args)
    scenario_file = chosen_scenario(args)
    scenario = load_scenario(scenario_file, flags)
    say_what_was_left_out(scenario)
    refuse_policy_changes(scenario, "compare")
    if wanted(args):
        input_model_count(args)  # a bad --input-models list: refused before any run
    files = Outputs([("--scenario", scenario_file), ("--input-script", args.input_script)])
    out = files.folder("--out", args.out, OUT_FILES if svg else WITHOUT_SVG)
    results: list[tuple[str, RunResult]] = []
    series: list[FrameSeries] = []
    seconds = float(scenario.seconds)
    with progress_bar(seconds * len(policies), "simulated wall seconds") as done:
        for number, policy in enumerate(policies):
            chosen = load_scenario(
                scenario_file, [*flags, Flag("--policies", ("scheduler", "policy"), policy)]
            )
            plotted = SeriesBuilder()  # at most MAX_POINTS points, however long the run
            sink = _plotted_and_counted(plotted, wall_seconds(done, number * seconds))
            try:
                # keep=0: no run holds its frames, so six policies of an hour cost what one does
                results.append((policy, run_scenario(chosen, sink=sink, keep=0)))
                series.append(plotted.series())
            except UnfinishedRun as cut:
                raise BadInput(scenario_line(cut.problem, scenario_file, flags)) from None
    title = scenario.heading(scenario_file, "compare")
    rows = compare_rows(results)
    sys.stdout.write(_heading(title, scenario, results))
    sys.stdout.write(compare_table(rows))
    if wanted(args):
        for policy in policies:
            chosen = load_scenario(
                scenario_file, [*flags, Flag("--policies", ("scheduler", "policy"), policy)]
            )
            try:
                table = run_input_models(chosen, args).table()
            except UnfinishedRun as cut:
                raise BadInput(scenario_line(cut.problem, scenario_file, flags)) from None
            sys.stdout.write(f"\ninput under {policy}:\n{table}")
    if out is not None:
        from game.workshop.figures.plotting import THEMES
        from game.workshop.figures.slides import compare_figure  # matplotlib only when asked for

        csv_path = out / "compare.csv"
        with written_whole(csv_path, "--out") as partial:
            write_compare_csv(partial, rows)
        figures = compare_figure(
            out / "compare.png", results, scenario, title, THEMES[args.theme], series, svg=svg
        )
        written = [csv_path, *figures]
        sys.stdout.write("wrote " + ", ".join(str(path) for path in written) + "\n")
    return 0


def _plotted_and_counted(
    plotted: SeriesBuilder, seen: Callable[[int, int], None]
) -> Callable[[FrameReport], None]:
    """A run's frame sink: each frame to the figure's series, and to the progress bar."""

    def sink(frame: FrameReport) -> None:
        plotted(frame)
        seen(frame.number, frame.wall_ns)

    return sink


def _heading(title: str, scenario: Scenario, results: list[tuple[str, RunResult]]) -> str:
    """What was run: the scenario's seconds under each policy, and any run that stopped early."""
    seconds = decimal_text(scenario.seconds)
    stopped = [
        f"  {policy} stopped after {format_ms(result.books['wall_ns'])} ms: the runaway guard "
        "ended it (one frame's work passed "
        f"{RUNAWAY_WORK_NS // NS_PER_SECOND} s)\n"
        for policy, result in results
        if result.runaway
    ]
    if not stopped:
        return f"{title}: {seconds} s under each policy\n"
    return f"{title}: up to {seconds} s under each policy\n" + "".join(stopped)
