"""Small helpers shared by the tests: exact milliseconds and a scheduler factory."""

from __future__ import annotations

from fractions import Fraction

from game.scheduler.scheduler import FixedStepScheduler
from game.scheduler.settings import SchedulerSettings


def ms(value: int | str) -> int:
    """Whole nanoseconds from milliseconds, exactly (`ms("16.667")` is 16_667_000)."""
    exact = Fraction(str(value)) * 1_000_000
    assert exact.denominator == 1
    return exact.numerator


def scheduler(
    *, step_ms: int | str = 20, initial_ms: int | str = 0, **settings: object
) -> FixedStepScheduler:
    """A scheduler with a step in ms (20 ms by default: round numbers, as in docs/references.md)."""
    values = SchedulerSettings(step_ns=Fraction(ms(step_ms)), **settings)  # type: ignore[arg-type]
    return FixedStepScheduler(values, initial_remainder_ns=ms(initial_ms))
