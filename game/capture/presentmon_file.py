"""`PresentMonCapture`: a PresentMon CSV, read once when opened, its kept frames held as columns.

Opening reads the whole file once, a chunk at a time, and applies the rules of `presentmon.py`
to every row: each (process, swap chain) gets its counts (the rows, and what each became), and
each chain that the options leave in the running gets its frames written down as columns (the
row, time and interval, whether and when shown: 33 bytes a frame). At the end the chain is
chosen from the counts (`selection.py`), its columns joined and the others let go. So the
frames held at once are never more than the rows read, whichever chains they belong to, and a
file with no frames is refused before anything runs. `frames()` and `columns` hand them out.

**Lines.** A line is split at its commas (PresentMon quotes nothing); blank lines are not rows.
A row with another number of cells than the header is a "truncated line" (cut short, or spliced
from another file), and so is a last line the file ends without a line end (the tool was
stopped while writing it: even with all its cells, its last number may be cut short). The rows
are read a chunk at a time with numpy (`presentmon_columns.py`), by `presentmon.py`'s rules.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from game.capture.columns import Chunk, split_chunk
from game.capture.frame import CapturedFrame, CaptureFormat, CaptureInfo, IntervalColumn
from game.capture.frame_columns import CHUNK_FRAMES, NOT_SAID, FrameColumns, GrowingColumn
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
    matches,
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
        done: Callable[[float], None] | None = None,
    ) -> None:
        self.path = path
        self.done = done
        """`done(bytes_read)` moves a progress bar as the file is read (None: no bar)."""
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
        chains = self._read(process, swapchain)
        tallies = [chain.tally() for chain in chains]
        self.chosen = choose_chain(path, tallies, process, swapchain)
        skipped = skipped_rows(tallies, self.chosen, self.irregular)
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
            rows=self.rows_read,
            frames=self.chosen.frames,
            skipped=skipped,
            chosen_by_default=process is None and swapchain is None,
        )

    @property
    def info(self) -> CaptureInfo:
        return self._info

    def frames(self) -> Iterator[CapturedFrame]:
        """The kept chain's frames in file order, from the columns read when the file was opened."""
        return self.columns.frames()

    def _chunks(self) -> Iterator[tuple[int, Chunk]]:
        """Each chunk's regular rows, and the line number of the line before the chunk; the header
        is left out. The lines' count and the truncated ones are kept on `self`."""
        cells = len(self.header)
        width = self.layout.last_column + 1
        lines = CaptureLines(self.path)
        before = read = 0
        for data in lines.raw_chunks():
            read += len(data)
            if self.done is not None:
                self.done(read)
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

    def _read(self, process: str | None, swapchain: str | None) -> list[_Chain]:
        """Every chain's counts, and the frames of those the options leave in the running, in
        the order the chains first appear: the one read of the file."""
        self.rows_read = self.irregular = 0
        known: dict[ChainKey, int] = {}
        chains: list[_Chain] = []
        expected = 0
        for before, chunk in self._chunks():
            if not expected:  # rows in the file, by the first chunk's bytes a line
                expected = _file_size(self.path) * chunk.lines // max(len(chunk.data), 1)
            ids = chain_ids(chunk, self.layout, known)
            for key in list(known)[len(chains) :]:
                state = ChainColumns(self.layout, self.column)
                keeping = matches(key, process, swapchain)
                same = self.column == "presents"
                chains.append(_Chain(key, state, keeping, same, expected))
            rows = read_chunk(chunk, self.layout, self.column)
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


class _Chain:
    """One (process, swap chain) while the file is read: its rows' outcomes counted, and, when
    it is `keeping`, its frames written into columns made at its first frames' size for the
    `expected` rows of the file (its share of the chunk of those frames)."""

    def __init__(
        self, key: ChainKey, state: ChainColumns, keeping: bool, same: bool, expected: int
    ) -> None:
        self.key = key
        self.state = state
        self.keeping = keeping
        self.same = same
        """The elapsed times are the present intervals (`--column presents`): kept once."""
        self.counts = np.zeros(len(REASONS), dtype=np.int64)
        self.expected = expected
        self.columns: list[GrowingColumn] = []
        self.origin: int | None = None

    def add(self, before: int, chunk: Chunk, rows: ChunkRows, mine: npt.NDArray[np.int64]) -> None:
        """This chain's rows `mine` of a chunk whose first line follows line `before`."""
        code, time, elapsed = self.state.apply(rows, mine)
        self.counts += np.bincount(code, minlength=len(REASONS))
        if not self.keeping:
            return
        kept = np.flatnonzero(code == FRAME)
        if len(kept) == 0:
            return
        chosen = mine[kept]
        time = time[kept]
        if self.origin is None:
            self.origin = int(time[0])
            self._make_columns(len(kept) / max(len(rows.code), 1))
        time -= self.origin
        if rows.displayed is None:
            displayed = np.full(len(kept), NOT_SAID, dtype=np.int8)
            said = rows.until_read[chosen]
        else:
            displayed = rows.displayed[chosen].astype(np.int8)
            said = rows.until_read[chosen] & rows.displayed[chosen]
        display = np.where(said, time + rows.until[chosen], NOT_SAID)
        found: list[npt.NDArray[Any]] = [before + 1 + chunk.rows[chosen], time, elapsed[kept]]
        if not self.same:
            found.append(rows.present[chosen])
        found += [displayed, display]
        for column, values in zip(self.columns, found, strict=True):
            column.append(values)

    def _make_columns(self, share: float) -> None:
        """The columns, for this chain's `share` of the rows of the file, and an eighth more."""
        capacity = int(self.expected * share * 1.125) + CHUNK_FRAMES
        types: list[type[np.integer[Any]]] = [np.int64] * (3 if self.same else 4)
        types += [np.int8, np.int64]
        self.columns = [GrowingColumn(dtype, capacity) for dtype in types]

    def tally(self) -> ChainTally:
        outcomes = self.counts.tolist()
        tally = ChainTally(self.key, rows=sum(outcomes))
        tally.outcomes = {REASONS[i]: n for i, n in enumerate(outcomes) if n}
        return tally

    def frame_columns(self) -> FrameColumns:
        """The frames written down, as columns."""
        return FrameColumns.written(self.columns, self.same)
