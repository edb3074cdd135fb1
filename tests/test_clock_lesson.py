"""The lesson clock's pieces, worked through exact values: the frames it makes, the slow-motion
meter and the rule that falls back to it when a laptop cannot hold a step's rate."""

from __future__ import annotations

from fractions import Fraction

from game.clock.lesson import (
    FRAME_WORK_NS,
    LessonClock,
    RateWatch,
    SlowMotion,
    wanted_frame_ns,
)
from timestep_lab import hz_to_step_ns

MS = 1_000_000
PERIOD_144 = hz_to_step_ns(144)  # 62,500,000/9 ns


def test_a_lesson_frame_is_what_was_spent_on_it_plus_its_drawing() -> None:
    clock = LessonClock()
    clock.start_frames()
    clock.sleep_ns(5 * MS)
    clock.busy_wait_ns(12 * MS)  # a tick's step cost: counted, not burnt
    assert clock.next_frame() == 18 * MS  # 5 + 12 + the 1 ms of drawing
    clock.block_ns(200 * MS)  # a stall
    assert clock.next_frame() == 201 * MS
    assert FRAME_WORK_NS == 1 * MS


def test_slow_motion_is_lesson_time_over_real_time_in_the_last_second() -> None:
    meter = SlowMotion()
    assert meter.text() == "lesson clock"
    for _ in range(60):  # 60 frames of 5 ms each, every one shown in 20 ms
        meter.shown(5 * MS, 20 * MS)
    assert meter.factor == Fraction(1, 4)
    assert meter.simulated_fps == 200
    assert meter.text() == "shown at 0.25x"


def test_the_factor_takes_the_last_real_second_and_the_rate_the_last_lesson_second() -> None:
    meter = SlowMotion()
    for _ in range(200):
        meter.shown(10 * MS, 10 * MS)  # full speed for two seconds
    for _ in range(50):
        meter.shown(5 * MS, 20 * MS)  # then a whole real second four times slower
    assert meter.factor == Fraction(1, 4)
    # the last lesson second: those 50 frames of 5 ms, then 75 frames of 10 ms
    assert meter.simulated_fps == 125
    assert meter.text() == "shown at 0.25x"


def test_slow_motion_says_1x_at_full_speed_and_two_figures_below() -> None:
    meter = SlowMotion()
    meter.shown(int(PERIOD_144), int(PERIOD_144))
    assert meter.text() == "shown at 1x"
    meter.clear()
    meter.shown(10 * MS, 310 * MS)
    assert meter.text() == "shown at 0.032x"


def test_the_wanted_frame_is_the_period_or_the_ticks_cost_when_longer() -> None:
    sixty = hz_to_step_ns(60)
    assert wanted_frame_ns(sixty, 1, 12 * MS) == 16_666_666  # 13 ms of work fits the period
    assert wanted_frame_ns(sixty, 2, 12 * MS) == 25 * MS  # 2 x 12 + 1: longer than the period
    assert wanted_frame_ns(None, 0, 0) == 1 * MS  # uncapped: the drawing alone


def test_the_rate_watch_waits_for_a_whole_second() -> None:
    watch = RateWatch()
    for _ in range(100):
        watch.frame(9 * MS, 6 * MS)  # 0.9 s of frames at two thirds of the rate
    assert watch.held is None
    assert not watch.falls_short
    watch.frame(100 * MS, 6 * MS)
    assert watch.held == Fraction(606, 1000)
    assert watch.falls_short


def _watched(share: Fraction) -> RateWatch:
    """A second and a bit of frames at `share` of 144 fps."""
    watch = RateWatch()
    wanted = int(PERIOD_144)
    real = int(wanted / share)
    for _ in range(160):
        watch.frame(real, wanted)
    return watch


def test_the_fallback_comes_under_90_percent_of_the_rate_not_at_95() -> None:
    below = _watched(Fraction(89, 100))
    assert below.held is not None and below.held < Fraction(9, 10)
    assert below.falls_short
    above = _watched(Fraction(95, 100))
    assert above.held is not None and above.held > Fraction(94, 100)
    assert not above.falls_short
    assert not _watched(Fraction(1)).falls_short


def test_a_cleared_rate_watch_starts_afresh() -> None:
    watch = _watched(Fraction(1, 2))
    assert watch.falls_short
    watch.clear()
    assert watch.held is None


def test_a_wobbling_lesson_clock_adds_seeded_noise_to_each_frames_drawing() -> None:
    clock = LessonClock()
    clock.wobble_up_to(1 * MS)  # a step's `jitter_ms = 1`
    clock.start_frames()
    lengths = []
    for _ in range(3):
        clock.sleep_ns(5 * MS)
        lengths.append(clock.next_frame())
    # 5 ms slept, 1 ms of drawing, then SplitMix64's first three draws from seed 0 (FrameJitter).
    assert lengths == [6 * MS + 485_069, 6 * MS + 793_785, 6 * MS + 13_824]
    clock.wobble_up_to(1 * MS)  # the same bound: the sequence goes on, it does not restart
    clock.sleep_ns(5 * MS)
    assert clock.next_frame() != 6 * MS + 485_069
    clock.wobble_up_to(0)  # a step without a wobble: exact frames again
    clock.sleep_ns(5 * MS)
    assert clock.next_frame() == 6 * MS
