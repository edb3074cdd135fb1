"""Issue 8's three crash sequences, played in the real game loop: a lesson picked from the menu in
the middle of a long catch-up waits for the frame to finish, and every lane's books still balance.

Before the frame protocol each of them ended in `ValueError: there is no fresh plan to settle`,
or (lesson 6) left lane 2 with world tick 2 against scheduler tick 5 for good. The keys are read
where a player's would be: by the loop's own poll, every 100 ms of stepping (`KeyClock` presses
them between two ticks; the step cost's busy waits move the `ManualClock`).
"""

from __future__ import annotations

from collections.abc import Iterator

import pygame
import pytest

from game.app.loop import GameLoop
from game.session.controls import Controls
from game.workshop.files.lessons import LessonRun
from tests.helpers import KeyClock, game_loop, post_keys, shipped_lessons, unbalanced_lanes
from timestep_lab import NS_PER_MS

L = (pygame.K_l, 0)
C = (pygame.K_c, 0)
SHIFT_S = (pygame.K_s, pygame.KMOD_SHIFT)


def digit(number: int) -> tuple[int, int]:
    return (getattr(pygame, f"K_{number}"), 0)


@pytest.fixture(scope="module", autouse=True)
def _pygame() -> Iterator[None]:
    pygame.init()
    yield
    pygame.quit()


def first_step(lesson: int, controls: Controls) -> Controls:
    """The controls lesson `lesson`'s first step starts with, whatever `controls` were: its own
    baseline and settings (`LessonRun.controls`), with the room's view kept."""
    (found,) = (each for each in shipped_lessons() if each.number == lesson)
    return LessonRun(found).controls(controls)


def spiral_until(loop: GameLoop, ticks: int) -> None:
    """Run frames until the spiral light is on and a frame runs at least `ticks` ticks."""
    lane = loop.session.lanes[0]
    for _ in range(100):
        loop.run_frame()
        if lane.spiral.on and loop.last_plans[0].steps >= ticks:
            return
    raise AssertionError("the loop never spiralled")


def test_lesson_1_picked_from_the_menu_in_the_spiral_waits_for_the_frame_and_books_balance() -> (
    None
):
    # python -m game --set scheduler.policy=uncapped --set load.step_cost_ms=20
    clock = KeyClock()
    loop = game_loop("scheduler.policy=uncapped", "load.step_cost_ms=20", clock=clock)
    spiral_until(loop, 30)  # about 3.5 s in: the SPIRAL banner, and frames of 30 ticks and more
    clock.press_mid_frame([L], hiccup=False)
    assert loop.run_frame()
    assert loop.lessons.menu_open  # the menu opens at once: it changes no time
    assert not loop.last_plans[0].backlog_steps  # and the catch-up went on to its end
    before = loop.session.controls
    clock.press_mid_frame([digit(1)], hiccup=False)
    assert loop.run_frame()
    interrupted = loop.last_plans[0]
    # 20 ms ticks, a poll every 100 ms: 1 is read after tick 5, and the frame stops there.
    # Under uncapped the ticks it did not run are carried, as whole steps.
    assert interrupted.steps == 5
    assert interrupted.backlog_steps > 30
    assert loop.session.controls == first_step(1, before)
    assert loop.lessons.caption().startswith("Lesson 1, step 1/3")
    assert unbalanced_lanes(loop.session) == []
    for _ in range(10):
        loop.run_frame()
    assert loop.session.controls == first_step(1, before)
    assert unbalanced_lanes(loop.session) == []


def test_lesson_6_picked_in_the_spiral_splits_after_the_frame_and_lane_2_stays_in_step() -> None:
    # 1, C x7 (uncapped, 20 ms a tick), wait for the spiral, L, 6
    clock = KeyClock()
    loop = game_loop(clock=clock)
    post_keys([digit(1), *[C] * 7])
    loop.run_frame()
    assert (loop.session.controls.policies, loop.session.controls.step_cost_ms) == (
        ("uncapped",),
        20,
    )
    spiral_until(loop, 30)
    clock.press_mid_frame([L], hiccup=False)
    assert loop.run_frame()
    before = loop.session.controls
    clock.press_mid_frame([digit(6)], hiccup=False)
    assert loop.run_frame()
    assert loop.last_plans[0].steps == 5  # stopped when 6 was read, after tick 5
    assert len(loop.last_plans) == 1  # the split waited for the frame: one lane planned it
    assert loop.session.controls == first_step(6, before)
    assert loop.session.controls.policies == ("drop", "backlog")
    first, second = loop.session.lanes
    assert second.world.tick == second.scheduler.tick == first.world.tick
    assert second.world.state_hash() == first.world.state_hash()
    assert unbalanced_lanes(loop.session) == []
    for _ in range(100):
        loop.run_frame()
    assert [lane.world.tick - lane.scheduler.tick for lane in loop.session.lanes] == [0, 0]
    assert unbalanced_lanes(loop.session) == []


def test_lesson_4_picked_in_the_catch_up_of_a_2_s_stall_in_lesson_5_waits_for_the_frame() -> None:
    # --lesson 5, Shift+S, L during the catch-up, then 4
    clock = KeyClock()
    loop = game_loop(clock=clock)
    loop.lessons.start(5, loop.session)  # uncapped, 12 ms a tick: it keeps up, barely
    for _ in range(3):
        loop.run_frame()
    post_keys([SHIFT_S])
    clock.press_mid_frame([L], hiccup=False)
    assert loop.run_frame()
    assert clock.blocked_ns == 2_000 * NS_PER_MS
    assert loop.last_plans[0].steps == 120  # 2 s of 60 Hz ticks, all run: L changes no time
    assert loop.lessons.menu_open
    # The 120 ticks took 1.44 s of work: the next frame catches up on 86 more.
    before = loop.session.controls
    clock.press_mid_frame([digit(4)], hiccup=False)
    assert loop.run_frame()
    interrupted = loop.last_plans[0]
    # At 12 ms a tick the loop polls after tick 9, reads 4, and stops there.
    assert interrupted.steps == 9
    assert interrupted.backlog_steps > 70
    assert loop.session.controls == first_step(4, before)
    assert loop.lessons.caption().startswith("Lesson 4, step 1/2")
    assert unbalanced_lanes(loop.session) == []
    for _ in range(10):
        loop.run_frame()
    assert loop.session.controls.policies == ("backlog",)
    assert unbalanced_lanes(loop.session) == []


def test_lesson_6_picked_in_a_capped_catch_up_under_drop_leaves_both_lanes_in_step() -> None:
    # The silent variant: under drop, lesson 6 split the screen in the middle of a frame and
    # lane 2 ran the frame again: world tick 2 against scheduler tick 5, still off 100 frames on.
    clock = KeyClock()
    loop = game_loop("load.step_cost_ms=20", clock=clock)
    for _ in range(20):
        loop.run_frame()
    assert loop.last_plans[0].steps == 5  # capped at M = 5 from frame 15 on: 100 ms of work
    clock.press_mid_frame([L])
    loop.run_frame()
    before = loop.session.controls
    clock.press_mid_frame([digit(6)])  # read after the frame's first tick, 4 still to run
    loop.run_frame()
    assert [plan.steps for plan in loop.last_plans] == [1]
    assert loop.session.controls == first_step(6, before)
    first, second = loop.session.lanes
    assert (second.world.tick, second.scheduler.tick) == (first.world.tick, first.world.tick)
    assert unbalanced_lanes(loop.session) == []
    for _ in range(100):
        loop.run_frame()
    assert [lane.world.tick - lane.scheduler.tick for lane in loop.session.lanes] == [0, 0]
    assert unbalanced_lanes(loop.session) == []


def test_a_policy_key_pressed_during_a_2_s_stall_ends_the_stalled_frame_s_catch_up() -> None:
    # The stalled 2 s are the next frame's elapsed time, planned under the policy in force when
    # the stall began (uncapped: 120 ticks). The 3 pressed during the stall is read at the
    # frame's first poll (after tick 9 at 12 ms a tick), stops it there, and drop plans the next.
    clock = KeyClock()
    loop = game_loop("scheduler.policy=uncapped", "load.step_cost_ms=12", clock=clock)
    loop.run_frame()
    post_keys([SHIFT_S])
    clock.press_during_stall(digit(3))
    assert loop.run_frame()
    stalled = loop.last_plans[0]
    assert clock.blocked_ns == 2_000 * NS_PER_MS
    assert (stalled.steps, stalled.backlog_steps) == (9, 111)
    assert loop.session.controls.policies == ("drop",)
    assert unbalanced_lanes(loop.session) == []
    loop.run_frame()
    assert loop.last_plans[0].steps == 5  # drop: at most M, the rest dropped
    assert unbalanced_lanes(loop.session) == []


def test_a_policy_key_pressed_during_a_stall_with_no_step_cost_takes_effect_the_frame_after() -> (
    None
):
    # Without a step cost the stalled frame's 5 ticks (drop) run at once: the Tab is read before
    # the next frame, which is the first one planned under reset.
    clock = KeyClock()
    loop = game_loop(clock=clock)
    loop.run_frame()
    post_keys([SHIFT_S])
    clock.press_during_stall((pygame.K_TAB, 0))
    assert loop.run_frame()
    stalled = loop.last_plans[0]
    assert (stalled.steps, stalled.dropped_ns / stalled.dt_ns) == (5, 115)
    assert loop.session.controls.policies == ("drop",)
    assert loop.run_frame()
    assert loop.session.controls.policies == ("reset",)
    assert loop.session.lanes[0].scheduler.settings.policy == "reset"
    assert unbalanced_lanes(loop.session) == []
