"""`StepPlan`: the scheduler's answer for one frame.

It says how many fixed ticks the caller must run now, how long each is, how much time was
dropped, what is carried to the next frame, and the alpha to draw with. It carries its own books
so that anyone can check, exactly, that the frame balanced:

    carried_in + scaled_elapsed + granted == steps * dt + dropped + carried_out

where `scaled_elapsed` is the *counted* wall time times the time scale: the measured time after
delta-time conditioning (`game.scheduler.conditioning`), whose own account balances too:

    conditioning carry in + measured == counted + conditioning carry out

`granted` is the one step handed out by a single-step key while paused.

Every duration a plan hands out is exact nanoseconds, named `*_ns` (an `int` for the wall time,
a `Fraction` for the rest: 1/60 s is 50,000,000/3 ns). Inside, the scheduler counts in whole
*grains* of 1/D ns, so that its sums are integer sums; the grains stay inside the scheduler
package, and no caller ever divides by them.
"""

from __future__ import annotations

from fractions import Fraction
from operator import itemgetter
from typing import Any


class StepPlan(tuple[Any, ...]):
    """One frame's plan: an immutable value (a tuple underneath, so it is cheap to build).

    The scheduler builds it with `StepPlan.of(...)` from grain counts; everyone else reads the
    properties below.
    """

    __slots__ = ()

    steps: int = property(itemgetter(0))  # type: ignore[assignment]
    """Fixed ticks to run now."""
    backlog_steps: int = property(itemgetter(1))  # type: ignore[assignment]
    """Whole steps owed and carried to later frames (only the `backlog` policy keeps them)."""
    alpha: float = property(itemgetter(2))  # type: ignore[assignment]
    """Where to draw between the previous and the current state. The only float in the path."""
    tick: int = property(itemgetter(3))  # type: ignore[assignment]
    """Ticks run since the start, after this frame's steps."""
    overloaded: bool = property(itemgetter(4))  # type: ignore[assignment]
    """The overload indicator (with hysteresis), after this frame."""
    paused: bool = property(itemgetter(5))  # type: ignore[assignment]
    """True when the simulation is paused: wall time counts as paused, not simulated."""
    strained: bool = property(itemgetter(6))  # type: ignore[assignment]
    """This frame alone wanted more than M steps, or dropped time (no hysteresis)."""
    elapsed_ns: int = property(itemgetter(7))  # type: ignore[assignment]
    """Wall time handed in for this frame."""
    _dt: int = property(itemgetter(8))  # type: ignore[assignment]
    _dropped: int = property(itemgetter(9))  # type: ignore[assignment]
    _remainder: int = property(itemgetter(10))  # type: ignore[assignment]
    _sim_time: int = property(itemgetter(11))  # type: ignore[assignment]
    _scaled: int = property(itemgetter(12))  # type: ignore[assignment]
    _carried_in: int = property(itemgetter(13))  # type: ignore[assignment]
    _granted: int = property(itemgetter(14))  # type: ignore[assignment]
    _step: int = property(itemgetter(15))  # type: ignore[assignment]
    _grains_per_ns: int = property(itemgetter(16))  # type: ignore[assignment]
    """The unit of the grain values: one grain is 1/_grains_per_ns of a nanosecond."""
    counted_ns: int = property(itemgetter(17))  # type: ignore[assignment]
    """The wall time the scheduler counted, after conditioning (0 while paused)."""
    conditioning_carry_in_ns: int = property(itemgetter(18))  # type: ignore[assignment]
    """The conditioning account before this frame: measured time not yet counted (or, when
    negative, counted ahead of the measurement)."""
    conditioning_carry_ns: int = property(itemgetter(19))  # type: ignore[assignment]
    """The conditioning account after this frame."""

    @classmethod
    def of(
        cls,
        steps: int,
        backlog_steps: int,
        alpha: float,
        tick: int,
        overloaded: bool,
        paused: bool,
        strained: bool,
        elapsed_ns: int,
        dt: int,
        dropped: int,
        remainder: int,
        sim_time: int,
        scaled: int,
        carried_in: int,
        granted: int,
        step: int,
        grains_per_ns: int,
        counted_ns: int,
        conditioning_carry_in_ns: int,
        conditioning_carry_ns: int,
    ) -> StepPlan:
        """A plan from the scheduler's grain counts (the scheduler's own constructor)."""
        return tuple.__new__(
            cls,
            (
                steps, backlog_steps, alpha, tick, overloaded, paused, strained, elapsed_ns,
                dt, dropped, remainder, sim_time, scaled, carried_in, granted, step, grains_per_ns,
                counted_ns, conditioning_carry_in_ns, conditioning_carry_ns,
            ),
        )  # fmt: skip

    def _revised(self, **changes: Any) -> StepPlan:
        """This plan with some fields changed, by their names (grain fields by `_name`)."""
        values = list(self)
        for name, value in changes.items():
            values[_INDEX[name]] = value
        return tuple.__new__(StepPlan, values)

    def __repr__(self) -> str:
        return (
            f"StepPlan(steps={self.steps}, dt_ns={self.dt_ns}, dropped_ns={self.dropped_ns}, "
            f"remainder_ns={self.remainder_ns}, backlog_steps={self.backlog_steps}, "
            f"alpha={self.alpha}, tick={self.tick}, elapsed_ns={self.elapsed_ns})"
        )

    # -- exact nanoseconds ------------------------------------------------------------------------

    def _ns(self, grains: int) -> Fraction:
        return Fraction(grains, self._grains_per_ns)

    @property
    def dt_ns(self) -> Fraction:
        """The length of each of this frame's ticks."""
        return self._ns(self._dt)

    @property
    def step_ns(self) -> Fraction:
        """The fixed step h in force for this frame (equal to `dt_ns` but under `variable`)."""
        return self._ns(self._step)

    @property
    def dropped_ns(self) -> Fraction:
        """Time thrown away by the overload policy this frame. Never hidden."""
        return self._ns(self._dropped)

    @property
    def dropped_ms(self) -> float:
        """`dropped_ns` as float milliseconds, for the history's graphs (the same float as
        `float(dropped_ns / 1,000,000)`: an int division is rounded correctly too)."""
        return self._dropped / (self._grains_per_ns * 1_000_000)

    @property
    def dropped_steps(self) -> int:
        """The dropped time in whole steps (the policies drop whole steps, bar `reset`)."""
        return self._dropped // self._step

    @property
    def remainder_ns(self) -> Fraction:
        """Sub-step time carried to the next frame; alpha is made from it."""
        return self._ns(self._remainder)

    @property
    def carried_out_ns(self) -> Fraction:
        """Everything carried to the next frame: backlog steps plus the remainder."""
        return self._ns(self._carried_out)

    @property
    def carried_in_ns(self) -> Fraction:
        """Time carried in from the previous frame."""
        return self._ns(self._carried_in)

    @property
    def scaled_ns(self) -> Fraction:
        """Elapsed time after the time scale; 0 while paused."""
        return self._ns(self._scaled)

    @property
    def granted_ns(self) -> Fraction:
        """Time granted by a single step while paused."""
        return self._ns(self._granted)

    @property
    def sim_time_ns(self) -> Fraction:
        """Simulated time since the start, after this frame."""
        return self._ns(self._sim_time)

    def alpha_time_ns(self, ticks_back: int) -> Fraction:
        """The simulated time `ticks_back` ticks before the newest state, plus alpha of a tick:
        what a picture drawn at this frame's alpha shows (1 back: between the last two states;
        0: ahead of the newest). Exact: alpha x dt is remainder x dt / step, in one `Fraction`."""
        start = self._sim_time - ticks_back * self._dt
        if self._dt == self._step:
            return Fraction(start + self._remainder, self._grains_per_ns)
        return Fraction(
            start * self._step + self._remainder * self._dt, self._step * self._grains_per_ns
        )

    @property
    def dt_seconds(self) -> float:
        """The tick length as float seconds, for the physics (the time path stays exact)."""
        return self._dt / (self._grains_per_ns * 1_000_000_000)

    # -- the frame's ledger ------------------------------------------------------------------------

    @property
    def _carried_out(self) -> int:
        return self.backlog_steps * self._step + self._remainder

    @property
    def balances(self) -> bool:
        """The frame's two ledgers. The scheduler's: what came in equals what was stepped,
        dropped and carried. Conditioning's: the account plus the measured (unpaused) time
        equals what was counted plus the account after."""
        came_in = self._carried_in + self._scaled + self._granted
        measured = 0 if self.paused else self.elapsed_ns
        return (
            came_in == self.steps * self._dt + self._dropped + self._carried_out
            and self.conditioning_carry_in_ns + measured
            == self.counted_ns + self.conditioning_carry_ns
        )


_INDEX = {
    name: index
    for index, name in enumerate(
        (
            "steps", "backlog_steps", "alpha", "tick", "overloaded", "paused", "strained",
            "elapsed_ns", "_dt", "_dropped", "_remainder", "_sim_time", "_scaled", "_carried_in",
            "_granted", "_step", "_grains_per_ns", "counted_ns", "conditioning_carry_in_ns",
            "conditioning_carry_ns",
        )
    )
}  # fmt: skip
