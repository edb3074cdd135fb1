"""Pause, single step, time scale, live reconfiguration, the overload light, and bad input."""

from fractions import Fraction

import pytest

from tests.helpers import ms, scheduler
from timestep_lab import AlphaMode, FixedStepScheduler, SchedulerSettings, TimeBooks


def snapshot(clock: FixedStepScheduler) -> tuple[object, ...]:
    return (
        clock.tick,
        clock.carried_ns,
        clock.sim_time_ns,
        clock.paused,
        clock.overloaded,
        clock.settings,
        clock.last_plan,
    )


class TestPause:
    def test_paused_wall_time_is_neither_simulated_nor_dropped_and_the_remainder_survives(
        self,
    ) -> None:
        clock = scheduler()
        books = TimeBooks()
        books.record(clock.advance(ms(15)))
        clock.pause()
        paused = clock.advance(ms(5_000))
        books.record(paused)
        assert (paused.steps, paused.dropped_ns, paused.scaled_ns, paused.paused) == (0, 0, 0, True)
        assert paused.remainder_ns == ms(15)
        assert paused.alpha == 0.75
        clock.resume()
        resumed = clock.advance(ms(5))
        books.record(resumed)
        # Resume does not bill the 5 s: 15 + 5 ms is exactly one step.
        assert (resumed.steps, resumed.remainder_ns, resumed.tick) == (1, 0, 1)
        assert books.paused_ns == ms(5_000)
        assert books.dropped_ns == 0
        assert books.ledger_ok

    def test_a_single_step_while_paused_runs_exactly_one_tick_and_keeps_the_remainder(
        self,
    ) -> None:
        clock = scheduler(initial_ms=15)
        clock.pause()
        plan = clock.single_step()
        assert (plan.steps, plan.dt_ns, plan.tick, plan.remainder_ns) == (1, ms(20), 1, ms(15))
        assert plan.balances
        assert clock.sim_time_ns == ms(20)

    def test_a_single_step_is_refused_while_running_and_changes_nothing(self) -> None:
        clock = scheduler(initial_ms=15)
        before = snapshot(clock)
        with pytest.raises(ValueError, match="only while paused"):
            clock.single_step()
        assert snapshot(clock) == before


class TestTimeScale:
    def test_one_eighth_speed_needs_eight_frames_for_one_step(self) -> None:
        clock = scheduler(time_scale=Fraction(1, 8))
        ticks = [clock.advance(ms(20)).tick for _ in range(8)]
        assert ticks == [0, 0, 0, 0, 0, 0, 0, 1]

    def test_the_scale_applies_before_the_policy(self) -> None:
        plan = scheduler(time_scale=Fraction(4), max_steps=5).advance(ms(40))
        # 160 ms of simulated time wanted: 8 steps, 5 run, 3 dropped.
        assert (plan.steps, plan.dropped_ns, plan.scaled_ns) == (5, ms(60), ms(160))

    def test_an_awkward_scale_stays_exact(self) -> None:
        clock = FixedStepScheduler(SchedulerSettings.at_hz(60, time_scale=Fraction(1, 7)))
        books = TimeBooks()
        for _ in range(7 * 60):
            books.record(clock.advance(ms("16.666667")))
        assert books.ledger_ok
        assert books.scaled_ns == Fraction(7 * 60 * ms("16.666667"), 7)


class TestReconfigure:
    def test_switching_the_tick_rate_keeps_the_tick_and_the_carried_time(self) -> None:
        clock = FixedStepScheduler(SchedulerSettings.at_hz(60))
        clock.advance(ms(30))
        carried, tick = clock.carried_ns, clock.tick
        clock.reconfigure(SchedulerSettings.at_hz(50))
        assert (
            (clock.carried_ns, clock.tick)
            == (carried, tick)
            == (
                Fraction(40_000_000, 3),
                1,
            )
        )
        plan = clock.advance(ms("6.666667"))
        # 13 1/3 ms carried + 6.666667 ms = 20 ms + 1/3 ns: one 20 ms step.
        assert (plan.steps, plan.remainder_ns) == (1, Fraction(1, 3))
        assert plan.balances

    def test_switching_from_backlog_to_drop_drops_the_backlog_beyond_m(self) -> None:
        clock = scheduler(policy="backlog", max_steps=4, initial_ms=15)
        clock.advance(ms(200))  # 6 steps of backlog
        clock.reconfigure(clock.settings.with_changes(policy="drop"))
        plan = clock.advance(0)
        assert (plan.steps, plan.dropped_ns, plan.backlog_steps, plan.remainder_ns) == (
            4,
            ms(40),
            0,
            ms(15),
        )

    def test_every_knob_can_change_between_two_frames_and_the_books_still_balance(self) -> None:
        clock = FixedStepScheduler(SchedulerSettings.at_hz(60))
        books = TimeBooks()
        changes: list[dict[str, object]] = [
            {"policy": "backlog"},
            {"max_steps": 2},
            {"time_scale": Fraction(1, 8)},
            {"step_ns": Fraction(1_000_000_000, 144)},
            {"alpha_mode": AlphaMode.NAIVE},
            {"policy": "variable"},
            {"max_frame_ns": ms(100)},
            {"policy": "reset"},
            {"max_backlog_ns": ms(50)},
            {"policy": "clamp"},
            {"time_scale": Fraction(3)},
        ]
        for change in changes:
            books.record(clock.advance(ms(137)))
            clock.reconfigure(clock.settings.with_changes(**change))
            books.record(clock.advance(ms("3.5")))
        assert books.ledger_ok
        assert books.ticks == clock.tick

    def test_reconfigure_refuses_anything_but_settings_and_changes_nothing(self) -> None:
        clock = scheduler(initial_ms=15)
        before = snapshot(clock)
        with pytest.raises(TypeError):
            clock.reconfigure({"policy": "drop"})  # type: ignore[arg-type]
        assert snapshot(clock) == before


class TestOverloadLight:
    def test_lights_after_three_strained_frames_in_a_row_not_after_one_stall(self) -> None:
        clock = scheduler(max_steps=4)
        lights = [clock.advance(ms(200)).overloaded for _ in range(3)]
        assert lights == [False, False, True]

    def test_a_single_stall_between_normal_frames_never_lights_it(self) -> None:
        clock = scheduler(max_steps=4)
        lights = [clock.advance(ms(f)).overloaded for f in (20, 200, 20, 200, 20)]
        assert lights == [False] * 5

    def test_a_slowdown_caught_up_within_the_cap_never_lights_it(self) -> None:
        # The frames of docs/references.md#monogame: MonoGame's flag is on for frames 3 to 8.
        clock = scheduler(step_ms=100, max_steps=5)
        plans = [clock.advance(ms(f)) for f in (200, 400, 200, *[100] * 7)]
        assert [plan.steps for plan in plans] == [2, 4, 2, 1, 1, 1, 1, 1, 1, 1]
        assert not any(plan.overloaded or plan.strained for plan in plans)

    def test_goes_off_once_a_frame_runs_unstrained_with_no_backlog(self) -> None:
        clock = scheduler(max_steps=4)
        for _ in range(3):
            clock.advance(ms(200))
        assert clock.advance(ms(20)).overloaded is False

    def test_stays_on_until_the_backlog_is_paid_off(self) -> None:
        clock = scheduler(policy="backlog", max_steps=4)
        for _ in range(3):
            clock.advance(ms(200))  # 6 steps owed per frame: 18 owed
        lights = []
        while True:
            plan = clock.advance(ms(20))
            lights.append(plan.overloaded)
            if plan.backlog_steps == 0:
                break
        assert lights[:-1] == [True] * (len(lights) - 1)
        assert lights[-1] is False

    def test_the_threshold_is_a_setting(self) -> None:
        clock = scheduler(max_steps=4, overload_frames=1)
        assert clock.advance(ms(200)).overloaded is True


class TestBadInputChangesNothing:
    @pytest.mark.parametrize(
        ("elapsed", "error"),
        [
            (-1, ValueError),
            (True, TypeError),
            (1.5, TypeError),
            (float("nan"), TypeError),
            (float("inf"), TypeError),
            ("16", TypeError),
            (None, TypeError),
            (Fraction(1, 2), TypeError),
            (10**30, ValueError),
        ],
    )
    def test_advance_refuses_bad_elapsed_time(self, elapsed: object, error: type) -> None:
        clock = scheduler(policy="backlog", max_steps=4, initial_ms=15)
        clock.advance(ms(200))
        before = snapshot(clock)
        with pytest.raises(error):
            clock.advance(elapsed)  # type: ignore[arg-type]
        assert snapshot(clock) == before

    @pytest.mark.parametrize(
        ("change", "error", "message"),
        [
            ({"step_ns": 0}, ValueError, "step"),
            ({"step_ns": -5}, ValueError, "step"),
            ({"step_ns": 16.6}, TypeError, "step_ns"),
            ({"max_steps": 0}, ValueError, "max_steps"),
            ({"max_steps": True}, TypeError, "max_steps"),
            ({"max_frame_ns": ms(10)}, ValueError, "max frame"),
            ({"max_backlog_ns": -1}, ValueError, "backlog"),
            ({"time_scale": 0}, ValueError, "time scale"),
            ({"time_scale": 65}, ValueError, "time scale"),
            ({"time_scale": 0.5}, TypeError, "time_scale"),
            ({"policy": "turbo"}, ValueError, "policy"),
            ({"alpha_mode": "sideways"}, ValueError, "alpha"),
            ({"overload_frames": 0}, ValueError, "overload_frames"),
        ],
    )
    def test_settings_refuse_bad_values_clearly(
        self, change: dict[str, object], error: type, message: str
    ) -> None:
        clock = scheduler(initial_ms=15)
        before = snapshot(clock)
        with pytest.raises(error, match=message):
            clock.reconfigure(clock.settings.with_changes(**change))
        assert snapshot(clock) == before

    def test_the_initial_remainder_must_be_less_than_a_step(self) -> None:
        with pytest.raises(ValueError, match="less than one step"):
            scheduler(initial_ms=20)


class TestSettle:
    """Planning and completing are separate: a caller that stops early says how far it got."""

    def test_unrun_steps_go_back_into_carried_time_exactly(self) -> None:
        clock = scheduler(policy="uncapped", initial_ms=15)
        plan = clock.advance(ms(200))
        assert (plan.steps, plan.tick) == (10, 10)
        revised = clock.settle(3)
        assert (revised.steps, revised.tick, revised.backlog_steps, revised.remainder_ns) == (
            3,
            3,
            7,
            ms(15),
        )
        assert revised.balances
        assert clock.sim_time_ns == ms(60)
        assert clock.carried_ns == ms(155)

    def test_the_next_frame_s_policy_decides_what_happens_to_them(self) -> None:
        clock = scheduler(policy="uncapped", max_steps=4, initial_ms=15)
        clock.advance(ms(200))
        clock.settle(3)
        clock.reconfigure(clock.settings.with_changes(policy="drop"))
        plan = clock.advance(0)
        assert (plan.steps, plan.dropped_ns, plan.remainder_ns, plan.tick) == (4, ms(60), ms(15), 7)

    def test_settling_twice_or_after_reconfiguring_is_refused_and_changes_nothing(self) -> None:
        clock = scheduler(policy="uncapped")
        clock.advance(ms(200))
        clock.settle(5)
        before = snapshot(clock)
        with pytest.raises(ValueError, match="no fresh plan"):
            clock.settle(2)
        assert snapshot(clock) == before
        clock.advance(ms(200))
        clock.reconfigure(clock.settings)
        with pytest.raises(ValueError, match="no fresh plan"):
            clock.settle(2)

    @pytest.mark.parametrize("ran", [-1, 11, True, 2.0, None])
    def test_a_bad_count_is_refused_and_changes_nothing(self, ran: object) -> None:
        clock = scheduler(policy="uncapped")
        clock.advance(ms(200))
        before = snapshot(clock)
        with pytest.raises(ValueError, match="ran must be"):
            clock.settle(ran)  # type: ignore[arg-type]
        assert snapshot(clock) == before
