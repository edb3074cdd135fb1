"""Time's units: whole nanoseconds, and exact fractions of them.

Time travels through a fixed-step loop as integer nanoseconds (`time.perf_counter_ns()` gives
one). A quantity that is not a whole number of nanoseconds (a 1/60 s step is 16,666,666 2/3 ns)
is an exact `Fraction`, never a float: a float accumulator drifts after a few thousand frames,
an exact one never does.
"""

from __future__ import annotations

from fractions import Fraction

NS_PER_SECOND = 1_000_000_000
NS_PER_MS = 1_000_000


def hz_to_step_ns(hz: Fraction | int) -> Fraction:
    """The exact length of one step at `hz` ticks per second, in nanoseconds
    (`hz_to_step_ns(60)` is 50,000,000/3: not 16 ms, not 16.666 ms)."""
    return Fraction(NS_PER_SECOND) / Fraction(hz)


def round_ns(value: Fraction | int) -> int:
    """Round exact nanoseconds to the nearest integer, halves away from zero.

    For showing and writing down only: the books themselves stay exact. (An int and a
    `Fraction` both have a numerator and a denominator: read as they are, with no `Fraction`
    made.)
    """
    numerator, denominator = value.numerator, value.denominator
    rounded = (abs(numerator) * 2 + denominator) // (2 * denominator)
    return rounded if numerator >= 0 else -rounded
