"""The reference articles' worked examples, frame sequence in, exact plan out.

Each class is one article of docs/references.md; its docstring names the anchor.
"""

from fractions import Fraction

import pytest

from tests.helpers import ms, scheduler
from timestep_lab import AlphaMode, FixedStepScheduler, SchedulerSettings


class TestStepCapArticle:
    """docs/references.md#step-cap: h = 20 ms, M = 4, 15 ms carried in, then a 200 ms frame."""

    def test_runs_four_steps_drops_120_ms_keeps_15_ms_and_alpha_is_three_quarters(self) -> None:
        plan = scheduler(max_steps=4, initial_ms=15).advance(ms(200))
        assert plan.steps == 4
        assert plan.dropped_ns == ms(120)
        assert plan.remainder_ns == ms(15)
        assert plan.backlog_steps == 0
        assert plan.alpha == 0.75
        assert plan.tick == 4
        assert plan.balances

    def test_naive_alpha_divides_everything_carried_and_reaches_6_75(self) -> None:
        plan = scheduler(
            max_steps=4, initial_ms=15, policy="backlog", alpha_mode=AlphaMode.NAIVE
        ).advance(ms(200))
        # 215 ms in, 80 ms stepped: 135 ms carried, divided by 20 ms.
        assert plan.carried_out_ns == ms(135)
        assert plan.alpha == 6.75

    def test_the_kept_remainder_makes_the_next_5_ms_frame_complete_a_step(self) -> None:
        clock = scheduler(max_steps=4, initial_ms=15)
        clock.advance(ms(200))
        plan = clock.advance(ms(5))
        assert (plan.steps, plan.remainder_ns, plan.tick) == (1, 0, 5)

    def test_conservation_grid_every_remainder_0_to_19_ms_and_frame_0_to_300_ms(self) -> None:
        cases = 0
        for remainder in range(20):
            for frame in range(301):
                plan = scheduler(max_steps=4, initial_ms=remainder).advance(ms(frame))
                total = ms(remainder) + ms(frame)
                assert total == plan.steps * plan.dt_ns + plan.dropped_ns + plan.remainder_ns
                assert plan.steps <= 4
                assert 0 <= plan.remainder_ns < ms(20)
                assert plan.dropped_ns % ms(20) == 0
                assert plan.balances
                cases += 1
        assert cases == 6_020

    def test_frame_partition_is_part_of_the_policy_when_the_cap_is_hit(self) -> None:
        one_frame = scheduler(max_steps=4)
        assert one_frame.advance(ms(200)).tick == 4
        ten_frames = scheduler(max_steps=4)
        for _ in range(10):
            plan = ten_frames.advance(ms(20))
        assert plan.tick == 10

    def test_frame_partition_does_not_matter_without_overload(self) -> None:
        whole = scheduler(max_steps=4).advance(ms(60))
        split = scheduler(max_steps=4)
        for frame in (7, 13, 15, 25):
            pieces = split.advance(ms(frame))
        assert (pieces.tick, pieces.remainder_ns) == (whole.tick, whole.remainder_ns) == (3, 0)


class TestProjectileAndSpringArticle:
    """docs/references.md#projectile-spring: a 200 ms stall at 60 Hz with a cap of 5."""

    def test_a_200_ms_stall_with_a_cap_of_5_runs_5_ticks_drops_7_keeps_nothing(self) -> None:
        plan = FixedStepScheduler(SchedulerSettings.at_hz(60, max_steps=5)).advance(ms(200))
        assert plan.steps == 5
        assert plan.dropped_ns == 7 * Fraction(1_000_000_000, 60)
        assert plan.dropped_steps == 7
        assert plan.remainder_ns == 0
        assert plan.balances


class TestWorkedExampleArticle:
    """docs/references.md#worked-example: h = 20 ms, 6 ms carried, a 29 ms frame."""

    def test_6_ms_carried_plus_a_29_ms_frame_is_one_step_15_ms_left_alpha_0_75(self) -> None:
        plan = scheduler(initial_ms=6).advance(ms(29))
        assert plan.steps == 1
        assert plan.remainder_ns == ms(15)
        assert plan.alpha == 0.75


class TestThreeLayerArticle:
    """docs/references.md#three-layers: one frame of 20, 40 or 5 ms at 60 Hz."""

    @pytest.mark.parametrize(
        ("frame_ms", "steps", "remainder_ns"),
        [("20", 1, Fraction(10_000_000, 3)), ("40", 2, Fraction(20_000_000, 3)), ("5", 0, ms(5))],
    )
    def test_one_frame_at_60_hz(self, frame_ms: str, steps: int, remainder_ns: Fraction) -> None:
        plan = FixedStepScheduler(SchedulerSettings.at_hz(60)).advance(ms(frame_ms))
        assert (plan.steps, plan.remainder_ns) == (steps, remainder_ns)
        assert plan.alpha == pytest.approx(float(remainder_ns / Fraction(1_000_000_000, 60)))
