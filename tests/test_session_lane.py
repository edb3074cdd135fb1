"""A lane: the scheduler plans, the lane runs exactly those ticks, the books balance."""

from fractions import Fraction

from game.knobs import Move
from game.session.controls import Act, Action, Controls
from game.session.frame import Frame
from game.session.history import FrameHistory, FrameSample
from game.session.lane import Lane
from game.session.session import LabSession
from game.world.world import demo_world
from tests.helpers import ms
from timestep_lab import SchedulerSettings, StepPlan


def run_frame(lane: Lane, elapsed_ns: int, ticks: int | None = None) -> StepPlan:
    """One frame of a lone lane, stepped by the caller; `ticks` stops it early."""
    frame = Frame([lane], elapsed_ns, on_finish=lambda frame: None)
    while (ticks is None or frame.ticks_run < ticks) and frame.next_tick():
        pass
    (plan,) = frame.finish()
    return plan


def test_a_lane_runs_exactly_the_planned_ticks() -> None:
    lane = Lane(SchedulerSettings.at_hz(60), demo_world())
    plans = [run_frame(lane, ms(25)) for _ in range(12)]
    assert [p.steps for p in plans] == [1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2]
    assert lane.world.tick == 18 == lane.scheduler.tick
    assert lane.books.ledger_ok


def test_stopping_early_settles_the_plan_and_the_world_matches_it() -> None:
    lane = Lane(SchedulerSettings.at_hz(60, policy="uncapped"), demo_world())
    plan = run_frame(lane, ms(200), ticks=3)  # 12 planned, 3 run
    assert (plan.steps, plan.backlog_steps, lane.world.tick) == (3, 9, 3)
    assert lane.books.ledger_ok
    nxt = run_frame(lane, 0)
    assert (nxt.steps, lane.world.tick) == (9, 12)


def test_the_lag_is_dropped_plus_carried_time() -> None:
    lane = Lane(SchedulerSettings.at_hz(50, max_steps=4), demo_world())
    run_frame(lane, ms(215))
    assert lane.lag_ns == ms(135)  # 120 ms dropped + 15 ms carried


def test_a_single_step_while_paused_moves_the_world_one_tick() -> None:
    lane = Lane(SchedulerSettings.at_hz(60), demo_world())
    lane.scheduler.pause()
    lane.single_step()
    assert lane.world.tick == 1
    assert lane.books.ledger_ok


class TestSession:
    def test_fire_is_stamped_with_the_next_tick_of_each_lane(self) -> None:
        stamped = []
        session = LabSession(
            Controls(), demo_world, on_order=lambda lane, c: stamped.append((lane, c))
        )
        session.play_frame(ms(50))
        session.apply(Action(Act.FIRE))
        assert [(lane, type(c).__name__, c.tick) for lane, c in stamped] == [(0, "Fire", 3)]

    def test_changing_the_integrator_is_a_command_for_the_next_tick(self) -> None:
        session = LabSession(Controls(), demo_world)
        session.play_frame(ms(50))
        session.apply(Action.turn("world.integrator", Move.NEXT))
        assert session.lanes[0].world.integrator == "semi-implicit"
        session.play_frame(ms(17))
        assert session.lanes[0].world.integrator == "verlet"

    def test_controls_reconfigure_the_scheduler_keeping_the_carried_time(self) -> None:
        session = LabSession(Controls(), demo_world)
        session.play_frame(ms(25))
        carried = session.lanes[0].scheduler.carried_ns
        session.apply(Action.turn("scheduler.time_scale", Move.DOWN))
        scheduler = session.lanes[0].scheduler
        assert scheduler.settings.time_scale == Fraction(1, 2)
        assert scheduler.carried_ns == carried

    def test_split_screen_twins_the_world_and_feeds_both_the_same_deltas(self) -> None:
        session = LabSession(Controls(), demo_world)
        session.play_frame(ms(100))
        session.apply(Action(Act.TOGGLE_SPLIT))
        left, right = session.lanes
        assert left.world.state_hash() == right.world.state_hash()
        assert right.scheduler.settings.policy == "uncapped"
        for _ in range(30):
            session.play_frame(ms(10))
        assert left.world.tick == right.world.tick
        assert left.world.state_hash() == right.world.state_hash()  # no stall: same ticks
        session.play_frame(ms(500))
        assert left.world.tick < right.world.tick  # drop dropped; uncapped ran them all

    def test_single_step_asks_to_pause_first(self) -> None:
        session = LabSession(Controls(), demo_world)
        assert session.apply(Action(Act.SINGLE_STEP)) == (
            "single step works while paused: press P first"
        )
        session.apply(Action.turn("live.paused", Move.FLIP))
        assert session.apply(Action(Act.SINGLE_STEP)) is None
        assert session.lanes[0].world.tick == 1

    def test_the_readout_reports_the_lane(self) -> None:
        session = LabSession(Controls(), demo_world)
        session.play_frame(ms(25))
        (readout,) = session.lane_readouts()
        assert (readout.policy, readout.tick, readout.steps, readout.time_scale) == (
            "drop",
            1,
            1,
            "1",
        )
        assert readout.remainder_ms == float(Fraction(25) - Fraction(50, 3))


class TestSplitTwin:
    def test_the_second_lane_starts_with_the_first_lane_s_time_and_books(self) -> None:
        session = LabSession(Controls(policies=("backlog",)), demo_world)
        session.play_frame(ms(150))  # 9 ticks owed, 5 run, 4 carried as backlog
        session.apply(Action(Act.TOGGLE_SPLIT))
        left, right = session.lanes
        assert right.scheduler.tick == left.scheduler.tick == right.world.tick == 5
        assert right.scheduler.carried_ns == left.scheduler.carried_ns
        assert right.books.summary() == left.books.summary()
        assert len(right.history) == len(left.history) == 1
        run_frame(right, 0)
        assert (left.world.tick, right.world.tick) == (5, 9)  # independent from here on

    def test_the_tick_rate_can_change_and_split_in_one_frame(self) -> None:
        session = LabSession(Controls(), demo_world)
        session.play_frame(ms(30))
        session.apply(Action.turn("scheduler.hz", Move.NEXT))
        session.apply(Action(Act.TOGGLE_SPLIT))
        assert [lane.scheduler.settings.hz for lane in session.lanes] == [120, 120]


def test_a_slower_tick_rate_raises_the_max_frame_to_one_step() -> None:
    base = SchedulerSettings.at_hz(60, max_frame_ns=Fraction(ms(20)))
    session = LabSession(Controls(), demo_world, base)
    session.set_controls(Controls(hz=Fraction(10)))
    assert session.lanes[0].scheduler.settings.max_frame_ns == ms(100)


def test_k_switches_the_cannon_by_a_command_stamped_for_the_next_tick_of_every_lane() -> None:
    stamped = []
    session = LabSession(Controls(), demo_world, on_order=lambda lane, c: stamped.append((lane, c)))
    session.play_frame(ms(50))
    session.apply(Action(Act.TOGGLE_SPLIT))
    assert session.apply(Action(Act.TOGGLE_CANNON)) == (
        "cannon off: the arena keeps what is in flight"
    )
    assert [(lane, type(c).__name__, c.tick) for lane, c in stamped] == [
        (0, "SetCannon", 3),
        (1, "SetCannon", 3),
    ]
    session.play_frame(ms(17))
    assert [lane.world.cannon_on for lane in session.lanes] == [False, False]


def test_a_right_drag_teleports_the_body_in_every_lane_and_j_chooses_the_smear() -> None:
    session = LabSession(Controls(), demo_world)
    session.play_frame(ms(50))
    body = int(session.lanes[0].world.view(0.0, "off").ids[0])
    assert session.teleport(body, 5.0, 6.0) == (
        "teleported: both states moved, so it jumps (J: show the smear)"
    )
    session.play_frame(ms(17))
    view = session.lanes[0].world.view(0.0, "interpolate")  # alpha 0: the previous state
    row = list(view.ids).index(body)
    assert abs(view.x[row] - 5.0) < 0.5  # no smear: the previous state moved too
    session.apply(Action.turn("live.smear_teleports", Move.FLIP))
    assert session.teleport(body, 25.0, 6.0).startswith("teleported without resetting")
    session.play_frame(ms(17))
    view = session.lanes[0].world.view(0.0, "interpolate")
    row = list(view.ids).index(body)
    assert view.x[row] < 10.0  # drawn from the old place: the smear, on purpose


def test_restarted_books_count_from_now_and_still_balance_exactly() -> None:
    lane = Lane(SchedulerSettings.at_hz(50, max_steps=4), demo_world())
    run_frame(lane, ms(215))  # 4 ticks run, 6 dropped (120 ms), 15 ms carried
    lane.restart_books()
    books = lane.books
    assert (books.dropped_ns, lane.lag_ns, books.sim_time_ns, books.wall_ns) == (0, ms(15), 0, 0)
    assert (books.initial_carried_ns, books.initial_sim_ns) == (ms(15), ms(80))
    assert books.ledger_ok and len(lane.history) == 0 and not lane.spiral.on
    run_frame(lane, ms(30))  # 15 + 30 = 45 ms: 2 ticks, 5 ms carried
    assert (books.sim_time_ns, books.stepped_ns, books.carried_ns, books.dropped_ns) == (
        ms(40), ms(40), ms(5), 0,
    )  # fmt: skip
    assert books.ledger_ok
    assert lane.scheduler.sim_time_ns == ms(120)  # the scheduler goes on: 6 ticks in all


def test_a_books_restart_asked_mid_frame_waits_for_the_frame_to_finish() -> None:
    session = LabSession(Controls(), demo_world)
    session.play_frame(ms(250))  # drop at 60 Hz: 5 ticks run, the rest dropped
    assert session.lanes[0].books.dropped_ns == Fraction(500_000_000, 3)  # 10 ticks of 1/60 s
    frame = session.begin(ms(10))
    session.restart_books("step start")
    assert (session.books_since, session.lanes[0].books.frames) == ("", 1)
    while frame.next_tick():
        pass
    frame.finish()
    books = session.lanes[0].books
    assert (session.books_since, books.frames, books.dropped_ns, books.ledger_ok) == (
        "step start", 0, 0, True,
    )  # fmt: skip


def test_a_history_window_is_kept_until_the_next_frame_and_then_gathered_afresh() -> None:
    history = FrameHistory(capacity=4)
    for wall_s in (0.2, 0.7, 1.1, 1.5, 1.9):  # five frames in a ring of four
        history.append(FrameSample(wall_s, 1.0, 1, 0.0, 0, False))
    window = history.window(1.0)
    assert window.wall_s.tolist() == [1.1, 1.5, 1.9]
    assert history.window(1.0) is window
    assert history.window(5.0).wall_s.tolist() == [0.7, 1.1, 1.5, 1.9]
    history.append(FrameSample(2.4, 1.0, 1, 0.0, 0, False))
    assert history.window(1.0).wall_s.tolist() == [1.5, 1.9, 2.4]
    assert len(FrameHistory().window(1.0)) == 0


def test_a_window_is_found_on_either_side_of_the_ring_s_wrap_and_keeps_its_frames() -> None:
    history = FrameHistory(capacity=5)
    for steps, wall_s in enumerate((0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7)):  # 0.6 wraps round
        history.append(FrameSample(wall_s, 1.0, steps, 0.5 * steps, 0, steps % 2 == 0))
    across = history.window(0.33)  # from 0.4, in the older part of the ring, to 0.7
    assert across.wall_s.tolist() == [0.4, 0.5, 0.6, 0.7]
    assert across.steps.tolist() == [3, 4, 5, 6]
    assert across.dropped_ms.tolist() == [1.5, 2.0, 2.5, 3.0]
    assert across.overloaded.tolist() == [False, True, False, True]
    assert history.window(0.13).wall_s.tolist() == [0.6, 0.7]  # the newer part only
    history.append(FrameSample(0.8, 1.0, 7, 0.0, 0, False))
    history.append(FrameSample(0.9, 1.0, 8, 0.0, 0, False))  # over 0.4's slot
    assert across.wall_s.tolist() == [0.4, 0.5, 0.6, 0.7]  # a copy, not a view of the ring


def test_the_time_dropped_within_a_window_is_its_sum_gathered_or_not() -> None:
    history = FrameHistory(capacity=5)
    for steps, wall_s in enumerate((0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7)):  # 0.6 wraps round
        history.append(FrameSample(wall_s, 1.0, steps, 0.5 * steps, 0, False))
    assert history.dropped_ms_within(0.33) == 1.5 + 2.0 + 2.5 + 3.0  # across the wrap
    assert history.dropped_ms_within(0.13) == 2.5 + 3.0  # the newer part only
    kept = history.window(0.33)  # once a reader has gathered the window, its sum is read
    assert history.dropped_ms_within(0.33) == float(kept.dropped_ms.sum()) == 9.0
    assert FrameHistory().dropped_ms_within(1.0) == 0.0


def test_the_newest_wall_time_is_the_last_frame_appended() -> None:
    history = FrameHistory(capacity=2)
    assert history.newest_wall_s is None
    for wall_s in (0.25, 0.5, 0.75):
        history.append(FrameSample(wall_s, 1.0, 1, 0.0, 0, False))
        assert history.newest_wall_s == wall_s == history.latest(1).wall_s[0]
