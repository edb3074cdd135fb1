"""`Chunk`: a chunk of CSV lines as byte offsets, and its cells read as exact ns with numpy.

A million-row capture holds some five million cells to read; one Python call per cell is
seconds. So a chunk of complete lines is cut into cells once, with numpy, as byte offsets (where
each cell starts and ends), and a column of numbers is read all at once: the digits of every
cell are gathered into a table, one cell a row, and summed with their powers of ten in int64,
then scaled to ns and rounded half to even exactly as `decimal_ns` does. A cell that is not
plain digits and a point (a sign, an exponent, more than 18 digits) is read by `decimal_ns`
itself, one at a time: such cells are rare.

Only lines with the cells the reader needs, and no more than the header's, are read here; the
rest are counted as irregular.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Final

import numpy as np
import numpy.typing as npt

from game.capture.decimals import decimal_ns

Ints = npt.NDArray[np.int64]
Flags = npt.NDArray[np.bool_]

NUMBER, MISSING, NOT_A_NUMBER = 0, 1, 2
"""A cell's status: a number, no value (`NA` or empty), or text that is no number."""

_INT64_MAX: Final = 2**63 - 1
_WIDEST: Final = 24
"""Cells wider than this (in bytes) are read one at a time."""
_NEWLINE, _RETURN, _COMMA, _POINT, _ZERO, _NINE = 10, 13, 44, 46, 48, 57
_KINDS: Final = np.zeros(256, dtype=np.uint8)
_KINDS[_ZERO : _NINE + 1] = 1
_KINDS[_POINT] = 32


@dataclass(frozen=True, slots=True)
class Chunk:
    """The regular lines of a chunk of complete lines, cut into cells."""

    data: npt.NDArray[np.uint8]
    padded: npt.NDArray[np.uint8]
    """`data` and then `_WIDEST` zero bytes, so a cell's window never runs off the end."""
    lines: int
    """Lines in the chunk (each ended by a line end)."""
    blank: int
    irregular: int
    """Lines that are not blank and have too few cells to read or more than the header."""
    rows: Ints
    """The index in the chunk of each regular line, in order."""
    starts: Ints
    """(rows, width): where each read cell starts, in bytes from the chunk's start."""
    ends: Ints
    longest: int = 0
    """The longest line's length in bytes, its line end not counted."""
    last_cells: int = 0
    """How many cells the chunk's last line that is not blank has (0: none)."""
    odd: Ints = field(default_factory=lambda: np.zeros((0, 2), dtype=np.int64))
    """(irregular lines, 2): where each irregular line's text starts and ends."""


def split_chunk(data: bytes, cells: int, width: int, required: int | None = None) -> Chunk:
    """`data` (complete lines, each ending with a line end) cut into its first `width` cells.

    A line is regular when it has from `required` (default `width`) to `cells` (the header's)
    cells: a tool may end a row early where it has nothing for the columns after, and those
    cells (any of the `width` past its last) are read as empty. Fewer cells than that, or more
    than the header, and the line is irregular (cut short, or spliced from another file)."""
    needed = width if required is None else required
    raw = np.frombuffer(data, dtype=np.uint8)
    line_ends = np.flatnonzero(raw == _NEWLINE)
    line_starts = np.concatenate(([0], line_ends[:-1] + 1))
    carriage = (line_ends > line_starts) & (raw[line_ends - 1] == _RETURN)
    text_ends = line_ends - carriage
    commas = np.flatnonzero(raw == _COMMA)
    blank = text_ends == line_starts
    lengths = line_ends - line_starts
    longest = int(lengths.max()) if len(lengths) else 0
    grid = _every_line_regular(commas, line_starts, line_ends, cells)
    odd = np.zeros((0, 2), dtype=np.int64)
    if grid is not None:
        rows = np.arange(len(line_ends))
        starts, ends = _grid_cells(grid, line_starts, text_ends, cells, width)
        last_cells = cells
    else:
        comma_line = np.searchsorted(line_ends, commas)
        per_line = np.bincount(comma_line, minlength=len(line_ends))
        regular = (per_line >= needed - 1) & (per_line <= cells - 1) & ~blank
        rows = np.flatnonzero(regular)
        starts, ends = _ragged_cells(commas, per_line, rows, line_starts, text_ends, width)
        filled = np.flatnonzero(~blank)
        last_cells = int(per_line[filled[-1]]) + 1 if len(filled) else 0
        cut = np.flatnonzero(~regular & ~blank)
        odd = np.stack((line_starts[cut], text_ends[cut]), axis=1)
    blanks = int(blank.sum())
    padded = np.frombuffer(data + bytes(_WIDEST), dtype=np.uint8)
    irregular = len(line_ends) - blanks - len(rows)
    return Chunk(
        raw,
        padded,
        len(line_ends),
        blanks,
        irregular,
        rows,
        starts,
        ends,
        longest,
        last_cells,
        odd,
    )


def _grid_cells(
    grid: Ints, line_starts: Ints, text_ends: Ints, cells: int, width: int
) -> tuple[Ints, Ints]:
    """Where the first `width` cells of each line start and end, every line holding `cells`."""
    starts = np.empty((len(grid), width), dtype=np.int64)
    starts[:, 0] = line_starts
    starts[:, 1:] = grid[:, : width - 1] + 1
    ends = np.empty((len(grid), width), dtype=np.int64)
    ends[:, : min(width, cells - 1)] = grid[:, :width]
    if width == cells:
        ends[:, -1] = text_ends
    return starts, ends


def _ragged_cells(
    commas: Ints, per_line: Ints, rows: Ints, line_starts: Ints, text_ends: Ints, width: int
) -> tuple[Ints, Ints]:
    """Where the first `width` cells of each of the lines `rows` start and end, the lines
    holding `per_line` + 1 cells each: cell j ends at the line's j-th comma, or at its end for
    its last cell, and a cell past its last starts and ends there (empty)."""
    first = np.cumsum(per_line) - per_line  # each line's first comma, in `commas`
    held = per_line[rows][:, None]
    at = np.arange(width)
    index = np.minimum(first[rows][:, None] + at, max(len(commas) - 1, 0))
    found = commas[index] if len(commas) else np.zeros_like(index)
    line_end = text_ends[rows][:, None]
    ends = np.where(at < held, found, line_end)
    starts = np.empty_like(ends)
    starts[:, 0] = line_starts[rows]
    starts[:, 1:] = np.where(at[1:] <= held, found[:, :-1] + 1, line_end)
    return starts, ends


def _every_line_regular(
    commas: Ints, line_starts: Ints, line_ends: Ints, cells: int
) -> Ints | None:
    """The commas as a (lines, cells - 1) grid when every line has the header's number of cells
    (the usual chunk), else None: with as many commas as that takes in all, each line holds its
    row of the grid exactly when the row's first comma is inside the line and its last too."""
    if len(commas) != len(line_ends) * (cells - 1) or cells < 2:
        return None
    grid = commas.reshape(len(line_ends), cells - 1)
    inside = (grid[:, 0] >= line_starts) & (grid[:, -1] < line_ends)
    return grid if bool(inside.all()) else None


def _windows(chunk: Chunk, starts: Ints, width: int) -> npt.NDArray[np.uint8]:
    """(cells, width): the `width` bytes from each start (a copy of a sliding window's rows)."""
    windows: npt.NDArray[np.uint8] = np.lib.stride_tricks.sliding_window_view(chunk.padded, width)
    return windows[starts]


def texts(chunk: Chunk, column: int, where: Ints | None = None) -> list[str]:
    """The text of a column's cells (of the rows `where`, else all), one Python string each."""
    starts, ends = chunk.starts[:, column], chunk.ends[:, column]
    if where is not None:
        starts, ends = starts[where], ends[where]
    data = chunk.data
    return [
        data[start:end].tobytes().decode("utf-8", errors="replace")
        for start, end in zip(starts.tolist(), ends.tolist(), strict=True)
    ]


def same_everywhere(chunk: Chunk, column: int) -> bool:
    """Whether every regular line has the same text in `column` (one process, one swap chain)."""
    starts, ends = chunk.starts[:, column], chunk.ends[:, column]
    lengths = ends - starts
    if len(lengths) == 0 or not (lengths == lengths[0]).all():
        return len(lengths) == 0
    table = _windows(chunk, starts, int(lengths[0]))
    return bool((table == table[0]).all())


def is_text(chunk: Chunk, column: int, text: bytes, where: Ints | None = None) -> Flags:
    """Whether each regular line's cell in `column` (of the rows `where`, else all) is exactly
    `text` (`Dropped` is "0")."""
    starts, ends = chunk.starts[:, column], chunk.ends[:, column]
    if where is not None:
        starts, ends = starts[where], ends[where]
    same: Flags = (ends - starts) == len(text)
    if len(text) and len(starts):
        table = _windows(chunk, starts, len(text))
        same &= (table == np.frombuffer(text, dtype=np.uint8)).all(axis=1)
    return same


def numbers(chunk: Chunk, column: int, unit: int) -> tuple[Ints, npt.NDArray[np.int8]]:
    """A column's cells as ns (in units of 10^`unit` ns), and each cell's status (`NUMBER`,
    `MISSING`, `NOT_A_NUMBER`); the value of a cell that is not a number is 0.

    A tool writes a column with a fixed number of places, so its cells come in a few shapes
    (length, where the point is); all the cells of one shape are read by one product of their
    digits with that shape's powers of ten (`_weights`).
    """
    starts, ends = chunk.starts[:, column], chunk.ends[:, column]
    lengths = ends - starts
    widest = min(int(lengths.max()) if len(starts) else 0, _WIDEST)
    if widest == 0:  # every cell empty (or no rows)
        return np.zeros(len(starts), dtype=np.int64), np.full(len(starts), MISSING, np.int8)
    table = _windows(chunk, starts, widest)  # each cell's bytes, and what follows it
    kinds = _KINDS[table]  # a digit 1, the point 32, anything else 0: one sum counts both
    kinds *= np.arange(widest, dtype=np.int16) < lengths[:, None]  # only the cell's own
    tally = kinds.astype(np.int16) @ np.ones(widest, dtype=np.int16)  # a sum, as a product
    points = tally >> 5
    plain = ((tally & 31) + points == lengths) & (points <= 1) & (lengths > points)
    plain &= lengths <= widest
    shape = lengths * 32 + np.where(points == 1, kinds.argmax(axis=1), lengths)  # the point
    values = np.zeros(len(starts), dtype=np.int64)
    for key in np.flatnonzero(np.bincount(shape[plain])).tolist():  # the shapes, in order
        weights, deciding = _weights(key // 32, key % 32, unit)
        rows = np.flatnonzero(plain & (shape == key))
        if weights is None:
            plain[rows] = False  # over 18 digits: read one at a time
            continue
        cells = table[rows, : key // 32].astype(np.int64) - _ZERO
        whole = cells @ weights
        if deciding < key // 32:  # the first digit past the ns, and any nonzero one after it
            first = cells[:, deciding]
            beyond = (cells[:, deciding + 1 :] != 0).any(axis=1)
            whole += (first > 5) | ((first == 5) & (beyond | (whole % 2 == 1)))
        values[rows] = whole
    missing = lengths == 0
    odd = np.flatnonzero(~plain & ~missing)  # no plain number, not empty: `NA`, or read below
    said_na = is_text(chunk, column, b"NA", odd)
    missing[odd[said_na]] = True
    status = np.where(missing, MISSING, NUMBER).astype(np.int8)
    for index in odd[~said_na].tolist():
        text = chunk.data[starts[index] : ends[index]].tobytes().decode("utf-8", errors="replace")
        try:
            value = decimal_ns(text, unit)
        except ValueError:
            value = None
        if value is None or abs(value) > _INT64_MAX:
            status[index] = NOT_A_NUMBER
        else:
            values[index] = value
    return values, status


@cache
def _weights(length: int, point: int, unit: int) -> tuple[Ints | None, int]:
    """For cells `length` long with the point at `point` (`length`: none): each character's
    power of ten in ns (0 for the point and for digits past the ns), and where the first digit
    past the ns is; None when the value could need more than 18 digits."""
    places = length - 1 - point if point < length else 0
    kept = [at for at in range(length) if at != point and (at - point <= unit or point == length)]
    scale = unit - min(places, unit)
    if len(kept) + scale > 18:
        return None, length
    weights = np.zeros(length, dtype=np.int64)
    for order, at in enumerate(reversed(kept)):
        weights[at] = 10 ** (order + scale)
    return weights, point + unit + 1 if point < length else length
