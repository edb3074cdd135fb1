"""`FrameTimes`: a capture's frames as three arrays of whole numbers, read once from the file.

A million `CapturedFrame`s would take some hundred megabytes; the runs need only each frame's
elapsed time, and the per-frame CSV its row and time. So the frames are streamed from the file
once into int64 arrays (24 bytes a frame), and nothing else holds them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from itertools import islice
from operator import itemgetter

import numpy as np
from numpy.typing import NDArray

from game.capture.frame import Capture

Int64s = NDArray[np.int64]

_ROW_TIME_ELAPSED = itemgetter(0, 1, 2)
"""`CapturedFrame`'s first three fields, `row`, `time_ns`, `elapsed_ns`, taken in C."""

_COLUMNS = np.dtype([("row", np.int64), ("time_ns", np.int64), ("elapsed_ns", np.int64)])

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
    chunks = []
    while True:
        chunk = np.fromiter(islice(rows, CHUNK_FRAMES), dtype=_COLUMNS)
        if not len(chunk):
            break
        chunks.append(chunk)
        if done is not None:
            done(sum(len(part) for part in chunks))
    table = np.concatenate(chunks) if chunks else np.zeros(0, _COLUMNS)
    return FrameTimes(
        np.ascontiguousarray(table["row"]),
        np.ascontiguousarray(table["time_ns"]),
        np.ascontiguousarray(table["elapsed_ns"]),
    )


def exact_sum(values: Int64s) -> int:
    """The sum of whole numbers, exactly: in int64 when it cannot overflow, else in Python ints."""
    if not len(values):
        return 0
    largest = max(abs(int(values.max())), abs(int(values.min())))
    if largest * len(values) < 2**63:
        return int(values.sum())
    return int(values.sum(dtype=object))
