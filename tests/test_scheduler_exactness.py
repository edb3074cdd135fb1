"""Long runs end on the exact tick count, where a float accumulator does not.

The float figures are measured here, by running the naive accumulator on the same frames.
"""

from fractions import Fraction

import pytest

from game.scheduler.naive import NaiveFloatAccumulator
from tests.helpers import ms
from timestep_lab import FixedStepScheduler, SchedulerSettings


def step_counts_exact(hz: int, frame_ns: int, frames: int) -> list[int]:
    clock = FixedStepScheduler(SchedulerSettings.at_hz(hz, policy="uncapped"))
    return [clock.advance(frame_ns).steps for _ in range(frames)]


def step_counts_float(hz: int, frame_seconds: float, frames: int) -> list[int]:
    accumulator = NaiveFloatAccumulator(1 / hz)
    return [accumulator.steps_for(frame_seconds) for _ in range(frames)]


def test_10_000_frames_of_100_ms_at_50_hz_are_exactly_50_000_ticks() -> None:
    exact = step_counts_exact(50, ms(100), 10_000)
    floating = step_counts_float(50, 0.1, 10_000)
    assert sum(exact) == 50_000
    assert exact == [5] * 10_000
    assert sum(floating) == 49_999
    assert floating[0] == 4  # 0.1 - 5 x 0.02 is already a hair below zero


def test_10_000_frames_of_50_ms_at_144_hz_are_exactly_72_000_ticks() -> None:
    exact = step_counts_exact(144, ms(50), 10_000)
    floating = step_counts_float(144, 0.05, 10_000)
    assert sum(exact) == 72_000
    assert exact[:5] == [7, 7, 7, 7, 8]  # 7.2 steps a frame: a 5-frame cycle, forever
    assert sum(floating) == 71_999
    wrong = [i for i, (e, f) in enumerate(zip(exact, floating, strict=True)) if e != f]
    one_short = [i for i in wrong if floating[i] < exact[i]]
    one_extra = [i for i in wrong if floating[i] > exact[i]]
    assert (len(wrong), len(one_short), len(one_extra)) == (3_999, 2_000, 1_999)


@pytest.mark.slow
def test_an_hour_at_144_fps_and_60_hz_ends_on_the_exact_tick() -> None:
    clock = FixedStepScheduler(SchedulerSettings.at_hz(60))
    frame = Fraction(1_000_000_000, 144)
    boundary, previous = Fraction(0), 0
    for _ in range(144 * 3_600):
        boundary += frame
        now = boundary.__floor__()
        plan = clock.advance(now - previous)
        previous = now
    assert plan.tick == 60 * 3_600
    assert plan.sim_time_ns == 3_600 * 10**9


@pytest.mark.parametrize("policy", ["drop", "variable", "backlog"])
def test_alpha_time_is_alpha_of_a_tick_past_the_state_it_starts_from(policy: str) -> None:
    settings = SchedulerSettings.at_hz(Fraction(5994, 100), policy=policy)
    scheduler = FixedStepScheduler(settings.with_changes(time_scale=Fraction(1, 3)))
    for elapsed in (7_000_001, 16_683_350, 400_000_000, 1, 0):
        plan = scheduler.advance(elapsed)
        ahead = plan.remainder_ns * plan.dt_ns / plan.step_ns  # alpha x dt, exactly
        assert plan.alpha_time_ns(1) == plan.sim_time_ns - plan.dt_ns + ahead
        assert plan.alpha_time_ns(0) == plan.sim_time_ns + ahead
