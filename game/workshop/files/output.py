"""Where the commands write: one way to write an output, checked before any work and written
whole or not at all; and the `--theme` of the figures written there.

Every command names what its run reads and what it writes, and writes through this module:

    files = Outputs([("--scenario", scenario_file), ("--script", args.script)])  # what it reads
    out = files.file("--out", args.out)  # refused now (one line, exit 2), before any work
    with written_whole(out, "--out") as partial: ...  # write `partial`: renamed to `out` if whole

A folder output is `files.folder("--out", args.out, ["frames.csv", ...])`, with the names the
command writes into it; each is then written with `written_whole(folder / name, "--out")`.

Why each rule. A long run that ends with "cannot write" has wasted the audience's minute, so
every output is checked first (`Outputs`), and a refusal is one line and exit 2. An output is
an ordinary file: a path that is a directory, a device (`mknod D/null c 1 3`, or `/dev/full`
for root), a FIFO or a socket is refused, never replaced by a regular file. No output may be one
of the run's inputs, by any name (a link, `./`, a hard link), nor, for a folder, hold one under a
name the command writes there: `--record` pointed at the `--scenario` file would otherwise
overwrite it. An existing ordinary file is replaced, atomically: the file is written under a
temporary name in the same folder (`frames.csv.part`, shortened to fit the file system's name
limit when the final name is long: never the final name itself) and renamed over the real name
only once complete (`os.replace`, atomic on one file system). However the writing ends (an
error, Ctrl+C, a signal turned into an exception), the temporary file is removed: a run that
fails halfway leaves the last good file, never half a new one.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import hashlib
import os
import stat
import tempfile
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import overload

from game.errors import BadInput
from game.stopping import stop_point, wrote

Named = tuple[str, Path | None]
"""(flag, path) of a run's input or output; a None path is a flag not given."""

PARTIAL_SUFFIX = ".part"
NAME_MAX_FALLBACK = 255
"""The longest name, in bytes, on the file systems the game runs on, when the folder cannot say."""


def name_limit(folder: Path) -> int:
    """The longest file name `folder`'s file system takes, in bytes (`PC_NAME_MAX`)."""
    try:
        return int(os.pathconf(folder, "PC_NAME_MAX"))
    except (OSError, ValueError, AttributeError):
        return NAME_MAX_FALLBACK


def partial_path(path: Path, *, keep_suffix: bool = False) -> Path:
    """Where `path` is written until it is complete: `path` with `.part` added to its name
    (before its suffix with `keep_suffix`: `clip.part.mp4`, for a writer that picks the format by
    the suffix). When that would pass the folder's name limit, the name is shortened and ends in
    a digest of the full one (`aaa…a~3f9c01d2.part`): the temporary name gives way, never the
    final one."""
    suffix = path.suffix if keep_suffix else ""
    stem = path.name[: len(path.name) - len(suffix)]
    tail = PARTIAL_SUFFIX + suffix
    try:
        limit = name_limit(_existing_folder(path))
    except OSError:
        limit = NAME_MAX_FALLBACK
    if len((stem + tail).encode()) <= limit:
        return path.with_name(stem + tail)
    digest = "~" + hashlib.blake2b(path.name.encode(), digest_size=4).hexdigest()
    room = max(1, limit - len(digest) - len(tail.encode()))
    head = stem.encode()[:room].decode(errors="ignore")
    return path.with_name(head + digest + tail)


def special_kind(path: Path) -> str | None:
    """What `path` is if it is not an ordinary file ("a directory", "a character device", ...),
    following links; None for an ordinary file or nothing at all."""
    try:
        mode = path.stat().st_mode
    except (OSError, ValueError):
        return None
    kinds = (
        (stat.S_ISDIR, "a directory"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISFIFO, "a named pipe"),
        (stat.S_ISSOCK, "a socket"),
    )
    return next((kind for test, kind in kinds if test(mode)), None)


class Outputs:
    """What one run reads and writes, checked before any work. `file` and `folder` refuse (one
    line, `BadInput`) an output that could not be written or would destroy something: one that
    is an input or an earlier output, by any name, or lies inside an input folder."""

    def __init__(self, inputs: Iterable[Named] = ()) -> None:
        self._inputs = [(flag, path) for flag, path in inputs if path is not None]
        self._outputs: list[tuple[str, Path]] = []

    @overload
    def file(self, flag: str, path: Path) -> Path: ...
    @overload
    def file(self, flag: str, path: None) -> None: ...
    def file(self, flag: str, path: Path | None) -> Path | None:
        """`path`, checked as a file output (None passes through: the flag was not given)."""
        if path is not None:
            self._check_file(flag, path)
        return path

    @overload
    def folder(self, flag: str, path: Path, names: Sequence[str] = ()) -> Path: ...
    @overload
    def folder(self, flag: str, path: None, names: Sequence[str] = ()) -> None: ...
    def folder(self, flag: str, path: Path | None, names: Sequence[str] = ()) -> Path | None:
        """`path`, made if missing, checked as a folder output with the files `names` (paths
        relative to it) the command writes there; None passes through."""
        if path is None:
            return None
        self._refuse_inputs(flag, path)
        make_folder(path, flag)
        self._outputs.append((flag, path))
        for name in names:
            self._check_file(flag, path / name)
        return path

    def _check_file(self, flag: str, path: Path) -> None:
        self._refuse_inputs(flag, path)
        kind = special_kind(path)
        try:
            if kind is not None:
                raise OSError(errno.EEXIST, f"is {kind}")
            if len(path.name.encode()) > name_limit(_existing_folder(path)):
                raise OSError(errno.ENAMETOOLONG, os.strerror(errno.ENAMETOOLONG))
            path.parent.mkdir(parents=True, exist_ok=True)
            with tempfile.TemporaryFile(dir=path.parent):  # asking the OS is the only honest test
                pass
        except (OSError, ValueError) as problem:
            raise BadInput.error(f"{flag} {path}: cannot write it: {reason(problem)}") from None
        self._outputs.append((flag, path))

    def _refuse_inputs(self, flag: str, path: Path) -> None:
        for other_flag, other in [*self._inputs, *self._outputs]:
            if _same_file(path, other):
                kind = "folder" if other.is_dir() else "file"
                raise BadInput.error(f"{flag} {path} is the {other_flag} {kind}: {_why(kind)}")
        for other_flag, other in self._inputs:
            if other.is_dir() and _inside(path, other):
                raise BadInput.error(
                    f"{flag} {path} is inside the {other_flag} folder: "
                    "write the outputs somewhere else"
                )


def _why(kind: str) -> str:
    return "it would be overwritten" if kind == "file" else "write the outputs somewhere else"


def _existing_folder(path: Path) -> Path:
    """The nearest folder above `path` that exists (whose file system will hold it); `OSError`
    if what exists there is a file."""
    folder = path.parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    if not folder.is_dir():
        raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), str(folder))
    return folder


def make_folder(path: Path, flag: str = "--out") -> Path:
    """Create `path` (and its parents) if needed; `BadInput` if it cannot be a directory."""
    try:
        if path.exists() and not path.is_dir():
            raise BadInput.error(f"{flag} {path}: exists and is not a directory")
        path.mkdir(parents=True, exist_ok=True)
    except (OSError, ValueError) as problem:
        raise BadInput.error(f"{flag} {path}: cannot create it: {reason(problem)}") from None
    return path


def output_directory(path: Path, flag: str = "--out") -> Path:
    """A folder output with no inputs to spare: `Outputs().folder(flag, path)`."""
    return Outputs().folder(flag, path)


def writable_file(path: Path, flag: str) -> None:
    """`BadInput` now if the file at `path` could not be written later: `Outputs().file`."""
    Outputs().file(flag, path)


def refuse_overwriting_inputs(outputs: Sequence[Named], inputs: Sequence[Named]) -> None:
    """`BadInput` if an output (flag, path) is an input or another output, or cannot be written:
    every output checked as `Outputs.file` does."""
    files = Outputs(inputs)
    for flag, path in outputs:
        files.file(flag, path)


THEME_NAMES = ("light", "dark")
"""The figures' themes (`game.workshop.figures.plotting` holds their colours): light for a screen or
a bright room, dark for a projector in a dark one."""


def add_theme_argument(parser: argparse.ArgumentParser) -> None:
    """`--theme light|dark`, for the commands that draw figures."""
    parser.add_argument(
        "--theme",
        choices=THEME_NAMES,
        default="light",
        help="figure colours: light (default) or dark, for a projector in a dark room",
    )


@contextlib.contextmanager
def written_whole(
    path: Path, flag: str | None = None, *, keep_suffix: bool = False
) -> Iterator[Path]:
    """Yield the temporary path to write (`partial_path`); rename it to `path` if the block
    succeeds; remove it however the block ends (`renamed_when_whole`).

    `OSError` and `ValueError` (a failed write, a full disk) become `BadInput` with one line,
    naming `flag` when given. `keep_suffix`: see `partial_path`.
    """
    try:
        with renamed_when_whole(path, keep_suffix=keep_suffix) as partial:
            yield partial
    except (OSError, ValueError) as problem:
        where = f"error: {flag} {path}" if flag else str(path)
        raise BadInput(f"{where}: cannot write: {reason(problem)}") from None


@contextlib.contextmanager
def renamed_when_whole(path: Path, *, keep_suffix: bool = False) -> Iterator[Path]:
    """`written_whole` for a caller that handles `OSError` itself (the game's F12 screenshot).

    The name is checked once more just before the rename: a device, a FIFO or a folder that
    appeared there meanwhile is refused (`OSError`), not replaced.
    """
    partial = partial_path(path, keep_suffix=keep_suffix)
    try:
        with contextlib.suppress(FileNotFoundError):
            partial.unlink()  # left by a run killed outright: ours to replace
        stop_point("output")
        yield partial
        kind = special_kind(path)
        if kind is not None:
            raise OSError(errno.EEXIST, f"is {kind}", str(path))
        os.replace(partial, path)
        wrote(str(path))
    finally:
        discard(partial)


def discard(path: Path) -> None:
    """Remove a partial file, if there is one; a file that cannot be removed is left alone."""
    with contextlib.suppress(OSError, ValueError):
        path.unlink(missing_ok=True)


def _inside(path: Path, folder: Path) -> bool:
    try:
        return folder.resolve() in path.resolve().parents
    except (OSError, ValueError, RuntimeError):
        return False


def _same_file(one: Path, other: Path) -> bool:
    try:
        if one.resolve() == other.resolve():
            return True
        return one.exists() and other.exists() and os.path.samefile(one, other)
    except (OSError, ValueError, RuntimeError):  # a loop of links, a name too long
        return False


def reason(problem: BaseException) -> str:
    """Why a file operation failed, in a few lowercase words: "file name too long"."""
    if isinstance(problem, OSError) and problem.strerror:
        return problem.strerror.lower()
    return str(problem).lower()
