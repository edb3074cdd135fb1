"""timestep_lab: an exact fixed-step scheduler for a game loop, with a choice of overload policy.

A game loop measures how long each frame took and must turn that into whole fixed ticks of
simulation plus a remainder that waits for the next frame. This package does that part, and
only that part: it never reads a clock, never steps your world and never draws. In a loop::

    scheduler = FixedStepScheduler(SchedulerSettings(step_ns=hz_to_step_ns(60), policy="drop"))
    plan = scheduler.advance(elapsed_ns)    # elapsed_ns: an int, from time.perf_counter_ns()
    for _ in range(plan.steps):             # the scheduler plans, the caller steps
        world.step(...)
    draw(previous, current, plan.alpha)     # alpha: the sub-step remainder over the step

What it promises:

- Time is integer nanoseconds in, and the step is an exact rational (1/60 s is 50,000,000/3 ns,
  not 16 ms and not 16.666 ms). Every frame balances exactly: what came in = steps x step +
  dropped + what is carried (`StepPlan.ledger`), after a minute or after a day.
- When a frame brings more time than the catch-up cap allows (the spiral of death), the
  overload policy (`POLICIES`) decides what happens to the excess, and the dropped time is
  reported, never hidden: `uncapped`, `clamp`, `drop`, `reset`, `backlog`, `variable`.
- Alpha comes from the sub-step remainder alone, so it is always in [0, 1): it is the only float,
  and it is for drawing.
- `TimeBooks` adds the plans up; a `FrameSource` is where each frame's length comes from, the
  seam that lets the same loop run on the wall clock or on a virtual one in tests.

It imports nothing beyond Python's standard library. The names below are the whole public
interface; the modules behind them (`timestep_lab._scheduler` and the rest) are private.
"""

from timestep_lab._books import TimeBooks
from timestep_lab._conditioning import (
    CONDITIONERS,
    Conditioner,
    ConditioningContext,
    ConditioningState,
)
from timestep_lab._frames import NOTHING_RAN, FrameRan, FrameSource
from timestep_lab._overload import OverloadState
from timestep_lab._plan import INDICATORS, ConditioningAccount, Indicators, Ledger, StepPlan
from timestep_lab._policies import POLICIES, Allotment, FrameLimits, OverloadPolicy
from timestep_lab._scheduler import MAX_ELAPSED_NS, FixedStepScheduler
from timestep_lab._settings import (
    DEFAULT_STEP_NS,
    MAX_AVERAGE_FRAMES,
    MAX_BACKLOG_LIMIT_NS,
    MAX_CATCH_UP_STEPS,
    MAX_FRAME_LIMIT_NS,
    MAX_JITTER_FIX,
    MAX_OVERLOAD_FRAMES,
    MAX_REFRESH_NS,
    MAX_STEP_NS,
    MAX_TIME_SCALE,
    MIN_REFRESH_NS,
    MIN_STEP_NS,
    AlphaMode,
    SchedulerSettings,
)
from timestep_lab._units import NS_PER_MS, NS_PER_SECOND, hz_to_step_ns, round_ns

__all__ = [
    "CONDITIONERS",
    "DEFAULT_STEP_NS",
    "INDICATORS",
    "MAX_AVERAGE_FRAMES",
    "MAX_BACKLOG_LIMIT_NS",
    "MAX_CATCH_UP_STEPS",
    "MAX_ELAPSED_NS",
    "MAX_FRAME_LIMIT_NS",
    "MAX_JITTER_FIX",
    "MAX_OVERLOAD_FRAMES",
    "MAX_REFRESH_NS",
    "MAX_STEP_NS",
    "MAX_TIME_SCALE",
    "MIN_REFRESH_NS",
    "MIN_STEP_NS",
    "NOTHING_RAN",
    "NS_PER_MS",
    "NS_PER_SECOND",
    "POLICIES",
    "Allotment",
    "AlphaMode",
    "Conditioner",
    "ConditioningAccount",
    "ConditioningContext",
    "ConditioningState",
    "FixedStepScheduler",
    "FrameLimits",
    "FrameRan",
    "FrameSource",
    "Indicators",
    "Ledger",
    "OverloadPolicy",
    "OverloadState",
    "SchedulerSettings",
    "StepPlan",
    "TimeBooks",
    "hz_to_step_ns",
    "round_ns",
]
