"""`FrameTimes`: a capture's frames as three arrays of whole numbers, read once from the file.

A million `CapturedFrame`s would take some hundred megabytes; the runs need only each frame's
elapsed time, and the per-frame CSV its row and time. So they are the capture's columns
(`game.capture.frame_columns`, 24 bytes a frame here), which the reader wrote as it read the
file, and nothing else holds them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from game.capture.frame import Capture
from game.capture.frame_columns import FrameColumns
from game.capture.reading import frame_columns

Int64s = NDArray[np.int64]


@dataclass(frozen=True, slots=True)
class FrameTimes:
    """The kept frames of a capture, in file order (see `CapturedFrame` for each field)."""

    row: Int64s
    time_ns: Int64s
    elapsed_ns: Int64s

    def __len__(self) -> int:
        return len(self.elapsed_ns)

    @classmethod
    def of(cls, columns: FrameColumns) -> FrameTimes:
        """The columns' rows, times and elapsed times (the same arrays, not copies)."""
        return cls(columns.row, columns.time_ns, columns.elapsed_ns)


def read_frame_times(capture: Capture, done: Callable[[float], None] | None = None) -> FrameTimes:
    """`capture`'s frames as arrays (`frame_columns`); `done(frames_read)` moves a progress bar."""
    return FrameTimes.of(frame_columns(capture, done))


def exact_sum(values: Int64s) -> int:
    """The sum of whole numbers, exactly: in int64 when it cannot overflow, else in Python ints."""
    if not len(values):
        return 0
    largest = max(abs(int(values.max())), abs(int(values.min())))
    if largest * len(values) < 2**63:
        return int(values.sum())
    return int(values.sum(dtype=object))
