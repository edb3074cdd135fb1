"""Pydantic fields read off the knob table (`game.knobs`), so that no model spells a knob again.

`field_type(knob)` is the strict, validated type of a knob's value: an exact `Fraction` within
its range, an integer or a float within its range, one of its choices, a switch. Two decorators
put those fields on a model that declares only what is its own (its docstring, checks across
fields, properties):

    @with_section("scheduler")       # every knob of [scheduler], with its default
    class SchedulerSection(Section): ...

    @with_knobs(Where.CHANGE)         # every knob a scenario change may turn, None by default
    class ChangeEntry(Section): ...

The decorator returns a subclass that holds the fields (`pydantic.create_model`); a type checker
sees the class as written, and `Section` tells it that a knob's attribute exists.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction
from typing import Annotated, Any, TypeVar

from pydantic import AfterValidator, BaseModel, Field, create_model

from game.config.choices import one_of
from game.config.exact import exact_number
from game.knobs import KNOBS, Knob, Where, knobs_of, knobs_where

M = TypeVar("M", bound=BaseModel)


def field_type(knob: Knob) -> Any:
    """The type a config file's value must have for `knob`, with its checks attached."""
    kind, bounds = knob.kind, knob.range
    checks = () if knob.check is None else (AfterValidator(knob.check),)
    if knob.choices:
        return Annotated[kind, AfterValidator(one_of(*knob.choices))]
    if kind is Fraction:
        assert bounds is not None and bounds.at_most is not None, knob.path
        return Annotated[
            Fraction,
            exact_number(
                at_least=bounds.at_least,
                more_than=bounds.more_than,
                at_most=bounds.at_most,
                ratios=bounds.ratios,
                example=bounds.example,
            ),
            *checks,
        ]
    limits: dict[str, Any] = {}
    if bounds is not None:
        limits = {"ge": bounds.at_least, "le": bounds.at_most}
    if kind is float:
        limits["allow_inf_nan"] = False
    if knob.min_length:
        limits["min_length"] = knob.min_length
    if not limits and not checks:
        return kind
    return Annotated[kind, Field(**limits), *checks]


def _fields(knobs: Iterable[Knob], optional: bool) -> dict[str, Any]:
    if optional:
        return {
            knob.short: (field_type(knob) | None, Field(None, description=knob.about))
            for knob in knobs
        }
    return {
        knob.key: (field_type(knob), Field(knob.default, description=knob.about)) for knob in knobs
    }


def _derived(model: type[M], fields: dict[str, Any]) -> type[M]:
    derived = create_model(
        model.__name__,
        __base__=model,
        __module__=model.__module__,
        __doc__=model.__doc__,
        **fields,
    )
    derived.__qualname__ = model.__qualname__
    return derived


def with_section(section: str, knobs: Sequence[Knob] = KNOBS) -> Callable[[type[M]], type[M]]:
    """The model with a field for every knob of `[section]` in `knobs`, at its default."""
    return lambda model: _derived(model, _fields(knobs_of(section, knobs), optional=False))


def with_knobs(where: Where) -> Callable[[type[M]], type[M]]:
    """The model with an optional field (None: not set) for every knob settable `where`, under
    the knob's short name (`input_model`, not `input.model`)."""
    return lambda model: _derived(model, _fields(knobs_where(where), optional=True))
