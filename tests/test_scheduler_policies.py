"""Each overload policy's defining example: h = 20 ms, M = 4, 15 ms carried, a 200 ms frame.

215 ms are available; the policies differ only in what they do with more than M steps of it.
"""

from fractions import Fraction

from tests.helpers import ms, scheduler
from timestep_lab import POLICIES


def test_the_six_policies_in_key_order() -> None:
    assert list(POLICIES) == ["uncapped", "clamp", "drop", "reset", "backlog", "variable"]


def test_uncapped_runs_every_whole_step_and_drops_nothing() -> None:
    plan = scheduler(policy="uncapped", max_steps=4, initial_ms=15).advance(ms(200))
    assert (plan.steps, plan.dropped_ns, plan.remainder_ns) == (10, 0, ms(15))
    assert plan.strained  # it wanted more than M, and ran them all anyway


def test_clamp_counts_at_most_f_of_the_frame_then_runs_every_whole_step() -> None:
    plan = scheduler(policy="clamp", max_steps=4, max_frame_ns=ms(100), initial_ms=15).advance(
        ms(200)
    )
    # 100 ms of the frame dropped; 15 + 100 = 115 ms = 5 steps (M does not apply) + 15 ms.
    assert (plan.steps, plan.dropped_ns, plan.remainder_ns) == (5, ms(100), ms(15))


def test_clamp_applies_f_to_the_scaled_time_like_bevys_main_branch() -> None:
    # Not like Bevy 0.19, which clamps the wall time and then scales (docs/references.md#bevy).
    fast = scheduler(policy="clamp", max_frame_ns=ms(250), time_scale=4).advance(ms(100))
    assert (fast.scaled_ns, fast.steps, fast.dropped_ns) == (ms(400), 12, ms(150))
    slow = scheduler(policy="clamp", max_frame_ns=ms(250), time_scale=Fraction(1, 2)).advance(
        ms(1000)
    )
    assert (slow.scaled_ns, slow.steps, slow.dropped_ns) == (ms(500), 12, ms(250))


def test_clamp_leaves_a_frame_shorter_than_f_alone() -> None:
    plan = scheduler(policy="clamp", max_frame_ns=ms(100), initial_ms=15).advance(ms(90))
    assert (plan.steps, plan.dropped_ns, plan.remainder_ns) == (5, 0, ms(5))


def test_drop_runs_m_steps_drops_whole_steps_beyond_m_and_keeps_the_remainder() -> None:
    plan = scheduler(policy="drop", max_steps=4, initial_ms=15).advance(ms(200))
    assert (plan.steps, plan.dropped_ns, plan.remainder_ns) == (4, ms(120), ms(15))


def test_reset_empties_the_accumulator_remainder_included_when_more_than_two_steps_remain() -> None:
    plan = scheduler(policy="reset", max_steps=4, initial_ms=15).advance(ms(200))
    # 215 - 4 x 20 = 135 ms left, more than 2 steps: all of it goes, the 15 ms too.
    assert (plan.steps, plan.dropped_ns, plan.remainder_ns, plan.backlog_steps) == (
        4,
        ms(135),
        0,
        0,
    )
    assert plan.alpha == 0.0


def test_reset_keeps_up_to_two_steps_as_backlog() -> None:
    plan = scheduler(policy="reset", max_steps=4, initial_ms=15).advance(ms(100))
    # 115 - 80 = 35 ms left: one whole step and 15 ms, not more than two steps, so kept.
    assert (plan.steps, plan.dropped_ns, plan.backlog_steps, plan.remainder_ns) == (
        4,
        0,
        1,
        ms(15),
    )
    assert plan.alpha == 0.75  # from the remainder only


def test_reset_clamps_the_frame_to_f_first() -> None:
    plan = scheduler(policy="reset", max_steps=20, max_frame_ns=ms(250)).advance(ms(300))
    assert (plan.steps, plan.dropped_ns, plan.remainder_ns) == (12, ms(50), ms(10))


def test_backlog_carries_whole_steps_beyond_m_up_to_b_and_drops_the_excess() -> None:
    clock = scheduler(policy="backlog", max_steps=4, max_backlog_ns=ms(100), initial_ms=15)
    plan = clock.advance(ms(200))
    # 10 whole steps: 4 run, 6 owed, B holds 5 of them, 1 is dropped.
    assert (plan.steps, plan.backlog_steps, plan.dropped_ns, plan.remainder_ns) == (
        4,
        5,
        ms(20),
        ms(15),
    )
    assert plan.alpha == 0.75  # the backlog is work to do, not a position to draw


def test_backlog_is_paid_off_over_the_next_frames_at_m_steps_a_frame() -> None:
    clock = scheduler(policy="backlog", max_steps=4, max_backlog_ns=ms(100), initial_ms=15)
    clock.advance(ms(200))
    first, second = clock.advance(0), clock.advance(0)
    assert (first.steps, first.backlog_steps) == (4, 1)
    assert (second.steps, second.backlog_steps, second.tick) == (1, 0, 9)
    assert second.dropped_ns == 0


def test_backlog_never_drops_while_the_backlog_fits_in_b() -> None:
    plan = scheduler(policy="backlog", max_steps=4).advance(ms(300))  # B = 1 s by default
    assert (plan.steps, plan.backlog_steps, plan.dropped_ns) == (4, 11, 0)


def test_variable_runs_one_step_as_long_as_the_frame_with_alpha_1() -> None:
    plan = scheduler(policy="variable").advance(ms("16.667"))
    assert (plan.steps, plan.dt_ns, plan.dropped_ns, plan.alpha) == (1, ms("16.667"), 0, 1.0)


def test_variable_clamps_the_step_to_f_and_drops_the_rest() -> None:
    plan = scheduler(policy="variable", max_frame_ns=ms(250)).advance(ms(300))
    assert (plan.steps, plan.dt_ns, plan.dropped_ns) == (1, ms(250), ms(50))


def test_variable_runs_no_step_for_an_empty_frame() -> None:
    plan = scheduler(policy="variable").advance(0)
    assert (plan.steps, plan.tick) == (0, 0)
