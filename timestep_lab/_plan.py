"""`StepPlan`: the scheduler's answer for one frame, made of three named parts.

It says how many fixed ticks the caller must run now, how long each is, how much time was
dropped, what is carried to the next frame, and the alpha to draw with. It carries its own books
so that anyone can check, exactly, that the frame balanced. The parts:

- `ledger` (`Ledger`): where the frame's time went, in the scheduler's grains,

      carried_in + scaled + granted == steps * dt + dropped + carried_out

  where `scaled` is the *counted* wall time times the time scale, and `granted` the one step
  handed out by a single-step key while paused;
- `account` (`ConditioningAccount`): delta-time conditioning's books (`CONDITIONERS`), in
  whole ns, which balance too:

      carry_in + measured == counted + carry_out

- `indicators` (`Indicators`): the overload light, this frame's strain, and pause.

Every duration a plan hands out is exact nanoseconds, named `*_ns` (an `int` for the wall time,
a `Fraction` for the rest: 1/60 s is 50,000,000/3 ns). Inside, the scheduler counts in whole
*grains* of 1/D ns, so that its sums are integer sums. The ledger keeps those grains, for the
scheduler package (the books, `settle`); every other reader takes the plan's `*_ns` properties,
and no caller ever divides by a grain.

Each part, and the plan, is a NamedTuple: a plan is made every frame, and a tuple is the
cheapest value Python builds (BENCHMARKS.md, "Why the code looks like this").
"""

from __future__ import annotations

from fractions import Fraction
from typing import NamedTuple


class Ledger(NamedTuple):
    """Where one frame's time went, in grains of 1/`grains_per_ns` ns. The fields up to
    `carried_out` are the terms of its equation, in the order they appear in it:

        carried_in + scaled + granted == steps * dt + dropped + carried_out
    """

    carried_in: int
    """Carried in from the previous frame: its backlog and its remainder."""
    scaled: int
    """The counted wall time after the time scale; 0 while paused."""
    granted: int
    """One step granted by a single step while paused; 0 otherwise."""
    steps: int
    """Fixed ticks to run now."""
    dt: int
    """The length of each of them: the step, but under `variable`."""
    dropped: int
    """Thrown away by the overload policy. Never hidden."""
    carried_out: int
    """Carried to the next frame: whole backlog steps and a sub-step remainder."""
    step: int
    """The fixed step h in force."""
    sim_time: int
    """Simulated time since the start, after this frame's steps."""
    grains_per_ns: int
    """The unit of every other field: one grain is 1/`grains_per_ns` of a nanosecond."""

    @property
    def backlog_steps(self) -> int:
        """Whole steps owed and carried to later frames (only the `backlog` policy keeps them)."""
        return self.carried_out // self.step

    @property
    def remainder(self) -> int:
        """The sub-step part of what is carried; alpha is made from it."""
        return self.carried_out % self.step

    @property
    def balances(self) -> bool:
        """What came in equals what was stepped, dropped and carried, to the grain."""
        came_in = self.carried_in + self.scaled + self.granted
        return came_in == self.steps * self.dt + self.dropped + self.carried_out

    def handed_back(self, unrun: int) -> Ledger:
        """These books once `unrun` of the steps were not run after all: never simulated, their
        time is carried to the next frame instead."""
        return self._replace(
            steps=self.steps - unrun,
            carried_out=self.carried_out + unrun * self.dt,
            sim_time=self.sim_time - unrun * self.dt,
        )


class ConditioningAccount(NamedTuple):
    """Delta-time conditioning's books for one frame, in whole ns: measured time held back (or
    counted ahead) is kept here, never made or lost."""

    carry_in_ns: int
    """The account before the frame: measured time not yet counted (negative: counted ahead)."""
    measured_ns: int
    """The wall time measured this frame; 0 while paused (paused time is not simulated)."""
    counted_ns: int
    """What the scheduler counted of it, after conditioning."""
    carry_out_ns: int
    """The account after the frame."""

    @property
    def balances(self) -> bool:
        return self.carry_in_ns + self.measured_ns == self.counted_ns + self.carry_out_ns


class Indicators(NamedTuple):
    """The lights after one frame."""

    overloaded: bool
    """The overload indicator, with hysteresis (`OverloadState`)."""
    strained: bool
    """This frame alone wanted more than M steps, or dropped time (no hysteresis)."""
    paused: bool
    """The simulation is paused: wall time counts as paused, not simulated."""


INDICATORS = {
    (overloaded, strained, paused): Indicators(overloaded, strained, paused)
    for overloaded in (False, True)
    for strained in (False, True)
    for paused in (False, True)
}
"""Every combination of the lights, made once: a plan takes one of these eight values."""


class StepPlan(NamedTuple):
    """One frame's plan: an immutable value. The scheduler builds it; everyone else reads the
    parts, or the properties below that read them in exact nanoseconds."""

    alpha: float
    """Where to draw between the previous and the current state. The only float in the path."""
    tick: int
    """Ticks run since the start, after this frame's steps."""
    elapsed_ns: int
    """Wall time handed in for this frame."""
    ledger: Ledger
    account: ConditioningAccount
    indicators: Indicators

    def __repr__(self) -> str:
        return (
            f"StepPlan(steps={self.steps}, dt_ns={self.dt_ns}, dropped_ns={self.dropped_ns}, "
            f"remainder_ns={self.remainder_ns}, backlog_steps={self.backlog_steps}, "
            f"alpha={self.alpha}, tick={self.tick}, elapsed_ns={self.elapsed_ns})"
        )

    # -- the parts' values most readers want -----------------------------------------------------

    @property
    def steps(self) -> int:
        """Fixed ticks to run now."""
        return self.ledger.steps

    @property
    def backlog_steps(self) -> int:
        """Whole steps owed and carried to later frames (only the `backlog` policy keeps them)."""
        return self.ledger.backlog_steps

    @property
    def overloaded(self) -> bool:
        return self.indicators.overloaded

    @property
    def strained(self) -> bool:
        return self.indicators.strained

    @property
    def paused(self) -> bool:
        return self.indicators.paused

    @property
    def counted_ns(self) -> int:
        """The wall time the scheduler counted, after conditioning (0 while paused)."""
        return self.account.counted_ns

    @property
    def conditioning_carry_in_ns(self) -> int:
        return self.account.carry_in_ns

    @property
    def conditioning_carry_ns(self) -> int:
        """The conditioning account after this frame."""
        return self.account.carry_out_ns

    @property
    def balances(self) -> bool:
        """The frame's two sets of books, the ledger and the conditioning account, balance."""
        return self.ledger.balances and self.account.balances

    # -- exact nanoseconds ------------------------------------------------------------------------

    def _ns(self, grains: int) -> Fraction:
        return Fraction(grains, self.ledger.grains_per_ns)

    @property
    def dt_ns(self) -> Fraction:
        """The length of each of this frame's ticks."""
        return self._ns(self.ledger.dt)

    @property
    def step_ns(self) -> Fraction:
        """The fixed step h in force for this frame (equal to `dt_ns` but under `variable`)."""
        return self._ns(self.ledger.step)

    @property
    def dropped_ns(self) -> Fraction:
        """Time thrown away by the overload policy this frame. Never hidden."""
        return self._ns(self.ledger.dropped)

    @property
    def dropped_ms(self) -> float:
        """`dropped_ns` as float milliseconds, for the history's graphs (the same float as
        `float(dropped_ns / 1,000,000)`: an int division is rounded correctly too)."""
        ledger = self.ledger
        return ledger.dropped / (ledger.grains_per_ns * 1_000_000)

    @property
    def dropped_steps(self) -> int:
        """The dropped time in whole steps (the policies drop whole steps, bar `reset`)."""
        return self.ledger.dropped // self.ledger.step

    @property
    def remainder_ns(self) -> Fraction:
        """Sub-step time carried to the next frame; alpha is made from it."""
        return self._ns(self.ledger.remainder)

    @property
    def carried_out_ns(self) -> Fraction:
        """Everything carried to the next frame: backlog steps plus the remainder."""
        return self._ns(self.ledger.carried_out)

    @property
    def carried_in_ns(self) -> Fraction:
        """Time carried in from the previous frame."""
        return self._ns(self.ledger.carried_in)

    @property
    def scaled_ns(self) -> Fraction:
        """Elapsed time after the time scale; 0 while paused."""
        return self._ns(self.ledger.scaled)

    @property
    def granted_ns(self) -> Fraction:
        """Time granted by a single step while paused."""
        return self._ns(self.ledger.granted)

    @property
    def sim_time_ns(self) -> Fraction:
        """Simulated time since the start, after this frame."""
        return self._ns(self.ledger.sim_time)

    def alpha_time_ns(self, ticks_back: int) -> Fraction:
        """The simulated time `ticks_back` ticks before the newest state, plus alpha of a tick:
        what a picture drawn at this frame's alpha shows (1 back: between the last two states;
        0: ahead of the newest). Exact: alpha x dt is remainder x dt / step, in one `Fraction`."""
        ledger = self.ledger
        start = ledger.sim_time - ticks_back * ledger.dt
        if ledger.dt == ledger.step:
            return Fraction(start + ledger.remainder, ledger.grains_per_ns)
        return Fraction(
            start * ledger.step + ledger.remainder * ledger.dt,
            ledger.step * ledger.grains_per_ns,
        )

    @property
    def dt_seconds(self) -> float:
        """The tick length as float seconds, for the physics (the time path stays exact)."""
        ledger = self.ledger
        return ledger.dt / (ledger.grains_per_ns * 1_000_000_000)
