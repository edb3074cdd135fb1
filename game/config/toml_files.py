"""Reading a TOML file into a validated model, or into one clear line per problem.

The configuration, the scenarios and the lessons are all TOML files checked against a pydantic
model, and all fail the same way: `BadInput` with lines such as

    configs/bad.toml: file not found
    configs/bad.toml: not valid TOML: Invalid value (at line 3, column 14)
    configs/bad.toml: refused at line 2: a number with more than 100 digits (the limit)
    configs/bad.toml: [scheduler.max_steps] must be at least 1 (got 0)

so a user who mistypes any of them learns what to fix, and no traceback is ever printed.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Annotated, Any, TypeVar

from pydantic import BaseModel, BeforeValidator, ValidationError

from game.config.problems import problems_from_validation_error
from game.config.toml_limits import data_problem, text_problem
from game.errors import BadInput
from game.file_reading import read_text

Model = TypeVar("Model", bound=BaseModel)
Item = TypeVar("Item")


def _list_as_tuple(value: object) -> object:
    return tuple(value) if isinstance(value, list) else value


TomlArray = Annotated[tuple[Item, ...], BeforeValidator(_list_as_tuple)]
"""A TOML array kept in a frozen model: `changes: TomlArray[Change] = ()`.

TOML arrays arrive as lists, and a strict model takes only a tuple for a tuple field; this
turns the list into a tuple first and still refuses anything that is not an array.
"""


def read_toml(path: Path) -> dict[str, Any]:
    """The tables of a TOML file; `BadInput` if it cannot be read, is not TOML or goes past a
    limit (size, nesting, digits: see `game.limits`)."""
    return parse_toml(read_text(path, "a TOML file"), str(path))


def parse_toml(text: str, label: str) -> dict[str, Any]:
    """The tables of a TOML text; `BadInput` with one line starting with `label` if not."""
    beyond = text_problem(text)
    if beyond is not None:
        line, what = beyond
        raise BadInput(f"{label}: refused at line {line}: {what}")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as problem:
        raise BadInput(f"{label}: not valid TOML: {problem}") from None
    too_much = data_problem(data)
    if too_much is not None:
        raise BadInput(too_much.line(label))
    return data


def validate_model(model_type: type[Model], data: dict[str, Any], label: str) -> Model:
    """`data` as a `model_type`; `BadInput` with one `label: [key] ...` line per problem."""
    try:
        return model_type.model_validate(data)
    except ValidationError as error:
        raise BadInput(*problems_from_validation_error(label, error, model_type)) from None


def load_toml_model(path: Path, model_type: type[Model]) -> Model:
    """Read the TOML file at `path` as a `model_type`, or raise `BadInput` saying why not."""
    return validate_model(model_type, read_toml(path), str(path))
