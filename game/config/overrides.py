"""Single settings from the command line: `scheduler.hz=30`, `scheduler.policy=uncapped`.

Each override is a dotted key, `=`, and a TOML value, so it means exactly what the same line
means in a config file: `scheduler.hz=59.94` is the decimal 59.94, `hud.graphs=false` a switch,
`scheduler.policy="uncapped"` a string. Quoting strings in a shell is a chore, so a bare word
that is not a TOML value is taken as a string: `scheduler.policy=uncapped`,
`scheduler.time_scale=1/8`, `app.screenshot_dir=shots/today`. Whether the value suits the key
is checked later, with the rest of the configuration. Keys and values are held to the same
limits as files (`game.config.toml_limits`): a key of at most 32 parts, a value nested at most
32 deep, numbers of at most 100 digits.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from game.config.problems import Problem
from game.config.toml_limits import data_problem, text_problem
from game.limits import MAX_NESTING

# A TOML bare key, dotted: letters, digits, "_" and "-" between the dots.
_DOTTED_KEY = re.compile(r"[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*")
# A word that reads as a string without quotes: nothing TOML would need to see quoted.
_BARE_WORD = re.compile(r"[^\s\"'\[\]{}=#,]+")


@dataclass(frozen=True, slots=True)
class Override:
    """One setting given on the command line: where it goes and its parsed value."""

    key: tuple[str, ...]
    value: object


def parse_override(text: str) -> Override | Problem:
    """`dotted.key=value` as an `Override`, or the `Problem` that keeps it from being one."""
    key_text, equals, value_text = text.partition("=")
    key_text, value_text = key_text.strip(), value_text.strip()
    if not equals or not _DOTTED_KEY.fullmatch(key_text):
        return Problem((), "a setting is written KEY=VALUE, like scheduler.hz=30", text)
    key = tuple(key_text.split("."))
    if len(key) > MAX_NESTING:
        return Problem((), f"a key of more than {MAX_NESTING} parts (the limit)", key_text)
    if not value_text:
        return Problem(key, "needs a value after =")
    beyond = text_problem(value_text)
    if beyond is not None:
        return Problem(key, f"refused: {beyond[1]}")
    try:
        parsed = tomllib.loads(f"value = {value_text}")
    except tomllib.TOMLDecodeError as problem:
        if _BARE_WORD.fullmatch(value_text):
            return Override(key, value_text)
        return Problem(key, f"not a valid TOML value: {problem}", value_text)
    if list(parsed) != ["value"]:  # the text smuggled in more keys or tables
        return Problem(key, "must be a single TOML value", value_text)
    too_much = data_problem(parsed)
    if too_much is not None:
        return Problem(key, too_much.message)
    return Override(key, parsed["value"])


def apply_overrides(
    data: Mapping[str, Any], overrides: Iterable[Override]
) -> tuple[dict[str, Any], list[Problem]]:
    """A copy of `data` with each override set in turn (the last one wins).

    An override that would have to replace a value with a table, such as `scheduler.hz=30`
    when the file says `scheduler = 5`, is reported rather than applied, so the file's own
    mistake is not hidden.
    """
    merged = _copy_tables(data)
    problems: list[Problem] = []
    for override in overrides:
        table = merged
        for depth, part in enumerate(override.key[:-1]):
            inner = table.setdefault(part, {})
            if not isinstance(inner, dict):
                parent = ".".join(override.key[: depth + 1])
                problems.append(
                    Problem(override.key, f"cannot be set: {parent} is not a section", inner)
                )
                break
            table = inner
        else:
            table[override.key[-1]] = override.value
    return merged, problems


def _copy_tables(data: Mapping[str, Any]) -> dict[str, Any]:
    return {
        key: _copy_tables(value) if isinstance(value, dict) else value
        for key, value in data.items()
    }
