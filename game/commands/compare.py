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
from pathlib import Path

from game.config.exact import decimal_text
from game.errors import BadInput
from game.scheduler.policies import POLICIES
from game.workshop.input_runs import add_input_arguments, run_input_models, wanted
from game.workshop.output import add_theme_argument, output_directory
from game.workshop.runner import RunResult
from game.workshop.scenario import Scenario
from game.workshop.scenario_loading import (
    Flag,
    add_scenario_arguments,
    flags_from_args,
    load_scenario,
)
from game.workshop.simulation import run_scenario
from game.workshop.tables import compare_rows, compare_table, write_compare_csv

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
        "--out", type=Path, metavar="DIR", help="write compare.csv, compare.png/svg"
    )
    add_theme_argument(parser)
    add_input_arguments(parser)


def parse_policies(text: str) -> list[str]:
    """The policies named in `text`, in order; each known, none twice."""
    names = [name.strip() for name in text.split(",")]
    if not all(names):
        raise BadInput.error(f"--policies must be names separated by commas (got {text!r})")
    for name in names:
        if name not in POLICIES:
            raise BadInput.error(
                f"--policies: unknown policy {name!r} (known: {', '.join(POLICIES)})"
            )
    if len(set(names)) != len(names):
        raise BadInput.error(f"--policies names a policy twice (got {text!r})")
    return names


def run(args: argparse.Namespace) -> int:
    policies = parse_policies(args.policies)
    flags = flags_from_args(args)
    scenario = load_scenario(args.scenario, flags)
    _refuse_policy_changes(scenario)
    out = output_directory(args.out) if args.out is not None else None
    results: list[tuple[str, RunResult]] = []
    for policy in policies:
        chosen = load_scenario(
            args.scenario, [*flags, Flag("--policies", ("scheduler", "policy"), policy)]
        )
        results.append((policy, run_scenario(chosen)))
    title = scenario.heading(args.scenario, "compare")
    rows = compare_rows(results)
    seconds = decimal_text(scenario.seconds)
    sys.stdout.write(f"{title}: {seconds} s under each policy\n")
    sys.stdout.write(compare_table(rows))
    if wanted(args):
        for policy in policies:
            chosen = load_scenario(
                args.scenario, [*flags, Flag("--policies", ("scheduler", "policy"), policy)]
            )
            sys.stdout.write(f"\ninput under {policy}:\n")
            sys.stdout.write(run_input_models(chosen, args).table())
    if out is not None:
        from game.workshop.figures import compare_figure  # matplotlib only when asked for
        from game.workshop.plotting import THEMES

        try:
            write_compare_csv(out / "compare.csv", rows)
            figures = compare_figure(
                out / "compare.png", results, scenario, title, THEMES[args.theme]
            )
        except OSError as problem:
            raise BadInput(f"{out}: cannot write: {problem.strerror or problem}") from None
        written = [out / "compare.csv", *figures]
        sys.stdout.write("wrote " + ", ".join(str(path) for path in written) + "\n")
    return 0


def _refuse_policy_changes(scenario: Scenario) -> None:
    """A scenario that switches policy by itself would compare nothing: say so."""
    for change in scenario.changes:
        if change.policy is not None:
            raise BadInput.error(
                f"--scenario changes the policy at {decimal_text(change.at)} s; compare runs "
                "each policy for the whole scenario, so give it one without policy changes"
            )
