"""`frames.csv` of `capture --out`: one row per frame, to find a hitch again in the user's tool.

Columns: `row` (the capture's own row number: the header is row 1, as a spreadsheet counts),
`time_ns` (when the frame was presented, from the first frame kept), `elapsed_ns` (the time the
scheduler was handed, by `--column`), `hitch` (1 for a hitch, by `hitches`' rule), then one
column per tick rate and policy, `POLICY@HZ`, with the ticks that frame ran. Whole numbers
only: exact, and any tool reads them.
"""

from __future__ import annotations

import csv
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path

import numpy as np

from game.config.exact import decimal_text
from game.workshop.captures.analysis import PolicyResult
from game.workshop.captures.frame_times import FrameTimes
from game.workshop.captures.hitches import hitches
from game.workshop.files.output import written_whole
from timestep_lab import SchedulerSettings

CHUNK = 1 << 16
"""Rows turned into Python values at a time: the CSV never holds a million rows of them."""


def hz_text(settings: SchedulerSettings) -> str:
    return decimal_text(Fraction(settings.hz))


def figure_stem(settings: SchedulerSettings) -> str:
    """`capture_60hz`, `capture_59_94hz`: a file name for one tick rate's figure."""
    return "capture_" + hz_text(settings).replace(".", "_").replace("/", "_") + "hz"


def write_frames_csv(
    path: Path, times: FrameTimes, results: Sequence[Sequence[PolicyResult]]
) -> Path:
    """Write the CSV whole or not at all (`written_whole`); return its path."""
    kept = [result for row in results for result in row]
    ticks = []
    for result in kept:
        assert result.steps is not None, "the runs keep their ticks when a CSV is asked for"
        ticks.append(result.steps)
    header = ["row", "time_ns", "elapsed_ns", "hitch"] + [
        f"{result.settings.policy}@{hz_text(result.settings)}" for result in kept
    ]
    columns = [times.row, times.time_ns, times.elapsed_ns, hitches(times.elapsed_ns), *ticks]
    with written_whole(path) as partial, partial.open("w", newline="", encoding="utf-8") as file:
        writer = csv.writer(file)
        writer.writerow(header)
        for start in range(0, len(times), CHUNK):
            chunk = [
                np.asarray(column[start : start + CHUNK], dtype=np.int64) for column in columns
            ]
            writer.writerows(zip(*(column.tolist() for column in chunk), strict=True))
    return path
