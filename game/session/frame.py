"""`Frame`: one frame of a session, stepped by its caller.

The fixed-timestep loop has three acts, and the caller performs them itself, in the open:

    frame = session.begin(elapsed_ns)   # every lane's scheduler plans; no tick has run yet
    while frame.next_tick():            # one planned tick runs; the caller may do its own work
        ...                             # (read input, spend the tick's CPU cost, redraw, stop)
    frame.finish()                      # ticks not run go back to the schedulers; books kept

Nothing here calls the caller back. That is the point: in the middle of a frame the caller can
only run the next tick or `stop()`. Anything that would change how time is handled (a policy
key, a lesson step) waits in the session until `finish()` has settled the plans, so no plan is
ever revised under settings other than the ones that made it.

In split screen the lanes take turns, one tick each, so the two worlds stay side by side in
simulated time while a long catch-up runs.
"""

from __future__ import annotations

from collections.abc import Callable

from game.session.lane import Lane
from timestep_lab import StepPlan


class FrameOrderError(RuntimeError):
    """A call made out of the frame's order: beginning a frame while one is open, setting the
    controls in the middle of one, finishing one twice. Nothing was changed."""


class _LaneRun:
    """One lane's part of the frame: its plan and how many of its ticks have run."""

    __slots__ = ("dt", "index", "lane", "plan", "ran", "steps")

    def __init__(self, index: int, lane: Lane, plan: StepPlan) -> None:
        self.index = index
        self.lane = lane
        self.plan = plan
        self.steps = plan.ledger.steps
        self.dt = plan.dt_seconds
        self.ran = 0


class Frame:
    """A frame in progress: planned, partly stepped, not yet settled."""

    __slots__ = (
        "_after_tick", "_before_tick", "_finished", "_left", "_on_finish", "_runs", "_stopped",
        "_turn", "elapsed_ns", "final_plans", "resimulated", "ticks_run",
    )  # fmt: skip
    """One is made every frame: slots make it, and each attribute read, cheaper than a dict."""

    def __init__(
        self,
        lanes: list[Lane],
        elapsed_ns: int,
        on_finish: Callable[[Frame], None],
        before_tick: Callable[[int], bool] | None = None,
        after_tick: Callable[[int], None] | None = None,
    ) -> None:
        self.elapsed_ns = elapsed_ns
        self._runs: list[_LaneRun] = []
        self._left = 0
        """Planned ticks not run yet, every lane together: `next_tick` answers at once when
        none is left (the last call of every frame, and the only one of a frame with no tick)."""
        for index, lane in enumerate(lanes):
            run = _LaneRun(index, lane, lane.scheduler.advance(elapsed_ns))
            self._runs.append(run)
            self._left += run.steps
        self._before_tick = before_tick
        """The session's own step right before a lane's tick (the avatar's input for it); False
        stops the frame there (rollback's prediction window is full)."""
        self._after_tick = after_tick
        """The session's own step right after a lane's tick (rollback's snapshot), if any."""
        self._turn = 0
        self._stopped = False
        self._finished = False
        self._on_finish = on_finish
        self.ticks_run = 0
        """Ticks run so far in this frame, every lane together."""
        self.final_plans: tuple[StepPlan, ...] = ()
        """Each lane's plan as `finish()` settled it (empty until then)."""
        self.resimulated = 0
        """Ticks lane 0 ran again after a rollback in this frame: work, not planned time."""

    def progress(self) -> tuple[tuple[StepPlan, int], ...]:
        """Each lane's plan and how many of its ticks have run so far."""
        return tuple((run.plan, run.ran) for run in self._runs)

    @property
    def planned(self) -> tuple[StepPlan, ...]:
        """Each lane's plan as the scheduler made it, before anything ran."""
        return tuple(run.plan for run in self._runs)

    @property
    def ticks_left(self) -> int:
        """Planned ticks not run yet, every lane together (0 once stopped)."""
        return 0 if self._stopped else self._left

    @property
    def stopped(self) -> bool:
        return self._stopped

    @property
    def open(self) -> bool:
        return not self._finished

    def next_tick(self) -> bool:
        """Run the next planned tick. False when none is left, or the frame was stopped."""
        if not self._left or self._stopped or self._finished:
            return False
        runs = self._runs
        lanes = len(runs)
        for offset in range(lanes):
            run = runs[(self._turn + offset) % lanes]
            if run.ran < run.steps:
                if self._before_tick is not None and not self._before_tick(run.index):
                    self._stopped = True
                    return False
                run.lane.world.step(run.dt)
                if self._after_tick is not None:
                    self._after_tick(run.index)
                run.ran += 1
                self._left -= 1
                self.ticks_run += 1
                self._turn = (self._turn + offset + 1) % lanes
                return True
        return False

    def stop(self) -> None:
        """Run no more ticks in this frame (the way out of a long catch-up). The ticks that did
        not run were never simulated: `finish()` hands them back to each scheduler, exactly."""
        self._stopped = True

    def finish(self) -> tuple[StepPlan, ...]:
        """Settle every lane's plan to the ticks that ran, write the frame in the books, and
        let the session apply what waited for the frame to end. Returns the final plans."""
        if self._finished:
            raise FrameOrderError("this frame is already finished")
        plans = []
        for run in self._runs:
            plan = run.plan
            if run.ran < run.steps:
                plan = run.lane.scheduler.settle(run.ran)
            run.lane.close_frame(plan, self.resimulated if run.index == 0 else 0)
            plans.append(plan)
        self._finished = True
        self.final_plans = tuple(plans)
        self._on_finish(self)
        return self.final_plans
