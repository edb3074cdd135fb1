"""Properties that hold for every policy, every setting and every frame sequence."""

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from timestep_lab import POLICIES, AlphaMode, FixedStepScheduler, SchedulerSettings, TimeBooks

STEPS_NS = [Fraction(1_000_000_000, hz) for hz in (10, 30, 50, 60, 120, 144, 240)] + [
    Fraction(16_000_000),
    Fraction(16_666_000),
    Fraction(7_919_011, 3),
]
SCALES = [Fraction(1, 8), Fraction(1, 3), Fraction(1, 2), Fraction(1), Fraction(7, 5), Fraction(4)]


@st.composite
def scheduler_settings(draw: st.DrawFn) -> SchedulerSettings:
    step = draw(st.sampled_from(STEPS_NS))
    return SchedulerSettings(
        step_ns=step,
        policy=draw(st.sampled_from(list(POLICIES))),
        max_steps=draw(st.integers(1, 12)),
        max_frame_ns=step * draw(st.integers(1, 30)) + draw(st.integers(0, 10**6)),
        max_backlog_ns=Fraction(draw(st.integers(0, 2 * 10**9))),
        time_scale=draw(st.sampled_from(SCALES)),
        alpha_mode=draw(st.sampled_from(list(AlphaMode))),
    )


# A frame is an elapsed time in ns (up to 2 s), or a pause/resume toggle, or a single step.
frames = st.lists(
    st.one_of(st.integers(0, 2 * 10**9), st.sampled_from(["toggle", "single"])),
    max_size=60,
)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(scheduler_settings(), frames, st.data())
def test_every_frame_balances_and_stays_in_range(
    config: SchedulerSettings, sequence: list[int | str], data: st.DataObject
) -> None:
    initial = Fraction(data.draw(st.integers(0, int(config.step_ns) - 1)))
    clock = FixedStepScheduler(config, initial_remainder_ns=initial)
    books = TimeBooks(initial)
    for frame in sequence:
        if frame == "toggle":
            clock.resume() if clock.paused else clock.pause()
            continue
        if frame == "single":
            if not clock.paused:
                continue
            plan = clock.single_step()
        else:
            assert isinstance(frame, int)
            plan = clock.advance(frame)
        books.record(plan)
        assert plan.balances
        assert plan.steps >= 0 and plan.dropped_ns >= 0
        assert 0 <= plan.remainder_ns < plan.step_ns
        if config.policy in ("drop", "reset", "backlog") and not plan.granted_ns:
            assert plan.steps <= config.max_steps
        if config.policy == "backlog":
            assert plan.backlog_steps * plan.step_ns <= config.max_backlog_ns
        if config.alpha_mode is AlphaMode.CORRECT and config.policy != "variable":
            assert 0.0 <= plan.alpha < 1.0
        if config.policy in ("drop", "clamp", "uncapped", "variable"):
            assert plan.backlog_steps == 0
    assert books.ledger_ok
    assert books.ticks == clock.tick


@settings(max_examples=200, deadline=None)
@given(scheduler_settings(), frames, st.sampled_from([-1, -(10**12), 1.0, True, None, "5"]))
def test_a_rejected_frame_changes_nothing(
    config: SchedulerSettings, sequence: list[int | str], bad: object
) -> None:
    clock = FixedStepScheduler(config)
    for frame in sequence:
        if isinstance(frame, int):
            clock.advance(frame)
    before = (clock.tick, clock.carried_ns, clock.sim_time_ns, clock.overloaded, clock.last_plan)
    try:
        clock.advance(bad)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        pass
    else:
        raise AssertionError(f"{bad!r} was accepted")
    assert (
        clock.tick,
        clock.carried_ns,
        clock.sim_time_ns,
        clock.overloaded,
        clock.last_plan,
    ) == before


@settings(max_examples=200, deadline=None)
@given(
    scheduler_settings(),
    st.lists(st.integers(0, 40_000_000), min_size=1, max_size=30),
)
def test_without_overload_the_frame_partition_does_not_matter(
    config: SchedulerSettings, pieces: list[int]
) -> None:
    """Uncapped never drops, so one long frame and its pieces end on the same tick."""
    config = config.with_changes(policy="uncapped")
    whole = FixedStepScheduler(config).advance(sum(pieces))
    split = FixedStepScheduler(config)
    for piece in pieces:
        last = split.advance(piece)
    assert (last.tick, last.remainder_ns, last.sim_time_ns) == (
        whole.tick,
        whole.remainder_ns,
        whole.sim_time_ns,
    )
