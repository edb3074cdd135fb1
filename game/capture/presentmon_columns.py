"""The rules of `presentmon.py`, applied to a whole chunk of rows at once with numpy.

`row_reader` says what one row becomes, in plain Python: it is the rule, and the tests hold this
module to it on every fixture. Here the same rules run on columns (`columns.Chunk`), so a million
rows cost a few hundred numpy operations instead of some five million Python calls. What depends
on the rows before within a swap chain (the time of a layout written in ticks, v2_metrics'
display-change interval) is left to `ChainColumns`, which carries it from chunk to chunk.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from game.capture.columns import (
    MISSING,
    NOT_A_NUMBER,
    NUMBER,
    Chunk,
    Flags,
    Ints,
    is_text,
    numbers,
    same_everywhere,
    texts,
)
from game.capture.decimals import MS
from game.capture.frame import IntervalColumn
from game.capture.presentmon import PresentMonLayout
from game.capture.selection import ChainKey

REASONS = ("", "missing value", "not a number", "zero or negative interval", "not displayed")
"""Outcome codes: 0 is a frame, the others the `SkipReason` of that name."""
FRAME, MISSING_VALUE, UNREADABLE, NOT_POSITIVE, NOT_DISPLAYED = range(len(REASONS))
FIRST_SHOWN = -1
"""v2_metrics, `--column display`: displayed, its interval is the previous shown frame's
`DisplayedTime`; a frame until the chain's clock says it is the chain's first shown."""

Codes = npt.NDArray[np.int8]


def _interval_codes(values: Ints, status: npt.NDArray[np.int8]) -> Codes:
    """An interval column's outcome: missing, not a number, not positive, or fine."""
    return np.select(
        [status == MISSING, status == NOT_A_NUMBER, values <= 0],
        [MISSING_VALUE, UNREADABLE, NOT_POSITIVE],
        FRAME,
    ).astype(np.int8)


def _first_failure(*codes: Codes) -> Codes:
    """Each row's first nonzero code, in the order given (the order the rules are checked)."""
    result = codes[-1]
    for earlier in reversed(codes[:-1]):
        result = np.where(earlier != FRAME, earlier, result)
    return result


@dataclass(frozen=True, slots=True)
class ChunkRows:
    """What each regular row of a chunk became (before its chain's carried state)."""

    code: Codes
    present: Ints
    present_read: Flags
    """The present interval was a number (it counts in the summed time of tick layouts)."""
    time: Ints
    elapsed: Ints
    displayed: Flags | None
    until: Ints
    until_read: Flags
    shown_for: Ints
    """v2_metrics: `DisplayedTime` where displayed."""
    ready_after: Ints
    """How long after the row's time its frame was ready, never below 0 (`ready_after`)."""
    ready_read: Flags
    """The row gives a ready time."""


def read_chunk(chunk: Chunk, layout: PresentMonLayout, column: IntervalColumn) -> ChunkRows:
    """Every regular row of `chunk` under `row_reader`'s rules, but for the carried state."""
    count = len(chunk.rows)
    zeros = np.zeros(count, dtype=np.int64)
    nothing = np.zeros(count, dtype=np.bool_)
    present, present_status = numbers(chunk, layout.present, MS)
    present_code = np.select(
        [present_status == MISSING, present_status == NOT_A_NUMBER], [MISSING_VALUE, UNREADABLE], 0
    ).astype(np.int8)
    time, time_code = zeros, np.zeros(count, dtype=np.int8)
    if layout.time is not None:
        time, time_status = numbers(chunk, layout.time, layout.time_unit)
        time_code = np.select(
            [time_status == MISSING, time_status == NOT_A_NUMBER], [MISSING_VALUE, UNREADABLE], 0
        ).astype(np.int8)
    displayed, until, until_read, shown_for = _display(chunk, layout, count)
    zero_code = np.where(present <= 0, NOT_POSITIVE, FRAME).astype(np.int8)
    elapsed = present
    column_code = np.zeros(count, dtype=np.int8)
    if column == "display":
        shown = displayed if displayed is not None else nothing
        if layout.display_change is not None:
            elapsed, status = numbers(chunk, layout.display_change, MS)
            column_code = _interval_codes(elapsed, status)
        else:
            column_code = np.full(count, FIRST_SHOWN, dtype=np.int8)
        column_code = np.where(shown, column_code, NOT_DISPLAYED).astype(np.int8)
    elif column == "simulation" and layout.simulation is not None:
        elapsed, status = numbers(chunk, layout.simulation, MS)
        column_code = _interval_codes(elapsed, status)
    code = _first_failure(present_code, time_code, zero_code, column_code)
    ready_after, ready_read = _ready(chunk, layout, time, count)
    return ChunkRows(
        code=code,
        present=present,
        present_read=present_status == NUMBER,
        time=time,
        elapsed=elapsed,
        displayed=displayed,
        until=until,
        until_read=until_read,
        shown_for=shown_for,
        ready_after=ready_after,
        ready_read=ready_read,
    )


def _ready(chunk: Chunk, layout: PresentMonLayout, time: Ints, count: int) -> tuple[Ints, Flags]:
    """Each row's ready time after its time, and whether it gives one (`ready_after`'s rule:
    the interval after the present where it is a number, else the CPU start and the two GPU
    intervals where all three are)."""
    after = np.zeros(count, dtype=np.int64)
    read = np.zeros(count, dtype=np.bool_)
    if layout.render_complete is not None:
        after, status = numbers(chunk, layout.render_complete, MS)
        read = status == NUMBER
    summed = layout.cpu_start is not None or layout.gpu_after_time
    if summed and layout.gpu_latency is not None and layout.gpu_time is not None:
        latency, latency_status = numbers(chunk, layout.gpu_latency, MS)
        gpu, gpu_status = numbers(chunk, layout.gpu_time, MS)
        sum_read = (latency_status == NUMBER) & (gpu_status == NUMBER)
        from_start = latency + gpu
        if layout.cpu_start is not None:
            start, start_status = numbers(chunk, layout.cpu_start, layout.cpu_start_unit)
            sum_read &= start_status == NUMBER
            from_start += start - time
        after = np.where(read, after, from_start)
        read |= sum_read
    np.maximum(after, 0, out=after)
    return after, read


def _display(
    chunk: Chunk, layout: PresentMonLayout, count: int
) -> tuple[Flags | None, Ints, Flags, Ints]:
    """Displayed (None: the layout does not say), the until-displayed interval and whether it
    was a positive number, and v2_metrics' `DisplayedTime`."""
    until = np.zeros(count, dtype=np.int64)
    until_read = np.zeros(count, dtype=np.bool_)
    if layout.until_displayed is not None:
        until, status = numbers(chunk, layout.until_displayed, MS)
        until_read = (status == NUMBER) & (until > 0)
    shown_for = np.zeros(count, dtype=np.int64)
    displayed: Flags | None = None
    if layout.dropped is not None:
        displayed = is_text(chunk, layout.dropped, b"0")
    elif layout.displayed_time is not None:
        shown_for, status = numbers(chunk, layout.displayed_time, MS)
        displayed = (status == NUMBER) & (shown_for > 0)
    elif layout.until_displayed is not None:
        displayed = until_read
    return displayed, until, until_read, shown_for


def chain_ids(chunk: Chunk, layout: PresentMonLayout, known: dict[ChainKey, int]) -> Ints:
    """Each regular row's (process, swap chain) as a number, new ones added to `known`."""
    columns = (layout.application, layout.process_id, layout.swapchain)
    if all(same_everywhere(chunk, column) for column in columns):
        if len(chunk.rows) == 0:
            return np.zeros(0, dtype=np.int64)
        first = np.zeros(1, dtype=np.int64)
        key = tuple(texts(chunk, column, first)[0] for column in columns)
        index = known.setdefault(key, len(known))  # type: ignore[arg-type]
        return np.full(len(chunk.rows), index, dtype=np.int64)
    keys = zip(*(texts(chunk, column) for column in columns), strict=True)
    return np.array([known.setdefault(key, len(known)) for key in keys], dtype=np.int64)


class ChainColumns:
    """One swap chain's state from chunk to chunk: the summed time of tick layouts and the last
    shown frame's `DisplayedTime` (v2_metrics), as `ChainClock` carries them row by row."""

    def __init__(self, layout: PresentMonLayout, column: IntervalColumn) -> None:
        self.layout = layout
        self.column = column
        self.time_ns = 0
        self.shown_for_ns: int | None = None

    def apply(self, rows: ChunkRows, mine: Ints) -> tuple[Codes, Ints, Ints]:
        """The final codes, times and elapsed intervals of this chain's rows `mine` of a chunk."""
        code, time, elapsed = rows.code[mine], rows.time[mine], rows.elapsed[mine]
        if self.layout.time is None:
            added = np.where(rows.present_read[mine], rows.present[mine], 0)
            summed = self.time_ns + np.cumsum(added)
            time = summed if self.layout.name != "v2_metrics" else summed - added
            if len(added):
                self.time_ns = int(summed[-1])
        if rows.displayed is not None and self.layout.displayed_time is not None:
            shown = np.flatnonzero(rows.displayed[mine])
            values = rows.shown_for[mine][shown]
            before = np.concatenate(
                ([-1 if self.shown_for_ns is None else self.shown_for_ns], values[:-1])
            ).astype(np.int64)
            if len(values):
                self.shown_for_ns = int(values[-1])
            if self.column == "display":
                elapsed = elapsed.copy()
                elapsed[shown] = before[: len(shown)]
                first = (code == FIRST_SHOWN) & (elapsed < 0)
                code = np.where(first, MISSING_VALUE, code).astype(np.int8)
                code = np.where(code == FIRST_SHOWN, FRAME, code).astype(np.int8)
        return code, time, elapsed
