"""Exact numbers in configuration files: tick rates, milliseconds and time scales.

Time never travels as a float in this game (see `game.clock.units`), and that starts where the
numbers are typed. A setting that ends up in the time path is read into an exact `Fraction`
from any of the ways a person writes a number in TOML:

- an integer: `max_frame_ms = 250`;
- a decimal or ratio in a string: `hz = "59.94"`, `time_scale = "1/8"`;
- a TOML float: `max_frame_ms = 16.7`. `tomllib` hands it over as the binary float
  16.699999999999999289..., but its shortest repr, "16.7", is exactly the decimal the user
  wrote, so `Fraction(repr(value))` recovers 167/10 and nothing of the binary approximation
  survives.

Code may also pass a `Fraction`. Booleans, NaN, infinities and anything else are refused with
a short message; the bounds are checked on the exact value, so "at most 40" means 40 and not
40.000000000000001.
"""

from __future__ import annotations

import math
from fractions import Fraction

from pydantic import PlainValidator

from game.clock.units import parse_decimal, parse_ratio


def decimal_text(value: Fraction) -> str:
    """`value` as the decimal a person would type: 1/10 is "0.1"; 50/3 has none, so "50/3"."""
    rest = value.denominator
    for prime in (2, 5):
        while rest % prime == 0:
            rest //= prime
    if rest != 1:
        return f"{value.numerator}/{value.denominator}"
    places = 0
    while (value * 10**places).denominator != 1:
        places += 1
    digits = f"{abs(value.numerator) * 10**places // value.denominator:0{places + 1}d}"
    sign = "-" if value < 0 else ""
    if places == 0:
        return sign + digits
    return f"{sign}{digits[:-places]}.{digits[-places:]}"


def _read(value: object, *, ratios: bool, example: str) -> Fraction:
    """The exact value of an int, a decimal (or ratio) string, a TOML float or a Fraction."""
    if isinstance(value, bool):
        raise ValueError(f"must be a number like {example}")
    if isinstance(value, int | Fraction):
        return Fraction(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError("must be a finite number")
        return Fraction(repr(value))
    if isinstance(value, str):
        text = value.strip()
        negative = text.startswith("-")
        parse = parse_ratio if ratios else parse_decimal
        try:
            magnitude = parse(text[1:] if negative else text)
        except ValueError:
            raise ValueError(f"must be a number like {example}") from None
        return -magnitude if negative else magnitude
    raise ValueError(f"must be a number like {example}")


def exact_number(
    *,
    at_least: Fraction | int | None = None,
    more_than: Fraction | int | None = None,
    at_most: Fraction | int,
    ratios: bool = False,
    example: str = "16.7",
) -> PlainValidator:
    """A pydantic validator reading an exact `Fraction` within the given bounds.

    Use it as `Annotated[Fraction, exact_number(at_least=0, at_most=40)]`. `ratios` also
    accepts "p/q" strings; `example` is shown to a user who typed something else.
    """

    def validate(value: object) -> Fraction:
        exact = _read(value, ratios=ratios, example=example)
        if at_least is not None and exact < at_least:
            raise ValueError(f"must be at least {decimal_text(Fraction(at_least))}")
        if more_than is not None and exact <= more_than:
            raise ValueError(f"must be more than {decimal_text(Fraction(more_than))}")
        if exact > at_most:
            raise ValueError(f"must be at most {decimal_text(Fraction(at_most))}")
        return exact

    return PlainValidator(validate)
