"""`PresentMonCapture`: a PresentMon CSV, counted once when opened, its frames streamed on demand.

Opening reads the whole file once, a chunk at a time, and keeps only counts: the rows of each
(process, swap chain) and what each row became under the rules of `presentmon.py`. That is
enough to choose the swap chain (`selection.py`), to fill `CaptureInfo` and to refuse a file
with no frames before anything runs. `frames()` then reads the file again and hands out the kept
chain's frames one at a time, so memory stays flat however long the capture.

**Lines.** A line is split at its commas (PresentMon quotes nothing); blank lines are not rows.
A row with another number of cells than the header is a "truncated line" (cut short, or spliced
from another file), and so is a last line the file ends without a line end (the tool was
stopped while writing it: even with all its cells, its last number may be cut short). The rows
are read a chunk at a time with numpy (`presentmon_columns.py`), by `presentmon.py`'s rules.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import partial
from itertools import chain
from pathlib import Path

import numpy as np

from game.capture.columns import Chunk, Ints, split_chunk
from game.capture.frame import CapturedFrame, CaptureFormat, CaptureInfo, IntervalColumn
from game.capture.lines import CaptureLines
from game.capture.presentmon import FRAME_LOG_APPLICATION, PresentMonLayout
from game.capture.presentmon_columns import (
    FRAME,
    REASONS,
    ChainColumns,
    ChunkRows,
    chain_ids,
    read_chunk,
)
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
        header: Sequence[str],
        layout: PresentMonLayout,
        *,
        process: str | None = None,
        swapchain: str | None = None,
        column: IntervalColumn = "presents",
    ) -> None:
        self.path = path
        self.header = header
        self.layout = layout
        self.rows_read = self.irregular = self.lines_read = 0
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

    def _chunks(self) -> Iterator[tuple[int, Chunk]]:
        """Each chunk's regular rows, and the line number of the line before the chunk; the header
        is left out. The lines' count and the truncated ones are kept on `self`."""
        cells = len(self.header)
        width = self.layout.last_column + 1
        lines = CaptureLines(self.path)
        before = 0
        for data in lines.raw_chunks():
            if before == 0:
                header_end = data.find(b"\n") + 1
                data, before = data[header_end:], 1
                if not data:
                    continue
            chunk = split_chunk(data, cells, width)
            self.lines_read = before + chunk.lines
            self.irregular += chunk.irregular
            self.rows_read += chunk.lines - chunk.blank
            if self.rows_read > MAX_CAPTURE_ROWS:
                raise BadInput(
                    f"{self.path}: more than {MAX_CAPTURE_ROWS:,} rows (the limit for a capture)"
                )
            yield before, chunk
            before += chunk.lines
        if lines.unterminated.strip() and before > 0:
            self.rows_read += 1
            self.irregular += 1

    def _tally(self) -> tuple[list[ChainTally], int, int]:
        """Every chain's rows and outcomes, the data rows, the truncated lines: one read."""
        self.rows_read = self.irregular = 0
        known: dict[ChainKey, int] = {}
        counts = np.zeros(0, dtype=np.int64)
        states: dict[int, ChainColumns] = {}
        stateful = self.layout.displayed_time is not None and self.column == "display"
        for _, chunk in self._chunks():
            ids = chain_ids(chunk, self.layout, known)
            rows = read_chunk(chunk, self.layout, self.column, counting=True)
            code = rows.code
            if stateful:
                code = code.copy()
                for chain in np.unique(ids).tolist():
                    mine = np.flatnonzero(ids == chain)
                    state = states.setdefault(chain, ChainColumns(self.layout, self.column))
                    code[mine] = state.apply(rows, mine)[0]
            table = np.bincount(ids * len(REASONS) + code, minlength=len(known) * len(REASONS))
            counts = np.concatenate((counts, np.zeros(len(table) - len(counts), np.int64)))
            counts += table
        tallies = []
        for key, chain in known.items():
            outcomes = counts[chain * len(REASONS) : (chain + 1) * len(REASONS)].tolist()
            tally = ChainTally(key, rows=sum(outcomes))
            tally.outcomes = {REASONS[i]: n for i, n in enumerate(outcomes) if n}
            tallies.append(tally)
        return tallies, self.rows_read, self.irregular

    def frames(self) -> Iterator[CapturedFrame]:
        """The kept chain's frames in file order, read from the file again (each chunk's frames
        chained as they are made, so no Python code runs between one frame and the next)."""
        return chain.from_iterable(self._chunk_frames())

    def _chunk_frames(self) -> Iterator[Iterator[CapturedFrame]]:
        known = {self.chosen.key: 0}
        state = ChainColumns(self.layout, self.column)
        origin: int | None = None
        for before, chunk in self._chunks():
            mine = np.flatnonzero(chain_ids(chunk, self.layout, known) == 0)
            rows = read_chunk(chunk, self.layout, self.column)
            code, time, elapsed = state.apply(rows, mine)
            kept = np.flatnonzero(code == FRAME)
            if len(kept) == 0:
                continue
            if origin is None:
                origin = int(time[kept[0]])
            yield _frames(before, chunk, rows, mine[kept], time[kept] - origin, elapsed[kept])


def _frames(
    before: int, chunk: Chunk, rows: ChunkRows, chosen: Ints, time: Ints, elapsed: Ints
) -> Iterator[CapturedFrame]:
    """The frames of a chunk's rows `chosen` (times already from the first frame kept), made as
    tuples straight from the columns (`tuple.__new__`: a million are made for a large file)."""
    count = len(chosen)
    shown = [None] * count if rows.displayed is None else rows.displayed[chosen].tolist()
    has_display = rows.until_read[chosen]
    if rows.displayed is not None:
        has_display = has_display & rows.displayed[chosen]
    display: list[int | None] = (time + rows.until[chosen]).tolist()
    for index in np.flatnonzero(~has_display).tolist():
        display[index] = None
    columns = zip(
        (before + 1 + chunk.rows[chosen]).tolist(),
        time.tolist(),
        elapsed.tolist(),
        rows.present[chosen].tolist(),
        shown,
        display,
        strict=True,
    )
    return map(partial(tuple.__new__, CapturedFrame), columns)
