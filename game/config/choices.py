"""Settings that take one of a few values, and the one way their messages list them.

A `Literal` covers fixed words ("off", "interpolate", "extrapolate"). It does not cover numbers,
because `Literal[0, 30]` also takes `False`, nor names read from a registry at run time, such
as the scheduler's policies; `one_of` does. Both kinds of message read the same:
"must be 'correct' or 'naive'", "must be one of 0, 30, 60, 144 or 240".
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def choices_text(choices: tuple[object, ...]) -> str:
    """`'a', 'b' or 'c'`: the way pydantic lists a Literal's choices, so all messages agree."""
    shown = [repr(choice) for choice in choices]
    if len(shown) == 1:
        return shown[0]
    return f"{', '.join(shown[:-1])} or {shown[-1]}"


def must_be_one_of(choices: str) -> str:
    """ "must be 'a' or 'b'", or "must be one of 'a', 'b' or 'c'" for a longer list."""
    return f"must be one of {choices}" if "," in choices else f"must be {choices}"


def one_of(*choices: T) -> Callable[[T], T]:
    """An after-validator keeping a value only if it is one of `choices`."""

    def validate(value: T) -> T:
        if value not in choices:
            raise ValueError(must_be_one_of(choices_text(choices)))
        return value

    return validate
