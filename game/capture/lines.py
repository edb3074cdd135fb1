"""`CaptureLines`: a capture's lines, streamed a chunk at a time within the limits.

A capture can be a gigabyte, so it is never read whole: its input (`source.CaptureInput`, read
once) comes in chunks of 1 MiB, each cut at its last line end, and is handed out as lists of
lines (a list per chunk keeps the per-line work in C) or as the bytes of whole lines. Whatever
the tool wrote, the lines come out the same: a UTF-8 byte-order mark (PresentMon 2.x writes one)
is dropped, Windows line ends become plain ones, and bytes that are not UTF-8 (a process name in a
Windows code page) become U+FFFD instead of stopping the read. A file that ends without a line
end leaves its last piece apart, in `unterminated`, for the reader to judge (a finished file
may end so; a tool stopped while writing leaves a line cut short).

**Line length.** No line may be longer than `MAX_CAPTURE_LINE_BYTES`: PresentMon's widest rows
are under 2 KiB, and a longer line means the file is not a capture (`/dev/zero`, a video). Every
line is held to it: the one carried from chunk to chunk here, the lines within a chunk by
whoever cuts the chunk into lines (`longest_line`, or `columns.split_chunk`'s `longest`).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np

from game.capture.source import BOM_BYTES, CaptureInput, text_of
from game.errors import BadInput
from game.file_reading import size_text
from game.limits import MAX_CAPTURE_LINE_BYTES

_NEWLINE = 10


def refuse_long_line(path: Path) -> BadInput:
    """The one line for a line over the limit."""
    longest = size_text(MAX_CAPTURE_LINE_BYTES)
    return BadInput(f"{path}: not a capture: a line longer than {longest}")


def longest_line(data: bytes) -> int:
    """The length in bytes of the longest line of `data` (whole lines, each ending with a line
    end; the line end not counted)."""
    if len(data) <= MAX_CAPTURE_LINE_BYTES:
        return len(data) - 1
    ends = np.flatnonzero(np.frombuffer(data, dtype=np.uint8) == _NEWLINE)
    return int(max(ends[0], int(np.diff(ends).max(initial=1)) - 1))


class CaptureLines:
    """The input's lines, in chunks, from the start; iterate once.

    Raises `BadInput` for an input over `MAX_CAPTURE_BYTES` (`CaptureInput`) or a line over
    `MAX_CAPTURE_LINE_BYTES` (`/dev/zero`, a video): no capture tool writes either.
    """

    def __init__(self, source: CaptureInput) -> None:
        self.source = source
        self.path = source.path
        self.unterminated = b""
        """The bytes after the last line end, once the lines have run out (b"" when none)."""

    def __iter__(self) -> Iterator[list[str]]:
        """The lines as text (see the module docstring), each chunk's held to the limit."""
        for data in self.raw_chunks():
            if longest_line(data) > MAX_CAPTURE_LINE_BYTES:
                raise refuse_long_line(self.path)
            yield text_of(data)[:-1].split("\n")  # the chunk ends with a line end

    def raw_chunks(self) -> Iterator[bytes]:
        """The lines as bytes, a chunk of complete lines at a time, each chunk ending with a line
        end (the first without its byte-order mark); `unterminated` as for the lines. The lines
        within a chunk are the caller's to hold to the length limit."""
        carry = b""
        first = True
        for chunk in self.source.chunks():
            data = carry + chunk if carry else chunk
            if first:
                data = data.removeprefix(BOM_BYTES)
            cut = data.rfind(b"\n")
            carry = data if cut < 0 else data[cut + 1 :]
            if len(carry) > MAX_CAPTURE_LINE_BYTES:
                raise refuse_long_line(self.path)
            if cut >= 0:
                first = False
                yield data[: cut + 1]
        self.unterminated = carry
