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
_FIELDS = tuple(itemgetter(index) for index in range(6))
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

    def __len__(self) -> int:
        return int(self.elapsed_ns.shape[0])

    def frames(self) -> Iterator[CapturedFrame]:
        """The frames as `CapturedFrame`s, a chunk at a time (made in C from the columns)."""
        for start in range(0, len(self), CHUNK_FRAMES):
            part = slice(start, start + CHUNK_FRAMES)
            displayed = [None if said < 0 else said == 1 for said in self.displayed[part].tolist()]
            display = [None if at == NOT_SAID else at for at in self.display_ns[part].tolist()]
            columns = zip(
                self.row[part].tolist(),
                self.time_ns[part].tolist(),
                self.elapsed_ns[part].tolist(),
                self.present_interval_ns[part].tolist(),
                displayed,
                display,
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
        columns = [_Column(np.int64, capacity) for _ in range(4)] + [_Column(np.int8, capacity)]
        display = _Column(np.int64, capacity)
        while chunk := list(islice(source, CHUNK_FRAMES)):
            count = len(chunk)
            for column, field in zip(columns[:4], _FIELDS, strict=False):
                column.extend(map(field, chunk), count)
            columns[4].extend(map(_SAID.__getitem__, map(_FIELDS[4], chunk)), count)
            times = list(map(_FIELDS[5], chunk))
            display.extend(map(_NONE_NOT_SAID.get, times, times), count)
            if done is not None:
                done(display.size)
        row, time, elapsed, present, displayed = (column.written() for column in columns)
        return cls(row, time, elapsed, present, displayed, display.written())

    @classmethod
    def joined(cls, pieces: list[list[npt.NDArray[Any]]], same: bool) -> FrameColumns:
        """Columns from their pieces (a list per field, `present_interval_ns` left out when
        `same`: the elapsed times are the present intervals), each list emptied as soon as its
        column is joined, so that the frames are held about once, not twice."""
        joined = []
        for kept in pieces:
            joined.append(np.concatenate(kept))
            kept.clear()
        if same:
            joined.insert(3, joined[2])
        row, time, elapsed, present, displayed, display = joined
        return cls(row, time, elapsed, present, displayed, display)


class _Column:
    """One column being written: an array made once at the size the capture says it holds, filled
    a chunk at a time (grown by half, should more come), so that it is never copied as it grows."""

    def __init__(self, dtype: type[np.integer], capacity: int) -> None:
        self.data: npt.NDArray[Any] = np.empty(max(capacity, 1), dtype=dtype)
        self.size = 0

    def extend(self, values: Iterable[int], count: int) -> None:
        end = self.size + count
        if end > self.data.shape[0]:
            grown = np.empty(max(end, self.data.shape[0] * 3 // 2), dtype=self.data.dtype)
            grown[: self.size] = self.data[: self.size]
            self.data = grown
        self.data[self.size : end] = np.fromiter(values, dtype=self.data.dtype, count=count)
        self.size = end

    def written(self) -> npt.NDArray[Any]:
        return self.data[: self.size]
