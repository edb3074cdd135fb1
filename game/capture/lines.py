"""`CaptureLines`: a capture file's lines, streamed a chunk at a time within the limits.

A capture can be a gigabyte, so it is never read whole: it is read in chunks of 1 MiB, each cut
at its last line end, and handed out as lists of lines (a list per chunk keeps the per-line work
in C). Whatever the tool wrote, the lines come out the same: a UTF-8 byte-order mark (PresentMon
2.x writes one) is dropped, Windows line ends become plain ones, and bytes that are not UTF-8 (a
process name in a Windows code page) become U+FFFD instead of stopping the read. A file that
ends without a line end was cut off while the tool was writing: that last piece is kept apart in
`unterminated`, for the reader to count as a truncated line.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from game.errors import BadInput
from game.file_reading import open_binary, size_text
from game.limits import MAX_CAPTURE_BYTES, MAX_CAPTURE_LINE_BYTES

CHUNK_BYTES = 1024 * 1024
"""How much is read at once: large enough that the per-chunk work is nothing, small enough that
memory stays flat (the columns' reader holds some ten times a chunk while it cuts one into
cells: at 4 MiB that was 25 MB more at the peak of a million-row read, and no faster)."""

BOM = "\ufeff"


def check_size(path: Path, file: BinaryIO, limit: int, what: str) -> None:
    """Refuse a file larger than `limit` before reading any of it (a growing file or a device
    that says it is empty is caught again while reading)."""
    try:
        size = Path(path).stat().st_size
    except OSError:
        return
    if size > limit:
        file.close()
        raise BadInput(f"{path}: too large for {what} (more than {size_text(limit)})")


def first_lines(path: Path, count: int) -> list[str]:
    """Up to `count` lines from the start of the file (at most 64 KiB of it), for telling its
    format apart; a last line without its line end is left out unless it is the whole file."""
    with open_binary(path) as file:
        try:
            data = file.read(64 * 1024)
        except OSError as problem:
            raise BadInput(f"{path}: cannot read: {problem.strerror or problem}") from None
    text = _text(data)
    lines = text.split("\n")
    if len(lines) > 1:
        lines.pop()  # what follows the last line end: empty, or a line cut at 64 KiB
    return lines[:count]


def _text(data: bytes) -> str:
    text = data.decode("utf-8", errors="replace")
    if "\r" in text:
        text = text.replace("\r\n", "\n")
    return text.removeprefix(BOM)


class CaptureLines:
    """The file's lines, in chunks, from the start; iterate once (build another to read again).

    Raises `BadInput` for a file over `MAX_CAPTURE_BYTES` or a line over `MAX_CAPTURE_LINE_BYTES`
    (`/dev/zero`, a video): no capture tool writes either.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self.unterminated = ""
        """The piece after the last line end, once the lines have run out ("" when none)."""

    def __iter__(self) -> Iterator[list[str]]:
        first = True
        for data in self.raw_chunks():
            text = _text(data) if first else _text_body(data)
            first = False
            yield text[:-1].split("\n")  # the chunk ends with a line end: nothing follows it

    def raw_chunks(self) -> Iterator[bytes]:
        """The same lines as bytes, a chunk of complete lines at a time, each chunk ending with a
        line end (the first without its byte-order mark); `unterminated` as for the lines."""
        with open_binary(self.path) as file:
            check_size(self.path, file, MAX_CAPTURE_BYTES, "a capture")
            carry = b""
            total = 0
            first = True
            while True:
                try:
                    chunk = file.read(CHUNK_BYTES)
                except OSError as problem:
                    raise BadInput(
                        f"{self.path}: cannot read: {problem.strerror or problem}"
                    ) from None
                total += len(chunk)
                if total > MAX_CAPTURE_BYTES:
                    limit = size_text(MAX_CAPTURE_BYTES)
                    raise BadInput(f"{self.path}: too large for a capture (more than {limit})")
                if not chunk:
                    break
                data = carry + chunk if carry else chunk
                if first:
                    data = data.removeprefix(BOM.encode())
                cut = data.rfind(b"\n")
                carry = data if cut < 0 else data[cut + 1 :]
                self._check_line(carry)
                if cut >= 0:
                    first = False
                    yield data[: cut + 1]
        self.unterminated = _text(carry)

    def _check_line(self, piece: bytes) -> None:
        if len(piece) > MAX_CAPTURE_LINE_BYTES:
            longest = size_text(MAX_CAPTURE_LINE_BYTES)
            raise BadInput(f"{self.path}: not a capture: a line longer than {longest}")


def _text_body(data: bytes) -> str:
    """Like `_text`, past the first chunk (where no byte-order mark can be)."""
    text = data.decode("utf-8", errors="replace")
    return text.replace("\r\n", "\n") if "\r" in text else text
