"""`PresentMonCapture`: a PresentMon CSV, counted once when opened, its frames streamed on demand.

Opening reads the whole file once, a chunk at a time, and keeps only counts: the rows of each
(process, swap chain) and what each row became under the rules of `presentmon.py`. That is
enough to choose the swap chain (`selection.py`), to fill `CaptureInfo` and to refuse a file
with no frames before anything runs. `frames()` then reads the file again and hands out the kept
chain's frames one at a time, so memory stays flat however long the capture.

**Lines.** A line is split at its commas (PresentMon quotes nothing); blank lines are not rows.
A row with fewer cells than the columns read is a "truncated line", and so is a last line the
file ends without a line end (the tool was stopped while writing it: even with all its cells,
its last number may be cut short).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from game.capture.frame import CapturedFrame, CaptureFormat, CaptureInfo, IntervalColumn
from game.capture.lines import CaptureLines
from game.capture.presentmon import FRAME_LOG_APPLICATION, ChainClock, PresentMonLayout, row_reader
from game.capture.selection import (
    ChainKey,
    ChainTally,
    choose_chain,
    describe_skips,
    skipped_rows,
)
from game.errors import BadInput
from game.limits import MAX_CAPTURE_ROWS


class PresentMonCapture:
    """A PresentMon CSV opened for reading (see the module docstring)."""

    def __init__(
        self,
        path: Path,
        layout: PresentMonLayout,
        *,
        process: str | None = None,
        swapchain: str | None = None,
        column: IntervalColumn = "presents",
    ) -> None:
        self.path = path
        self.layout = layout
        self.column = column
        lacking = layout.lacks(column)
        if lacking is not None:
            raise BadInput(
                f"{path}: --column {column} needs {lacking}, which this PresentMon "
                f"{layout.name} capture does not have"
            )
        tallies, rows, truncated = self._tally()
        self.chosen = choose_chain(path, tallies, process, swapchain)
        skipped = skipped_rows(tallies, self.chosen, truncated)
        if self.chosen.frames == 0:
            raise BadInput(
                f"{path}: no frames: {rows:,} rows, {self.chosen.process} swap chain "
                f"{self.chosen.key[2]} kept, none a frame under --column {column} "
                f"({describe_skips(skipped)})"
            )
        wrote: CaptureFormat = "presentmon"
        if layout.name == "1.x" and self.chosen.key[0] == FRAME_LOG_APPLICATION:
            wrote = "timestep-lab"
        self._info = CaptureInfo(
            path=str(path),
            format=wrote,
            layout=layout.name,
            process=self.chosen.process,
            swapchain=self.chosen.key[2],
            column=column,
            rows=rows,
            frames=self.chosen.frames,
            skipped=skipped,
            chosen_by_default=process is None and swapchain is None,
        )

    @property
    def info(self) -> CaptureInfo:
        return self._info

    def _tally(self) -> tuple[list[ChainTally], int, int]:
        """Every chain's rows and outcomes, the data rows, the truncated lines: one read."""
        layout = self.layout
        width = layout.last_column + 1
        application, process_id, swapchain = layout.application, layout.process_id, layout.swapchain
        read = row_reader(layout, self.column)
        tallies: dict[ChainKey, ChainTally] = {}
        clocks: dict[ChainKey, ChainClock] = {}
        lines = CaptureLines(self.path)
        rows = truncated = 0
        header = True
        for chunk in lines:
            if header:
                chunk = chunk[1:]
                header = False
            for line in chunk:
                if not line:
                    continue
                rows += 1
                cells = line.split(",", width)
                if len(cells) < width:
                    truncated += 1
                    continue
                key = (cells[application], cells[process_id], cells[swapchain])
                tally = tallies.get(key)
                if tally is None:
                    tally = tallies[key] = ChainTally(key)
                    clocks[key] = ChainClock()
                tally.rows += 1
                outcome = read(cells, clocks[key])
                label = outcome if isinstance(outcome, str) else ""
                outcomes = tally.outcomes
                outcomes[label] = outcomes.get(label, 0) + 1
            if rows > MAX_CAPTURE_ROWS:
                raise BadInput(
                    f"{self.path}: more than {MAX_CAPTURE_ROWS:,} rows (the limit for a capture)"
                )
        if lines.unterminated.strip() and not header:
            rows += 1
            truncated += 1
        return list(tallies.values()), rows, truncated

    def frames(self) -> Iterator[CapturedFrame]:
        """The kept chain's frames in file order, read from the file again."""
        layout = self.layout
        width = layout.last_column + 1
        key = self.chosen.key
        columns = (layout.application, layout.process_id, layout.swapchain)
        prefix = ",".join(key) + "," if columns == (0, 1, 2) else None
        read = row_reader(layout, self.column)
        clock = ChainClock()
        origin: int | None = None
        number = 0
        for chunk in CaptureLines(self.path):
            for line in chunk:
                number += 1
                if prefix is not None and not line.startswith(prefix):
                    continue
                cells = line.split(",", width)
                if number == 1 or len(cells) < width:
                    continue
                if prefix is None and tuple(cells[index] for index in columns) != key:
                    continue
                outcome = read(cells, clock)
                if isinstance(outcome, str):
                    continue
                time_ns, elapsed_ns, present_ns, displayed, display_ns = outcome
                if origin is None:
                    origin = time_ns
                yield CapturedFrame(
                    number,
                    time_ns - origin,
                    elapsed_ns,
                    present_ns,
                    displayed,
                    None if display_ns is None else display_ns - origin,
                )
