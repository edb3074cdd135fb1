"""A lesson step starts clean: from the lesson's own baseline, never from what was on before;
the counters it compares start at zero; the end of the lesson gives free play back as it was."""

from __future__ import annotations

from fractions import Fraction

from game.app.lesson_guide import LessonGuide
from game.knobs import Move
from game.session.controls import Act, Action, Controls, ControlsChange
from game.session.input_readout import InputCounts
from game.session.session import LabSession
from game.workshop.files.lessons import lesson_baseline
from game.world.world import demo_world
from tests.helpers import ms, shipped_lessons


def spiralling() -> LabSession:
    """Free play in a 20 ms step-cost spiral: uncapped, 20 ms a 16.7 ms tick, frames growing."""
    session = LabSession(Controls(policies=("uncapped",), step_cost_ms=Fraction(20)), demo_world)
    ran = 0
    for _ in range(20):
        (plan,) = session.play_frame(max(ms(7), ran * ms(20)))
        ran = plan.steps
    assert session.lanes[0].spiral.on
    return session


def walk_to_the_end(guide: LessonGuide, session: LabSession) -> str | None:
    message = None
    while guide.run is not None:
        message = guide.next_step(session)
    return message


def test_lesson_8_chosen_during_a_spiral_starts_at_step_cost_0_and_gives_20_ms_back() -> None:
    session, guide = spiralling(), LessonGuide(shipped_lessons())
    guide.start(8, session)
    controls = session.controls
    assert (controls.step_cost_ms, controls.policies, controls.hz) == (0, ("drop",), 60)
    assert (controls.fps_cap, controls.interpolation) == (165, "off")
    assert walk_to_the_end(guide, session) == (
        "lesson complete: Smooth is not the same as fixed. L for another one"
    )
    assert (session.controls.step_cost_ms, session.controls.policies) == (20, ("uncapped",))


def test_what_the_player_turned_during_a_step_does_not_follow_into_the_next() -> None:
    session, guide = LabSession(Controls(), demo_world), LessonGuide(shipped_lessons())
    guide.start(8, session)
    for knob, move in (
        ("scheduler.time_scale", Move.UP), ("load.step_cost_ms", Move.UP),
        ("live.paused", Move.FLIP), ("scheduler.alpha", Move.NEXT),
    ):  # fmt: skip
        session.apply(Action.turn(knob, move))
    session.apply(Action(Act.TOGGLE_SPLIT))
    assert session.controls.time_scale == 2 and session.controls.split
    guide.next_step(session)
    controls = session.controls
    assert (controls.time_scale, controls.step_cost_ms, controls.paused) == (1, 0, False)
    assert (controls.policies, controls.alpha_mode.value) == (("drop",), "correct")
    assert (controls.hz, controls.fps_cap) == (60, 165)  # the steps' own settings


def test_a_paused_slow_motion_free_play_comes_back_once_the_lesson_ends() -> None:
    before = Controls(time_scale=Fraction(1, 8), paused=True, max_steps=2, presentation=True)
    session, guide = LabSession(before, demo_world), LessonGuide(shipped_lessons())
    guide.start(2, session)
    assert (session.controls.time_scale, session.controls.paused) == (1, False)
    assert (session.controls.max_steps, session.controls.presentation) == (5, True)
    walk_to_the_end(guide, session)
    assert session.controls == before


def test_the_baseline_turns_every_lesson_knob_to_its_default_and_keeps_the_room_s_view() -> None:
    turned = Controls(policies=("backlog", "uncapped"), focus_lane=1, hz=Fraction(120),
                      step_cost_ms=Fraction(20), conditioning=("snap", "godot"), help=True,
                      presentation=True, paused=True, graphs=False)  # fmt: skip
    assert lesson_baseline(turned) == Controls(help=True, presentation=True)


def test_lesson_7_step_2_counts_its_taps_from_zero() -> None:
    session, guide = LabSession(Controls(), demo_world), LessonGuide(shipped_lessons())
    guide.start(7, session)
    now = 0
    for tap in range(4):  # four taps at 144 fps, 30 Hz: most land in frames with no tick
        session.inputs.edge("jump", True, now)
        session.inputs.edge("jump", False, now + ms(1))
        for _ in range(12):
            session.play_frame(6_944_444)
            now += 6_944_444
        assert session.inputs.lanes[0].counts.presses == tap + 1
    assert session.inputs.lanes[0].counts.lost > 0
    guide.next_step(session)
    assert session.inputs.lanes[0].counts == InputCounts()
    assert session.controls.input_models[0] == "frame-edge"  # the same model, counted afresh


def test_a_change_made_before_the_lesson_is_still_what_the_lesson_s_end_gives_back() -> None:
    session, guide = LabSession(Controls(), demo_world), LessonGuide(shipped_lessons())
    session.change(ControlsChange(step_cost_ms=Fraction(8)))
    guide.start(5, session)
    guide.start(6, session)  # another lesson, chosen during the first: free play is kept
    walk_to_the_end(guide, session)
    assert session.controls.step_cost_ms == 8
