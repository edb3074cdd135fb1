"""`DisplayColumns`: what the display side reads of a capture, one array per column.

Whether each frame reached the screen and when, with its row and present time: a million frames
are 25 MB here, not the 150 of a list of `CapturedFrame`s. They are written down as the frames
stream past, a chunk at a time, each column taken in C; `ColumnsOnTheWay` does it while another
reader (the policies' runs) reads the same frames, so that the file is read once.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence, Sized
from dataclasses import dataclass
from itertools import chain, islice
from operator import itemgetter
from typing import Any

import numpy as np
import numpy.typing as npt

from game.capture.frame import Capture, CapturedFrame, CaptureInfo
from game.display.judder import Ints

Bools = npt.NDArray[np.bool_]
NOT_SAID = -1
"""In `DisplayColumns`: the capture does not say (whether a frame was shown, or when)."""
CHUNK_FRAMES = 1 << 12
"""Frames written down at a time: a chunk's `CapturedFrame`s are held at once (a megabyte or
so), never the file's."""
_ROW, _TIME, _DISPLAYED, _DISPLAY_TIME = (itemgetter(index) for index in (0, 1, 4, 5))
"""`CapturedFrame`'s `row`, `time_ns`, `displayed` and `display_time_ns`, taken in C."""
_SAID = {True: 1, False: 0, None: NOT_SAID}
_NONE_NOT_SAID: dict[int | None, int] = {None: NOT_SAID}
"""`.get(time, time)`: the time, or `NOT_SAID` for None, in C."""


@dataclass(frozen=True, slots=True, eq=False)
class DisplayColumns:
    """The columns of a capture the display side reads, one entry per frame, as arrays: a
    million-frame capture is 32 MB here, not the 150 of a list of tuples."""

    rows: Ints
    present_ns: Ints
    displayed: npt.NDArray[np.int8]
    """1 shown, 0 not shown, `NOT_SAID` when the capture does not say."""
    display_ns: Ints
    """When it was shown, `NOT_SAID` when not or not said."""

    @classmethod
    def from_frames(cls, frames: Iterable[CapturedFrame]) -> DisplayColumns:
        capacity = len(frames) if isinstance(frames, Sized) else CHUNK_FRAMES
        source, written = iter(frames), _Columns(capacity)
        while chunk := list(islice(source, CHUNK_FRAMES)):
            written.add(chunk)
        return written.arrays()

    @property
    def said(self) -> Bools:
        """The frames the capture says whether it showed."""
        said: Bools = self.displayed != NOT_SAID
        return said

    @property
    def shown(self) -> Bools:
        """The frames the capture says it showed, at a time it gives."""
        shown: Bools = (self.displayed == 1) & (self.display_ns != NOT_SAID)
        return shown

    def missing(self) -> str | None:
        """Why the display side cannot run on this capture, or None when it can."""
        if not self.said.any():
            return "the capture does not say which frames reached the screen"
        times = self.display_ns[self.shown]
        if times.shape[0] == 0 or (times == times[0]).all():
            return "the capture gives fewer than two display times to fit a refresh grid to"
        return None


class _Column:
    """One column being written: an array made once at the size the capture says it holds, filled
    a chunk at a time (grown by half, should more come), so that it is never copied as it grows."""

    def __init__(self, dtype: type[np.integer], capacity: int) -> None:
        self.data: npt.NDArray[Any] = np.empty(capacity, dtype=dtype)
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


class _Columns:
    """`DisplayColumns` being written, a chunk of frames at a time (each column taken in C: no
    Python code runs per frame); the rows and present times only when no one else keeps them
    (`with_times`)."""

    def __init__(self, capacity: int, *, with_times: bool = True) -> None:
        self.with_times = with_times
        self.rows = _Column(np.int64, capacity if with_times else 0)
        self.present = _Column(np.int64, capacity if with_times else 0)
        self.displayed = _Column(np.int8, capacity)
        self.display = _Column(np.int64, capacity)

    def add(self, frames: Sequence[CapturedFrame]) -> None:
        count = len(frames)
        if self.with_times:
            self.rows.extend(map(_ROW, frames), count)
            self.present.extend(map(_TIME, frames), count)
        self.displayed.extend(map(_SAID.__getitem__, map(_DISPLAYED, frames)), count)
        display = list(map(_DISPLAY_TIME, frames))
        self.display.extend(map(_NONE_NOT_SAID.get, display, display), count)

    @property
    def count(self) -> int:
        return self.displayed.size

    def arrays(self, rows: Ints | None = None, present_ns: Ints | None = None) -> DisplayColumns:
        """The columns; `rows` and `present_ns` from whoever kept them, when not `with_times`."""
        if rows is None or present_ns is None:
            rows, present_ns = self.rows.written(), self.present.written()
        return DisplayColumns(rows, present_ns, self.displayed.written(), self.display.written())


class ColumnsOnTheWay:
    """A capture read once for two readers: its frames pass on to whoever reads them (the
    policies' runs), and the display side's own columns (whether and when each frame was shown)
    are written down on the way, so that a 1 GB capture is not read from the file twice. A
    `Capture` itself."""

    def __init__(self, capture: Capture) -> None:
        self._capture = capture
        self._written: _Columns | None = None
        self._to_the_end = False

    @property
    def info(self) -> CaptureInfo:
        return self._capture.info

    def frames(self) -> Iterator[CapturedFrame]:
        """The capture's frames, a chunk at a time: each chunk's columns are written down, then
        its frames handed on (by `chain`, in C: nothing runs per frame)."""
        source = self._capture.frames()
        written = _Columns(self._capture.info.frames, with_times=False)
        self._written, self._to_the_end = written, False

        def next_chunk() -> list[CapturedFrame]:
            chunk = list(islice(source, CHUNK_FRAMES))
            written.add(chunk)
            self._to_the_end = not chunk
            return chunk

        return chain.from_iterable(iter(next_chunk, []))

    def columns(self, rows: Ints, present_ns: Ints) -> DisplayColumns:
        """The columns of the frames read last, to the end, with their rows and present times
        as the other reader kept them (`FrameTimes.row`, `.time_ns`): not kept twice."""
        written = self._written
        if written is None or not self._to_the_end:
            raise ValueError("the capture's frames have not been read to the end")
        if not rows.shape[0] == present_ns.shape[0] == written.count:
            raise ValueError("the rows and times given are not the frames read")
        return written.arrays(rows, present_ns)
