"""`decimal_ns`: a capture's cell, "16.66670000000000" ms or "0.0123456789" s, as whole ns exactly.

Capture tools write times as decimals: PresentMon 1.x with 14 places, PresentMon 2.x with 4,
MangoHud as C++ prints a float, CapFrameX as .NET prints a double. Read as binary floats they
would each be a little off, and a million of them summed would drift; read as the decimal they
are, they are exact, and only the part beyond the nanosecond is rounded (half to even, as
`round` does). The digits are read with integer arithmetic, no `Fraction` on the common path: a
million-row capture holds several million cells.
"""

from __future__ import annotations

import re
from typing import Final

from game.limits import MAX_DIGITS

MS: Final = 6
"""The unit of a cell written in milliseconds, as a power of ten of nanoseconds (1 ms = 10^6 ns)."""
US: Final = 3
"""Microseconds (old MangoHud logs)."""
SECONDS: Final = 9
"""Seconds (`TimeInSeconds`)."""
NS: Final = 0
"""Nanoseconds (MangoHud's `elapsed`)."""

MISSING: Final = frozenset({"", "NA"})
"""Cells that say "no value": PresentMon writes `NA` where a metric does not apply (a frame
never displayed has no display time), and a cut or hand-edited file leaves cells empty."""

_POWERS: Final[tuple[int, ...]] = tuple(10**power for power in range(2 * MAX_DIGITS + 20))
# Anything a tool might write that is not a plain digits-and-point decimal: a sign, an exponent
# ("-1.8e15", "1E-05"), digits on one side of the point only. ASCII digits only.
_GENERAL: Final = re.compile(r"([+-]?)([0-9]*)(?:\.([0-9]*))?(?:[eE]([+-]?[0-9]{1,4}))?")


def decimal_ns(text: str, unit: int) -> int:
    """The decimal `text`, in units of 10^`unit` ns, as whole nanoseconds; ValueError if it is
    not a number ("NA", "nan", "1,5", "٣"): `decimal_ns("16.6667", MS) == 16_666_700`.
    """
    point = text.find(".")
    if point < 0:
        digits = text
        places = 0
    else:
        digits = text[:point] + text[point + 1 :]
        places = len(text) - point - 1
    if digits.isdigit() and digits.isascii() and point != 0 and len(digits) <= MAX_DIGITS:
        return _scaled(int(digits), unit - places)
    return _general(text, unit)


def _scaled(whole: int, shift: int) -> int:
    """`whole` x 10^shift ns, rounded half to even to whole ns when `shift` is negative."""
    if shift >= 0:
        return whole * _POWERS[shift]
    divisor = _POWERS[-shift]
    quotient, remainder = divmod(whole, divisor)
    twice = remainder * 2
    if twice > divisor or (twice == divisor and quotient & 1):
        quotient += 1
    return quotient


def _general(text: str, unit: int) -> int:
    """Signs, exponents and points at either end: rare in captures, so read by a regex."""
    match = _GENERAL.fullmatch(text)
    if match is None:
        raise ValueError(f"not a number: {text[:40]!r}")
    sign, before, after, exponent = match.groups()
    digits = before + (after or "")
    if not digits or len(digits) > MAX_DIGITS:
        raise ValueError(f"not a number: {text[:40]!r}")
    shift = unit - len(after or "") + int(exponent or 0)
    if -shift > len(digits) + 1:
        return 0  # under a tenth of a nanosecond: rounds to 0 whatever the digits
    if shift >= len(_POWERS):
        raise ValueError(f"out of range: {text[:40]!r}")
    magnitude = _scaled(int(digits), shift)
    return -magnitude if sign == "-" else magnitude
