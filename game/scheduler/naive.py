"""The naive float accumulator: the loop most tutorials show, kept as the baseline.

It is what `FixedStepScheduler` is measured against, for speed (`make bench`) and for exactness
(the tests): after 10,000 frames of 100 ms at 50 Hz it has run 49,999 ticks instead of 50,000,
because 0.1 and 0.02 are not binary fractions and the error of every subtraction accumulates.
"""

from __future__ import annotations


class NaiveFloatAccumulator:
    """Seconds in a float; subtract the step while the accumulator holds one; cap at M."""

    def __init__(self, step_seconds: float, max_steps: int | None = None) -> None:
        self.step = step_seconds
        self.max_steps = max_steps
        self.accumulator = 0.0

    def steps_for(self, elapsed_seconds: float) -> int:
        """Add a frame; return how many steps it runs."""
        self.accumulator += elapsed_seconds
        steps = 0
        while self.accumulator >= self.step and (self.max_steps is None or steps < self.max_steps):
            self.accumulator -= self.step
            steps += 1
        return steps
