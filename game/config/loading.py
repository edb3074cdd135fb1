"""`load_config`: defaults, then a config file, then single settings from the command line.

    python -m game                                   # the defaults (configs/default.toml)
    python -m game --config configs/workshop.toml    # a file; keys it leaves out keep defaults
    python -m game --set scheduler.hz=30 --set scheduler.policy=uncapped

Every problem is reported at once, one line each, and each line says where the bad value came
from, the file or the command line:

    configs/workshop.toml: [render.colour] unknown setting (got 'red')
    command line: [scheduler.max_steps] must be at least 1 (got 0)

A check across two settings blames the command line when either of them was set there.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from pydantic import ValidationError

from game.config.model import GameConfig
from game.config.overrides import Override, apply_overrides, parse_override
from game.config.problems import Key, Problem, problems_in
from game.config.toml_files import read_toml
from game.errors import BadInput
from game.resources import DEFAULT_CONFIG

COMMAND_LINE = "command line"
"""The label of problems in overrides, where a file name would otherwise be."""

DEFAULT_CONFIG_FILE = DEFAULT_CONFIG
"""The shipped file holding every setting at its default, each with a comment."""


def load_config(path: Path | None, overrides: Sequence[str] = ()) -> GameConfig:
    """The game's configuration: the model's defaults, the file at `path`, then `overrides`.

    `overrides` are `dotted.key=value` strings (see `game.config.overrides`). Raises
    `BadInput` with one line per problem found in the file and the overrides together.
    """
    file_label = str(path) if path is not None else COMMAND_LINE
    lines: list[str] = []
    parsed: list[Override] = []
    for text in overrides:
        result = parse_override(text)
        if isinstance(result, Problem):
            lines.append(result.line(COMMAND_LINE))
        else:
            parsed.append(result)
    try:
        data = read_toml(path) if path is not None else {}
    except BadInput as unreadable:
        # Without the file, the overrides cannot be judged: it may hold what they depend on.
        raise BadInput(*unreadable.lines, *lines) from None

    merged, clashes = apply_overrides(data, parsed)
    lines.extend(problem.line(COMMAND_LINE) for problem in clashes)
    not_applied = {problem.key for problem in clashes}
    overridden = [override.key for override in parsed if override.key not in not_applied]
    try:
        config = GameConfig.model_validate(merged)
    except ValidationError as error:
        for problem in problems_in(error, GameConfig):
            label = COMMAND_LINE if _set_on_command_line(problem, overridden) else file_label
            lines.append(problem.line(label))
    if lines:
        raise BadInput(*lines)
    return config


def _set_on_command_line(problem: Problem, overridden: Sequence[Key]) -> bool:
    """True when an override set the problem's key, a key it involves, or a table around it."""
    return any(
        _nested(key, setting) for key in (problem.key, *problem.involves) for setting in overridden
    )


def _nested(one: Key, other: Key) -> bool:
    """True when one key is the other, or a table that contains it."""
    shorter = min(len(one), len(other))
    return one[:shorter] == other[:shorter]
