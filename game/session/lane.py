"""`Lane`: one scheduler driving one world, with its books, its recent history and (in the
game) its world saved at each of its last ticks, for the rewind.

A frame (`game.session.frame`) asks each lane's scheduler for a plan, runs that many ticks of
exactly `dt` on the lane's world, settles the plan if it stopped early, and closes the frame
here: the books, the spiral rule and the history. The split screen simply runs two lanes on
the same wall-clock deltas.
"""

from __future__ import annotations

import copy
from fractions import Fraction

from game.session.history import FrameHistory
from game.session.spiral import FrameLoad, SpiralRule, SpiralState
from game.world.snapshots import SnapshotRing
from game.world.world import World
from timestep_lab import (
    FixedStepScheduler,
    OverloadState,
    SchedulerSettings,
    StepPlan,
    TimeBooks,
)

_made = tuple.__new__
"""`_made(Record, values)` is `Record(*values)` for a NamedTuple `Record` without the call to its
`__new__`, as the scheduler makes its plans: a lane closes a frame every frame."""


class Lane:
    """A scheduler, the world it drives, and the books of what happened to the time."""

    def __init__(
        self,
        settings: SchedulerSettings,
        world: World,
        *,
        initial_remainder_ns: Fraction | int = 0,
        spiral_rule: SpiralRule | None = None,
    ) -> None:
        self.scheduler = FixedStepScheduler(settings, initial_remainder_ns=initial_remainder_ns)
        self.world = world
        self.books = TimeBooks(initial_remainder_ns)
        self.history = FrameHistory()
        self.spiral_rule = spiral_rule or SpiralRule()
        self.spiral = SpiralState()
        self.work_light = OverloadState()
        """The overload light counting rollback's re-simulated ticks as work (off without)."""
        self.snapshots: SnapshotRing | None = None
        """The world saved before each of its last ticks, when the session keeps them (the
        rewind's); None when it does not."""
        self.rewind_alpha: float | None = None
        """While the rewind runs, how far between its last two ticks the world is drawn."""

    def twin(self) -> Lane:
        """An identical, independent lane: the same world state, carried time, tick, books and
        history. The split screen starts its second half this way; from then on each lane
        goes its own way under its own policy."""
        twin = copy.copy(self)
        twin.scheduler = copy.copy(self.scheduler)  # its state is ints and immutable values
        twin.books = copy.copy(self.books)
        twin.history = copy.deepcopy(self.history)
        twin.world = self.world.clone()
        twin.snapshots = copy.deepcopy(self.snapshots)  # the same past: it can rewind too
        return twin

    def restart_books(self) -> None:
        """Count from now: fresh books (nothing dropped, lag only what is carried now, sim and
        wall time from zero), an empty history and the spiral light out. The scheduler and the
        world go on untouched, so a lesson step's numbers are that step's alone, and the ledger
        still balances exactly (`TimeBooks.from_now`)."""
        self.books = TimeBooks.from_now(self.books)
        self.history = FrameHistory(self.history.capacity)
        self.spiral = SpiralState()
        self.work_light = OverloadState()

    def single_step(self) -> StepPlan:
        """Run one tick while paused (the `.` key)."""
        plan = self.scheduler.single_step()
        self.world.step(plan.dt_seconds)
        self.books.record(plan)
        return plan

    def close_frame(self, plan: StepPlan, resimulated: int = 0) -> None:
        """Write a finished frame (its final, settled plan) in the books and the history.
        `resimulated` ticks, run again after a rollback, count as work for the spiral rule and
        the overload light, beside the plan's."""
        books = self.books
        books.record(plan)
        elapsed_ns = plan.elapsed_ns
        ledger = plan.ledger
        load = _made(FrameLoad, (elapsed_ns, ledger.steps + resimulated, ledger.backlog_steps))
        self.spiral = self.spiral_rule.after(self.spiral, load)
        overloaded = plan.indicators.overloaded
        if resimulated or self.work_light.on:
            self._count_work(plan, resimulated)
            overloaded = overloaded or self.work_light.on
        self.history.record(books.wall_ns, plan, overloaded)

    def _count_work(self, plan: StepPlan, resimulated: int) -> None:
        """The overload light's rule (`timestep_lab.OverloadState`) with re-simulated ticks as
        work: a frame whose new and re-simulated ticks together pass the cap M is strained."""
        ledger = plan.ledger
        strained = plan.indicators.strained or (
            ledger.steps + resimulated > self.scheduler.settings.max_steps
        )
        caught_up = ledger.carried_out < ledger.step
        frames = self.scheduler.settings.overload_frames
        self.work_light = self.work_light.after(strained, caught_up, frames)

    @property
    def alpha(self) -> float:
        """How far between its last two ticks the world is drawn: the last plan's alpha, or
        the rewind's while it runs (1 before the first plan)."""
        if self.rewind_alpha is not None:
            return self.rewind_alpha
        plan = self.scheduler.last_plan
        return 1.0 if plan is None else plan.alpha

    @property
    def lag_ns(self) -> Fraction:
        """Scaled wall time minus simulated time: what was dropped plus what is carried."""
        return self.books.lag_ns
