"""`FixedStepScheduler`: wall-clock durations in, whole fixed ticks out.

The app loop hands in each frame's elapsed wall time (integer ns); the scheduler answers with a
`StepPlan`. It never calls the world: the caller runs `plan.steps` ticks, then draws at
`plan.alpha`. It never reads a clock either, so the same scheduler runs the real game and the
headless, virtual-clock runs.

Exactness. Time is counted in *grains*: 1/D of a nanosecond, where D is the smallest whole number
that makes the step, the time scale and the limits whole numbers of grains. At 60 Hz the step is
50,000,000/3 ns, so D = 3 and one step is exactly 50,000,000 grains; with a time scale of 1/8,
D = 24. Integer grains make every frame balance with `==`, after an hour or after a day.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import lcm

from timestep_lab._conditioning import (
    CONDITIONERS,
    Conditioner,
    ConditioningContext,
    ConditioningState,
)
from timestep_lab._overload import OverloadState
from timestep_lab._plan import INDICATORS, ConditioningAccount, Ledger, StepPlan
from timestep_lab._policies import POLICIES, Allotment, FrameLimits, OverloadPolicy
from timestep_lab._settings import AlphaMode, SchedulerSettings, exact_duration
from timestep_lab._units import NS_PER_SECOND

_made = tuple.__new__
"""`_made(Record, values)` is `Record(*values)` for a NamedTuple `Record`, without the call to its
`__new__`: the scheduler makes four a frame (BENCHMARKS.md, "Why the code looks like this")."""

MAX_ELAPSED_NS = 365 * 86_400 * NS_PER_SECOND
"""Longer than any real frame (a laptop asleep for a year); larger values are bad input."""


@dataclass(frozen=True, slots=True)
class _Gear:
    """Everything derived from one `SchedulerSettings`, precomputed in grains."""

    settings: SchedulerSettings
    grains_per_ns: int
    scale: int  # grains of simulated time per ns of wall time
    limits: FrameLimits
    policy: OverloadPolicy
    overload_frames: int
    naive_alpha: bool
    variable: bool
    conditioner: Conditioner
    conditioning: ConditioningContext
    raw: bool


def _gear_for(settings: SchedulerSettings, grains_per_ns: int) -> _Gear:
    """Choose the grain (a multiple of the current one, so carried time converts exactly)."""
    grains = lcm(
        grains_per_ns,
        settings.step_ns.denominator,
        settings.time_scale.denominator,
        settings.max_frame_ns.denominator,
        settings.max_backlog_ns.denominator,
    )

    def in_grains(ns: Fraction) -> int:
        exact = ns * grains
        assert exact.denominator == 1
        return exact.numerator

    return _Gear(
        settings=settings,
        grains_per_ns=grains,
        scale=in_grains(settings.time_scale),
        limits=FrameLimits(
            step=in_grains(settings.step_ns),
            max_steps=settings.max_steps,
            max_frame=in_grains(settings.max_frame_ns),
            max_backlog=in_grains(settings.max_backlog_ns),
        ),
        policy=POLICIES[settings.policy],
        overload_frames=settings.overload_frames,
        naive_alpha=settings.alpha_mode is AlphaMode.NAIVE,
        variable=settings.policy == "variable",
        conditioner=CONDITIONERS[settings.conditioning],
        conditioning=ConditioningContext(
            refresh_ns=settings.refresh_ns,
            snap_tolerance_ns=settings.snap_tolerance_ns,
            average_frames=settings.average_frames,
            jitter_fix=settings.jitter_fix,
            step_ns=settings.step_ns,
            time_scale=settings.time_scale,
        ),
        raw=settings.conditioning == "raw",
    )


def _check_elapsed(elapsed_ns: object) -> int:
    if isinstance(elapsed_ns, bool) or not isinstance(elapsed_ns, int):
        raise TypeError(
            f"elapsed time must be an int of nanoseconds, not {type(elapsed_ns).__name__} "
            f"(got {elapsed_ns!r})"
        )
    if elapsed_ns < 0:
        raise ValueError(f"elapsed time cannot be negative (got {elapsed_ns} ns)")
    if elapsed_ns > MAX_ELAPSED_NS:
        raise ValueError(f"elapsed time is longer than a year (got {elapsed_ns} ns)")
    return int(elapsed_ns)


class FixedStepScheduler:
    """Turns frame durations into fixed ticks under a live-switchable overload policy.

    Every method either succeeds completely or raises before changing anything.
    """

    def __init__(
        self,
        settings: SchedulerSettings | None = None,
        *,
        initial_remainder_ns: int | Fraction = 0,
    ) -> None:
        settings = SchedulerSettings() if settings is None else settings
        if not isinstance(settings, SchedulerSettings):
            raise TypeError(f"settings must be SchedulerSettings, not {type(settings).__name__}")
        carried_ns = exact_duration(initial_remainder_ns, "initial_remainder_ns")
        if not 0 <= carried_ns < settings.step_ns:
            raise ValueError(
                "the initial remainder must be at least 0 and less than one step "
                f"(got {float(carried_ns)} ns, step {float(settings.step_ns)} ns)"
            )
        gear = _gear_for(settings, carried_ns.denominator)
        self._gear = gear
        self._carried = (carried_ns * gear.grains_per_ns).numerator
        self._tick = 0
        self._sim_time = 0
        self._paused = False
        self._overload = OverloadState()
        self._last_plan: StepPlan | None = None
        self._settled = False
        self._conditioning = ConditioningState()
        self._held = 0

    # -- what the HUD and the tests read ------------------------------------------------------

    @property
    def settings(self) -> SchedulerSettings:
        return self._gear.settings

    @property
    def tick(self) -> int:
        """Ticks planned so far (the caller runs each plan's steps before the next frame)."""
        return self._tick

    @property
    def paused(self) -> bool:
        return self._paused

    @property
    def overloaded(self) -> bool:
        return self._overload.on

    @property
    def carried_ns(self) -> Fraction:
        """Everything carried to the next frame: backlog steps plus the sub-step remainder."""
        return Fraction(self._carried, self._gear.grains_per_ns)

    @property
    def sim_time_ns(self) -> Fraction:
        return Fraction(self._sim_time, self._gear.grains_per_ns)

    @property
    def conditioning_carry_ns(self) -> int:
        """The conditioning account: measured wall time not counted yet (negative: ahead)."""
        return self._conditioning.carry_ns

    @property
    def last_plan(self) -> StepPlan | None:
        return self._last_plan

    @property
    def held_ticks(self) -> int:
        """Ticks still to be held back (`hold`)."""
        return self._held

    # -- the controls ----------------------------------------------------------------------------

    def reconfigure(self, settings: SchedulerSettings) -> None:
        """Swap the settings between two frames, keeping the tick count and carried time exact."""
        if not isinstance(settings, SchedulerSettings):
            raise TypeError(f"settings must be SchedulerSettings, not {type(settings).__name__}")
        old = self._gear.grains_per_ns
        gear = _gear_for(settings, old)
        factor = gear.grains_per_ns // old
        self._carried *= factor
        self._sim_time *= factor
        self._gear = gear
        self._settled = True  # a plan made under the old settings is final

    def hold(self, ticks: int) -> None:
        """Time sync's wait (rollback netcode, a peer too far ahead): the next `ticks` ticks
        this scheduler plans are not run, and their time is dropped, on the books, not carried:
        the game falls back by exactly that many ticks instead of catching them up."""
        if isinstance(ticks, bool) or not isinstance(ticks, int) or ticks < 0:
            raise ValueError(f"ticks to hold must be a whole number, at least 0 (got {ticks!r})")
        self._held = ticks

    def pause(self) -> None:
        """Stop simulating. Wall time handed in while paused is counted as paused, nothing else."""
        self._paused = True

    def resume(self) -> None:
        """Simulate again. The paused time is not billed; the carried remainder is intact."""
        self._paused = False

    def advance(self, elapsed_ns: int) -> StepPlan:
        """Plan one frame that took `elapsed_ns` of wall time."""
        elapsed = elapsed_ns
        if type(elapsed) is not int or not 0 <= elapsed <= MAX_ELAPSED_NS:
            elapsed = _check_elapsed(elapsed_ns)  # a mistake; the test above is every frame's
        if self._paused:
            ledger = self._ledger(0, 0, Allotment(0, self._gear.limits.step, 0, self._carried))
            return self._commit(elapsed, ledger, self._nothing_counted(), strained=False)
        gear = self._gear
        limits = gear.limits
        carried_in = self._carried
        if gear.raw and self._conditioning.carry_ns == 0:
            account = _made(ConditioningAccount, (0, elapsed, elapsed, 0))  # counted as measured
        else:
            account = self._condition(elapsed)
        scaled = account.counted_ns * gear.scale
        allotment = gear.policy.allot(carried_in, scaled, limits)
        strained = allotment.dropped > 0 or (carried_in + scaled) // limits.step > limits.max_steps
        caught_up = allotment.carried < limits.step
        self._overload = self._overload.after(strained, caught_up, gear.overload_frames)
        if self._held and allotment.steps:
            allotment = self._held_back(allotment)
        return self._commit(elapsed, self._ledger(scaled, 0, allotment), account, strained)

    def _condition(self, elapsed: int) -> ConditioningAccount:
        """Condition the measured delta (a pre-step); the account moves to the new state."""
        gear = self._gear
        state = self._conditioning
        remainder = Fraction(self._carried % gear.limits.step, gear.grains_per_ns)
        counted, after = gear.conditioner.condition(elapsed, state, gear.conditioning, remainder)
        self._conditioning = after
        return _made(ConditioningAccount, (state.carry_ns, elapsed, counted, after.carry_ns))

    def _held_back(self, allotment: Allotment) -> Allotment:
        """The allotment with as many of its steps as are held (`hold`) dropped instead. Not
        strain: the overload light and the policy's books are as the policy left them."""
        steps, dt, dropped, carried = allotment
        held = min(self._held, steps)
        self._held -= held
        return Allotment(steps - held, dt, dropped + held * dt, carried)

    def _nothing_counted(self) -> ConditioningAccount:
        """The account of a frame that counts no wall time (paused, or a single step)."""
        carry = self._conditioning.carry_ns
        return ConditioningAccount(carry, 0, 0, carry)

    def single_step(self) -> StepPlan:
        """While paused, grant exactly one tick of h (the `.` key). Nothing else moves."""
        if not self._paused:
            raise ValueError("single step works only while paused")
        step = self._gear.limits.step
        ledger = self._ledger(0, step, Allotment(1, step, 0, self._carried))
        return self._commit(0, ledger, self._nothing_counted(), strained=False)

    def settle(self, ran: int) -> StepPlan:
        """The caller stopped early: it ran only `ran` of the last plan's steps.

        Planning and completing are separate acts. When the player changes the policy in the
        middle of a long catch-up (the spiral of death), the loop stops stepping; the steps it did
        not run were never simulated, so they go back into carried time, exactly, for the next
        frame's policy to decide. Returns the revised plan for the frame.
        """
        plan = self._last_plan
        if plan is None or self._settled:
            raise ValueError("there is no fresh plan to settle (settle before reconfiguring)")
        if isinstance(ran, bool) or not isinstance(ran, int) or not 0 <= ran <= plan.steps:
            raise ValueError(f"ran must be a whole number from 0 to {plan.steps} (got {ran!r})")
        unrun = plan.steps - ran
        ledger = plan.ledger.handed_back(unrun)
        revised = plan._replace(alpha=self._alpha(ledger), tick=plan.tick - unrun, ledger=ledger)
        self._carried = ledger.carried_out
        self._tick = revised.tick
        self._sim_time = ledger.sim_time
        self._last_plan = revised
        self._settled = True
        return revised

    # -- a new plan becomes the state ---------------------------------------------------------

    def _ledger(self, scaled: int, granted: int, allotment: Allotment) -> Ledger:
        """The frame's books: what came in (the time carried, scaled and granted), and where
        the allotment put it."""
        gear = self._gear
        steps, dt, dropped, carried_out = allotment
        sim_time = self._sim_time + steps * dt
        return _made(
            Ledger,
            (self._carried, scaled, granted, steps, dt, dropped, carried_out,
             gear.limits.step, sim_time, gear.grains_per_ns),
        )  # fmt: skip

    def _commit(
        self, elapsed: int, ledger: Ledger, account: ConditioningAccount, strained: bool
    ) -> StepPlan:
        """Make the frame's plan out of its parts, and make it the state."""
        indicators = INDICATORS[self._overload.on, strained, self._paused]
        tick = self._tick + ledger.steps
        plan = _made(StepPlan, (self._alpha(ledger), tick, elapsed, ledger, account, indicators))
        self._carried = ledger.carried_out
        self._tick = tick
        self._sim_time = ledger.sim_time
        self._last_plan = plan
        self._settled = False
        return plan

    def _alpha(self, ledger: Ledger) -> float:
        """Where to draw between the last two states. This is the line the step-cap article is
        about (docs/references.md#step-cap): the correct alpha divides only the sub-step
        remainder; the naive one divides everything carried, backlog included, and can exceed 1."""
        gear = self._gear
        if gear.variable:
            return 1.0
        step = ledger.step
        if gear.naive_alpha:
            return ledger.carried_out / step
        return ledger.carried_out % step / step
