"""Where the commands write: folders made ready before any work, files written whole or not
at all; and the `--theme` of the figures written there.

A long run that ends with "cannot write" has wasted the audience's minute, so an unusable folder
is refused first, in one line. A file is written under a temporary name beside it
(`frames.csv.part`) and renamed over the real name only once complete (`os.replace`, atomic on
one file system): a run that fails halfway leaves the last good file, never half a new one. And
no output may be one of the command's inputs: `--record` pointed at the `--scenario` file would
otherwise overwrite it.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import os
from collections.abc import Iterator, Sequence
from pathlib import Path

from game.errors import BadInput
from game.stopping import wrote


def output_directory(path: Path, flag: str = "--out") -> Path:
    """Create `path` (and its parents) if needed; `BadInput` if it cannot be a directory."""
    try:
        if path.exists() and not path.is_dir():
            raise BadInput.error(f"{flag} {path}: exists and is not a directory")
        path.mkdir(parents=True, exist_ok=True)
    except (OSError, ValueError) as problem:
        raise BadInput.error(f"{flag} {path}: cannot create it: {reason(problem)}") from None
    return path


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


def writable_file(path: Path, flag: str) -> None:
    """`BadInput` now if the file at `path` could not be written later (its folders are made).

    An existing file is opened for appending, which changes nothing; a new one is created and
    removed again.
    """
    try:
        if path.is_dir():
            raise IsADirectoryError(errno.EISDIR, "Is a directory")
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.exists():
            with path.open("ab"):
                pass
        else:
            with path.open("xb"):
                pass
            path.unlink()
    except (OSError, ValueError) as problem:
        raise BadInput.error(f"{flag} {path}: cannot write it: {reason(problem)}") from None


def partial_path(path: Path) -> Path:
    """Where `path` is written until it is complete: `path` with `.part` added to its name."""
    return path.with_name(path.name + ".part")


@contextlib.contextmanager
def written_whole(path: Path) -> Iterator[Path]:
    """Yield the partial path to write; rename it to `path` if the block succeeds, else remove it.

    `OSError` and `ValueError` (a failed write, a name too long) become `BadInput` with one line.
    """
    partial = partial_path(path)
    try:
        yield partial
        os.replace(partial, path)
        wrote(str(path))
    except (OSError, ValueError) as problem:
        discard(partial)
        raise BadInput(f"{path}: cannot write: {reason(problem)}") from None
    except BaseException:
        discard(partial)
        raise


def discard(path: Path) -> None:
    """Remove a partial file, if there is one; a file that cannot be removed is left alone."""
    with contextlib.suppress(OSError, ValueError):
        path.unlink(missing_ok=True)


def refuse_overwriting_inputs(
    outputs: Sequence[tuple[str, Path | None]], inputs: Sequence[tuple[str, Path | None]]
) -> None:
    """`BadInput` if an output (flag, path) is an input or another output, the same file by
    its resolved path or, when both exist, by `os.path.samefile` (a hard link)."""
    named = [(flag, path) for flag, path in [*inputs, *outputs] if path is not None]
    first_output = len([path for _, path in inputs if path is not None])
    for index in range(first_output, len(named)):
        flag, path = named[index]
        for other_flag, other in named[:index]:
            if _same_file(path, other):
                raise BadInput.error(
                    f"{flag} {path} is the {other_flag} file: it would be overwritten"
                )


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
