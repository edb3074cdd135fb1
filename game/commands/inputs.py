"""`python -m game inputs [--table]`: the input models, and what frame-edge costs on a grid.

Without `--table` it lists the five input models with their one-line definitions. With
`--table` it runs the frame-edge formula (`game.workshop.tables.frame_edge`) over ticks at 10, 30,
60 and 120 Hz by frames at 30, 60, 144 and 240 fps, headless and exact, and prints the Markdown
table docs/input.md holds, after a line that says the tick phase it assumes (mid-tick: the input
lab's default, `clock.tick_phase`).
"""

from __future__ import annotations

import argparse
import sys

from game.session.input_models import MODELS, definition
from game.vocabulary import TICK_RATES
from game.workshop.runs.simulation import tick_phase, tick_phase_text
from game.workshop.tables.frame_edge import grid_scenario, grid_table

HELP = "the input models, and (--table) frame-edge's lost and doubled taps by tick and frame rate"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--table",
        action="store_true",
        help="print the table of lost and doubled taps (docs/input.md)",
    )


def run(args: argparse.Namespace) -> int:
    if args.table:
        phase = tick_phase(grid_scenario(TICK_RATES[0], 30))
        sys.stdout.write(f"steady frames at {tick_phase_text(phase)} in simulate\n\n")
        sys.stdout.write(grid_table())
        return 0
    width = max(len(name) for name in MODELS)
    for name in MODELS:
        sys.stdout.write(f"{name:<{width}}  {definition(name)}\n")
    return 0
