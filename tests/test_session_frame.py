"""The frame protocol: the caller steps, nothing re-enters, and a change of controls is safe at
any moment of a frame."""

from fractions import Fraction

import pytest

from game.knobs import Move
from game.session.controls import Act, Action, Controls, ControlsChange
from game.session.frame import FrameOrderError
from game.session.session import LabSession
from game.world.world import demo_world
from tests.helpers import ms


def uncapped() -> LabSession:
    return LabSession(Controls(policies=("uncapped",)), demo_world)


def test_a_frame_is_planned_at_begin_and_stepped_by_its_caller() -> None:
    session = uncapped()
    frame = session.begin(ms(100))  # 6 ticks of 16.667 ms, 0 run so far
    assert (frame.planned[0].steps, frame.ticks_run, session.lanes[0].world.tick) == (6, 0, 0)
    assert frame.next_tick() and frame.next_tick()
    assert (frame.ticks_run, frame.ticks_left, session.lanes[0].world.tick) == (2, 4, 2)
    while frame.next_tick():
        pass
    (plan,) = frame.finish()
    assert (plan.steps, plan.tick, session.frame_open) == (6, 6, False)


def test_setting_the_controls_in_an_open_frame_is_refused_and_changes_nothing() -> None:
    session = uncapped()
    before = session.controls
    frame = session.begin(ms(100))
    frame.next_tick()
    with pytest.raises(FrameOrderError, match="cannot set the controls while a frame is open"):
        session.set_controls(Controls(policies=("drop",)))
    assert session.controls == before
    assert session.lanes[0].scheduler.settings.policy == "uncapped"
    with pytest.raises(FrameOrderError, match="a frame is already open"):
        session.begin(ms(10))
    frame.finish()
    with pytest.raises(FrameOrderError, match="already finished"):
        frame.finish()


def test_a_policy_key_mid_frame_stops_the_catch_up_and_applies_once_after_it() -> None:
    session = uncapped()
    frame = session.begin(ms(200))  # 12 planned
    for _ in range(3):
        frame.next_tick()
    session.apply(Action.turn("scheduler.policy", Move.NEXT))  # uncapped -> clamp, waits
    assert session.controls.policies == ("uncapped",)
    assert session.wanted_controls.policies == ("clamp",)
    assert not frame.next_tick()  # the catch-up ends here
    (plan,) = frame.finish()
    assert (plan.steps, plan.backlog_steps) == (3, 9)  # the 9 unrun ticks are carried, exactly
    assert session.controls.policies == ("clamp",)  # one step along, not two
    assert session.lanes[0].scheduler.settings.policy == "clamp"
    assert session.lanes[0].books.ledger_ok


def test_two_presses_of_a_ladder_key_mid_frame_climb_two_rungs() -> None:
    session = uncapped()
    frame = session.begin(ms(50))
    frame.next_tick()
    session.apply(Action.turn("load.step_cost_ms", Move.UP))
    session.apply(Action.turn("load.step_cost_ms", Move.UP))
    frame.finish()
    assert session.controls.step_cost_ms == Fraction(2)


def test_a_picture_key_mid_frame_takes_effect_at_once_and_lets_the_catch_up_run() -> None:
    session = uncapped()
    frame = session.begin(ms(100))
    frame.next_tick()
    session.apply(Action.turn("hud.help", Move.FLIP))
    assert session.controls.help is True
    assert frame.next_tick()
    while frame.next_tick():
        pass
    assert frame.finish()[0].steps == 6


def test_fire_mid_frame_is_stamped_for_the_next_tick_at_once() -> None:
    stamped: list[int] = []
    session = LabSession(Controls(), demo_world, on_order=lambda lane, c: stamped.append(c.tick))
    frame = session.begin(ms(50))
    frame.next_tick()
    session.apply(Action(Act.FIRE))
    assert stamped == [1]
    assert frame.next_tick()  # a command does not stop the frame


def test_split_requested_mid_frame_twins_the_lane_only_once_the_frame_is_settled() -> None:
    session = LabSession(Controls(), demo_world)
    frame = session.begin(ms(50))
    frame.next_tick()
    session.change(ControlsChange(policies=("drop", "backlog")))
    assert len(session.lanes) == 1
    frame.finish()
    left, right = session.lanes
    assert left.world.tick == right.world.tick == left.scheduler.tick == right.scheduler.tick == 1
