"""The same error lines for any TOML file read into any strict model (scenarios, lessons)."""

from fractions import Fraction
from pathlib import Path
from typing import Annotated, Self

import pytest
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from game.config.exact import exact_number
from game.config.problems import SettingError, problems_from_validation_error
from game.config.toml_files import TomlArray, load_toml_model
from game.errors import BadInput


class Change(BaseModel):
    """A timed change, like the ones a scenario file lists as [[changes]] tables."""

    model_config = ConfigDict(strict=True, frozen=True, extra="forbid")

    at_s: Annotated[Fraction, exact_number(at_least=0, at_most=600)]
    policy: str


class Scenario(BaseModel):
    model_config = ConfigDict(strict=True, frozen=True, extra="forbid")

    name: str
    seconds: Annotated[int, Field(ge=1)] = 10
    changes: TomlArray[Change] = ()

    @model_validator(mode="after")
    def _changes_happen_in_time(self) -> Self:
        for change in self.changes:
            if change.at_s > self.seconds:
                raise SettingError(
                    "changes",
                    f"must all happen within the {self.seconds} s run",
                    change.at_s,
                    involves=("seconds",),
                )
        return self


def refused(path: Path, text: str) -> tuple[str, ...]:
    path.write_text(text, encoding="utf-8")
    with pytest.raises(BadInput) as problem:
        load_toml_model(path, Scenario)
    return problem.value.lines


def test_a_valid_file_loads_into_the_model(tmp_path: Path) -> None:
    path = tmp_path / "stall.toml"
    path.write_text('name = "stall"\n[[changes]]\nat_s = 1.5\npolicy = "drop"\n')
    assert load_toml_model(path, Scenario) == Scenario(
        name="stall", changes=(Change(at_s=Fraction(3, 2), policy="drop"),)
    )


def test_a_missing_setting_is_required_and_shows_no_value(tmp_path: Path) -> None:
    path = tmp_path / "nameless.toml"
    assert refused(path, "seconds = 5\n") == (f"{path}: [name] is required",)


def test_items_of_a_list_are_counted_from_one(tmp_path: Path) -> None:
    path = tmp_path / "changes.toml"
    text = (
        'name = "x"\n'
        '[[changes]]\nat_s = 1\npolicy = "drop"\n'
        '[[changes]]\nat_s = -1\npolicy = "drop"\n'
        "[[changes]]\nat_s = 2\n"
    )
    assert refused(path, text) == (
        f"{path}: [changes[2].at_s] must be at least 0 (got -1)",
        f"{path}: [changes[3].policy] is required",
    )


def test_a_model_check_names_the_key_it_blames(tmp_path: Path) -> None:
    path = tmp_path / "late.toml"
    text = 'name = "x"\nseconds = 2\n[[changes]]\nat_s = 2.5\npolicy = "drop"\n'
    assert refused(path, text) == (
        f"{path}: [changes] must all happen within the 2 s run (got 2.5)",
    )


def test_the_formatter_works_on_any_validation_error() -> None:
    with pytest.raises(ValidationError) as error:
        Scenario.model_validate({"name": 3, "seconds": 0, "extra": [1, "two", True]})
    assert problems_from_validation_error("lesson 4", error.value) == [
        "lesson 4: [name] must be text in quotes (got 3)",
        "lesson 4: [seconds] must be at least 1 (got 0)",
        "lesson 4: [extra] unknown setting (got [1, 'two', true])",
    ]


def test_an_array_must_be_an_array(tmp_path: Path) -> None:
    path = tmp_path / "flat.toml"
    assert refused(path, 'name = "x"\nchanges = "none"\n') == (
        f"{path}: [changes] must be a list (got 'none')",
    )


def test_a_long_value_is_cut_short(tmp_path: Path) -> None:
    path = tmp_path / "long.toml"
    assert refused(path, f'name = "x"\nnotes = "{"a" * 100}"\n') == (
        f"{path}: [notes] unknown setting (got '{'a' * 56}...)",
    )
