"""The grid of a sweep: `--vary KEY=SPEC` axes, and one scenario per cell and policy.

    --vary load.step_cost_ms=0:40:1          from 0 to 40 in steps of 1: 41 values
    --vary scheduler.max_steps=1,2,3,5,8     exactly these values
    --vary clock.render_cost_ms=0.5:2.5:0.5  decimals are read exactly: 0.5, 1, 1.5, 2, 2.5

KEY is a dotted setting of the scenario file (`scheduler.hz`, `load.step_cost_ms`,
`clock.render_fps`, `seconds`, ...); up to `MAX_VARY_AXES` settings may vary at once. Every
cell's scenario is the scenario file with the command line's flags on top and the cell's values
on top of those, built by the same model as `simulate` and `compare` build theirs
(`SweepRecipe.scenario`), so each value is checked by it and a bad one is named as `--vary KEY`
in one line. The command checks each value, and the largest run, before anything runs; each
cell's scenario is then built in the worker that runs it, so the command holds the cells' values
and what they measured, never a million scenarios.
"""

from __future__ import annotations

import difflib
import itertools
import math
import typing
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from game import limits
from game.clock.units import parse_decimal
from game.config.exact import decimal_text
from game.config.toml_files import read_toml
from game.errors import BadInput
from game.workshop.files.scenario import Scenario
from game.workshop.files.scenario_loading import Flag, scenario_from

TIMED_KEYS = {
    "policy": ("scheduler", "policy"),
    "hz": ("scheduler", "hz"),
    "max_steps": ("scheduler", "max_steps"),
    "time_scale": ("scheduler", "time_scale"),
    "step_cost_ms": ("load", "step_cost_ms"),
    "render_fps": ("clock", "render_fps"),
    "render_cost_ms": ("clock", "render_cost_ms"),
    "conditioning": ("scheduler", "conditioning"),
}
"""The settings a scenario's `[[changes]]` can turn during a run, and where each lives."""


@dataclass(frozen=True, slots=True)
class Axis:
    """One `--vary`: a setting and the values it takes, in the order given."""

    key: tuple[str, ...]
    values: tuple[Fraction, ...]
    evenly_spaced: bool
    """A range (or a list with equal gaps): drawn on a scale of values, not of positions."""

    @property
    def name(self) -> str:
        return ".".join(self.key)

    def flag(self, value: Fraction) -> Flag:
        """The override that sets this axis to `value` (a whole number as an int, so that
        whole-number settings such as `scheduler.max_steps` take it)."""
        typed: int | Fraction = value.numerator if value.denominator == 1 else value
        return Flag(f"--vary {self.name}", self.key, typed)


@dataclass(frozen=True, slots=True)
class SweepCell:
    """One run of a sweep: the axes' values and the policy (its scenario: `SweepRecipe`)."""

    index: int
    values: tuple[Fraction, ...]
    policy: str


@dataclass(frozen=True, slots=True)
class SweepRecipe:
    """How every cell's scenario is made: the scenario file as read (its TOML data, `path` only
    naming it), the command line's flags, and the axes. Small enough to go with each job."""

    data: dict[str, Any]
    path: Path | None
    flags: tuple[Flag, ...]
    axes: tuple[Axis, ...]

    @classmethod
    def read(cls, path: Path | None, flags: Sequence[Flag], axes: Sequence[Axis]) -> SweepRecipe:
        """The recipe of the scenario file at `path` (the defaults without one), read once."""
        return cls(read_toml(path) if path is not None else {}, path, tuple(flags), tuple(axes))

    def scenario(self, cell: SweepCell) -> Scenario:
        """The cell's scenario: the file, the flags, its policy and its values on top."""
        overrides = [axis.flag(value) for axis, value in zip(self.axes, cell.values, strict=True)]
        chosen = Flag("--policies", ("scheduler", "policy"), cell.policy)
        return scenario_from(self.data, self.path, [*self.flags, chosen, *overrides])


def parse_vary(text: str) -> Axis:
    """`KEY=A:B:STEP` or `KEY=V1,V2,...` as an `Axis`; `BadInput` naming what is wrong."""
    key_text, equals, spec = (part.strip() for part in text.partition("="))
    if not equals or not key_text or not spec:
        raise BadInput.error(
            f"--vary must be KEY=A:B:STEP or KEY=V1,V2,..., like load.step_cost_ms=0:40:1 "
            f"(got {text!r})"
        )
    key = _setting(key_text)
    where = f"--vary {text}"
    try:
        values, evenly = _range(spec) if ":" in spec else _listed(spec)
    except ValueError as problem:
        raise BadInput.error(f"{where}: {problem}") from None
    if len(values) > limits.MAX_SWEEP_RUNS:
        raise BadInput.error(
            f"{where}: {len(values):,} values is too many (at most {limits.MAX_SWEEP_RUNS:,})"
        )
    return Axis(key, values, evenly)


def _range(spec: str) -> tuple[tuple[Fraction, ...], bool]:
    parts = spec.split(":")
    if len(parts) != 3:
        raise ValueError("a range is A:B:STEP, like 0:40:1")
    start, stop, step = (
        parse_decimal(part, what=name) for part, name in zip(parts, ("A", "B", "STEP"), strict=True)
    )
    if step == 0:
        raise ValueError("STEP must be more than 0")
    if stop < start:
        raise ValueError(f"the range is empty: B ({decimal_text(stop)}) is below A")
    count = math.floor((stop - start) / step) + 1
    if count > limits.MAX_SWEEP_RUNS:
        raise ValueError(f"{count:,} values is too many (at most {limits.MAX_SWEEP_RUNS:,})")
    return tuple(start + step * k for k in range(count)), True


def _listed(spec: str) -> tuple[tuple[Fraction, ...], bool]:
    texts = [part.strip() for part in spec.split(",")]
    if not all(texts):
        raise ValueError("values are numbers separated by commas, like 1,2,3,5,8")
    values = tuple(parse_decimal(part, what="each value") for part in texts)
    if len(set(values)) != len(values):
        raise ValueError("names a value twice")
    gaps = {b - a for a, b in itertools.pairwise(values)}
    return values, len(gaps) == 1 and next(iter(gaps)) > 0


def _setting(key_text: str) -> tuple[str, ...]:
    """The dotted key as a path to one setting of the scenario file, or `BadInput`."""
    key = tuple(key_text.split("."))
    model: type[BaseModel] = Scenario
    for depth, part in enumerate(key):
        fields = model.model_fields
        if depth:
            known = list(fields)
        else:  # the file's sections and its length; not its title, stalls, changes or inputs
            known = [name for name, field in fields.items() if _is_section(field.annotation)]
            known.append("seconds")
        if part not in known:
            close = difflib.get_close_matches(part, known, n=1)
            hint = f", did you mean {close[0]}?" if close else f" (known: {', '.join(known)})"
            raise BadInput.error(f"--vary {key_text}: unknown setting {part!r}{hint}")
        annotation = fields[part].annotation
        last = depth == len(key) - 1
        if last and _is_section(annotation):
            raise BadInput.error(
                f"--vary {key_text}: is a section; name one of its settings, like "
                f"{part}.{next(iter(_model(annotation).model_fields))}"
            )
        if not last:
            if not _is_section(annotation):
                raise BadInput.error(f"--vary {key_text}: {part} is a setting, not a section")
            model = _model(annotation)
    if key == ("scheduler", "policy"):
        raise BadInput.error("--vary scheduler.policy: policies are chosen with --policies")
    return key


def _is_section(annotation: object) -> bool:
    model = _optional(annotation)
    return isinstance(model, type) and issubclass(model, BaseModel)


def _model(annotation: object) -> type[BaseModel]:
    model = _optional(annotation)
    assert isinstance(model, type) and issubclass(model, BaseModel)
    return model


def _optional(annotation: object) -> object:
    """A section the file may leave out (`[network]`, `[display]`: `Section | None`) as its
    section; any other annotation as it is."""
    members = [member for member in typing.get_args(annotation) if member is not type(None)]
    return members[0] if len(members) == 1 and typing.get_args(annotation) else annotation


def check_axes(axes: Sequence[Axis], flags: Sequence[Flag], base: Scenario) -> None:
    """At most `MAX_VARY_AXES` axes, each set once, by nothing else, and left alone by the
    scenario's timed changes (a change would overwrite the value mid-run, and the map would lie)."""
    if len(axes) > limits.MAX_VARY_AXES:
        raise BadInput.error(
            f"--vary is given {len(axes)} times; at most {limits.MAX_VARY_AXES} settings vary "
            "at once"
        )
    names = [axis.name for axis in axes]
    for name in names:
        if names.count(name) > 1:
            raise BadInput.error(f"--vary {name} is given twice")
    for axis in axes:
        for flag in flags:
            if flag.key == axis.key:
                raise BadInput.error(f"--vary {axis.name}: {flag.flag} sets it too; give one")
        for change in base.changes:
            for field, key in TIMED_KEYS.items():
                if key == axis.key and getattr(change, field) is not None:
                    raise BadInput.error(
                        f"--vary {axis.name}: the scenario changes it at "
                        f"{decimal_text(change.at)} s, so every run would end on the same "
                        "value; give a scenario without that change"
                    )


def cells(recipe: SweepRecipe, policies: Sequence[str]) -> list[SweepCell]:
    """Every run of the sweep, policy by policy, then the first axis, then the next ones.

    Each axis's values are checked one at a time first, so a bad value is reported on its own;
    then, for each policy, the cell of every axis's largest value (the run that simulates and
    draws the most: a step, a frame rate, a length only grow with their setting), so a sweep
    whose largest run is beyond a run's limits is refused before anything runs.
    """
    for axis in recipe.axes:
        for value in axis.values:
            scenario_from(recipe.data, recipe.path, [*recipe.flags, axis.flag(value)])
    grid = list(itertools.product(*(axis.values for axis in recipe.axes)))
    if len(grid) * len(policies) > limits.MAX_SWEEP_RUNS:
        raise BadInput.error(
            f"--vary: {len(grid) * len(policies):,} runs is too many (at most "
            f"{limits.MAX_SWEEP_RUNS:,})"
        )
    largest = tuple(max(axis.values) for axis in recipe.axes)
    for policy in policies:
        recipe.scenario(SweepCell(0, largest, policy))
    made = [
        SweepCell(index, values, policy)
        for index, (policy, values) in enumerate(itertools.product(policies, grid))
    ]
    return made
