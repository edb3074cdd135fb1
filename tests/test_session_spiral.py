"""The spiral rule: frames growing *because* each frame owes more ticks than the last.

Worked examples over frames: the rule's figures by hand, then frames played by a real session
with the virtual clock's formula (a frame lasts the longer of the frame budget and its drawing
plus the last frame's ticks times the step cost).
"""

from dataclasses import replace
from fractions import Fraction

from game.hud.banner import spiral_advice
from game.session.controls import Controls, ControlsChange
from game.session.readout import LaneReadout
from game.session.session import LabSession
from game.session.spiral import FrameLoad, SpiralRule, SpiralSpan, SpiralState
from game.world.world import demo_world
from tests.helpers import ms
from timestep_lab import StepPlan

RULE = SpiralRule()
BUDGET_144 = 6_944_445  # ns: one frame at 144 fps, rounded up


def lights(loads: list[FrameLoad]) -> list[bool]:
    state, seen = SpiralState(), []
    for load in loads:
        state = RULE.after(state, load)
        seen.append(state.on)
    return seen


def test_it_lights_at_the_fourth_climbing_frame_and_stays_on_until_four_level_frames() -> None:
    climbing = [FrameLoad(ms(f), t) for f, t in [(20, 1), (30, 2), (45, 3), (70, 4), (100, 6)]]
    level = [FrameLoad(ms(100), 6)] * 4
    assert lights(climbing + level) == [False] * 4 + [True] * 4 + [False]
    assert RULE.spans(climbing + level) == (SpiralSpan(5, 9),)


def test_growing_frames_with_flat_ticks_never_climb() -> None:
    frames = [FrameLoad(ms(20) * 3**n, 5) for n in range(8)]  # x3 a frame
    assert not any(lights(frames))


def test_a_growing_backlog_behind_flat_ticks_is_not_a_spiral() -> None:
    """The backlog policy owes more every frame of a slow drawing, but runs M ticks each."""
    frames = [FrameLoad(ms(60 + 10 * n), 5, backlog=3 * n) for n in range(20)]
    assert not any(lights(frames))


def test_a_single_stall_is_not_a_spiral() -> None:
    frames = [FrameLoad(ms(16), 1)] * 3 + [FrameLoad(ms(500), 5)] + [FrameLoad(ms(16), 1)] * 3
    assert not any(lights(frames))


def play(
    session: LabSession, frames: int, draw_ns: list[int] | None = None, cost_ns: int = 0
) -> list[FrameLoad]:
    """`frames` frames of the virtual clock's formula; `draw_ns[n]` is frame n's drawing."""
    loads, ran = [], 0
    for n in range(frames):
        draw = draw_ns[n] if draw_ns else 0
        elapsed = max(BUDGET_144, draw + ran * cost_ns)
        (plan,) = session.play_frame(elapsed)
        ran = plan.steps
        loads.append(FrameLoad(elapsed, plan.steps, plan.backlog_steps))
    return loads


def test_a_drawing_cost_that_grows_while_the_ticks_stay_flat_is_never_a_spiral() -> None:
    """Drawing from 100 ms up 10% a frame to 2.6 s, under drop (M = 5) and backlog: five
    ticks a frame throughout; the frame times alone would have lit the old light at frame 4."""
    draw = [round(ms(100) * Fraction(11, 10) ** n) for n in range(35)]
    for policy in ("drop", "backlog"):
        session = LabSession(Controls(policies=(policy,)), demo_world)
        loads = play(session, 35, draw)
        assert {load.ticks for load in loads[1:]} == {5}
        assert not session.lanes[0].spiral.on
        assert RULE.spans(loads) == ()


def test_the_real_spiral_is_on_from_the_frame_it_starts_to_the_frame_it_is_over() -> None:
    """Uncapped, 20 ms a 16.7 ms tick: each frame owes more ticks than the last. At frame 30
    the policy turns to drop (key 3): the ticks fall to M = 5 and stay there."""
    session = LabSession(Controls(policies=("uncapped",), step_cost_ms=Fraction(20)), demo_world)
    seen: list[bool] = []
    loads: list[FrameLoad] = []
    for n in range(40):
        if n == 30:
            session.change(ControlsChange(policies=("drop",)))
        loads += play_one(session, loads)
        seen.append(session.lanes[0].spiral.on)
    (span,) = RULE.spans(loads)
    assert span == SpiralSpan(start=16, over=34)
    assert [load.ticks for load in loads[10:16]] == [3, 4, 5, 6, 7, 8]  # frames 11 to 16
    assert seen == [False] * 15 + [True] * 18 + [False] * 7  # no gap, no flicker


def play_one(session: LabSession, loads: list[FrameLoad]) -> list[FrameLoad]:
    ran = loads[-1].ticks if loads else 0
    elapsed = max(BUDGET_144, ran * ms(20))
    (plan,) = session.play_frame(elapsed)
    return [FrameLoad(elapsed, plan.steps, plan.backlog_steps)]


def test_make_run_l_esc_space_right_on_a_busy_laptop_is_no_spiral() -> None:
    """The issue's false banner: the default controls (drop, step cost 0) on a laptop whose
    frames creep from 16 ms to 61 ms, 10% a frame (busy, then firing and running): four frames
    in a row 5% longer, the last over 50 ms, lit the old light; the ticks never climbed."""
    session = LabSession(Controls(), demo_world)
    frames = [round(ms(16) * Fraction(11, 10) ** n) for n in range(15)]
    loads = [FrameLoad(f, *steps(session.play_frame(f)[0])) for f in frames]
    assert frames[-1] > ms(50) and RULE.spans(loads) == ()
    assert not session.lanes[0].spiral.on


def steps(plan: StepPlan) -> tuple[int, int]:
    return plan.steps, plan.backlog_steps


def readout(policy: str, spiral: bool = True) -> LaneReadout:
    session = LabSession(Controls(policies=(policy,)), demo_world)
    return replace(session.lane_readouts()[0], spiral=spiral)


def test_the_banner_never_says_to_press_the_policy_already_on() -> None:
    assert spiral_advice([readout("uncapped")]) == (
        "press 3 (drop) or 4 (reset): what cannot run is dropped, at once"
    )
    assert spiral_advice([readout("drop")]) == (
        "press - for a smaller M, Shift+C for cheaper ticks (drop runs at most M a frame)"
    )
    assert " 4 (" not in spiral_advice([readout("reset")])
    split = spiral_advice([readout("drop", spiral=False), readout("uncapped")])
    assert split.startswith("B picks the lane, then 3 (drop) or 4 (reset)")


def test_under_a_cap_the_light_is_off_once_the_ticks_level_off() -> None:
    """20 ms a tick under each capped policy. Drop, reset and backlog reach M = 5 before four
    climbs in a row: never on (backlog's growing carry behind flat ticks included). Clamp climbs
    to its 15 ticks of F = 250 ms: that climb is a spiral, cut short by the cap, and the light
    is out four frames after the ticks level off."""
    for policy in ("drop", "reset", "backlog", "clamp"):
        session = LabSession(Controls(policies=(policy,), step_cost_ms=Fraction(20)), demo_world)
        loads: list[FrameLoad] = []
        for _ in range(40):
            loads += play_one(session, loads)
        spans = RULE.spans(loads)
        if policy == "clamp":
            assert spans == (SpiralSpan(start=16, over=24),)
            assert [load.ticks for load in loads[14:24]] == [7, 8, 10, 12, 14, 15, 15, 15, 15, 15]
        else:
            assert spans == ()
        assert {load.ticks for load in loads[-10:]} == {15 if policy == "clamp" else 5}
