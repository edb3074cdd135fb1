"""`drawn_whole_ns`: the drawn time in whole ns from the plan's integers, as the exact
`drawn_time_ns` rounded by `round_ns` gives it, under every picture mode and policy."""

from __future__ import annotations

from fractions import Fraction

from game.session.drawn import drawn_time_ns, drawn_whole_ns
from game.world.render_view import InterpolationMode
from tests.helpers import ms
from timestep_lab import FixedStepScheduler, SchedulerSettings, round_ns


def test_it_is_the_exact_drawn_time_rounded_for_every_mode_and_policy() -> None:
    frames = [ms("6.944"), ms(137), ms("0.5"), ms(3), ms("16.667"), ms(40), 1, 7_777_777]
    checked = 0
    for policy in ("clamp", "drop", "reset", "backlog", "variable"):
        for step_ns in (Fraction(1_000_000_000, 60), Fraction(1_000_000_000, 7), Fraction(ms(20))):
            settings = SchedulerSettings(step_ns=step_ns, policy=policy, max_steps=3)
            clock = FixedStepScheduler(settings.with_changes(time_scale=Fraction(1, 3)))
            for elapsed_ns in frames * 3:
                plan = clock.advance(elapsed_ns)
                for mode in InterpolationMode:
                    exact = round_ns(drawn_time_ns(plan, mode))
                    assert drawn_whole_ns(plan, mode) == exact
                    checked += 1
    assert checked == 5 * 3 * 24 * len(InterpolationMode)


def test_a_half_nanosecond_rounds_away_from_zero_as_round_ns_does() -> None:
    step_ns = Fraction(200_000_001, 2)  # 100 ms and half a nanosecond
    clock = FixedStepScheduler(SchedulerSettings(step_ns=step_ns, max_steps=10))
    plan = clock.advance(100_000_001)  # one tick, half a nanosecond carried
    assert drawn_time_ns(plan, InterpolationMode.OFF) == step_ns
    assert drawn_whole_ns(plan, InterpolationMode.OFF) == 100_000_001
    assert drawn_time_ns(plan, InterpolationMode.INTERPOLATE) == Fraction(1, 2)
    assert drawn_whole_ns(plan, InterpolationMode.INTERPOLATE) == 1
    assert drawn_whole_ns(plan, InterpolationMode.EXTRAPOLATE) == 100_000_001
