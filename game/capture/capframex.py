"""`CapFrameXCapture`: a CapFrameX session (JSON), its first run read as a PresentMon 1.x capture.

CapFrameX records with PresentMon and saves a session: `{"Info": {"ProcessName", "GameName",
...}, "Runs": [{"CaptureData": {"TimeInSeconds": [...], "MsBetweenPresents": [...],
"MsBetweenDisplayChange": [...], "MsUntilDisplayed": [...], "MsUntilRenderComplete": [...],
"Dropped": [...], ...}, "SensorData": ...}, ...]}`, one column array per PresentMon 1.x column.

**Which run.** A session's runs are separate recordings of the same scene (CapFrameX shows them
one by one or aggregated); joining them would invent the time between them. The first run is
read, and the process says so when there are more (`game.exe (run 1 of 3)`).

**Rows.** Row k is the k-th entry of every array (numbered from 1); it becomes a frame by PresentMon
1.x's rules (`presentmon.py`), `Dropped` being `true` or 1 for a frame never shown, and its
ready time is its present plus `MsUntilRenderComplete` where the run has that array. An entry
missing from a shorter array, or `null`, is a "missing value". The numbers are read as the
decimals the file holds, never as floats: a block of rows at a time, each array's entries found
as byte ranges (`session_json.py`) and read by the same column reader as a PresentMon file's.

**Size.** The session is read whole (it is JSON), within `MAX_CAPFRAMEX_BYTES`, and its run
within `MAX_CAPFRAMEX_ROWS`; its frames are held as columns, as a PresentMon file's are.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from game.capture.columns import Chunk
from game.capture.frame import CapturedFrame, CaptureInfo, IntervalColumn
from game.capture.frame_columns import FrameColumns
from game.capture.presentmon import PresentMonLayout
from game.capture.presentmon_chains import ChainFrames
from game.capture.presentmon_columns import ChainColumns, read_chunk
from game.capture.selection import describe_skips
from game.capture.session_json import ArrayCells, Session, cut_array, read_session
from game.capture.source import CaptureInput
from game.errors import BadInput
from game.limits import MAX_CAPFRAMEX_BYTES, MAX_CAPFRAMEX_ROWS

_ARRAYS = (
    "TimeInSeconds",
    "MsBetweenPresents",
    "Dropped",
    "MsUntilDisplayed",
    "MsBetweenDisplayChange",
    "MsUntilRenderComplete",
)
_LAYOUT = PresentMonLayout(
    name="1.x",
    application=0,
    process_id=0,
    swapchain=0,
    time=0,
    time_unit=9,
    present=1,
    dropped=2,
    until_displayed=3,
    display_change=4,
    render_complete=5,
)
"""Where each array's entry is in a block's rows (`_ARRAYS`' order): PresentMon 1.x's rules."""
_BLOCK = 1 << 16
"""Rows read at a time."""
_PADDING = 24
"""Zero bytes after the data, so a cell's window never runs off its end (`columns._WIDEST`)."""


class CapFrameXCapture:
    """A CapFrameX session opened for reading (see the module docstring)."""

    def __init__(
        self,
        source: CaptureInput,
        *,
        process: str | None = None,
        swapchain: str | None = None,
        column: IntervalColumn = "presents",
    ) -> None:
        path = self.path = source.path
        self.column = column
        if column == "simulation":
            raise BadInput(
                f"{path}: --column simulation needs MsBetweenSimulationStart, which a CapFrameX "
                "session does not have"
            )
        if swapchain is not None:
            raise BadInput(f"{path}: a CapFrameX session holds one swap chain: no --swapchain")
        session = read_session(path, source.whole(MAX_CAPFRAMEX_BYTES, "a CapFrameX session"))
        data, runs, name = _first_run(path, session)
        if process is not None and process.strip().lower() != name.lower():
            raise BadInput(f"{path}: nothing matches --process {process}; the session is {name}")
        cells = {key: _cells(path, session, data, key) for key in _ARRAYS}
        rows = cells["MsBetweenPresents"]
        assert rows is not None, "the first run has MsBetweenPresents (`_first_run`)"
        if rows.count > MAX_CAPFRAMEX_ROWS:
            raise BadInput(
                f"{path}: more than {MAX_CAPFRAMEX_ROWS:,} rows in its first run (the limit "
                "for a CapFrameX session)"
            )
        chain = _read_run(session, cells, column)
        tally = chain.tally()
        skipped = {reason: count for reason, count in tally.outcomes.items() if reason}
        if tally.frames == 0:
            reasons = describe_skips(skipped) or "no rows"
            raise BadInput(f"{path}: no frames: {rows.count:,} rows, none a frame ({reasons})")
        self.columns: FrameColumns = chain.frame_columns()
        """The run's frames, read once (`frames()` hands out the same)."""
        self._info = CaptureInfo(
            path=str(path),
            format="capframex",
            layout="capframex",
            process=name if runs == 1 else f"{name} (run 1 of {runs})",
            swapchain=None,
            column=column,
            rows=rows.count,
            frames=tally.frames,
            skipped=skipped,
            chosen_by_default=False,
        )

    @property
    def info(self) -> CaptureInfo:
        return self._info

    def frames(self) -> Iterator[CapturedFrame]:
        """The first run's frames in order, from the columns read when the file was opened."""
        return self.columns.frames()


def _read_run(
    session: Session, cells: dict[str, ArrayCells | None], column: IntervalColumn
) -> ChainFrames:
    """The run's rows, a block at a time, read by PresentMon 1.x's rules into one chain."""
    rows = cells["MsBetweenPresents"]
    assert rows is not None, "the first run has MsBetweenPresents (`_first_run`)"
    layout = replace(
        _LAYOUT,
        dropped=None if cells["Dropped"] is None else 2,
        render_complete=None if cells["MsUntilRenderComplete"] is None else 5,
    )
    chain = ChainFrames(
        ("", "", ""),
        ChainColumns(layout, column),
        keeping=True,
        same=column == "presents",
        ready=layout.has_ready,
        expected=rows.count,
    )
    padded = np.frombuffer(session.data + b"0" + bytes(_PADDING), dtype=np.uint8)
    for first in range(0, rows.count, _BLOCK):
        chunk = _block(padded, len(session.data), [cells[key] for key in _ARRAYS], first)
        read = read_chunk(chunk, layout, column)
        chain.add(first, chunk, read, np.arange(len(chunk.rows)))
    return chain


def _first_run(path: Path, session: Session) -> tuple[dict[str, Any], int, str]:
    """The first run's `CaptureData`, the number of runs, and the process's name."""
    outline = session.outline
    runs = outline.get("Runs") if isinstance(outline, dict) else None
    if not isinstance(runs, list) or cut_array(runs) is not None or not runs:
        raise BadInput(f'{path}: not a CapFrameX session: no "Runs" with a run in them')
    if not isinstance(runs[0], dict):
        raise BadInput(f'{path}: not a CapFrameX session: no "Runs" with a run in them')
    data = runs[0].get("CaptureData")
    if not isinstance(data, dict) or cut_array(data.get("MsBetweenPresents")) is None:
        raise BadInput(f"{path}: not a CapFrameX session: its first run has no MsBetweenPresents")
    info = outline.get("Info")
    name: Any = info.get("ProcessName") or info.get("GameName") if isinstance(info, dict) else None
    return data, len(runs), name if isinstance(name, str) and name else path.stem


def _cells(path: Path, session: Session, data: dict[str, Any], key: str) -> ArrayCells | None:
    """The entries of the run's array `key`, or None when the run has none (or not an array of
    numbers, `true`, `false` and `null`: a string or an array among its entries refuses it)."""
    value = data.get(key)
    if value is None:
        return None
    number = cut_array(value)
    if number is None:
        if isinstance(value, list) and not value:
            return None
        raise BadInput(
            f"{path}: not a CapFrameX session: its first run's {key} is not an array of numbers"
        )
    start, end = session.spans[number].tolist()
    return ArrayCells(session.data, start, end)


def _block(
    padded: np.ndarray[Any, np.dtype[np.uint8]],
    size: int,
    arrays: list[ArrayCells | None],
    first: int,
) -> Chunk:
    """Rows `first` on of the run (a block of them), each row's cells the arrays' entries in
    `_ARRAYS`' order, as a chunk for the column reader. An array that ends early leaves empty
    cells; `Dropped`'s `false` is read as PresentMon's `0` (the `0` after the data)."""
    count = min(_BLOCK, arrays[1].count - first) if arrays[1] is not None else 0
    starts = np.zeros((count, len(arrays)), dtype=np.int64)
    ends = np.zeros((count, len(arrays)), dtype=np.int64)
    for index, cells in enumerate(arrays):
        if cells is None:
            continue
        begin, end = cells.take(count)
        starts[: len(begin), index], ends[: len(end), index] = begin, end
    null = (ends - starts == 4) & _is(padded, starts, b"null")
    ends[null] = starts[null]  # an empty cell: a missing value
    false = (ends[:, 2] - starts[:, 2] == 5) & _is(padded, starts[:, 2], b"false")
    starts[false, 2], ends[false, 2] = size, size + 1
    data = padded[:size]
    return Chunk(data, padded, count, 0, 0, np.arange(count), starts, ends)


def _is(padded: np.ndarray[Any, np.dtype[np.uint8]], starts: Any, text: bytes) -> Any:
    """Whether the bytes at each start are `text`."""
    if len(starts) == 0:
        return np.zeros(0, dtype=np.bool_)
    windows = np.lib.stride_tricks.sliding_window_view(padded, len(text))[starts]
    return (windows == np.frombuffer(text, dtype=np.uint8)).all(axis=-1)
