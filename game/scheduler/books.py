"""`TimeBooks`: exact running totals over many frames, and the ledger check.

Each `StepPlan` balances on its own; the books check that the whole run balances too:

    initial carried + scaled time + granted == simulated time + dropped + final carried
    measured (unpaused) wall time == counted wall time + conditioning carry

The second line is delta-time conditioning's account (`conditioning_carry_ns`): conditioning
moves measured time between frames, never makes or loses it.

The explainer's summary, the headless simulation and the HUD's totals all read these books.
"""

from __future__ import annotations

from fractions import Fraction

from game.clock.units import round_ns
from game.scheduler.plan import StepPlan


class TimeBooks:
    """Totals of wall, paused, scaled, simulated and dropped time, in exact nanoseconds.

    Keep one from the scheduler's first frame, so that its simulated time is all on the books.
    """

    def __init__(self, initial_carried_ns: Fraction | int = 0) -> None:
        self.initial_carried_ns = Fraction(initial_carried_ns)
        self.frames = 0
        self.ticks = 0
        self.wall_ns = 0
        self.paused_ns = 0
        self.scaled_ns = Fraction(0)
        self.granted_ns = Fraction(0)
        self.stepped_ns = Fraction(0)
        self.dropped_ns = Fraction(0)
        self.counted_ns = 0
        """Measured (unpaused) wall time the scheduler counted after conditioning."""
        self.every_frame_balanced = True
        self.last: StepPlan | None = None

    def record(self, plan: StepPlan) -> None:
        """Add one plan (a frame, or a single step while paused) to the totals."""
        if plan.granted_ns == 0:
            self.frames += 1
            self.wall_ns += plan.elapsed_ns
            if plan.paused:
                self.paused_ns += plan.elapsed_ns
        self.ticks += plan.steps
        self.scaled_ns += plan.scaled_ns
        self.granted_ns += plan.granted_ns
        self.stepped_ns += plan.steps * plan.dt_ns
        self.dropped_ns += plan.dropped_ns
        self.counted_ns += plan.counted_ns
        self.every_frame_balanced = self.every_frame_balanced and plan.balances
        self.last = plan

    @property
    def carried_ns(self) -> Fraction:
        return self.last.carried_out_ns if self.last else self.initial_carried_ns

    @property
    def conditioning_carry_ns(self) -> int:
        """The conditioning account: measured time not counted yet (negative: counted ahead)."""
        return self.last.conditioning_carry_ns if self.last else 0

    @property
    def remainder_ns(self) -> Fraction:
        return self.last.remainder_ns if self.last else self.initial_carried_ns

    @property
    def backlog_steps(self) -> int:
        return self.last.backlog_steps if self.last else 0

    @property
    def sim_time_ns(self) -> Fraction:
        """Simulated time as the scheduler counts it (it must equal the stepped total)."""
        return self.last.sim_time_ns if self.last else Fraction(0)

    @property
    def ledger_ok(self) -> bool:
        """Every frame balanced, and so did the whole run, to the grain."""
        came_in = self.initial_carried_ns + self.scaled_ns + self.granted_ns
        went_out = self.stepped_ns + self.dropped_ns + self.carried_ns
        measured = self.wall_ns - self.paused_ns
        return (
            self.every_frame_balanced
            and came_in == went_out
            and self.stepped_ns == self.sim_time_ns
            and measured == self.counted_ns + self.conditioning_carry_ns
        )

    def summary(self) -> dict[str, int | bool]:
        """The explainer's summary; `*_ns` values are the exact values rounded to whole ns."""
        return {
            "frames": self.frames,
            "ticks": self.ticks,
            "wall_ns": self.wall_ns,
            "paused_ns": self.paused_ns,
            "scaled_ns": round_ns(self.scaled_ns),
            "sim_time_ns": round_ns(self.sim_time_ns),
            "dropped_ns": round_ns(self.dropped_ns),
            "remainder_ns": round_ns(self.remainder_ns),
            "backlog_steps": self.backlog_steps,
            "conditioning_carry_ns": self.conditioning_carry_ns,
            "ledger_ok": self.ledger_ok,
        }
