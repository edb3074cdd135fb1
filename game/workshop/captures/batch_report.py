"""The report of a `capture PATH...` batch: a row per file, tick rate and policy, then the
aggregates per tick rate and policy, with the worst files.

An aggregate sums numerators and denominators over the files read, so a long capture counts for
its length: the ticks-per-frame shares are over all the frames, and the dropped, lost and
doubled shares over all the captured time (a file's lost share is presses lost over its time,
so its lost presses are its share times its time). It names the worst file for each measure: the
highest dropped, lost and doubled shares, the lowest headroom (a policy with none at all is the
lowest) and display agreement; the first in path order on a tie. Everything is exact until it
is written (`nine_places`, `json_number`), so the report does not depend on the order the
files finished in, nor on what ran them.
"""

from __future__ import annotations

import csv
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

from game.clock.units import format_ms
from game.config.exact import decimal_text
from game.workshop.captures.batch_job import FileResult
from game.workshop.captures.policy_figures import json_number, nine_places
from game.workshop.captures.report import HEADER, aligned, row_cells
from timestep_lab import round_ns

MEASURES = ("dropped_share", "lost_share", "doubled_share", "headroom_ns", "agreement")
"""The measures an aggregate names a worst file for (the `"worst"` object's keys)."""
BATCH_CSV = "batch.csv"
CSV_HEADER = (
    "file", "hz", "policy", "frames", "ticks", "dropped_ns", "lag_ns", "longest_catch_up",
    "lost_share", "doubled_share", "headroom_ns", "agreement", "error",
)  # fmt: skip


@dataclass
class Aggregate:
    """One tick rate and policy over every file read."""

    hz: Fraction
    policy: str
    files: int = 0
    frames: int = 0
    ticks: int = 0
    steps_per_frame: Counter[int] = field(default_factory=Counter)
    captured_ns: int = 0
    dropped_ns: Fraction = Fraction(0)
    lost_ns: Fraction = Fraction(0)
    """Sum over the files of lost share x captured time (and `doubled_ns` likewise)."""
    doubled_ns: Fraction = Fraction(0)
    worst: dict[str, tuple[Fraction | None, str]] = field(default_factory=dict)

    def share(self, part: Fraction) -> Fraction:
        return part / self.captured_ns if self.captured_ns else Fraction(0)

    def record(self) -> dict[str, object]:
        """`--json`'s aggregate line."""
        return {
            "aggregate": True,
            "hz": json_number(self.hz),
            "policy": self.policy,
            "files": self.files,
            "frames": self.frames,
            "ticks": self.ticks,
            "steps_per_frame": {str(k): n for k, n in sorted(self.steps_per_frame.items())},
            "steps_per_frame_share": {
                str(k): json_number(round(Fraction(n, self.frames), 9))
                for k, n in sorted(self.steps_per_frame.items())
            },
            "captured_ns": self.captured_ns,
            "dropped_ns": round_ns(self.dropped_ns),
            "dropped_share": json_number(round(self.share(self.dropped_ns), 9)),
            "lost_share": json_number(round(self.share(self.lost_ns), 9)),
            "doubled_share": json_number(round(self.share(self.doubled_ns), 9)),
            "worst": {measure: file for measure, (_, file) in self.worst.items()},
        }


def _consider(
    aggregate: Aggregate, measure: str, value: Fraction | None, file: str, higher: bool
) -> None:
    """Keep `file` as the worst for `measure` if it is worse than the one kept (None is the
    lowest of all: a policy with no headroom at all)."""
    kept = aggregate.worst.get(measure)
    if kept is None:
        aggregate.worst[measure] = (value, file)
        return
    old = kept[0]
    if higher:
        worse = value is not None and (old is None or value > old)
    else:
        worse = old is not None and (value is None or value < old)
    if worse:
        aggregate.worst[measure] = (value, file)


def aggregates(results: Sequence[FileResult], headroom: bool) -> list[Aggregate]:
    """Per tick rate and policy (in the order asked), over the files read, in path order."""
    found: dict[tuple[Fraction, str], Aggregate] = {}
    for result in results:
        if result.error is not None:
            continue
        for figures, room in zip(result.figures, result.headrooms, strict=True):
            key = (figures.hz, figures.policy)
            one = found.setdefault(key, Aggregate(figures.hz, figures.policy))
            time = result.captured_ns
            one.files += 1
            one.frames += figures.frames
            one.ticks += figures.ticks
            one.steps_per_frame.update(figures.steps_per_frame)
            one.captured_ns += time
            one.dropped_ns += figures.dropped_ns
            one.lost_ns += figures.lost_share * time
            one.doubled_ns += figures.doubled_share * time
            own = Fraction(1, time) if time else Fraction(0)
            _consider(one, "dropped_share", figures.dropped_ns * own, result.path, True)
            _consider(one, "lost_share", figures.lost_share, result.path, True)
            _consider(one, "doubled_share", figures.doubled_share, result.path, True)
            if headroom:
                value = None if room is None or room.headroom_ns is None else room.headroom_ns
                _consider(
                    one,
                    "headroom_ns",
                    None if value is None else Fraction(value),
                    result.path,
                    False,
                )
            if result.agreement is not None:
                _consider(one, "agreement", result.agreement, result.path, False)
    return list(found.values())


def json_lines(
    results: Sequence[FileResult], totals: Sequence[Aggregate]
) -> list[dict[str, object]]:
    """`--json`: each file's lines (or its error), in path order, then the aggregates."""
    lines: list[dict[str, object]] = []
    for result in results:
        if result.error is not None:
            lines.append({"file": result.path, "error": result.error})
        else:
            lines.extend(result.lines)
    return lines + [total.record() for total in totals]


def batch_text(results: Sequence[FileResult], totals: Sequence[Aggregate], headroom: bool) -> str:
    """The text report: the table of every file's rows, then the aggregates' table and the
    worst files."""
    read = [result for result in results if result.error is None]
    cells = [["file", "hz", *HEADER]]
    for result in read:
        for figures, room in zip(result.figures, result.headrooms, strict=True):
            cells.append([result.path, decimal_text(figures.hz), *row_cells(figures, room)])
    lines = [f"capture: {len(read):,} of {len(results):,} files read", ""]
    lines += aligned(cells) if read else []
    if totals:
        lines += [
            "",
            "all files, per tick rate and policy (shares over all their frames and time):",
        ]
        lines += aligned(_total_cells(totals))
        lines += [
            "",
            "worst files (highest dropped, lost, doubled; lowest headroom, display agreement):",
        ]
        lines += aligned(_worst_cells(totals, headroom))
    return "\n".join(lines) + "\n"


def _total_cells(totals: Sequence[Aggregate]) -> list[list[str]]:
    cells = [
        ["hz", "policy", "files", "frames", "ticks:share of frames", "dropped", "lost", "doubled"]
    ]
    for total in totals:
        shares = " ".join(
            f"{k}:{nine_places(Fraction(n, total.frames))}"
            for k, n in sorted(total.steps_per_frame.items())
        )
        cells.append(
            [
                decimal_text(total.hz),
                total.policy,
                f"{total.files:,}",
                f"{total.frames:,}",
                shares,
                nine_places(total.share(total.dropped_ns)),
                nine_places(total.share(total.lost_ns)),
                nine_places(total.share(total.doubled_ns)),
            ]
        )
    return cells


def _worst_cells(totals: Sequence[Aggregate], headroom: bool) -> list[list[str]]:
    measures = [m for m in MEASURES if headroom or m != "headroom_ns"]
    cells = [["hz", "policy", *(m.removesuffix("_share").removesuffix("_ns") for m in measures)]]
    for total in totals:
        row = [decimal_text(total.hz), total.policy]
        for measure in measures:
            value, file = total.worst.get(measure, (None, "-"))
            row.append(file if file == "-" else f"{file} ({_value_text(measure, value)})")
        cells.append(row)
    return cells


def _value_text(measure: str, value: Fraction | None) -> str:
    if measure == "headroom_ns":
        return "none" if value is None else f"{format_ms(value)} ms"
    return "-" if value is None else nine_places(value)


def write_batch_csv(path: Path, results: Sequence[FileResult]) -> None:
    """`batch.csv` at `path` (a temporary name, renamed by the caller): one row per file, tick
    rate and policy, and a row per failed file with its error."""
    with path.open("w", newline="", encoding="utf-8") as file:
        writer = csv.writer(file)
        writer.writerow(CSV_HEADER)
        for result in results:
            if result.error is not None:
                writer.writerow([result.path, *[""] * (len(CSV_HEADER) - 2), result.error])
                continue
            for line in result.lines:
                writer.writerow(_csv_row(line))


def _csv_row(line: dict[str, object]) -> list[object]:
    display = line.get("display")
    agreement = display.get("agreement", "") if isinstance(display, dict) else ""
    return [
        line["file"],
        line["hz"],
        line["policy"],
        line["frames"],
        line["ticks"],
        line["dropped_ns"],
        line["lag_ns"],
        line["longest_catch_up"],
        line["lost_share"],
        line["doubled_share"],
        _blank(line.get("headroom_ns", "")),
        agreement,
        "",
    ]


def _blank(value: object) -> object:
    return "" if value is None else value
