"""`python -m game scenarios`: the scenarios `--scenario NAME` knows, each with its title.

    python -m game scenarios
    python -m game scenarios --scenario-dir ~/our-workshop

The packaged ones, and with `--scenario-dir` a folder of your own, listed first: a name there
hides the packaged scenario of the same name (see `game.workshop.files.scenario_names`). Each
file is read as `simulate` would read it, so a broken one is reported here, not in the room.
"""

from __future__ import annotations

import argparse

from game.arguments import file_path
from game.printable import printable
from game.resources import SCENARIOS
from game.workshop.files.scenario_loading import load_scenario
from game.workshop.files.scenario_names import PACKAGED, known_scenarios, scenarios_in

HELP = "list the scenarios by name, with their titles (use one as --scenario NAME)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--scenario-dir",
        type=file_path,
        metavar="DIR",
        help="a folder of your own scenarios, listed (and looked up) before the packaged ones",
    )


def run(args: argparse.Namespace) -> int:
    known = known_scenarios(args.scenario_dir)
    width = max((len(name) for name in known), default=0)
    sections = [(PACKAGED, SCENARIOS)]
    if args.scenario_dir is not None:
        sections.insert(0, (str(args.scenario_dir), args.scenario_dir))
    for number, (source, folder) in enumerate(sections):
        if number:
            print()
        print(f"{source if source == PACKAGED else 'yours'} ({folder}):")
        for scenario in scenarios_in(folder, source):
            hidden = "  (hidden by yours)" if known[scenario.name].source != source else ""
            title = printable(load_scenario(scenario.path).title)
            print(f"  {printable(scenario.name):<{width}}  {title}{hidden}")
    print("\nrun one by name, e.g. `simulate --scenario spiral` (a file's path works too)")
    return 0
