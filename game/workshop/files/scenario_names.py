"""Scenarios by name: `--scenario spiral` is the packaged `spiral.toml`, and a path still works.

    python -m game simulate --scenario spiral                      # the packaged scenario
    python -m game simulate --scenario mine --scenario-dir ~/ours  # ~/ours/mine.toml
    python -m game simulate --scenario ./spiral.toml               # a file, as always
    python -m game scenarios                                       # the names, with titles

`--scenario` takes a file or a name. A file that exists is used, whatever its name: a scenario
of your own is never hidden by a packaged one, and when it has a packaged one's name the command
says on stderr which it used. Otherwise a bare name (no folder; `.toml` may be left out) is looked
up in the folder `--scenario-dir` names, then among the packaged scenarios. A name found nowhere
is one line listing the names there are; a path that is not there is "file not found", as before.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from game.errors import BadInput
from game.resources import SCENARIOS

SUFFIX = ".toml"
PACKAGED = "packaged"
"""Where a packaged scenario comes from, as the notes and the listing say it."""


@dataclass(frozen=True, slots=True)
class NamedScenario:
    name: str
    path: Path
    source: str
    """`PACKAGED`, or the folder `--scenario-dir` named."""


def scenarios_in(folder: Path, source: str) -> list[NamedScenario]:
    """The scenario files of `folder`, by name."""
    files = sorted(folder.glob(f"*{SUFFIX}")) if folder.is_dir() else []
    return [NamedScenario(path.stem, path, source) for path in files if path.is_file()]


def known_scenarios(own: Path | None) -> dict[str, NamedScenario]:
    """Every name `--scenario` knows: the user's folder first, then the packaged ones it does
    not hide."""
    if own is not None and not _exists(own, Path.is_dir):
        raise BadInput.error(f"--scenario-dir {own}: no such folder")
    found: dict[str, NamedScenario] = {}
    mine = scenarios_in(own, str(own)) if own is not None else []
    for scenario in [*mine, *scenarios_in(SCENARIOS, PACKAGED)]:
        found.setdefault(scenario.name, scenario)
    return found


def find_scenario(given: Path, own: Path | None) -> Path:
    """The file `--scenario GIVEN` means; says on stderr which one when a name was involved."""
    name = given.name.removesuffix(SUFFIX) if len(given.parts) == 1 else None
    known = known_scenarios(own) if name is not None else {}
    if name is None or _exists(given, Path.is_file):
        if name in known:
            _note(f"--scenario {given}: the file {given}, not the {_named(known[name])}")
        return given  # a path: used as it is (read_toml says "file not found" if it is not)
    if name in known:
        _note(f"--scenario {given}: the {_named(known[name])}")
        return known[name].path
    where = f"in {own} or packaged" if own is not None else "packaged"
    raise BadInput.error(
        f"--scenario {given}: no such file, nor a scenario of that name ({where}: "
        f"{', '.join(known) or 'none'})"
    )


def _exists(path: Path, kind: Callable[[Path], bool]) -> bool:
    """`path.is_file()` or `.is_dir()`, False for a name the system refuses (too long, say)."""
    try:
        return kind(path)
    except OSError:
        return False


def _named(scenario: NamedScenario) -> str:
    if scenario.source == PACKAGED:
        return f"packaged scenario {scenario.name!r} ({scenario.path})"
    return f"scenario {scenario.name!r} of --scenario-dir ({scenario.path})"


def _note(line: str) -> None:
    print(line, file=sys.stderr)
