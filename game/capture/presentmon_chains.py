"""`ChainFrames`: one (process, swap chain) of a PresentMon file while the file is read.

Each chain's rows are counted by what they became (`OUTCOMES`: a frame, a skip reason, or a
truncated line that names the chain), and when the options leave the chain in the running its
frames are written into columns as they come: the row, time and interval, whether and when
shown, and when ready where the layout says (33 bytes a frame, 41 with ready times). Only the
kept chain's columns outlive the read (`presentmon_file.py` chooses it from the counts).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from game.capture.columns import Chunk
from game.capture.frame_columns import CHUNK_FRAMES, NOT_SAID, FrameColumns, GrowingColumn
from game.capture.presentmon_columns import FRAME, REASONS, ChainColumns, ChunkRows
from game.capture.selection import ChainKey, ChainTally

OUTCOMES = (*REASONS, "truncated line")
"""What a chain's row became: `REASONS` (a frame, or the rule it failed), or a truncated line
(too few cells to read, or more than the header) whose first cells name the chain."""
TRUNCATED = len(REASONS)


def odd_line_keys(chunk: Chunk, key_columns: tuple[int, int, int]) -> list[ChainKey | None]:
    """The (process, id, swap chain) each irregular line of `chunk` names in its first cells,
    or None for a line cut before them."""
    wanted = max(key_columns) + 1
    keys: list[ChainKey | None] = []
    data = chunk.data
    for start, end in chunk.odd.tolist():
        cells = data[start:end].tobytes().decode("utf-8", errors="replace").split(",", wanted)
        if len(cells) < wanted:
            keys.append(None)
            continue
        application, process_id, swapchain = (cells[index] for index in key_columns)
        keys.append((application, process_id, swapchain))
    return keys


class ChainFrames:
    """One chain's counts, and, when it is `keeping`, its frames written into columns made at
    its first frames' share of the `expected` rows of the file."""

    def __init__(
        self,
        key: ChainKey,
        state: ChainColumns,
        *,
        keeping: bool,
        same: bool,
        ready: bool,
        expected: int,
    ) -> None:
        self.key = key
        self.state = state
        self.keeping = keeping
        self.same = same
        """The elapsed times are the present intervals (`--column presents`): kept once."""
        self.ready = ready
        """The layout gives ready times: a column of them is kept."""
        self.counts = np.zeros(len(OUTCOMES), dtype=np.int64)
        self.expected = expected
        self.columns: list[GrowingColumn] = []
        self.origin: int | None = None

    def add(self, before: int, chunk: Chunk, rows: ChunkRows, mine: npt.NDArray[np.int64]) -> None:
        """This chain's rows `mine` of a chunk whose first line follows line `before`."""
        code, time, elapsed = self.state.apply(rows, mine)
        self.counts[: len(REASONS)] += np.bincount(code, minlength=len(REASONS))
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
        if self.ready:
            found.append(
                np.where(rows.ready_read[chosen], time + rows.ready_after[chosen], NOT_SAID)
            )
        for column, values in zip(self.columns, found, strict=True):
            column.append(values)

    def truncated(self, count: int = 1) -> None:
        """Truncated lines that name this chain."""
        self.counts[TRUNCATED] += count

    def _make_columns(self, share: float) -> None:
        """The columns, for this chain's `share` of the rows of the file, and an eighth more."""
        capacity = int(self.expected * share * 1.125) + CHUNK_FRAMES
        types: list[type[np.integer[Any]]] = [np.int64] * (3 if self.same else 4)
        types += [np.int8, np.int64]
        if self.ready:
            types.append(np.int64)
        self.columns = [GrowingColumn(dtype, capacity) for dtype in types]

    def tally(self) -> ChainTally:
        outcomes = self.counts.tolist()
        tally = ChainTally(self.key, rows=sum(outcomes))
        tally.outcomes = {OUTCOMES[i]: n for i, n in enumerate(outcomes) if n}
        return tally

    def frame_columns(self) -> FrameColumns:
        """The frames written down, as columns."""
        return FrameColumns.written(self.columns, same=self.same, ready=self.ready)
