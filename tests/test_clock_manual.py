"""The manual clock: time moves by exactly what is spent, and it keeps the accounts."""

import pytest

from game.clock.manual import ManualClock


def test_time_stands_still_until_something_spends_it() -> None:
    clock = ManualClock(start_ns=1_000)
    assert [clock.now_ns(), clock.now_ns()] == [1_000, 1_000]


def test_work_sleeps_spins_and_stalls_each_move_time_by_exactly_their_length() -> None:
    clock = ManualClock()
    clock.move_on(3_000_000)
    clock.sleep_ns(10_000_000)
    clock.busy_wait_ns(2_000_000)
    clock.block_ns(200_000_000)
    assert clock.now_ns() == 215_000_000
    assert (clock.slept_ns, clock.spun_ns, clock.blocked_ns, clock.sleeps) == (
        10_000_000,
        2_000_000,
        200_000_000,
        1,
    )


def test_oversleep_makes_every_sleep_wake_late_like_a_real_os() -> None:
    clock = ManualClock(oversleep_ns=300_000)
    clock.sleep_ns(1_000_000)
    clock.sleep_ns(1_000_000)
    assert clock.now_ns() == 2_600_000
    assert (clock.slept_ns, clock.sleeps) == (2_600_000, 2)


def test_a_zero_sleep_returns_at_once_and_does_not_count_as_a_sleep() -> None:
    clock = ManualClock(oversleep_ns=300_000)
    clock.sleep_ns(0)
    assert (clock.now_ns(), clock.slept_ns, clock.sleeps) == (0, 0, 0)


@pytest.mark.parametrize("spend", ["move_on", "sleep_ns", "busy_wait_ns", "block_ns"])
def test_time_cannot_be_spent_backwards(spend: str) -> None:
    clock = ManualClock(start_ns=500)
    with pytest.raises(ValueError, match="cannot be negative"):
        getattr(clock, spend)(-1)
    assert clock.now_ns() == 500


def test_a_clock_cannot_start_at_a_fractional_instant_or_oversleep_backwards() -> None:
    with pytest.raises(TypeError, match="start_ns must be an int"):
        ManualClock(start_ns=0.5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="oversleep cannot be negative"):
        ManualClock(oversleep_ns=-1)
