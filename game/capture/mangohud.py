"""`MangoHudCapture`: a MangoHud log (Linux), read as frames, or as samples when it says so.

MangoHud writes two lines of system information (`os,cpu,gpu,ram,kernel,driver,cpuscheduler`
and their values; with `log_versioning` also `v1`, its version and two ruler lines), then
`fps,frametime,cpu_load,...,elapsed` and a row per entry: `frametime` in milliseconds (MangoHud
before 0.7 wrote whole microseconds: told apart by `fps` x `frametime`, which is about 1,000 for
milliseconds and 1,000,000 for microseconds), `elapsed` in whole ns since logging started.

**Frames or samples.** With `log_interval=0` MangoHud writes a row every frame; with N > 0 it
writes one every N ms, holding the last frame's time: the rows are then samples, and every figure
made from them describes samples, not frames. The file does not say which: a per-frame log's
rows are a frame apart, so over the first 1,000 rows the median step of `elapsed` is the median
`frametime`; when the two differ by more than a quarter, the rows are samples, taken every
median step rounded to whole ms (`CaptureInfo.sample_interval_ms`, layout `mangohud-sampled`).

**Rows.** A row's elapsed time is its `frametime`; it must be a positive number ("missing
value", "not a number", "zero or negative interval"), and so must `elapsed` be a number; a row
with fewer cells than the columns read is a "truncated line". A last line without a line end is
read as a row when it has at least as many cells as the line before it and both its numbers
read, and is a truncated line otherwise (as `presentmon_file.py` says).

**One read.** The log is read once, front to back (it may come through a pipe), and its frames
are written down as columns as they come (`FrameColumns`, 25 bytes a frame).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from fractions import Fraction
from pathlib import Path

import numpy as np

from game.capture.decimals import MISSING, MS, NS, US, decimal_ns
from game.capture.frame import CapturedFrame, CaptureInfo, IntervalColumn
from game.capture.frame_columns import NOT_SAID, FrameColumns, GrowingColumn, not_said
from game.capture.lines import CaptureLines
from game.capture.selection import describe_skips
from game.capture.source import CaptureInput
from game.errors import BadInput
from game.limits import MAX_CAPTURE_ROWS

_SAMPLED_AFTER = 1000
_MICROSECONDS_ABOVE = 31_623 * 10**15
"""`fps` x `frametime` above 31,623 (the geometric middle of 10^3 and 10^6) means microseconds:
here in the units `_unit` reads them in (10^-9 of a frame a second, ns of a millisecond)."""
_LOG_NAME = re.compile(r"(.+)_\d{4}-\d{2}-\d{2}_\d{2}-\d{2}-\d{2}")


def log_stem(path: Path) -> str:
    """The log's name without its suffix, and without `.gz` first when it was compressed:
    `game_2024-05-01_20-15-03.csv.gz` is `game_2024-05-01_20-15-03`."""
    name = Path(path.name[:-3]) if path.name.lower().endswith(".gz") else Path(path.name)
    return name.stem


def is_mangohud(lines: Sequence[str]) -> bool:
    """Whether the first lines are a MangoHud log's."""
    return bool(lines) and (lines[0].strip() == "v1" or lines[0].startswith("os,"))


def _header(path: Path, lines: Sequence[str]) -> tuple[int, list[str]]:
    """The line index and the cells of the `fps,frametime,...` header."""
    for index, line in enumerate(lines):
        cells = [cell.strip() for cell in line.split(",")]
        if cells[:1] == ["fps"]:
            if "frametime" not in cells or "elapsed" not in cells:
                raise BadInput(
                    f"{path}: a MangoHud log without frametime and elapsed columns (MangoHud "
                    "before 0.6 logged only fps, which is no frame time)"
                )
            return index, cells
    raise BadInput(f"{path}: not a capture: a MangoHud log without its fps,frametime,... line")


class MangoHudCapture:
    """A MangoHud CSV opened for reading (see the module docstring)."""

    def __init__(
        self,
        source: CaptureInput,
        lines: Sequence[str],
        *,
        process: str | None = None,
        swapchain: str | None = None,
        column: IntervalColumn = "presents",
    ) -> None:
        path = self.path = source.path
        self.source = source
        if column != "presents":
            raise BadInput(
                f"{path}: --column {column} needs display or simulation times, which a MangoHud "
                "log does not have (only --column presents)"
            )
        if process is not None or swapchain is not None:
            raise BadInput(f"{path}: a MangoHud log holds one game: no --process or --swapchain")
        header_line, header = _header(path, lines)
        self.skip_lines = header_line + 1
        self.width = max(header.index("frametime"), header.index("elapsed")) + 1
        self.frametime, self.elapsed = header.index("frametime"), header.index("elapsed")
        self.fps = header.index("fps")
        self.unit = self._unit(lines[self.skip_lines :])
        self.unterminated: str | None = None
        rows, skipped, frames, steps, times = self._tally()
        if frames == 0:
            reasons = describe_skips(skipped) or "no rows"
            raise BadInput(f"{path}: no frames: {rows:,} rows, none a frame ({reasons})")
        interval = _sample_interval(steps, times)
        stem = log_stem(path)
        named = _LOG_NAME.fullmatch(stem)
        self._info = CaptureInfo(
            path=str(path),
            format="mangohud",
            layout="mangohud" if interval is None else "mangohud-sampled",
            process=named.group(1) if named else stem,
            swapchain=None,
            column=column,
            rows=rows,
            frames=frames,
            skipped=skipped,
            sample_interval_ms=interval,
            chosen_by_default=False,
            notes=()
            if self.unterminated is None
            else (f"last line had no line end: read as {self.unterminated}",),
        )

    @property
    def info(self) -> CaptureInfo:
        return self._info

    def _unit(self, data_lines: Sequence[str]) -> int:
        """Milliseconds, or microseconds when `fps` x `frametime` of the first rows is nearer 10^6
        (the first lines are all that is looked at; with no row there, milliseconds). Each is
        read as a capture's decimals are: a number past their limits (`1e999999999`) is no
        number, at once."""
        for line in data_lines:
            cells = line.split(",")
            if len(cells) < self.width:
                continue
            try:
                fps = decimal_ns(cells[self.fps].strip(), 9)
                frametime = decimal_ns(cells[self.frametime].strip(), MS)
            except ValueError:
                continue
            if fps > 0 and frametime > 0:
                return US if fps * frametime > _MICROSECONDS_ABOVE else MS
        return MS

    def _rows(self) -> Iterator[tuple[int, str | tuple[int, int]]]:
        """(line number, the row's reason or its (elapsed column, frametime) in ns) of each row,
        the input read once."""
        number = 0
        cells_before = self.width
        lines = CaptureLines(self.source)
        for chunk in lines:
            for line in chunk:
                number += 1
                if number <= self.skip_lines or not line:
                    continue
                cells_before = line.count(",") + 1
                yield number, self._read(line.split(",", self.width))
        last = lines.unterminated.decode("utf-8", errors="replace").rstrip("\r")
        if last.strip() and number >= self.skip_lines:
            outcome = self._read(last.split(",", self.width))
            if last.count(",") + 1 < cells_before or outcome in ("missing value", "not a number"):
                outcome = "truncated line"
            self.unterminated = "a truncated line" if outcome == "truncated line" else "a row"
            yield number + 1, outcome

    def _read(self, cells: list[str]) -> str | tuple[int, int]:
        if len(cells) < self.width:
            return "truncated line"
        values = []
        for text, unit in ((cells[self.elapsed], NS), (cells[self.frametime], self.unit)):
            if text.strip() in MISSING:
                return "missing value"
            try:
                values.append(decimal_ns(text.strip(), unit))
            except ValueError:
                return "not a number"
        if values[1] <= 0:
            return "zero or negative interval"
        return values[0], values[1]

    def _tally(self) -> tuple[int, dict[str, int], int, list[int], list[int]]:
        """Rows, skips by reason, frames, and the first rows' elapsed steps and frame times;
        the frames written down as columns on the way (`self.columns`)."""
        rows = frames = 0
        skipped: dict[str, int] = {}
        steps: list[int] = []
        times: list[int] = []
        last: int | None = None
        origin = 0
        written = [GrowingColumn(np.int64, 1 << 12) for _ in range(3)]
        found: list[list[int]] = [[], [], []]
        for number, outcome in self._rows():
            rows += 1
            if rows > MAX_CAPTURE_ROWS:
                raise BadInput(
                    f"{self.path}: more than {MAX_CAPTURE_ROWS:,} rows (the limit for a capture)"
                )
            if isinstance(outcome, str):
                skipped[outcome] = skipped.get(outcome, 0) + 1
                continue
            if frames == 0:
                origin = outcome[0]
            frames += 1
            for values, value in zip(found, (number, outcome[0] - origin, outcome[1]), strict=True):
                values.append(value)
            if len(found[0]) >= 1 << 12:
                self._write(written, found)
            if len(times) < _SAMPLED_AFTER:
                times.append(outcome[1])
                if last is not None:
                    steps.append(outcome[0] - last)
            last = outcome[0]
        self._write(written, found)
        row, time, elapsed = (column.written() for column in written)
        unsaid = not_said(len(row))
        shown = np.full(len(row), NOT_SAID, dtype=np.int8)
        self.columns = FrameColumns(row, time, elapsed, elapsed, shown, unsaid, unsaid)
        return rows, skipped, frames, steps, times

    @staticmethod
    def _write(written: list[GrowingColumn], found: list[list[int]]) -> None:
        for column, values in zip(written, found, strict=True):
            column.append(np.array(values, dtype=np.int64))
            values.clear()

    def frames(self) -> Iterator[CapturedFrame]:
        """The rows' frames (or samples) in file order, from the columns read when opened."""
        return self.columns.frames()


def _median(values: list[int]) -> int:
    ordered = sorted(values)
    return ordered[len(ordered) // 2]


def _sample_interval(steps: list[int], times: list[int]) -> int | None:
    """The sampling interval in whole ms when the rows are samples (module docstring), else None."""
    if not steps:
        return None
    step, frametime = _median(steps), _median(times)
    if abs(step - frametime) * 4 <= frametime:
        return None
    return round(Fraction(step, 1_000_000))
