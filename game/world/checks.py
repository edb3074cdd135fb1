"""Checks shared by settings and orders: one clear sentence per refusal.

Every value that enters the world passes through one of these, so a NaN velocity, a bool where a
tick belongs, or a negative mass is refused with its name in the message, before anything moves.
"""

from __future__ import annotations

import math


def finite_number(value: object, name: str) -> float:
    """A real, finite number (int or float, not a bool), returned as a float."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError(f"{name} must be a number, not {type(value).__name__} (got {value!r})")
    number = float(value)
    if not math.isfinite(number):
        raise ValueError(f"{name} must be finite (got {value!r})")
    return number


def positive_number(value: object, name: str) -> float:
    """A finite number greater than zero."""
    number = finite_number(value, name)
    if number <= 0:
        raise ValueError(f"{name} must be greater than 0 (got {value!r})")
    return number


def non_negative_number(value: object, name: str) -> float:
    """A finite number at least zero."""
    number = finite_number(value, name)
    if number < 0:
        raise ValueError(f"{name} must not be negative (got {value!r})")
    return number


def whole_number(value: object, name: str, *, minimum: int = 0) -> int:
    """A plain int (not a bool, not a float) of at least `minimum`."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int, not {type(value).__name__} (got {value!r})")
    if value < minimum:
        raise ValueError(f"{name} must be at least {minimum} (got {value})")
    return value


def number_pair(value: object, name: str) -> tuple[float, float]:
    """Two finite numbers, such as an (x, y) offset, returned as a tuple of floats."""
    if not isinstance(value, tuple | list) or len(value) != 2:
        raise TypeError(f"{name} must be a pair of numbers (x, y) (got {value!r})")
    return finite_number(value[0], f"{name}[0]"), finite_number(value[1], f"{name}[1]")
