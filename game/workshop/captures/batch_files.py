"""Which files a `capture PATH...` batch reads, and the folder each one's outputs go to.

A PATH is a file, a folder or a pattern. A folder is walked to its full depth (links to folders
are not followed, so a link cannot make a loop), taking the regular files whose names end in
`.csv`, `.csv.gz`, `.json` or `.json.gz`, in any case; the other files are counted, for one line.
A PATH holding `*`, `?` or `[` is a pattern the command expands itself (`**` reaching into
folders at any depth), so it works the same from any shell, and quoted; a pattern that matches
nothing, or a PATH that does not exist, is a failed entry, named in its line and counted in the
exit code, while the other files are read. Every file found is read once (a file named twice,
or found by two PATHs, is one file), in the order of the paths.

At most `MAX_CAPTURE_FILES`: a pattern that matches a whole disk is refused before any file is
read.
"""

from __future__ import annotations

import glob
import os
from dataclasses import dataclass
from pathlib import Path

from game import limits
from game.errors import BadInput

CAPTURE_SUFFIXES = (".csv", ".csv.gz", ".json", ".json.gz")
"""The names a folder's capture files end with (any case)."""
PATTERN_CHARACTERS = ("*", "?", "[")
FOLDER_JOIN = "__"
"""What stands for `/` in the name of a file's folder under `--out`."""


@dataclass(frozen=True, slots=True)
class Entry:
    """One file of the batch, or one PATH that named none (`problem` says why)."""

    path: str
    problem: str | None = None


@dataclass(frozen=True, slots=True)
class BatchFiles:
    entries: list[Entry]
    """Every file found and every failed PATH, sorted by path."""
    others: int
    """Files in the folders walked that are not captures by their names."""

    @property
    def files(self) -> list[str]:
        return [entry.path for entry in self.entries if entry.problem is None]


def is_pattern(text: str) -> bool:
    return any(character in text for character in PATTERN_CHARACTERS)


def is_batch(paths: list[Path]) -> bool:
    """Anything but one PATH naming a file (a folder, a pattern, two or more paths)."""
    return len(paths) != 1 or is_pattern(str(paths[0])) or paths[0].is_dir()


def is_capture_name(name: str) -> bool:
    return name.lower().endswith(CAPTURE_SUFFIXES)


def find_files(paths: list[Path]) -> BatchFiles:
    """The batch's files (see the module); `BadInput` (exit 2) past `MAX_CAPTURE_FILES` or
    when the paths hold no capture file and no failed entry."""
    found: dict[str, Entry] = {}
    others = 0
    for path in paths:
        text = str(path)
        if is_pattern(text):
            matches = sorted(glob.glob(text, recursive=True))
            if not matches:
                found.setdefault(text, Entry(text, f"{text}: matches no file"))
            named = [Path(match) for match in matches]
        elif not path.exists():
            found.setdefault(text, Entry(text, f"{text}: file not found"))
            named = []
        else:
            named = [path]
        for each in named:
            files, skipped = _walked(each) if each.is_dir() else ([each], 0)
            others += skipped
            for file in files:
                key = os.path.normpath(file.absolute())
                found.setdefault(key, Entry(str(file)))
                _refuse_too_many(len(found))
    if not found:
        said = " ".join(str(path) for path in paths)
        raise BadInput.error(f"no capture files in {said} ({others:,} other files)")
    entries = sorted(found.values(), key=lambda entry: entry.path)
    return BatchFiles(entries, others)


def _walked(folder: Path) -> tuple[list[Path], int]:
    """The capture files under `folder`, at any depth, and how many other files there were."""
    files, others = [], 0
    for where, folders, names in os.walk(folder):
        folders.sort()
        for name in sorted(names):
            path = Path(where) / name
            if is_capture_name(name) and path.is_file() and not path.is_symlink():
                files.append(path)
            else:
                others += 1
        _refuse_too_many(len(files))
    return files, others


def _refuse_too_many(count: int) -> None:
    if count > limits.MAX_CAPTURE_FILES:
        raise BadInput.error(
            f"more than {limits.MAX_CAPTURE_FILES:,} capture files to read (the limit for one "
            "batch): name fewer folders or a narrower pattern"
        )


def folder_names(files: list[str]) -> dict[str, str]:
    """Each file's folder under `--out`: its path relative to the deepest folder common to all
    the files, `/` written `__` (`nightly/a/x.csv.gz`, `nightly/b/y.csv` -> `a__x.csv.gz`,
    `b__y.csv`)."""
    if not files:
        return {}
    absolute = [Path(os.path.normpath(Path(file).absolute())) for file in files]
    common = Path(os.path.commonpath([path.parent for path in absolute]))
    return {
        file: path.relative_to(common).as_posix().replace("/", FOLDER_JOIN)
        for file, path in zip(files, absolute, strict=True)
    }
