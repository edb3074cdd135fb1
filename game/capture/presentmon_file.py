"""`PresentMonCapture`: a PresentMon CSV, read once when opened, its kept frames held as columns.

Opening reads the whole input once, a chunk at a time, and applies the rules of `presentmon.py`
to every row: each (process, swap chain) gets its counts (the rows, and what each became), and
each chain that the options leave in the running gets its frames written down as columns
(`presentmon_chains.py`). At the end the chain is chosen from the counts (`selection.py`), its
columns joined and the others let go. So the frames held at once are never more than the rows
read, whichever chains they belong to, and a file with no frames is refused before anything
runs. `frames()` and `columns` hand them out.

**Lines.** A line is split at its commas (PresentMon quotes nothing); blank lines are not rows.
A row that holds every column the rules read (`PresentMonLayout.last_column`) and no more cells
than the header is read; any other is a "truncated line" (cut short, or spliced from another
file), counted for the process and swap chain its first cells name (a line cut before them
names none). The rows are read a chunk at a time with numpy (`presentmon_columns.py`).

**The last line.** A file may end without a line end: a finished one (some tools write no final
line end), or one whose tool was stopped while writing its last line. That last line is a frame
when it has at least as many cells as the line before it and every cell the rules read is a
number; otherwise it is a truncated line. The report says the file had no final line end.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import numpy as np

from game.capture.columns import Chunk, split_chunk
from game.capture.frame import (
    Candidate,
    CapturedFrame,
    CaptureFormat,
    CaptureInfo,
    IntervalColumn,
)
from game.capture.frame_columns import FrameColumns
from game.capture.lines import CaptureLines, refuse_long_line
from game.capture.presentmon import FRAME_LOG_APPLICATION, PresentMonLayout
from game.capture.presentmon_chains import ChainFrames, odd_line_keys
from game.capture.presentmon_columns import (
    MISSING_VALUE,
    UNREADABLE,
    ChainColumns,
    chain_ids,
    read_chunk,
)
from game.capture.selection import (
    ChainKey,
    candidates,
    choose_chain,
    describe_skips,
    matches,
    skipped_rows,
)
from game.capture.source import CaptureInput
from game.errors import BadInput
from game.limits import MAX_CAPTURE_LINE_BYTES, MAX_CAPTURE_ROWS


class PresentMonCapture:
    """A PresentMon CSV opened for reading (see the module docstring)."""

    def __init__(
        self,
        source: CaptureInput,
        header: Sequence[str],
        layout: PresentMonLayout,
        *,
        process: str | None = None,
        swapchain: str | None = None,
        column: IntervalColumn = "presents",
        done: Callable[[float], None] | None = None,
        info: Sequence[tuple[str, str]] = (),
    ) -> None:
        path = self.path = source.path
        self.preamble = len(info)
        """CapFrameX's `//Key=Value` lines before the header (`reading.tool_info`)."""
        self.source = source
        self.done = done
        """`done(bytes_read)` moves a progress bar as the file is read (None: no bar)."""
        self.header = header
        self.layout = layout
        self.rows_read = self.unplaced = 0
        """Rows read, and the truncated lines among them that name no chain."""
        self.unterminated: str | None = None
        """What became of a last line without a line end ("a row", "a truncated line")."""
        self.column = column
        lacking = layout.lacks(column)
        if lacking is not None:
            raise BadInput(
                f"{path}: --column {column} needs {lacking}, which this PresentMon "
                f"{layout.name} capture does not have"
            )
        self.by_default = process is None and swapchain is None
        """No `--process` or `--swapchain`: the chain kept is the default's."""
        chains = self._read(process, swapchain)
        tallies = [chain.tally() for chain in chains]
        self.chosen = choose_chain(path, tallies, process, swapchain)
        skipped = skipped_rows(tallies, self.chosen, self.unplaced)
        if self.chosen.frames == 0:
            raise BadInput(
                f"{path}: no frames: {self.rows_read:,} rows, {self.chosen.process} swap chain "
                f"{self.chosen.key[2]} kept, none a frame under --column {column} "
                f"({describe_skips(skipped)})"
            )
        kept = chains[tallies.index(self.chosen)]
        chains.clear()  # the other chains' frames are let go before the kept ones are joined
        self.columns: FrameColumns = kept.frame_columns()
        """The kept chain's frames, read once (`frames()` hands out the same)."""
        others = candidates(tallies, self.chosen) if self.by_default else ()
        self._info = self._said(skipped, others, info)

    def _said(
        self,
        skipped: dict[str, int],
        others: tuple[Candidate, ...],
        info: Sequence[tuple[str, str]],
    ) -> CaptureInfo:
        """What was read (`others`: what a default choice passed over)."""
        wrote: CaptureFormat = "capframex" if info else "presentmon"
        if self.layout.name == "1.x" and self.chosen.key[0] == FRAME_LOG_APPLICATION:
            wrote = "timestep-lab"
        notes: tuple[str, ...] = ()
        if self.unterminated is not None:
            notes = (f"last line had no line end: read as {self.unterminated}",)
        return CaptureInfo(
            path=str(self.path),
            format=wrote,
            layout=self.layout.name,
            process=self.chosen.process,
            swapchain=self.chosen.key[2],
            column=self.column,
            rows=self.rows_read,
            frames=self.chosen.frames,
            skipped=skipped,
            chosen_by_default=self.by_default,
            kept_rows=self.chosen.rows + self.unplaced,
            candidates=others,
            notes=notes,
            tool_info=tuple(dict(info).items()),
        )

    @property
    def info(self) -> CaptureInfo:
        return self._info

    def frames(self) -> Iterator[CapturedFrame]:
        """The kept chain's frames in file order, from the columns read when the file was opened."""
        return self.columns.frames()

    def _split(self, data: bytes, required: int = 0) -> Chunk:
        """Whole lines cut into cells: rows of at least the columns read (and `required`)."""
        layout = self.layout
        needed = max(layout.last_column + 1, required)
        chunk = split_chunk(data, len(self.header), layout.widest_column + 1, needed)
        if chunk.longest > MAX_CAPTURE_LINE_BYTES:
            raise refuse_long_line(self.path)
        return chunk

    def _chunks(self) -> Iterator[tuple[int, Chunk, bool]]:
        """Each chunk of lines, the line number of the line before it, and whether it is a last
        line the file ended without a line end (the module's "The last line"); the header is
        left out. The lines read and the rows are counted on `self` as they go."""
        lines = CaptureLines(self.source)
        before = 0
        cells = len(self.header)
        cells_before = cells
        for data in lines.raw_chunks():
            if self.done is not None:
                self.done(self.source.read_bytes)
            if before == 0:  # the header (and any `//Key=Value` lines before it) are no rows
                before = self.preamble + 1
                data = data.split(b"\n", before)[-1] if data.count(b"\n") >= before else b""
                if not data:
                    continue
            chunk = self._split(data)
            cells_before = min(chunk.last_cells, cells) or cells_before
            yield before, chunk, False
            before = self._counted(before, chunk)
        if lines.unterminated.strip() and before > 0:
            chunk = self._split(lines.unterminated + b"\n", required=cells_before)
            yield before, chunk, True
            self._counted(before, chunk)

    def _counted(self, before: int, chunk: Chunk) -> int:
        self.rows_read += chunk.lines - chunk.blank
        if self.rows_read > MAX_CAPTURE_ROWS:
            raise BadInput(
                f"{self.path}: more than {MAX_CAPTURE_ROWS:,} rows (the limit for a capture)"
            )
        return before + chunk.lines

    def _read(self, process: str | None, swapchain: str | None) -> list[ChainFrames]:
        """Every chain's counts, and the frames of those the options leave in the running, in
        the order the chains first appear: the one read of the file."""
        layout = self.layout
        key_columns = (layout.application, layout.process_id, layout.swapchain)
        known: dict[ChainKey, int] = {}
        chains: list[ChainFrames] = []
        expected = 0

        def new_chains() -> None:
            for key in list(known)[len(chains) :]:
                chains.append(
                    ChainFrames(
                        key,
                        ChainColumns(layout, self.column),
                        keeping=matches(key, process, swapchain),
                        same=self.column == "presents",
                        ready=layout.has_ready,
                        expected=expected,
                    )
                )

        for before, chunk, last in self._chunks():
            if not expected:  # rows in the file, by the first chunk's bytes a line
                expected = _file_size(self.path) * chunk.lines // max(len(chunk.data), 1)
            ids = chain_ids(chunk, layout, known)
            odd = odd_line_keys(chunk, key_columns)
            for key in odd:
                if key is not None:
                    known.setdefault(key, len(known))
            new_chains()
            for key in odd:
                if key is None:
                    self.unplaced += 1
                else:
                    chains[known[key]].truncated()
            rows = read_chunk(chunk, layout, self.column)
            if last:
                self.unterminated = "a row" if chunk.irregular == 0 else "a truncated line"
                if len(ids) and int(rows.code[0]) in (MISSING_VALUE, UNREADABLE):
                    chains[int(ids[0])].truncated()  # a cell it needs cut short or missing
                    self.unterminated = "a truncated line"
                    continue
            if len(ids) and ids[0] == ids[-1] and (ids == ids[0]).all():
                chains[int(ids[0])].add(before, chunk, rows, np.arange(len(ids)))
                continue
            for chain in np.unique(ids).tolist():
                chains[chain].add(before, chunk, rows, np.flatnonzero(ids == chain))
        return chains


def _file_size(path: Path) -> int:
    try:
        return Path(path).stat().st_size
    except OSError:
        return 0
