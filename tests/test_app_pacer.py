"""The frame pacer, driven by a manual clock: every deadline, sleep and spin is an exact number.

Deadlines are `anchor + n * 1_000_000_000 // fps`: at 60 fps frames end at 16_666_666,
33_333_333, 50_000_000 ns after the anchor, so after 60 frames exactly one second has passed.
"""

import pytest

from game.app.pacer import MAX_CAP_FPS, FramePacer, SleepMargin
from game.clock.manual import ManualClock
from game.vocabulary import RENDER_CAPS as FPS_CAPS
from tests.helpers import ms

SECOND = 1_000_000_000


def started(
    cap_fps: int | None, *, margin_ms: int | None = 2, **clock: int
) -> tuple[FramePacer, ManualClock]:
    """A pacer whose schedule is anchored at t = 0 on a fresh manual clock."""
    margin = SleepMargin() if margin_ms is None else SleepMargin.fixed(ms(margin_ms))
    pacer = FramePacer(cap_fps, margin=margin)
    manual = ManualClock(**clock)
    assert pacer.wait(manual) == 0  # the first wait only sets the anchor
    return pacer, manual


def frames(pacer: FramePacer, clock: ManualClock, count: int, *, work_ns: int) -> list[int]:
    """Run `count` frames of `work_ns` each; return the instants the frames ended."""
    ends = []
    for _ in range(count):
        clock.move_on(work_ns)
        pacer.wait(clock)
        ends.append(clock.now_ns())
    return ends


def intervals(start: int, ends: list[int]) -> list[int]:
    return [later - earlier for earlier, later in zip([start, *ends], ends, strict=False)]


class TestDeadlines:
    def test_the_first_wait_sets_the_anchor_and_returns_at_once(self) -> None:
        pacer = FramePacer(60)
        clock = ManualClock(start_ns=5_000)
        assert pacer.next_deadline_ns is None
        assert pacer.wait(clock) == 0
        assert clock.now_ns() == 5_000
        assert pacer.next_deadline_ns == 5_000 + 16_666_666

    def test_at_60_fps_frames_end_on_exact_thirds_and_60_frames_make_one_second(self) -> None:
        pacer, clock = started(60)
        ends = frames(pacer, clock, 60, work_ns=ms(3))
        assert ends[:3] == [16_666_666, 33_333_333, 50_000_000]
        assert intervals(0, ends)[:3] == [16_666_666, 16_666_667, 16_666_667]
        assert ends[-1] == SECOND

    def test_at_144_fps_every_frame_is_6_944_444_or_6_944_445_ns_and_144_make_a_second(
        self,
    ) -> None:
        pacer, clock = started(144)
        ends = frames(pacer, clock, 144, work_ns=ms(2))
        assert set(intervals(0, ends)) == {6_944_444, 6_944_445}
        assert ends[-1] == SECOND

    def test_a_minute_at_144_fps_ends_exactly_a_minute_after_the_anchor(self) -> None:
        pacer, clock = started(144, start_ns=123)
        ends = frames(pacer, clock, 144 * 60, work_ns=ms(1))
        assert ends[-1] == 123 + 60 * SECOND
        assert ends[144 * 30 - 1] == 123 + 30 * SECOND


class TestSleepThenSpin:
    def test_it_sleeps_until_the_margin_before_the_deadline_then_spins_the_rest(self) -> None:
        pacer, clock = started(60, margin_ms=2)
        clock.move_on(ms(5))
        waited = pacer.wait(clock)
        assert waited == 11_666_666  # the frame's 16_666_666 minus its 5 ms of work
        assert (clock.slept_ns, clock.spun_ns, clock.now_ns()) == (9_666_666, ms(2), 16_666_666)

    def test_a_late_wake_up_within_the_margin_is_absorbed_by_a_shorter_spin(self) -> None:
        pacer, clock = started(60, margin_ms=2, oversleep_ns=ms("0.3"))
        clock.move_on(ms(5))
        assert pacer.wait(clock) == 11_666_666
        assert (clock.slept_ns, clock.spun_ns) == (9_966_666, ms("1.7"))

    def test_a_frame_with_less_work_left_than_the_margin_only_spins(self) -> None:
        pacer, clock = started(60, margin_ms=2)
        clock.move_on(ms(15))
        assert pacer.wait(clock) == 1_666_666
        assert (clock.sleeps, clock.spun_ns) == (0, 1_666_666)

    def test_a_wake_up_later_than_the_margin_ends_the_frame_late_and_the_next_one_early(
        self,
    ) -> None:
        pacer, clock = started(60, margin_ms=2, oversleep_ns=ms("2.5"))
        ends = frames(pacer, clock, 2, work_ns=ms(5))
        assert ends == [16_666_666 + ms("0.5"), 33_333_333 + ms("0.5")]
        assert clock.spun_ns == 0

    def test_the_margin_learns_from_late_wake_ups_and_then_spins_only_what_it_needs(
        self,
    ) -> None:
        pacer, clock = started(60, margin_ms=None, oversleep_ns=ms(1))
        frames(pacer, clock, 1, work_ns=ms(5))
        # Before any measurement: the 2 ms default; the sleep woke 1 ms late, 1 ms left to spin.
        assert (clock.spun_ns, pacer.margin.ns) == (ms(1), ms("1.25"))
        ends = frames(pacer, clock, 1, work_ns=ms(5))
        # Now the margin is the worst oversleep seen plus 0.25 ms of slack.
        assert (clock.spun_ns, ends) == (ms("1.25"), [33_333_333])


class TestSleepMargin:
    def test_it_starts_at_its_initial_value_until_a_sleep_is_measured(self) -> None:
        assert SleepMargin().ns == ms(2)

    def test_it_is_the_worst_recent_oversleep_plus_slack(self) -> None:
        margin = SleepMargin(window=3)
        for oversleep in (ms("0.1"), ms("1.2"), ms("0.2")):
            margin.record(oversleep)
        assert margin.ns == ms("1.45")

    def test_an_old_late_wake_up_is_forgotten_once_it_leaves_the_window(self) -> None:
        margin = SleepMargin(window=3)
        for oversleep in (ms("1.2"), ms("0.2"), ms("0.3"), ms("0.4")):
            margin.record(oversleep)
        assert margin.ns == ms("0.65")

    def test_it_stays_between_its_floor_and_its_ceiling(self) -> None:
        margin = SleepMargin(window=1)
        margin.record(0)
        assert margin.ns == ms("0.5")
        margin.record(ms(30))
        assert margin.ns == ms(4)

    def test_a_fixed_margin_never_moves(self) -> None:
        margin = SleepMargin.fixed(ms(3))
        margin.record(ms(10))
        margin.record(0)
        assert margin.ns == ms(3)

    @pytest.mark.parametrize(
        ("settings", "message"),
        [
            ({"floor_ns": ms(5)}, "margin floor 5000000 ns is above the ceiling 4000000 ns"),
            ({"slack_ns": -1}, "margin slack cannot be negative"),
            ({"window": 0}, "margin window must be a whole number of sleeps"),
        ],
    )
    def test_nonsense_settings_are_refused(self, settings: dict[str, int], message: str) -> None:
        with pytest.raises(ValueError, match=message):
            SleepMargin(**settings)


class TestLateFramesAndStalls:
    def test_a_frame_late_by_less_than_a_period_keeps_the_schedule(self) -> None:
        pacer, clock = started(60)
        clock.move_on(ms(20))
        assert pacer.wait(clock) == 0
        assert (pacer.next_deadline_ns, pacer.reanchors) == (33_333_333, 0)
        # The next frame is shorter, and the one after is back on the one-second grid.
        assert frames(pacer, clock, 2, work_ns=ms(3)) == [33_333_333, 50_000_000]

    @pytest.mark.parametrize(
        ("late_ns", "reanchors", "next_deadline"),
        [
            (16_666_666, 0, 33_333_333),  # 1/60 s is 16_666_666.67 ns: not more than a period
            (16_666_667, 1, 33_333_333 + 16_666_666),  # more than a period: a new schedule
        ],
    )
    def test_only_a_frame_late_by_more_than_a_whole_period_counts_as_a_stall(
        self, late_ns: int, reanchors: int, next_deadline: int
    ) -> None:
        pacer, clock = started(60)
        clock.move_on(16_666_666 + late_ns)
        assert pacer.wait(clock) == 0
        assert (pacer.reanchors, pacer.next_deadline_ns) == (reanchors, next_deadline)

    def test_after_a_stall_the_schedule_restarts_from_the_stall_with_no_burst(self) -> None:
        pacer, clock = started(60)
        frames(pacer, clock, 3, work_ns=ms(1))
        clock.block_ns(ms(200))
        assert pacer.wait(clock) == 0
        stalled_at = 50_000_000 + ms(200)
        assert (pacer.reanchors, clock.now_ns()) == (1, stalled_at)
        ends = frames(pacer, clock, 60, work_ns=ms(1))
        assert intervals(stalled_at, ends)[:3] == [16_666_666, 16_666_667, 16_666_667]
        assert ends[-1] == stalled_at + SECOND


class TestCapChanges:
    def test_uncapped_never_waits_and_the_clock_moves_only_by_the_work(self) -> None:
        pacer, clock = started(None)
        waits = []
        for work in (ms(1), ms(7), 3, ms(40)):
            clock.move_on(work)
            waits.append(pacer.wait(clock))
        assert waits == [0, 0, 0, 0]
        assert (clock.now_ns(), clock.slept_ns, clock.spun_ns) == (ms(48) + 3, 0, 0)
        assert (pacer.next_deadline_ns, pacer.period_ns) == (None, None)

    def test_a_new_cap_starts_from_the_frame_in_flight_and_keeps_exact_deadlines(self) -> None:
        pacer, clock = started(60)
        ends = frames(pacer, clock, 10, work_ns=ms(1))
        assert ends[-1] == 166_666_666
        clock.move_on(ms(1))
        pacer.set_cap(144)
        assert pacer.next_deadline_ns == 166_666_666 + 6_944_444
        ends = frames(pacer, clock, 144, work_ns=0)  # the frame in flight is the first of them
        assert (ends[0], ends[-1]) == (166_666_666 + 6_944_444, 166_666_666 + SECOND)

    def test_capping_an_uncapped_game_paces_the_frame_in_flight_from_its_start(self) -> None:
        pacer, clock = started(None)
        frames(pacer, clock, 2, work_ns=ms(5))
        clock.move_on(ms(3))
        pacer.set_cap(30)
        assert pacer.wait(clock) == 33_333_333 - ms(3)
        assert clock.now_ns() == ms(10) + 33_333_333

    def test_setting_a_cap_before_the_first_frame_leaves_the_anchor_to_the_first_wait(
        self,
    ) -> None:
        pacer = FramePacer(None)
        pacer.set_cap(240)
        assert (pacer.cap_fps, pacer.next_deadline_ns) == (240, None)

    @pytest.mark.parametrize("cap", [cap or None for cap in FPS_CAPS])
    def test_every_cap_the_player_can_pick_is_accepted(self, cap: int | None) -> None:
        pacer = FramePacer(60)
        pacer.set_cap(cap)
        assert pacer.cap_fps == cap

    def test_the_period_is_exact(self) -> None:
        assert FramePacer(144).period_ns * 144 == SECOND  # type: ignore[operator]
        assert str(FramePacer(144).period_ns) == "62500000/9"


class TestBadCaps:
    @pytest.mark.parametrize(
        ("cap", "error", "message"),
        [
            (0, ValueError, f"render cap must be between 1 and {MAX_CAP_FPS} fps \\(got 0\\)"),
            (-60, ValueError, "render cap must be between 1 and 1000 fps \\(got -60\\)"),
            (1_000_000, ValueError, "render cap must be between 1 and 1000 fps"),
            (True, TypeError, "whole number of frames per second or None .* not bool"),
            (60.0, TypeError, "whole number of frames per second or None .* not float"),
            ("60", TypeError, "whole number of frames per second or None .* not str"),
        ],
    )
    def test_a_bad_cap_is_refused_and_the_pacer_keeps_its_schedule(
        self, cap: object, error: type[Exception], message: str
    ) -> None:
        pacer, clock = started(60)
        frames(pacer, clock, 5, work_ns=ms(1))
        with pytest.raises(error, match=message):
            pacer.set_cap(cap)  # type: ignore[arg-type]
        assert (pacer.cap_fps, pacer.next_deadline_ns) == (60, 100_000_000)
        assert frames(pacer, clock, 1, work_ns=ms(1)) == [100_000_000]
        with pytest.raises(error, match=message):
            FramePacer(cap)  # type: ignore[arg-type]
