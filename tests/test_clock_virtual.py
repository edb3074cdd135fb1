"""`VirtualClock`: exact frame boundaries, floored differences, the frame-length formula."""

from fractions import Fraction

import pytest

from game.clock.virtual import FrameJitter, VirtualClock
from timestep_lab import FixedStepScheduler, FrameRan, SchedulerSettings


def test_1440_frames_at_144_fps_are_exactly_ten_seconds_and_end_on_tick_600_at_60_hz() -> None:
    clock = VirtualClock(144)
    scheduler = FixedStepScheduler(SchedulerSettings.at_hz(60))
    handed: list[int] = []
    for _ in range(1440):
        elapsed = clock.move_on(clock.frame_length(0, 0))
        handed.append(elapsed)
        scheduler.advance(elapsed)
    assert sum(handed) == 10_000_000_000
    assert clock.end_ns == 10_000_000_000
    assert set(handed) == {6_944_444, 6_944_445}
    assert scheduler.tick == 600
    assert scheduler.carried_ns == 0


def test_each_frame_hands_over_the_difference_of_floored_boundaries() -> None:
    clock = VirtualClock(144)
    handed = [clock.move_on(clock.frame_length(0, 0)) for _ in range(9)]
    # Boundaries at n x 6,944,444 4/9 ns: the floors advance by 4 or 5 in the last digit.
    assert handed == [6_944_444, 6_944_444, 6_944_445, 6_944_444, 6_944_445,
                      6_944_444, 6_944_445, 6_944_444, 6_944_445]  # fmt: skip
    assert clock.end_ns == 62_500_000
    assert clock.now_ns() == 62_500_000


def test_a_frame_lasts_the_budget_or_its_work_whichever_is_longer_plus_the_stall() -> None:
    clock = VirtualClock(60, render_cost_ns=2_000_000)
    budget = Fraction(50_000_000, 3)
    assert clock.frame_length(0, 20_000_000) == budget
    assert clock.frame_length(1, 10_000_000) == budget  # 12 ms of work fits in 16.7 ms
    assert clock.frame_length(1, 20_000_000) == 22_000_000  # 2 ms render + 20 ms tick
    assert clock.frame_length(3, 20_000_000) == 62_000_000
    assert clock.frame_length(0, 0, stall_ns=200_000_000) == budget + 200_000_000


def test_boundaries_stay_exact_when_frames_need_finer_fractions() -> None:
    # 1/144 s is 62,500,000/9 ns, 1/59.94 s is 50,000,000/2,997 ns, a third of a ns is 1/3 ns:
    # the clock counts in the finest unit needed so far, and its time is the exact sum.
    clock = VirtualClock(144)
    lengths = [Fraction(62_500_000, 9), Fraction(50_000_000_000, 2997), Fraction(1, 3), Fraction(7)]
    handed = [clock.move_on(length) for length in lengths]
    assert clock.end_ns == sum(lengths) == Fraction(70_812_521_978, 2997)
    assert sum(handed) == clock.now_ns() == 23_627_801


def test_the_render_rate_and_cost_can_change_between_frames() -> None:
    clock = VirtualClock(144)
    clock.set_render(render_fps=30)
    assert clock.frame_length(0, 0) == Fraction(100_000_000, 3)
    clock.set_render(render_cost_ns=40_000_000)
    assert clock.frame_length(0, 0) == 40_000_000
    assert clock.budget_ns == Fraction(100_000_000, 3)


def test_jitter_is_splitmix64_so_the_noise_never_changes_with_a_library_version() -> None:
    # The published SplitMix64 sequence for seed 0 starts 0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4.
    raw = FrameJitter(2**64 - 1, 0)
    assert [raw.draw_ns() for _ in range(2)] == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4]
    jitter = FrameJitter(1_000, 7)
    assert [jitter.draw_ns() for _ in range(5)] == [310, 451, 308, 528, 348]


def test_jitter_is_added_to_each_frame_in_whole_nanoseconds() -> None:
    clock = VirtualClock(1000, jitter=FrameJitter(1_000, 7))
    assert [clock.move_on(clock.frame_length(0, 0)) for _ in range(3)] == [
        1_000_310, 1_000_451, 1_000_308,
    ]  # fmt: skip


def test_no_jitter_draws_nothing() -> None:
    assert [FrameJitter(0, 5).draw_ns() for _ in range(3)] == [0, 0, 0]


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: VirtualClock(0), "render_fps must be positive (got 0)"),
        (lambda: VirtualClock(60, -1), "render_cost_ns cannot be negative (got -1)"),
        (lambda: VirtualClock(60).move_on(-1), "a frame cannot last less than nothing"),
        (lambda: FrameJitter(-1, 0), "max_ns must be a whole number of ns, at least 0 (got -1)"),
    ],
)
def test_nonsense_is_refused(call: object, message: str) -> None:
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        call()  # type: ignore[operator]


def test_floats_are_refused_in_the_time_path() -> None:
    with pytest.raises(TypeError, match="render_fps must be an int or Fraction, not float"):
        VirtualClock(144.0)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "length",
    [Fraction(1_000_000_000, 144), Fraction(7, 3), 5_000_000, Fraction(0), Fraction(1, 7919)],
)
def test_ends_after_and_time_until_are_now_plus_and_minus_in_whole_numbers(
    length: Fraction | int,
) -> None:
    clock = VirtualClock(Fraction(5994, 100))
    for step in (Fraction(1_000_000_000, 144), Fraction(33, 7), 3):
        clock.move_on(step)  # a boundary over a denominator of 1,008
    now = clock.end_ns
    for until in (now + length - Fraction(1, 5), now + length, now + length + Fraction(1, 11)):
        assert clock.ends_after(length, until) is (now + length > until)
        assert clock.time_until(until) == until - now
    assert clock.time_until(now - 7) == -7


def test_next_frame_in_whole_units_is_frame_length_then_move_on_exactly() -> None:
    # The clock counts in 1/per_ns ns; a step cost in thirds of a ns and a stall in sevenths make
    # its unit finer mid-run. Frame for frame it hands over what the Fraction formula gives.
    def clock() -> VirtualClock:
        return VirtualClock(144, render_cost_ns=Fraction(3_000_001, 2), jitter=FrameJitter(999, 3))

    by_units, by_fractions = clock(), clock()
    frames = [FrameRan(), FrameRan(2, Fraction(10_000_000, 3)), FrameRan(stall_ns=Fraction(5, 7))]
    frames += [FrameRan(1, 9_000_000, Fraction(250_000_000, 3)), FrameRan()]
    for ran in frames:
        length = by_fractions.frame_length(*ran)
        assert by_units.next_frame(ran) == by_fractions.move_on(length)
        assert by_units.end_ns == by_fractions.end_ns
        assert by_units.last_length_ns == length
    assert by_units.held_stall_ns == by_fractions.held_stall_ns == Fraction(1_750_000_015, 21)


def test_a_frame_that_would_end_after_the_run_is_not_begun_and_its_stall_not_held() -> None:
    clock = VirtualClock(100)
    assert clock.next_frame(FrameRan(), until_ns=10_000_000) == 10_000_000
    assert clock.next_frame(FrameRan(stall_ns=1), until_ns=20_000_000) is None
    assert (clock.end_ns, clock.last_length_ns, clock.held_stall_ns) == (10_000_000, 10_000_001, 0)
    assert clock.next_frame(FrameRan(), until_ns=20_000_000) == 10_000_000
