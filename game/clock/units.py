"""Exact parsing and showing of durations and ratios, for the command line and files.

The units themselves (whole nanoseconds, exact `Fraction`s of them, never floats) are the
fixed-step core's: `timestep_lab`. What the game adds is reading what people type ("16.667"
is 16667/1000 ms exactly, "1/8" a ratio) and writing durations short for tables and the HUD.
"""

from __future__ import annotations

import re
from fractions import Fraction

from game.limits import MAX_DIGITS
from timestep_lab import NS_PER_MS

# A plain decimal number: ASCII digits, an optional point and digits. No exponent, no sign, no
# underscores, no other script's digits ("٣" is a digit to `\d` and to `int`): a workshop audience
# should be able to read every number they type.
_DECIMAL = re.compile(r"[0-9]+(\.[0-9]+)?|\.[0-9]+")
# A ratio for time scales: a decimal or "p/q" with whole p and q.
_RATIO = re.compile(r"([0-9]+) */ *([0-9]+)")


def parse_decimal(text: str, *, what: str = "number") -> Fraction:
    """Read a non-negative decimal exactly: "16.667" is 16667/1000, not a binary float."""
    cleaned = text.strip()
    if not _DECIMAL.fullmatch(cleaned):
        raise ValueError(
            f"{what} must be a non-negative decimal number like 16.667 (got {shown(text)})"
        )
    _short_enough(cleaned, text, what)
    return Fraction(cleaned)


def _short_enough(digits: str, text: str, what: str) -> None:
    if sum(character.isdigit() for character in digits) > MAX_DIGITS:
        raise ValueError(f"{what} has more than {MAX_DIGITS} digits (got {shown(text)})")


def shown(text: str) -> str:
    """`text` quoted for a message, cut short when long: a message names, it does not echo."""
    return repr(text) if len(text) <= 60 else repr(text[:57]) + "..."


def parse_ratio(text: str, *, what: str = "ratio") -> Fraction:
    """Read a ratio exactly, written as "1/8", "0.125" or "2"."""
    cleaned = text.strip()
    match = _RATIO.fullmatch(cleaned)
    if match:
        _short_enough(cleaned, text, what)
        numerator, denominator = int(match.group(1)), int(match.group(2))
        if denominator == 0:
            raise ValueError(f"{what} has a zero denominator (got {shown(text)})")
        return Fraction(numerator, denominator)
    if not _DECIMAL.fullmatch(cleaned):
        raise ValueError(
            f"{what} must be a decimal like 0.125 or a ratio like 1/8 (got {shown(text)})"
        )
    _short_enough(cleaned, text, what)
    return Fraction(cleaned)


def ms_to_ns(ms: Fraction | int) -> Fraction:
    """Milliseconds to nanoseconds, exactly."""
    return Fraction(ms) * NS_PER_MS


def parse_ms(text: str, *, what: str = "duration") -> Fraction:
    """Read a decimal number of milliseconds as exact nanoseconds."""
    return ms_to_ns(parse_decimal(text, what=f"{what} (ms)"))


def whole_ns(value: Fraction, *, what: str = "duration") -> int:
    """Return `value` as an int of nanoseconds, refusing anything finer than 1 ns."""
    if value.denominator != 1:
        raise ValueError(f"{what} must be a whole number of nanoseconds (got {float(value)} ns)")
    return value.numerator


def format_ms(ns: Fraction | int, digits: int = 3) -> str:
    """Nanoseconds as a short millisecond string for tables and the HUD. (An int division
    rounds correctly: the same float as `float(Fraction(ns) / NS_PER_MS)`, with no `Fraction`
    made, which `schedule` does three times a row.)"""
    return f"{ns.numerator / (ns.denominator * NS_PER_MS):.{digits}f}"
