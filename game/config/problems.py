"""Pydantic's error list as one short line per problem: `FILE: [key] message (got VALUE)`.

A workshop audience reads these lines, so pydantic's own wording ("Input should be a valid
integer", documentation URLs) never reaches them. Each pydantic error becomes a `Problem`: the
key it is about, a short message in the game's words and the value as the user wrote it,
rendered the way TOML writes it (`true`, `'red'`, `16.7`). The same machinery serves every
TOML file the game reads: the configuration, and the scenario and lesson files.

A check that involves two settings (a max frame shorter than one step) runs after both are
read, on the whole section, where pydantic would only know the section's name. Such a check
raises `SettingError`, which names the key it is about, so its line does too.
"""

from __future__ import annotations

import difflib
import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Final

from pydantic import BaseModel, ValidationError
from pydantic_core import ErrorDetails

from game.config.choices import must_be_one_of
from game.config.exact import decimal_text

Key = tuple[str | int, ...]
"""Where a value sits in a file: ("scheduler", "max_steps"), or ("changes", 0, "at") in a list."""

NOTHING: Final = object()
"""The value of a problem that has none to show, such as a missing setting."""

_LONGEST_VALUE = 60


class SettingError(ValueError):
    """A failed check on several settings, raised by a model validator, naming its key.

    `key` is the setting to blame, relative to the model that raises it; `involves` lists the
    other settings the check read, so a caller can tell where each came from.
    """

    def __init__(
        self, key: str, message: str, got: object, *, involves: Sequence[str] = ()
    ) -> None:
        super().__init__(message)
        self.key = key
        self.message = message
        self.got = got
        self.involves = tuple(involves)


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with an input, ready to be printed as one line."""

    key: Key
    message: str
    got: object = NOTHING
    involves: tuple[Key, ...] = ()
    """Other keys whose values caused the problem (from a `SettingError`)."""

    def line(self, label: str) -> str:
        """`label: [dotted.key] message (got VALUE)`; the key and the value only when known."""
        where = f" [{_cut(dotted(self.key))}]" if self.key else ""
        got = "" if self.got is NOTHING else f" (got {render(self.got)})"
        return f"{label}:{where} {self.message}{got}"


def dotted(key: Key) -> str:
    """("scheduler", "hz") -> "scheduler.hz"; list items count from 1, as a reader counts them."""
    text = ""
    for part in key:
        if isinstance(part, int):
            text += f"[{part + 1}]"
        else:
            text += f".{_key(part)}" if text else _key(part)
    return text


_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


def _key(name: str) -> str:
    """A key as TOML would need it written: bare when it can be, else quoted, so that a key
    holding a line break or a dot cannot break the line or pass for two keys."""
    return name if _BARE_KEY.fullmatch(name) else repr(name)


def render(value: object) -> str:
    """A value the way it is written in TOML, cut short when long: `true`, `'red'`, `16.7`."""
    return _cut(_toml(value))


def _cut(text: str) -> str:
    """`text` cut short when long: a line names what is wrong, it does not reprint the file."""
    if len(text) > _LONGEST_VALUE:
        return text[: _LONGEST_VALUE - 3] + "..."
    return text


def _toml(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and not math.isfinite(value):
        return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")
    if isinstance(value, Fraction):
        return decimal_text(value)
    if isinstance(value, dict):
        return (
            "{"
            + ", ".join(f"{_key(str(key))} = {_toml(item)}" for key, item in value.items())
            + "}"
        )
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml(item) for item in value) + "]"
    if isinstance(value, str | int | float):
        return repr(value)
    return str(value)


def problems_from_validation_error(
    label: str, error: ValidationError, model_type: type[BaseModel] | None = None
) -> list[str]:
    """One line per problem in `error`, each starting with `label` (usually the file name).

    Pass the `model_type` that was validated to have unknown keys suggest the known key a typo
    was probably meant to be.
    """
    return [problem.line(label) for problem in problems_in(error, model_type)]


def problems_in(error: ValidationError, model_type: type[BaseModel] | None = None) -> list[Problem]:
    """The `Problem`s in a pydantic `ValidationError`, in the order pydantic found them."""
    return [_problem(details, model_type) for details in error.errors(include_url=False)]


def _problem(details: ErrorDetails, model_type: type[BaseModel] | None) -> Problem:
    key: Key = tuple(details["loc"])
    ctx = details.get("ctx", {})
    cause = ctx.get("error")
    if isinstance(cause, SettingError):
        return Problem(
            (*key, cause.key),
            cause.message,
            cause.got,
            tuple((*key, name) for name in cause.involves),
        )
    got = NOTHING if details["type"] == "missing" else details["input"]
    return Problem(key, _message(details, model_type), got)


_MESSAGES: Final = {
    "missing": "is required",
    "int_type": "must be a whole number",
    "bool_type": "must be true or false",
    "string_type": "must be text in quotes",
    "float_type": "must be a number",
    "finite_number": "must be a finite number",
    "model_type": "must be a section (a [table])",
    "dict_type": "must be a section (a [table])",
    "list_type": "must be a list",
    "tuple_type": "must be a list",
    "greater_than_equal": "must be at least {ge}",
    "greater_than": "must be more than {gt}",
    "less_than_equal": "must be at most {le}",
    "less_than": "must be less than {lt}",
    "string_too_short": "must not be empty",
    "string_too_long": "must be at most {max_length} characters",
    "too_short": "must have at least {min_length} items",
    "too_long": "must have at most {max_length} items",
}


def _message(details: ErrorDetails, model_type: type[BaseModel] | None) -> str:
    kind = details["type"]
    ctx = details.get("ctx", {})
    if kind == "extra_forbidden":
        return _unknown(tuple(details["loc"]), details["input"], model_type)
    if kind in ("value_error", "assertion_error"):
        return str(ctx["error"])
    if kind == "literal_error":
        return must_be_one_of(ctx["expected"])
    if kind == "too_short" and ctx.get("min_length") == 1:
        return "must not be empty"
    template = _MESSAGES.get(kind)
    if template is not None:
        return template.format(**{name: _bound(value) for name, value in ctx.items()})
    # An error kind no game model has met yet: keep its text, in the game's voice.
    return details["msg"].replace("Input should be", "must be", 1)


def _bound(value: object) -> object:
    """A limit as it was meant: pydantic turns `le=100` on a float field into 100.0."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def _unknown(key: Key, value: object, model_type: type[BaseModel] | None) -> str:
    what = "section" if isinstance(value, dict) else "setting"
    name = key[-1]
    known = _known_names(model_type, key[:-1])
    if isinstance(name, str):
        close = difflib.get_close_matches(name, known, n=1, cutoff=0.75)
        if close:
            return f"unknown {what}, did you mean {close[0]}?"
    return f"unknown {what}"


def _known_names(model_type: type[BaseModel] | None, key: Key) -> Iterable[str]:
    """The names a model accepts at `key`, found by walking its nested models."""
    current: Any = model_type
    for part in key:
        if not (isinstance(current, type) and issubclass(current, BaseModel)):
            return ()
        field = current.model_fields.get(part) if isinstance(part, str) else None
        if field is None:
            return ()
        current = field.annotation
    if isinstance(current, type) and issubclass(current, BaseModel):
        return tuple(current.model_fields)
    return ()
