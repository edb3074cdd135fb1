"""The display side's options on the `capture` command, and whether it can run on a capture.

    --present-mode queue|latest|immediate   the model's present mode (default: the best fit)
    --refresh HZ                            the display's refresh, exact (default: fitted; a
                                            capture that tore leaves none to fit: 60)

The display side runs where the capture says which frames reached the screen and when, over
every frame the game presented: not under `--column display`, which keeps only the frames shown,
nor on MangoHud's samples.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from game.capture.frame import CaptureInfo
from game.clock.units import parse_decimal, shown
from game.config.exact import decimal_text
from game.display.model import PRESENT_MODES, PresentMode
from game.errors import BadInput
from game.knobs import knob_at
from game.workshop.captures.display_columns import DisplayColumns
from game.workshop.captures.display_report import DISPLAY_CSV, display_text, write_display_csv
from game.workshop.captures.display_side import DisplaySide, compare_display


@dataclass(frozen=True, slots=True)
class DisplayOptions:
    mode: PresentMode | None = None
    refresh_hz: Fraction | None = None


def add_display_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--present-mode",
        choices=PRESENT_MODES,
        metavar="MODE",
        help="the display model's present mode: queue, latest or immediate (default: the best fit)",
    )
    parser.add_argument(
        "--refresh",
        metavar="HZ",
        help="the display's refresh rate, exact (default: fitted to the display times)",
    )


def display_options(args: argparse.Namespace) -> DisplayOptions:
    """The options given, checked: a bad `--refresh` is one line and exit 2. Its range is the
    model's, the knob table's `display.refresh_hz` (as `judder --refresh` takes it)."""
    refresh = None
    if args.refresh is not None:
        try:
            refresh = parse_decimal(args.refresh, what="--refresh")
        except ValueError as problem:
            raise BadInput.error(str(problem)) from None
        bounds = knob_at("display.refresh_hz").range
        assert bounds is not None and bounds.at_least is not None and bounds.at_most is not None
        if not bounds.at_least <= refresh <= bounds.at_most:
            raise BadInput.error(
                f"--refresh must be from {decimal_text(Fraction(bounds.at_least))} to "
                f"{decimal_text(Fraction(bounds.at_most))} Hz (got {shown(args.refresh)})"
            )
    return DisplayOptions(args.present_mode, refresh)


def why_no_display_side(columns: DisplayColumns, info: CaptureInfo) -> str | None:
    """Why the display side cannot run on this capture, or None when it can."""
    if info.sample_interval_ms is not None:
        return "MangoHud's samples are not frames, and it does not say what reached the screen"
    if info.column == "display":
        return "--column display keeps only the frames shown; --column presents keeps them all"
    return columns.missing()


def run_display_side(
    columns: DisplayColumns, info: CaptureInfo, options: DisplayOptions
) -> DisplaySide | str:
    """The display side of the capture, or why it did not run."""
    why_not = why_no_display_side(columns, info)
    if why_not is not None:
        return why_not
    try:
        return compare_display(columns, mode=options.mode, refresh_hz=options.refresh_hz)
    except (ValueError, OverflowError) as problem:  # times the checks above did not foresee
        return f"the display model cannot take this capture's times ({problem})"


def display_lines(side: DisplaySide | str, frames: int) -> str:
    """The report's display-side lines, or the one line that says why it did not run."""
    if isinstance(side, str):
        return f"\ndisplay side: not run: {side}\n"
    return "\n" + display_text(side, frames)


def add_display_record(record: dict[str, object], side: DisplaySide | str) -> dict[str, object]:
    """A `--json` line with its `"display"` object, where the display side ran."""
    if isinstance(side, DisplaySide):
        record["display"] = side.record()
    return record


def write_display_outputs(out: Path, side: DisplaySide | str) -> list[Path]:
    """`--out`'s `display.csv`, where the display side ran."""
    return [write_display_csv(out / DISPLAY_CSV, side)] if isinstance(side, DisplaySide) else []
