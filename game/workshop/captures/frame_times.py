"""`FrameTimes`: a capture's frames as three arrays of whole numbers, read once from the file.

A million `CapturedFrame`s would take some hundred megabytes; the runs need only each frame's
elapsed time, and the per-frame CSV its row and time. So the frames are streamed from the file
once into int64 arrays (24 bytes a frame), and nothing else holds them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from itertools import chain, islice
from operator import itemgetter

import numpy as np
from numpy.typing import NDArray

from game.capture.frame import Capture

Int64s = NDArray[np.int64]

_ROW_TIME_ELAPSED = itemgetter(0, 1, 2)
"""`CapturedFrame`'s first three fields, `row`, `time_ns`, `elapsed_ns`, taken in C (and laid
end to end by `chain`, so numpy reads plain integers: faster than a record per frame)."""

CHUNK_FRAMES = 1 << 16
"""Frames read into one array at a time; the progress bar moves between two."""


@dataclass(frozen=True, slots=True)
class FrameTimes:
    """The kept frames of a capture, in file order (see `CapturedFrame` for each field)."""

    row: Int64s
    time_ns: Int64s
    elapsed_ns: Int64s

    def __len__(self) -> int:
        return len(self.elapsed_ns)


def read_frame_times(capture: Capture, done: Callable[[float], None] | None = None) -> FrameTimes:
    """Stream `capture`'s frames into arrays, a chunk at a time (each taken in C, with no
    Python code run per frame); `done(frames_read)` moves a progress bar between chunks."""
    rows = map(_ROW_TIME_ELAPSED, capture.frames())
    columns: tuple[list[Int64s], ...] = ([], [], [])
    read = 0
    while True:
        flat = chain.from_iterable(islice(rows, CHUNK_FRAMES))
        chunk = np.fromiter(flat, dtype=np.int64).reshape(-1, 3)
        if not len(chunk):
            break
        for index, kept in enumerate(columns):
            kept.append(np.ascontiguousarray(chunk[:, index]))
        read += len(chunk)
        if done is not None:
            done(read)
    return FrameTimes(*(np.concatenate(kept or [np.zeros(0, np.int64)]) for kept in columns))


def exact_sum(values: Int64s) -> int:
    """The sum of whole numbers, exactly: in int64 when it cannot overflow, else in Python ints."""
    if not len(values):
        return 0
    largest = max(abs(int(values.max())), abs(int(values.min())))
    if largest * len(values) < 2**63:
        return int(values.sum())
    return int(values.sum(dtype=object))
