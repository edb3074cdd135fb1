"""`load_scenario`: a scenario file, then the command line's flags on top of it.

    python -m game simulate --scenario spiral --policy drop --seconds 5

`--scenario` takes a packaged scenario's name or a file (`chosen_scenario`, and
`game.workshop.files.scenario_names` for how a name is found).

A flag overrides the file's value (`--stall` replaces the file's whole list of stalls). Both are
checked by the same model, and each problem names where it came from:

    configs/scenarios/mine.toml: [clock.render_fps] must be at least 1 (got 0)
    error: --hz must be a number like 60 or 59.94 (got 'sixty')
    error: --stall 2:0: ms must be more than 0 (got '0')
"""

from __future__ import annotations

import argparse
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from game.arguments import file_path, whole_number
from game.config.overrides import Override, apply_overrides
from game.config.problems import NOTHING, Key, Problem, dotted, problems_in, render
from game.config.toml_files import read_toml
from game.errors import BadInput
from game.knobs import KNOBS, Knob
from game.workshop.files.scenario import Scenario
from game.workshop.files.scenario_checks import timeline_problems
from game.workshop.files.scenario_names import find_scenario


@dataclass(frozen=True, slots=True)
class Flag:
    """One setting from the command line: the flag as typed, where it goes, and its value."""

    flag: str
    key: tuple[str, ...]
    value: object
    items: tuple[str, ...] = ()
    """For a repeatable flag, each occurrence as typed (`2:200`), to name the bad one."""


def scenario_flags(knobs: Iterable[Knob] = KNOBS) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Each value flag and where it goes in a scenario: the knobs' flags, read off the table,
    then `--seconds`, the run's length."""
    return (
        *((knob.flag[0], (knob.section, knob.key)) for knob in knobs if knob.flag is not None),
        ("--seconds", ("seconds",)),
    )


def add_scenario_arguments(
    parser: argparse.ArgumentParser, *, policy: bool = True, knobs: Iterable[Knob] = KNOBS
) -> None:
    """The flags shared by `simulate`, `compare`, `sweep` and `clip`: each overrides the
    scenario's value. A knob's flag is its row's (`flag`), so a new knob with a flag is on every
    one of them; `policy=False` leaves `--policy` out (for a command that takes a list)."""
    add_scenario_choice(parser)
    for knob in knobs:
        if knob.flag is None or (knob.path == "scheduler.policy" and not policy):
            continue
        if knob.kind is int:  # a count, read as one (`bool` is no knob with a flag)
            parser.add_argument(knob.flag[0], type=whole_number, help=knob.flag[1])
        else:
            parser.add_argument(knob.flag[0], help=knob.flag[1])
    parser.add_argument("--seconds", help="wall seconds to simulate (default 10)")
    parser.add_argument(
        "--stall",
        action="append",
        default=[],
        metavar="T:MS",
        help="a stall of MS ms at wall second T (repeatable; replaces the scenario's stalls)",
    )


def add_scenario_choice(parser: argparse.ArgumentParser) -> None:
    """`--scenario NAME|FILE` and `--scenario-dir DIR`, read by `chosen_scenario`."""
    parser.add_argument(
        "--scenario",
        type=file_path,
        metavar="NAME|FILE",
        help="a scenario: a packaged one's name (see `scenarios`) or a TOML file",
    )
    parser.add_argument(
        "--scenario-dir",
        type=file_path,
        metavar="DIR",
        help="a folder of your own scenarios, looked up by name before the packaged ones",
    )


def chosen_scenario(args: argparse.Namespace) -> Path | None:
    """The file `--scenario` names (a name is looked up: see `scenario_names`), or None. The
    name is looked up once: `args` then hold the file, so the line saying which file a name chose
    is printed once however many parts of a command ask."""
    if args.scenario is None:
        return None
    chosen: Path = find_scenario(args.scenario, args.scenario_dir)
    args.scenario = chosen
    return chosen


def flags_from_args(args: argparse.Namespace) -> list[Flag]:
    """The scenario flags the user gave, in a fixed order."""
    flags = []
    for flag, key in scenario_flags():
        value = getattr(args, flag[2:].replace("-", "_"), None)
        if value is not None:
            flags.append(Flag(flag, key, value))
    if args.stall:
        flags.append(
            Flag(
                "--stall",
                ("stalls",),
                [_stall(text) for text in args.stall],
                items=tuple(args.stall),
            )
        )
    return flags


def _stall(text: str) -> dict[str, str]:
    at, colon, ms = text.partition(":")
    if not colon or not at.strip() or not ms.strip():
        raise BadInput.error(f"--stall must be T:MS, like 2:200 for 200 ms at 2 s (got {text!r})")
    return {"at": at.strip(), "ms": ms.strip()}


def load_scenario(
    path: Path | None, flags: Sequence[Flag] = (), *, timeline: bool = True
) -> Scenario:
    """The scenario at `path` (or the defaults) with `flags` applied; `BadInput` listing every
    problem, each labelled with the file or the flag it came from. `timeline=False` leaves out
    the checks of a run across its seconds (`timeline_problems`): for a caller that takes only
    the scenario's settings and runs no timeline of its own (`capture`)."""
    data = read_toml(path) if path is not None else {}
    return scenario_from(data, path, flags, timeline=timeline)


def scenario_from(
    data: Mapping[str, Any], path: Path | None, flags: Sequence[Flag] = (), *, timeline: bool = True
) -> Scenario:
    """`load_scenario` of a file already read: its TOML `data` (`path` only names it), as a
    worker builds a sweep's cell from the file the command read once."""
    merged, clashes = apply_overrides(data, [Override(flag.key, flag.value) for flag in flags])
    lines = [scenario_line(problem, path, flags) for problem in clashes]
    try:
        scenario = Scenario.model_validate(merged)
    except ValidationError as error:
        for problem in problems_in(error, Scenario):
            lines.append(scenario_line(problem, path, flags))
        raise BadInput(*lines) from None
    given = {flag.key for flag in flags}
    if ("seconds",) in given and not lines:  # `--seconds`: the scenario's first N seconds
        scenario = scenario.first(scenario.seconds, cut_stalls=("stalls",) not in given)
    if timeline:
        lines.extend(scenario_line(p, path, flags) for p in timeline_problems(scenario))
    if lines:
        raise BadInput(*lines)
    return scenario


def scenario_line(problem: Problem, path: Path | None, flags: Sequence[Flag]) -> str:
    """The line for a problem with a scenario: blamed on the flag that set (or involved) its key,
    else on the file (or on "defaults" when there is none)."""
    label = str(path) if path is not None else "defaults"
    return _flag_line(problem, flags) or problem.line(label)


def _flag_line(problem: Problem, flags: Sequence[Flag]) -> str | None:
    """`error: --flag message (got VALUE)` when a flag set the problem's key (or a key the check
    involved); None when the problem is the file's own."""
    got = "" if problem.got is NOTHING else f" (got {render(problem.got)})"
    for flag in flags:
        if _within(problem.key, flag.key):
            rest = problem.key[len(flag.key) :]
            if flag.items and rest and isinstance(rest[0], int) and rest[0] < len(flag.items):
                inner = dotted(rest[1:])
                where = f" {flag.items[rest[0]]}:" + (f" {inner}" if inner else "")
            else:
                where = f" {dotted(rest)}" if rest else ""
            return f"error: {flag.flag}{where} {problem.message}{got}"
    for flag in flags:
        if any(_within(involved, flag.key) for involved in problem.involves):
            return f"error: {flag.flag}: {dotted(problem.key)} {problem.message}{got}"
    return None


def _within(key: Key, prefix: tuple[str, ...]) -> bool:
    return tuple(key[: len(prefix)]) == prefix
