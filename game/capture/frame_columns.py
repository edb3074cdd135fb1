"""`FrameColumns`: a capture's kept frames as arrays, one per field of `CapturedFrame`.

A run over a whole capture (the `capture` command) needs every frame at once, and a million
`CapturedFrame`s would take some hundred and fifty megabytes; as arrays they take 33 bytes a
frame. The PresentMon reader writes them straight from its columns while it reads the file
(`presentmon_file.py`); any other capture's frames are written down here, a chunk at a time,
each field taken in C (`from_frames`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import partial
from itertools import islice
from operator import itemgetter
from typing import Any

import numpy as np
import numpy.typing as npt

from game.capture.frame import CapturedFrame

Ints = npt.NDArray[np.int64]
Said = npt.NDArray[np.int8]

NOT_SAID = -1
"""In `displayed` and `display_ns`: the capture does not say (whether a frame was shown, or
when). A frame shown exactly 1 ns before the first frame kept cannot be told from one not shown:
no capture tool writes such a time."""
CHUNK_FRAMES = 1 << 12
"""Frames written down (or handed out as `CapturedFrame`s) at a time: a megabyte or so."""
_FIELDS = tuple(itemgetter(index) for index in range(7))
_SAID = {True: 1, False: 0, None: NOT_SAID}
_NONE_NOT_SAID: dict[int | None, int] = {None: NOT_SAID}
"""`.get(time, time)`: the time, or `NOT_SAID` for None, in C."""


@dataclass(frozen=True, slots=True, eq=False)
class FrameColumns:
    """The kept frames of a capture, in file order (see `CapturedFrame` for each field)."""

    row: Ints
    time_ns: Ints
    elapsed_ns: Ints
    present_interval_ns: Ints
    """The same array as `elapsed_ns` under `--column presents`."""
    displayed: Said
    """1 shown, 0 not shown, `NOT_SAID` when the capture does not say."""
    display_ns: Ints
    """When it was shown, `NOT_SAID` when not, or not said."""
    ready_ns: Ints
    """When the GPU had drawn it, `NOT_SAID` when not said (a capture that never says holds one
    read-only array of `NOT_SAID`, no memory a frame)."""

    def __len__(self) -> int:
        return int(self.elapsed_ns.shape[0])

    def frames(self) -> Iterator[CapturedFrame]:
        """The frames as `CapturedFrame`s, a chunk at a time (made in C from the columns)."""
        for start in range(0, len(self), CHUNK_FRAMES):
            part = slice(start, start + CHUNK_FRAMES)
            displayed = [None if said < 0 else said == 1 for said in self.displayed[part].tolist()]
            display = [None if at == NOT_SAID else at for at in self.display_ns[part].tolist()]
            ready = [None if at == NOT_SAID else at for at in self.ready_ns[part].tolist()]
            columns = zip(
                self.row[part].tolist(),
                self.time_ns[part].tolist(),
                self.elapsed_ns[part].tolist(),
                self.present_interval_ns[part].tolist(),
                displayed,
                display,
                ready,
                strict=True,
            )
            yield from map(partial(tuple.__new__, CapturedFrame), columns)

    @classmethod
    def from_frames(
        cls,
        frames: Iterable[CapturedFrame],
        capacity: int = CHUNK_FRAMES,
        done: Callable[[float], None] | None = None,
    ) -> FrameColumns:
        """`frames` written down a chunk at a time, into arrays made at `capacity` frames (the
        count the capture says it holds: grown by half should more come); `done(frames_read)`
        moves a progress bar between chunks."""
        source = iter(frames)
        columns = [GrowingColumn(np.int64, capacity) for _ in range(4)] + [
            GrowingColumn(np.int8, capacity)
        ]
        display = GrowingColumn(np.int64, capacity)
        ready = GrowingColumn(np.int64, capacity)
        while chunk := list(islice(source, CHUNK_FRAMES)):
            count = len(chunk)
            for column, field in zip(columns[:4], _FIELDS, strict=False):
                column.extend(map(field, chunk), count)
            columns[4].extend(map(_SAID.__getitem__, map(_FIELDS[4], chunk)), count)
            for growing, field in ((display, _FIELDS[5]), (ready, _FIELDS[6])):
                times = list(map(field, chunk))
                growing.extend(map(_NONE_NOT_SAID.get, times, times), count)
            if done is not None:
                done(display.size)
        row, time, elapsed, present, displayed = (column.written() for column in columns)
        return cls(row, time, elapsed, present, displayed, display.written(), ready.written())

    @classmethod
    def written(cls, columns: list[GrowingColumn], *, same: bool, ready: bool) -> FrameColumns:
        """The frames written into `columns` (one per field, `present_interval_ns` left out when
        `same`: the elapsed times are the present intervals; `ready_ns` left out unless
        `ready`: none is said)."""
        arrays = [column.written() for column in columns]
        if same:
            arrays.insert(3, arrays[2])
        if not ready:
            arrays.append(not_said(len(arrays[0])))
        row, time, elapsed, present, displayed, display, readied = arrays
        return cls(row, time, elapsed, present, displayed, display, readied)


def not_said(count: int) -> Ints:
    """`count` frames' `NOT_SAID`, read-only, in the memory of one."""
    said: Ints = np.broadcast_to(np.int64(NOT_SAID), (count,))
    return said


class GrowingColumn:
    """One column being written: an array made once at the size the capture is expected to hold,
    filled a chunk at a time (grown by half, should more come). A large array's pages are the
    system's until written, so a generous guess costs no memory; and one array, not a list of
    pieces joined at the end, is never held twice (nor leaves the pieces' freed memory behind
    in the process's heap)."""

    def __init__(self, dtype: type[np.integer], capacity: int) -> None:
        self.data: npt.NDArray[Any] = np.empty(max(capacity, 1), dtype=dtype)
        self.size = 0

    def extend(self, values: Iterable[int], count: int) -> None:
        self.append(np.fromiter(values, dtype=self.data.dtype, count=count))

    def append(self, values: npt.NDArray[Any]) -> None:
        end = self.size + values.shape[0]
        if end > self.data.shape[0]:
            grown = np.empty(max(end, self.data.shape[0] * 3 // 2), dtype=self.data.dtype)
            grown[: self.size] = self.data[: self.size]
            self.data = grown
        self.data[self.size : end] = values
        self.size = end

    def written(self) -> npt.NDArray[Any]:
        return self.data[: self.size]
