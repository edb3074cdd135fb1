"""A CapFrameX session's JSON, read in two parts: its outline by `json`, its arrays by numpy.

A session is a few objects (`Info`, the runs, their sensors' names) around long arrays of numbers
(`CaptureData`'s columns, each a number a frame). Python's `json` makes an object of every entry:
some 60 bytes a number, so a 24 MiB session of six million entries took 600 MB. So the two parts
are read apart:

- **The arrays.** Every array that holds no string, array or object (found with numpy: the
  strings' quotes, those escaped by a backslash left out, then the brackets outside strings) is
  cut out of the text and replaced by its number, counted from 0 in the order the arrays' `[`
  come in the file: `[3]`. Its entries are found later, a block at a time (`ArrayCells`), as the
  byte ranges between its commas, and read as exact decimals by the capture's column reader.
- **The outline**, the text with those arrays cut out, is what `json` parses (a JSON error
  anywhere in it refuses the file). It is held to `MAX_SESSION_OUTLINE_BYTES`.

In the outline, an array cut out is a list holding one whole number, which no array left in it
can be (each of those holds a string, an array or an object): `cut_array` tells them apart.
A byte-order mark at the start (Windows tools write one) is dropped.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from game.capture.source import BOM_BYTES
from game.errors import BadInput
from game.file_reading import size_text
from game.limits import MAX_SESSION_OUTLINE_BYTES

Ints = npt.NDArray[np.int64]

_QUOTE, _BACKSLASH, _COMMA = ord('"'), ord("\\"), ord(",")
_OPEN, _CLOSE = ord("["), ord("]")
_MARKS = np.zeros(256, dtype=np.bool_)
_MARKS[[ord("["), ord("]"), ord("{"), ord("}")]] = True
_SPACE = np.zeros(256, dtype=np.bool_)
_SPACE[[ord(" "), ord("\t"), ord("\n"), ord("\r")]] = True
_SOMETHING = re.compile(rb"[^ \t\r\n]")


@dataclass(frozen=True, slots=True)
class Session:
    """A session's text cut in two: the parsed outline and the arrays cut out of it."""

    data: bytes
    """The session's bytes (no byte-order mark)."""
    outline: Any
    """The outline, parsed (`cut_array` finds an array cut out of it)."""
    spans: Ints
    """(arrays cut out, 2): where each one's entries start and end in `data`, between its
    brackets."""


def read_session(path: Path, data: bytes) -> Session:
    """`data` cut and parsed (the module's docstring); `BadInput` for what is not JSON."""
    data = data.removeprefix(BOM_BYTES)
    raw = np.frombuffer(data, dtype=np.uint8)
    quotes = _real_quotes(raw)
    if len(quotes) % 2:
        raise BadInput(f"{path}: not a CapFrameX session: a string is never closed")
    marks = np.flatnonzero(_MARKS[raw])
    marks = marks[np.searchsorted(quotes, marks) % 2 == 0]  # outside every string
    seen = np.concatenate((marks, quotes[0::2]))  # the brackets, and where each string starts
    seen.sort()
    kinds = raw[seen]
    opens = np.flatnonzero(kinds == _OPEN)
    flat = opens[(opens + 1 < len(seen)) & (kinds[np.minimum(opens + 1, len(seen) - 1)] == _CLOSE)]
    starts, ends = seen[flat] + 1, seen[flat + 1]
    numbers = np.searchsorted(marks[raw[marks] == _OPEN], seen[flat])  # each one's `[` in order
    digits = len(str(len(numbers))) * len(numbers)  # at most, for the arrays' numbers
    if len(data) - int((ends - starts).sum()) + digits > MAX_SESSION_OUTLINE_BYTES:
        raise BadInput(
            f"{path}: not a CapFrameX session: more than {size_text(MAX_SESSION_OUTLINE_BYTES)} "
            "of it besides its arrays of numbers"
        )
    pieces: list[bytes] = []
    at = 0
    for start, end, number in zip(starts.tolist(), ends.tolist(), numbers.tolist(), strict=True):
        pieces += [data[at:start], str(number).encode()]
        at = end
    pieces.append(data[at:])
    try:
        outline = json.loads(b"".join(pieces).decode("utf-8"))
    except UnicodeDecodeError:
        raise BadInput(f"{path}: not a CapFrameX session: not UTF-8 text") from None
    except (json.JSONDecodeError, RecursionError) as problem:
        raise BadInput(f"{path}: not a CapFrameX session: {problem}") from None
    spans = np.zeros((int(numbers.max(initial=-1)) + 1, 2), dtype=np.int64)
    spans[numbers] = np.stack((starts, ends), axis=1)
    return Session(data, outline, spans)


def _real_quotes(raw: npt.NDArray[np.uint8]) -> Ints:
    """Where the quotes are that start or end a string: a quote after an odd number of
    backslashes is escaped (such quotes are rare: they are looked at one by one)."""
    quotes = np.flatnonzero(raw == _QUOTE)
    after = quotes[(quotes > 0) & (raw[np.maximum(quotes - 1, 0)] == _BACKSLASH)]
    escaped = []
    for quote in after.tolist():
        before = quote - 1
        while before >= 0 and raw[before] == _BACKSLASH:
            before -= 1
        if (quote - 1 - before) % 2:
            escaped.append(quote)
    return np.setdiff1d(quotes, escaped, assume_unique=True) if escaped else quotes


def cut_array(value: object) -> int | None:
    """The number of an array cut out of the outline, if `value` is one (a list holding one
    whole number, which an array left in the outline cannot be), else None."""
    if isinstance(value, list) and len(value) == 1:
        number = value[0]
        if isinstance(number, int) and not isinstance(number, bool):
            return number
    return None


class ArrayCells:
    """The entries of one array cut out of a session, as byte ranges in its data, a block at a
    time from the first (`take`); blanks about an entry are left out of its range."""

    def __init__(self, data: bytes, start: int, end: int) -> None:
        self.data = data
        self.at = start
        self.end = end
        something = _SOMETHING.search(data, start, end) is not None
        self.count = data.count(b",", start, end) + 1 if something else 0
        """Entries in the array (an array of blanks holds none)."""
        self.left = self.count

    def take(self, wanted: int) -> tuple[Ints, Ints]:
        """Where the next `wanted` entries (fewer at the end) start and end in the data."""
        count = min(wanted, self.left)
        if count <= 0:
            empty = np.zeros(0, dtype=np.int64)
            return empty, empty
        last = count == self.left
        size = (self.end - self.at) * count // self.left + 64
        while True:
            stop = min(self.end, self.at + size)
            raw = np.frombuffer(self.data, dtype=np.uint8, count=stop - self.at, offset=self.at)
            commas = np.flatnonzero(raw == _COMMA)
            if len(commas) >= count or stop == self.end:
                break
            size *= 2
        cuts = commas[: count - 1] if last else commas[:count]
        ends = np.append(cuts, stop - self.at) if last else cuts
        starts = np.concatenate(([0], cuts[: len(ends) - 1] + 1))
        solid = np.flatnonzero(~_SPACE[raw[: int(ends[-1])]])
        first = np.searchsorted(solid, starts)
        final = np.searchsorted(solid, ends) - 1
        inside = (first < len(solid)) & (first <= final)
        trimmed_starts = np.where(inside, solid[np.minimum(first, len(solid) - 1)], starts)
        trimmed_ends = np.where(inside, solid[np.maximum(final, 0)] + 1, starts)
        self.left -= count
        base = self.at
        self.at = self.end if last else self.at + int(cuts[-1]) + 1
        return trimmed_starts.astype(np.int64) + base, trimmed_ends.astype(np.int64) + base
