"""`python -m game judder`: the judder table, tick rate x refresh x interpolation x conditioning.

    python -m game judder                    # docs/display.md's table (Markdown)
    python -m game judder --json             # one JSON object per row
    python -m game judder --hz 60 --refresh 144,165 --interpolation off
    python -m game judder --refresh 60 --render-fps 72,165 --no-vsync   # the live game

Each row is a headless run on a vsynced virtual display with a little wake-up noise (see
`game.workshop.tables.judder`). The judder is the RMS error of the displayed velocity, in % of
the true speed; "refreshes per tick" is how long each recent tick stayed on screen.
"""

from __future__ import annotations

import argparse
import json
import sys
from fractions import Fraction
from math import prod

from game import limits
from game.clock.units import parse_decimal
from game.config.exact import decimal_text
from game.errors import BadInput
from game.knobs import knob_at
from game.stopping import stop_point
from game.vocabulary import CONDITIONING_NAMES, INTERPOLATION_NAMES
from game.workshop.runs.progress import progress_bar
from game.workshop.tables.judder import (
    CONDITIONINGS,
    HEADER,
    INTERPOLATIONS,
    REFRESHES,
    RULE,
    TICK_RATES,
    judder_rows,
    markdown_row,
)

MAX_JUDDER_HZ = 1000
"""The fastest rate of any kind a judder row runs (a tick rate may be 10 kHz elsewhere)."""
HELP = "print the judder table: tick rate x refresh rate x interpolation x conditioning"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--hz", default=None, help="tick rates, comma-separated (default 60,64)")
    parser.add_argument(
        "--refresh", default=None, help="refresh rates, comma-separated (default 60,144,165)"
    )
    parser.add_argument("--interpolation", default=None, help="off,interpolate (default both)")
    parser.add_argument(
        "--conditioning", default=None, help=f"any of {','.join(CONDITIONING_NAMES)} (default all)"
    )
    parser.add_argument("--seconds", default="5", help="wall seconds per row (default 5)")
    parser.add_argument(
        "--wake-jitter-ms", default="0.5", help="wake-up noise after a vblank, ms (default 0.5)"
    )
    parser.add_argument(
        "--render-fps", default=None, help="render caps, comma-separated (default: uncapped)"
    )
    parser.add_argument(
        "--no-vsync", action="store_true", help="frames shown at once (as the live game under X)"
    )
    parser.add_argument("--json", action="store_true", help="one JSON object per row")


def _rates(
    text: str | None, default: tuple[Fraction, ...], what: str, knob: str
) -> tuple[Fraction, ...]:
    """The rates in `text`, each within the range of the knob table's `knob` (up to 1000 Hz:
    the rows' runs at 1 kHz render rates are what the table is about)."""
    if text is None:
        return default
    try:
        rates = tuple(parse_decimal(part, what=what) for part in text.split(","))
    except ValueError as problem:
        raise BadInput.error(str(problem)) from None
    bounds = knob_at(knob).range
    assert bounds is not None and bounds.at_least is not None and bounds.at_most is not None
    low, high = bounds.at_least, min(bounds.at_most, MAX_JUDDER_HZ)
    if any(not low <= rate <= high for rate in rates):
        raise BadInput.error(
            f"{what} must be from {decimal_text(Fraction(low))} to {high} Hz (got {text!r})"
        )
    return rates


def _names(
    text: str | None, default: tuple[str, ...], allowed: tuple[str, ...], what: str
) -> tuple[str, ...]:
    if text is None:
        return default
    names = tuple(part.strip() for part in text.split(","))
    for name in names:
        if name not in allowed:
            raise BadInput.error(f"{what} must be among {', '.join(allowed)} (got {name!r})")
    return names


def run(args: argparse.Namespace) -> int:
    try:
        seconds = parse_decimal(args.seconds, what="--seconds")
        jitter = parse_decimal(args.wake_jitter_ms, what="--wake-jitter-ms")
    except ValueError as problem:
        raise BadInput.error(str(problem)) from None
    if not 1 <= seconds <= 600:
        raise BadInput.error(f"--seconds must be from 1 to 600 (got {args.seconds})")
    if jitter > 8:
        raise BadInput.error(f"--wake-jitter-ms must be at most 8 (got {args.wake_jitter_ms})")
    tick_rates = _rates(args.hz, TICK_RATES, "--hz", "scheduler.hz")
    refreshes = _rates(args.refresh, REFRESHES, "--refresh", "display.refresh_hz")
    render_rates = _rates(args.render_fps, (Fraction(1000),), "--render-fps", "clock.render_fps")
    choices = {
        "tick_rates": tick_rates,
        "refreshes": refreshes,
        "interpolations": _names(
            args.interpolation, INTERPOLATIONS, INTERPOLATION_NAMES, "--interpolation"
        ),
        "conditionings": _names(
            args.conditioning, CONDITIONINGS, CONDITIONING_NAMES, "--conditioning"
        ),
        "render_rates": render_rates,
    }
    count = prod(len(values) for values in choices.values())
    if count > limits.MAX_JUDDER_ROWS:
        raise BadInput.error(
            f"the lists ask for {count:,} rows; at most {limits.MAX_JUDDER_ROWS} at a time"
        )
    # A row's runs are at most 600 s each at 10 kHz and 1000 fps: far within a run's limits.
    rows = judder_rows(
        seconds=seconds,
        wake_jitter_ms=jitter,
        vsync=not args.no_vsync,
        **choices,  # type: ignore[arg-type]
    )
    if not args.json:
        sys.stdout.write(HEADER + "\n" + RULE + "\n")
    sys.stdout.flush()
    stop_point("rows")
    with progress_bar(count, "rows") as done:
        for number, row in enumerate(rows, start=1):
            # sys.stdout each time: a bar that shows takes stdout's lines above it
            sys.stdout.write((json.dumps(row.record()) if args.json else markdown_row(row)) + "\n")
            sys.stdout.flush()
            done(number)
    return 0
