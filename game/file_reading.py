"""`read_text`: a file read whole, within a size limit, or one line saying why not; `read_lines`:
one read a line at a time, each within a limit, however long the file.

Every file the game reads (configs, scenarios, lessons, scripts, recordings) comes through here,
so each fails the same way (`FILE: file not found`, `FILE: larger than 1 MiB ...`) and none can
make the game read until memory runs out: at most one byte more than the limit is ever read.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from game.errors import BadInput
from game.limits import MAX_TEXT_FILE_BYTES, MIB


def size_text(limit: int) -> str:
    """1048576 -> "1 MiB": limits are stated in whole MiB when they are whole MiB."""
    return f"{limit // MIB} MiB" if limit % MIB == 0 else f"{limit:,} bytes"


def open_binary(path: Path) -> BinaryIO:
    """`path` opened for reading, or `BadInput` with one line saying why it cannot be (the one
    wording for every file the game reads, whole here or streamed, as captures are)."""
    try:
        return path.open("rb")
    except FileNotFoundError:
        raise BadInput(f"{path}: file not found") from None
    except IsADirectoryError:
        raise BadInput(f"{path}: is a directory, not a file") from None
    except OSError as problem:
        raise BadInput(f"{path}: cannot read: {problem.strerror or problem}") from None
    except ValueError as problem:  # a NUL byte in the name, from code rather than a shell
        raise BadInput(f"{path!r}: cannot read: {problem}") from None


def read_text(path: Path, what: str, *, limit: int = MAX_TEXT_FILE_BYTES) -> str:
    """The UTF-8 text of the file at `path`; `BadInput` with one line if it cannot be that. A
    byte-order mark at its start (Windows' Notepad writes one) is dropped: it says the text is
    UTF-8, which it must be anyway.

    `what` names the kind of file, with its article, for the messages: "a replay file".
    """
    with open_binary(path) as file:
        try:
            data = file.read(limit + 1)
        except OSError as problem:
            raise BadInput(f"{path}: cannot read: {problem.strerror or problem}") from None
    if len(data) > limit:
        raise BadInput(f"{path}: too large for {what} (more than {size_text(limit)})")
    try:
        return data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError:
        raise BadInput(f"{path}: not {what}: not UTF-8 text") from None


def read_lines(path: Path, what: str, *, line_limit: int) -> Iterator[str]:
    """The UTF-8 lines of the file at `path`, one at a time (without their line ends), each at
    most `line_limit` bytes: a file of any length is read in constant memory, and a line that
    is too long (a file that is not `what` at all) is refused before it is held whole."""
    with open_binary(path) as file:
        number = 0
        while True:
            try:
                raw = file.readline(line_limit + 1)
            except OSError as problem:
                raise BadInput(f"{path}: cannot read: {problem.strerror or problem}") from None
            if not raw:
                return
            number += 1
            if len(raw) > line_limit and not raw.endswith(b"\n"):  # cut off at the limit
                raise BadInput(
                    f"{path}:{number}: a line longer than {size_text(line_limit)}: not {what}"
                )
            try:
                yield raw.decode("utf-8").rstrip("\r\n")
            except UnicodeDecodeError:
                raise BadInput(f"{path}:{number}: not {what}: not UTF-8 text") from None
