"""`CaptureInput`: a capture's bytes, read once from the start, whether a file, a pipe or a FIFO.

A capture may come through a pipe (`zcat game.csv.gz | python -m game capture /dev/stdin`,
`capture <(zcat game.csv.gz)`, the live `--capture <(...)`), and a pipe can be read only once:
what was read is gone. So every reader takes its input from here, opened once and read once,
front to back. The first 64 KiB are held (`head`) so that the format can be told from the first
lines, and handed out again as the start of the stream (`chunks`); a reader that needs the whole
file (a CapFrameX session is JSON) takes it whole (`whole`). A pipe has no size to check before
it is read, so the size limit is checked on the way as well as first.

A capture compressed with gzip (`game.csv.gz`, told by its first two bytes, not its name) is read
through `gzip` as it streams: every reader sees the decompressed bytes, and the size limits count
those, since a few MiB of gzip can hold gigabytes.
"""

from __future__ import annotations

import gzip
import zlib
from collections.abc import Iterator
from pathlib import Path
from types import TracebackType
from typing import BinaryIO

from game.errors import BadInput
from game.file_reading import open_binary, size_text
from game.limits import KIB, MAX_CAPTURE_BYTES, MIB

HEAD_BYTES = 64 * KIB
"""What is held to tell the format from: far more than any header and the lines after it."""
CHUNK_BYTES = 1 * MIB
"""How much is read at once: large enough that the per-chunk work is nothing, small enough that
memory stays flat (the columns' reader holds some ten times a chunk while it cuts one into
cells: at 4 MiB that was 25 MB more at the peak of a million-row read, and no faster)."""
BOM = "\ufeff"
"""A UTF-8 byte-order mark, as text (PresentMon 2.x writes one, and so does Windows' Notepad)."""
BOM_BYTES = BOM.encode()
GZIP_MAGIC = b"\x1f\x8b"
"""The first two bytes of every gzip stream (RFC 1952)."""


class CaptureInput:
    """A capture file opened for its one read (see the module docstring); close it when done
    (`with CaptureInput(path) as source:`). `BadInput` (one line) for a file that is missing,
    cannot be read or is larger than `MAX_CAPTURE_BYTES`."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.read_bytes = 0
        """Bytes read so far (a progress bar's measure: a pipe's size is not known ahead)."""
        self._taken = False
        self._raw: BinaryIO = open_binary(path)
        self._file: BinaryIO = self._raw
        self.compressed = False
        """The input is gzip: its file's size says nothing of the bytes it holds."""
        try:
            if _peek(self._raw, len(GZIP_MAGIC)) == GZIP_MAGIC:
                self._file = gzip.GzipFile(fileobj=self._raw, mode="rb")  # type: ignore[assignment]
                self.compressed = True
            self._check_size(MAX_CAPTURE_BYTES, "a capture")
            self.head = self._read(HEAD_BYTES, MAX_CAPTURE_BYTES, "a capture")
        except BaseException:
            self.close()
            raise

    def __enter__(self) -> CaptureInput:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        problem: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        self._file.close()
        self._raw.close()

    def first_lines(self, count: int) -> list[str]:
        """Up to `count` lines from the start (within the first 64 KiB), as text with no
        byte-order mark and plain line ends; a last line without its line end is left out
        unless it is all there is."""
        lines = text_of(self.head).split("\n")
        if len(lines) > 1:
            lines.pop()  # what follows the last line end: empty, or a line cut at 64 KiB
        return lines[:count]

    def chunks(self) -> Iterator[bytes]:
        """The input from its first byte to its last, a chunk at a time (the held head first,
        its byte-order mark left on), within `MAX_CAPTURE_BYTES`; once only."""
        self._take()
        if self.head:
            yield self.head
        while chunk := self._read(CHUNK_BYTES, MAX_CAPTURE_BYTES, "a capture"):
            yield chunk

    def whole(self, limit: int, what: str) -> bytes:
        """The whole input (the held head and the rest), at most `limit` bytes of `what` ("a
        CapFrameX session"); once only."""
        self._take()
        self._check_size(limit, what)
        return self.head + self._read(limit + 1 - len(self.head), limit, what)

    def _take(self) -> None:
        if self._taken:
            raise RuntimeError(f"{self.path}: a capture's input is read once")
        self._taken = True

    def _check_size(self, limit: int, what: str) -> None:
        """Refuse a file larger than `limit` before reading (more of) it (a pipe, a growing
        file or a device that says it is empty is caught again while it is read; a compressed
        file only while it is read)."""
        if self.compressed:
            return
        try:
            size = Path(self.path).stat().st_size
        except OSError:
            return
        if size > limit:
            raise BadInput(f"{self.path}: too large for {what} (more than {size_text(limit)})")

    def _read(self, count: int, limit: int, what: str) -> bytes:
        """Up to `count` bytes (fewer only at the end); `BadInput` once past `limit`."""
        try:
            data = self._file.read(max(count, 0))
        except OSError as problem:
            raise BadInput(f"{self.path}: cannot read: {problem.strerror or problem}") from None
        except (EOFError, zlib.error) as problem:  # gzip cut short, or its data damaged
            raise BadInput(f"{self.path}: cannot read: damaged gzip data ({problem})") from None
        self.read_bytes += len(data)
        if self.read_bytes > limit:
            raise BadInput(f"{self.path}: too large for {what} (more than {size_text(limit)})")
        return data


def _peek(file: BinaryIO, count: int) -> bytes:
    """The first `count` bytes of `file`, left in it to be read (a pipe cannot seek back)."""
    peek = getattr(file, "peek", None)
    if peek is None:
        return b""
    try:
        return bytes(peek(count)[:count])
    except OSError:
        return b""  # the read that follows says why, in one line


def text_of(data: bytes) -> str:
    """Bytes as text: UTF-8 (a byte that is not, such as a process name in a Windows code page,
    becomes U+FFFD instead of stopping the read), Windows line ends made plain, and a byte-order
    mark at the start dropped."""
    text = data.decode("utf-8", errors="replace")
    if "\r" in text:
        text = text.replace("\r\n", "\n")
    return text.removeprefix(BOM)
