"""The display side in the `capture` report: the grid, the model, and the two sides' figures.

    display side: 1,502 of 3,000 frames reached the screen, by the capture's word
      refresh grid: 60.000 Hz, fitted to 1,502 display changes (off it by 0.000 ms by the ...)
      model: 60 Hz vsync, latest frame wins, each frame 2.003 ms after its present (best fit ...)
                 shown  judder %  latency ms  frames a refresh (last 24)
      capture    1,502    17.037       6.340  221222222222321222222222
      model      1,502    17.037       6.340  221222222222321222222222
      agreement: 3,000 of 3,000 frames (100.000 %)

`--out` writes `display.csv` beside it (`write_display_csv`): the two sides frame by frame.

The judder columns are the display lab's meter (`game.display.judder`) over the refreshes both
sides cover: each picture taken to show the moment its frame was presented, so the latency is
present to photons and the cadence counts frames, not ticks.
"""

from __future__ import annotations

import csv
from fractions import Fraction
from pathlib import Path

from game.capture.frame_columns import NOT_SAID
from game.clock.units import format_ms
from game.display.grid import RefreshGrid
from game.display.judder import JudderReport
from game.display.model import DisplaySettings
from game.workshop.captures.display_side import DisplaySide
from game.workshop.files.output import written_whole

MODE_WORDS = {"queue": "queue", "latest": "latest frame wins", "immediate": "immediate (torn)"}


def display_text(side: DisplaySide, frames: int) -> str:
    """The report's display-side lines, for a capture of `frames` frames."""
    lines = [
        f"display side: {side.captured_shown:,} of {frames:,} frames reached the screen, "
        "by the capture's word"
        + (f" (it says nothing of {frames - side.frames:,})" if side.frames < frames else ""),
        "  " + grid_line(side),
        "  " + model_line(side),
        f"  {'':8}{'shown':>9}  {'judder %':>8}  {'latency ms':>10}  frames a refresh (last 24)",
        "  " + _figures("capture", side.captured_shown, side.captured_judder),
        "  " + _figures("model", side.predicted_shown, side.predicted_judder),
        "  " + agreement_line(side),
    ]
    if side.meter_note is not None:
        lines.append(f"  judder: not measured: {side.meter_note}")
    return "\n".join(lines) + "\n"


def grid_line(side: DisplaySide) -> str:
    """How the refresh grid was found: fitted, or stated for a display that tore."""
    fit = side.fit
    off = (
        f"off it by {format_ms(fit.median_residual_ns)} ms by the median, "
        f"{format_ms(fit.worst_residual_ns)} ms at worst"
    )
    if side.grid.fitted:
        return (
            f"refresh grid: {_hz(side.grid)} Hz, fitted to {fit.frames:,} display changes "
            f"({off}; phase {float(side.grid.phase):.3f})"
        )
    return (
        f"refresh grid: the display times sit on none (the nearest, {_hz(fit)} Hz: {off}): "
        f"the frames were shown as they came; refreshes taken at {_hz(side.grid)} Hz"
    )


def model_line(side: DisplaySide) -> str:
    """The model the capture was run through, and how well each mode tried agreed."""
    settings = DisplaySettings(refresh_hz=side.grid.refresh_hz, present_mode=side.mode)
    described = settings.describe().replace("latest frame wins", MODE_WORDS["latest"])
    tried = ", ".join(
        f"{mode} {_percent(agreement)} %" for mode, agreement in side.agreements.items()
    )
    why = "asked" if side.asked else f"best fit; agreement: {tried}"
    after = "it was ready" if side.ready_from == "ready" else "its present"
    return f"model: {described}, each frame {format_ms(side.lead_ns)} ms after {after} ({why})"


def agreement_line(side: DisplaySide) -> str:
    """The agreement, and the rows of the first frames the two sides disagree on."""
    line = f"agreement: {side.agreed:,} of {side.frames:,} frames ({_percent(side.agreement)} %)"
    rows = side.disagreements()
    if rows:
        line += "; they disagree first at rows " + ", ".join(f"{row:,}" for row in rows)
    return line


def _figures(name: str, shown: int, report: JudderReport | None) -> str:
    if report is None:
        return f"{name:8}{shown:>9,}  {'-':>8}  {'-':>10}  -"
    return (
        f"{name:8}{shown:>9,}  {report.judder_pct:>8.3f}  {report.latency_ms:>10.3f}  "
        f"{report.cadence or '-'}"
    )


def _hz(grid: RefreshGrid) -> str:
    return f"{float(grid.refresh_hz):.3f}"


def _percent(share: Fraction) -> str:
    return f"{float(100 * share):.3f}"


DISPLAY_CSV = "display.csv"
CSV_HEADER = (
    "row",
    "time_ns",
    "captured_shown",
    "captured_display_ns",
    "predicted_shown",
    "predicted_display_ns",
)
CHUNK = 1 << 16
"""Rows turned into Python values at a time."""


def write_display_csv(path: Path, side: DisplaySide) -> Path:
    """`display.csv`: per frame, `row` and `time_ns` (as in `frames.csv`), `captured_shown` (1,
    0, empty where the capture does not say), `captured_display_ns` (when, by the capture),
    `predicted_shown` and `predicted_display_ns` (by the model; empty when it is not shown).
    Whole numbers only. Written whole or not at all; returns its path."""
    frames = side.columns
    columns = (frames.rows, frames.present_ns, side.said, side.captured, frames.display_ns)
    model = (side.predicted, side.predicted_ns)
    with written_whole(path) as partial, partial.open("w", newline="", encoding="utf-8") as file:
        writer = csv.writer(file)
        writer.writerow(CSV_HEADER)
        for start in range(0, len(frames.rows), CHUNK):
            rows, times, said, captured, display, predicted, shown_ns = (
                column[start : start + CHUNK].tolist() for column in (*columns, *model)
            )
            writer.writerows(
                zip(
                    rows,
                    times,
                    map(_known, captured, said),
                    map(_known, display, (time != NOT_SAID for time in display)),
                    map(int, predicted),
                    map(_known, shown_ns, predicted),
                    strict=True,
                )
            )
    return path


def _known(value: int | bool, known: bool) -> int | str:
    """A cell: the value as a whole number, or empty."""
    return int(value) if known else ""
