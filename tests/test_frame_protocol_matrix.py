"""Every action the game has, pressed in every situation a frame can be in (issue 8, point 3).

The presses: every key binding's action (`keymap.BINDINGS`, one key each), every lesson picked
from the menu, and every N of every lesson (into each next step, and past the last one). The
situations: between two frames; in the middle of a catch-up under each of the six policies; in
the middle of a catch-up in split screen; while paused; in the middle of a catch-up with the
lesson menu open.

A catch-up here is the frame after a 500 ms hitch (`ManualClock.move_on`), at 12 ms of step
cost: uncapped plans 30 ticks, clamp 15, drop, reset and backlog 5, variable 1. The keys are read
after its first tick (`KeyClock`). Whatever the press and the situation:

- nothing raises, every lane's books balance with `==`, and world, scheduler and books agree on
  the tick;
- a change of how time is handled stops the catch-up where it was read and is made once, after
  the frame; a change of the picture only is made at once and the catch-up runs to its end;
- the change is made exactly once: the controls are the pressed key's controls after the frame,
  and still after the next one (a ladder key moves one rung, a toggle flips once);
- the lanes, the pacer and the menu follow the controls; a shot, a stall, a screenshot, a single
  step happen once.

Quit, which ends the run, and F11, which changes the window, have tests of their own at the end.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, fields, replace
from fractions import Fraction
from functools import cache
from pathlib import Path

import pygame
import pytest

import game.app.picture
from game.app.keymap import BINDINGS
from game.app.lesson_guide import menu_key
from game.app.loop import GameLoop
from game.knobs import KNOBS, Move
from game.session.controls import (
    DRAWING_ONLY,
    Act,
    Action,
    Controls,
    ControlsChange,
)
from game.session.frame import Frame
from game.view import stage
from game.view.sprites import SpriteBook
from game.vocabulary import (
    POLICY_NAMES as POLICY_ORDER,
)
from game.workshop.files.lessons import Lesson, LessonRun, LessonStep
from tests.helpers import (
    Key,
    KeyClock,
    game_loop,
    lanes_out_of_step,
    post_keys,
    shipped_lessons,
    unbalanced_lanes,
)
from timestep_lab import NS_PER_MS, StepPlan

STEP_COST_MS = Fraction(12)
"""Milliseconds of CPU per tick in every situation: below the 16.7 ms step (no spiral), and a
busy wait after every tick, so `KeyClock` can press keys between two ticks."""
HITCH_NS = 500 * NS_PER_MS
SMALL_WINDOW = ("render.width=320", "render.height=240")
"""The smallest window the settings allow: the same code, a tenth of the pixels to fill."""

PICTURE_CONTROLS = frozenset(
    {"focus_lane", "interpolation", "fps_cap", "graphs", "help", "presentation", "ghost",
     "tick_markers", "trails", "smear_teleports", "refresh_hz", "lesson_jitter_ms"}
)  # fmt: skip
"""The controls that change only what is drawn (or what the next key sends): changed at once,
even mid-frame, without stopping the catch-up. Every other control waits for the frame."""

ENDS_OR_ALTERS_THE_RUN = frozenset(
    {Act.QUIT, Act.FULLSCREEN, "network.enabled", "network.latency_ms"}
)
"""Tested on their own: quitting ends the run, F11 changes the window (below); the network keys
connect a remote peer, which then fires the cannon and may hold new ticks at its prediction
window (`tests/test_app_netplay.py` plays them through the loop with exact books)."""

L = (pygame.K_l, 0)


@pytest.fixture(scope="module", autouse=True)
def _pygame() -> Iterator[None]:
    pygame.init()
    yield
    pygame.quit()


@pytest.fixture(scope="module", autouse=True)
def _paint_once() -> Iterator[None]:
    """Six hundred loops, one picture: every loop here shares one `SpriteBook` (it is made to be
    shared, as the split screen's two renderers do), and the stage's backdrop and cannon, pure
    functions of the settings and the size, are painted once per size for the whole module."""
    book = SpriteBook()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(game.app.picture, "SpriteBook", lambda: book)
        patch.setattr(stage, "paint_backdrop", cache(stage.paint_backdrop))
        patch.setattr(stage, "paint_cannon", cache(stage.paint_cannon))
        yield


# -- the situations ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Situation:
    name: str
    policy: str = "drop"
    """Lane 1's policy (in split screen V puts uncapped beside drop)."""
    mid_frame: bool = True
    """The keys are read after the first tick of a catch-up; otherwise before a frame."""
    split: bool = False
    paused: bool = False
    menu_open: bool = False


SITUATIONS = (
    Situation("between frames", mid_frame=False),
    *(Situation(f"mid catch-up under {policy}", policy=policy) for policy in POLICY_ORDER),
    Situation("mid catch-up in split screen", split=True),
    Situation("while paused", mid_frame=False, paused=True),
    Situation("mid catch-up with the lesson menu open", menu_open=True),
)


# -- the presses ---------------------------------------------------------------------------------


def lesson(number: int) -> Lesson:
    (found,) = (each for each in shipped_lessons() if each.number == number)
    return found


@dataclass(frozen=True, slots=True)
class Press:
    name: str
    key: Key
    action: Action | None = None
    """The key binding's action (None for the lesson presses)."""
    lesson: int | None = None
    at_step: int | None = None
    """For N: the step (0-based) the lesson is at when N is pressed. None with `lesson`: the
    lesson is picked from the menu (L opens it first, unless it is open already)."""

    def keys(self, situation: Situation) -> list[Key]:
        if self.lesson is not None and self.at_step is None and not situation.menu_open:
            return [L, self.key]
        return [self.key]

    def lesson_picked(self, situation: Situation) -> int | None:
        """The lesson this press starts from the menu, if any (with the menu open, a policy's
        digit is the lesson's)."""
        if self.lesson is not None and self.at_step is None:
            return self.lesson
        if situation.menu_open and self.action is not None and self.action.move is Move.PICK:
            return self.action.number
        return None

    def entered_step(self, situation: Situation) -> LessonStep | None:
        """The lesson step this press starts, if any."""
        picked = self.lesson_picked(situation)
        if picked is not None:
            return lesson(picked).steps[0]
        if self.lesson is not None and self.at_step is not None and not situation.menu_open:
            steps = lesson(self.lesson).steps
            return steps[self.at_step + 1] if self.at_step + 1 < len(steps) else None
        return None

    def expected(self, before: Controls, situation: Situation, free_play: Controls) -> Controls:
        """The controls after the press: the pressed key's meaning, said once more here. A
        lesson step starts clean (its lesson's baseline and steps, whatever `before` was); past
        the last step, free play is back as it was when the lesson started (`free_play`)."""
        picked = self.lesson_picked(situation)
        if picked is not None:
            return LessonRun(lesson(picked)).controls(before)
        if situation.menu_open:
            return before  # the menu takes every other key
        if self.lesson is not None and self.at_step is not None:
            steps = lesson(self.lesson).steps
            following = self.at_step + 1
            if following == len(steps):
                return free_play
            return LessonRun(lesson(self.lesson), following).controls(before)
        assert self.action is not None
        return before.after(self.action)


def action_presses() -> list[Press]:
    """One press per action a key is bound to (its first key: Tab, not the keypad)."""
    presses: dict[Action, Press] = {}
    for binding in BINDINGS:
        action = binding.action
        if action in presses or {action.act, action.knob} & ENDS_OR_ALTERS_THE_RUN:
            continue
        turned = f"{action.knob}_{action.move}" if action.act is Act.TURN else action.act.value
        name = turned + (f"_{action.number}" if action.number else "")
        presses[action] = Press(name, (binding.key, binding.mods), action)
    return list(presses.values())


def lesson_presses() -> list[Press]:
    """Every lesson from the menu (its first step), then N into each of its other steps and past
    its last one."""
    presses = []
    for each in shipped_lessons():
        digit = (menu_key(each.number), 0)
        presses.append(Press(f"lesson_{each.number}_from_the_menu", digit, lesson=each.number))
        for at in range(len(each.steps)):
            name = f"lesson_{each.number}_n_at_step_{at + 1}_of_{len(each.steps)}"
            presses.append(Press(name, (pygame.K_n, 0), lesson=each.number, at_step=at))
    return presses


PRESSES = action_presses() + lesson_presses()


# -- playing one press ---------------------------------------------------------------------------


@dataclass
class Played:
    loop: GameLoop
    clock: KeyClock
    before: Controls
    """The controls when the keys were pressed."""
    frame: Frame
    """The frame the keys were read in (mid-frame, or at its start)."""
    plans: tuple[StepPlan, ...]
    """That frame's plans once finished: settled to the ticks that ran."""
    after_its_frame: Controls
    """The controls right after that frame."""
    free_play: Controls
    """The controls before the situation was set up: what a lesson's end gives back."""


def set_up(loop: GameLoop, situation: Situation, press: Press) -> None:
    """Bring the game to the situation, between frames (so every change is made at once)."""
    session, lessons = loop.session, loop.lessons
    if press.lesson is not None and press.at_step is not None:
        lessons.start(press.lesson, session)
        for _ in range(press.at_step):
            lessons.next_step(session)
    policies = (situation.policy, *session.controls.policies[1:])
    session.change(ControlsChange(policies=policies, step_cost_ms=STEP_COST_MS))
    if situation.split and not session.controls.split:
        session.apply(Action(Act.TOGGLE_SPLIT))
    if situation.paused:
        session.apply(Action.turn("live.paused", Move.FLIP))
    if situation.menu_open:
        lessons.toggle_menu()


def play(situation: Situation, press: Press, shots: Path) -> Played:
    """Set up, let 500 ms pass, press, run the frame that reads the keys and one more."""
    clock = KeyClock()
    loop = game_loop(*SMALL_WINDOW, "world.cannon_period_ticks=0", clock=clock,
                     screenshot_dir=shots, warm_up=False)  # fmt: skip
    session = loop.session
    frames: list[Frame] = []
    begin = session.begin

    def begin_and_keep(elapsed_ns: int) -> Frame:
        frames.append(begin(elapsed_ns))
        return frames[-1]

    session.begin = begin_and_keep  # type: ignore[method-assign]
    free_play = session.controls
    set_up(loop, situation, press)
    before = session.controls
    assert [lane.world.projectile_count for lane in session.lanes] == [0] * len(session.lanes)
    clock.move_on(HITCH_NS)
    if situation.mid_frame:
        clock.press_mid_frame(press.keys(situation))
    else:
        post_keys(press.keys(situation))
    assert loop.run_frame()
    assert not clock.pressing and not pygame.event.peek()  # all read in that frame
    played = Played(loop, clock, before, frames[-1], loop.last_plans,
                    session.controls, free_play)  # fmt: skip
    assert loop.run_frame()
    return played


def changed(before: Controls, after: Controls) -> set[str]:
    return {f.name for f in fields(Controls) if getattr(before, f.name) != getattr(after, f.name)}


# -- the matrix ----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def no_shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the presses that take no screenshot would put one (none may land there)."""
    return tmp_path_factory.mktemp("no_shots")


@pytest.mark.slow
@pytest.mark.parametrize("press", PRESSES, ids=[press.name for press in PRESSES])
@pytest.mark.parametrize("situation", SITUATIONS, ids=[each.name for each in SITUATIONS])
def test_a_press_is_carried_out_once_and_every_lane_balances(
    situation: Situation, press: Press, no_shots: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    screenshot = press.action is not None and press.action.act is Act.SCREENSHOT
    played = play(situation, press, tmp_path_factory.mktemp("shots") if screenshot else no_shots)
    session, before = played.loop.session, played.before
    expected = press.expected(before, situation, played.free_play)

    assert unbalanced_lanes(session) == []
    assert played.after_its_frame == expected  # made by the end of the frame that read it
    assert session.controls == expected  # and not made again in the next one
    assert lanes_out_of_step(session) == []
    assert played.loop.pacer.cap_fps == (expected.fps_cap or None)

    waits = bool(changed(before, expected) - PICTURE_CONTROLS)
    planned = [plan.steps for plan in played.frame.planned]
    ran = [plan.steps for plan in played.plans]
    if session.rollback is not None:
        pass  # against a remote peer a full prediction window may stop a frame's new ticks
    elif situation.mid_frame and waits:
        # Stopped where it was read: after lane 1's first tick (in split screen the lanes take
        # turns, so lane 2 had run none).
        assert played.frame.stopped
        assert ran == [min(steps, first) for steps, first in zip(planned, (1, 0), strict=False)]
    else:
        assert not played.frame.stopped
        assert ran == planned

    assert_effects(played, situation, press, expected)


def assert_effects(played: Played, situation: Situation, press: Press, expected: Controls) -> None:
    """What the press did besides the controls, each exactly once."""
    loop, clock = played.loop, played.clock
    lanes = loop.session.lanes
    act = press.action.act if press.action is not None else None
    menu_took_it = situation.menu_open and press.lesson_picked(situation) is None

    picked = press.lesson_picked(situation)
    if picked is not None:
        assert loop.lessons.run is not None
        assert (loop.lessons.run.lesson.number, loop.lessons.run.step) == (picked, 0)
        assert not loop.lessons.menu_open
    elif act is Act.LESSON_MENU:
        assert loop.lessons.menu_open == (not situation.menu_open)
    elif act is Act.ESCAPE:
        assert not loop.lessons.menu_open  # Esc closes the menu first
    else:
        assert loop.lessons.menu_open == situation.menu_open
    if press.lesson is not None and press.at_step is not None:
        run = loop.lessons.run
        at = press.at_step if menu_took_it else press.at_step + 1
        if at == len(lesson(press.lesson).steps):
            assert run is None  # the lesson is complete
        else:
            assert run is not None and (run.lesson.number, run.step) == (press.lesson, at)

    entered = press.entered_step(situation)
    fired = (act is Act.FIRE and not menu_took_it) or (entered is not None and entered.fire)
    online = press.lesson is not None and any(
        step.settings.network for step in lesson(press.lesson).steps
    )
    if loop.session.rollback is not None or online:
        pass  # a lesson step against a remote peer: the peer's inputs fire the cannon
    elif act is Act.TOGGLE_CANNON and not menu_took_it:
        on = not expected.paused  # the switch is a command for the next tick: none runs paused
        assert [lane.world.cannon_on for lane in lanes] == [on] * len(lanes)  # K: on, once
    else:
        # A lesson step set up at `at_step` that fires on entry has stamped its shot already.
        set_up_fired = (
            press.lesson is not None
            and press.at_step is not None
            and any(step.fire for step in lesson(press.lesson).steps[: press.at_step + 1])
        )
        launched = 0 if expected.paused else int(fired) + int(set_up_fired)
        assert [lane.world.projectile_count for lane in lanes] == [launched] * len(lanes)
    stall_ms = press.action.number if act is Act.STALL and not menu_took_it else 0  # type: ignore[union-attr]
    assert clock.blocked_ns == stall_ms * NS_PER_MS  # the stall, once, before the next frame
    shots = list(loop.options.screenshot_dir.glob("*.png"))
    assert len(shots) == (1 if act is Act.SCREENSHOT and not menu_took_it else 0)
    stepped = act is Act.SINGLE_STEP and situation.paused and not menu_took_it
    assert [lane.books.granted_ns for lane in lanes] == [
        lane.scheduler.settings.step_ns if stepped else 0 for lane in lanes
    ]
    turned = press.action.knob if press.action is not None else ""
    if turned == "world.integrator" and not expected.paused:
        tick = lanes[0].world.tick
        while lanes[0].world.tick == tick:  # the switch is a command for the next tick
            assert loop.run_frame()
        assert [lane.world.integrator for lane in lanes] == [expected.integrator] * len(lanes)


def test_the_matrix_presses_every_key_but_those_tested_on_their_own() -> None:
    pressed = {
        (press.action.act, press.action.knob, press.action.move)
        for press in PRESSES
        if press.action is not None
    }
    turns = {(Act.TURN, knob.path, key.move) for knob in KNOBS for key in knob.keys}
    acts = {(binding.action.act, "", None) for binding in BINDINGS} - {(Act.TURN, "", None)}
    alone = {(a, k, m) for a, k, m in turns | acts if {a, k} & ENDS_OR_ALTERS_THE_RUN}
    assert pressed | alone == turns | acts


def test_the_picture_controls_are_the_ones_the_session_changes_at_once() -> None:
    assert PICTURE_CONTROLS == DRAWING_ONLY


def test_the_catch_up_plans_30_15_5_5_5_1_ticks_under_the_six_policies(tmp_path: Path) -> None:
    planned = {}
    for situation in SITUATIONS[1:7]:
        played = play(
            situation, Press("g", (pygame.K_g, 0), Action.turn("hud.graphs", Move.FLIP)), tmp_path
        )
        planned[situation.policy] = played.frame.planned[0].steps
    assert planned == {"uncapped": 30, "clamp": 15, "drop": 5, "reset": 5, "backlog": 5,
                       "variable": 1}  # fmt: skip


# -- several keys in one catch-up, and the keys that end or alter the run ------------------------


def key(name: str) -> Key:
    shift = name.startswith("shift+")
    named = {"tab": pygame.K_TAB, ".": pygame.K_PERIOD, "escape": pygame.K_ESCAPE}
    code = named.get(name.removeprefix("shift+"))
    found = code if code is not None else getattr(pygame, f"K_{name.removeprefix('shift+')}")
    return (found, pygame.KMOD_SHIFT if shift else 0)


def catch_up_loop(*overrides: str) -> tuple[GameLoop, KeyClock]:
    clock = KeyClock()
    loop = game_loop(*SMALL_WINDOW, f"load.step_cost_ms={STEP_COST_MS}", *overrides,
                     clock=clock, warm_up=False)  # fmt: skip
    clock.move_on(HITCH_NS)
    return loop, clock


TOGETHER = {
    "tab tab": {"policies": ("backlog",)},  # drop -> reset -> backlog: two steps, not four
    "c shift+c": {},  # 12 -> 16 -> 12 ms
    "c c": {"step_cost_ms": 20},  # 12 -> 16 -> 20 ms
    "1 p p": {"policies": ("uncapped",)},  # paused and resumed: only the policy is left
    "v b": {"policies": ("drop", "uncapped"), "focus_lane": 1},  # B follows the split
    "p .": {"paused": True},  # the single step waits for the pause, then runs once
    "t t": {"hz": 10},  # 60 -> 120 -> 10 Hz
}
"""Keys read at the same poll of a catch-up, and what they change in the controls."""


@pytest.mark.parametrize("keys", TOGETHER)
def test_keys_pressed_together_in_a_catch_up_are_each_made_once_in_order(keys: str) -> None:
    expected = TOGETHER[keys]
    loop, clock = catch_up_loop()
    before = loop.session.controls
    clock.press_mid_frame([key(name) for name in keys.split()])
    assert loop.run_frame()
    assert loop.session.controls == replace(before, **expected)  # type: ignore[arg-type]
    assert loop.run_frame()
    assert loop.session.controls == replace(before, **expected)  # type: ignore[arg-type]
    assert unbalanced_lanes(loop.session) == []
    step_ns = loop.session.lanes[0].scheduler.settings.step_ns
    granted = [lane.books.granted_ns for lane in loop.session.lanes]
    assert granted == [step_ns if "." in keys else 0] * len(loop.session.lanes)


@pytest.mark.parametrize("names", ["q", "escape escape"])
def test_quit_in_the_middle_of_a_catch_up_stops_it_there_and_ends_the_run(names: str) -> None:
    loop, clock = catch_up_loop("scheduler.policy=uncapped")
    clock.press_mid_frame([key(name) for name in names.split()])  # Esc asks once, then quits
    assert not loop.run_frame()
    assert [plan.steps for plan in loop.last_plans] == [1]  # of 30: stopped after the first
    assert loop.last_plans[0].backlog_steps == 29  # the rest carried, not simulated
    assert unbalanced_lanes(loop.session) == []


def test_quit_between_frames_ends_the_run_before_a_frame_begins() -> None:
    loop, _ = catch_up_loop()
    post_keys([key("q")])
    assert not loop.run_frame()
    assert loop.session.lanes[0].books.frames == 0
    assert not loop.session.frame_open


@pytest.mark.parametrize(("name", "menu_open"), [("escape", False), ("q", True)])
def test_with_the_lesson_menu_open_escape_closes_it_and_q_is_the_menus_and_neither_quits(
    name: str, menu_open: bool
) -> None:
    loop, clock = catch_up_loop()
    loop.lessons.toggle_menu()
    clock.press_mid_frame([key(name)])
    assert loop.run_frame()
    assert loop.lessons.menu_open == menu_open
    assert [plan.steps for plan in loop.last_plans] == [5]  # the catch-up ran to its end
    assert unbalanced_lanes(loop.session) == []


def test_f11_in_the_middle_of_a_catch_up_goes_fullscreen_and_back_without_stopping_it() -> None:
    loop, clock = catch_up_loop()
    clock.press_mid_frame([(pygame.K_F11, 0)])
    assert loop.run_frame()
    assert loop.window.fullscreen
    assert [plan.steps for plan in loop.last_plans] == [5]
    clock.move_on(HITCH_NS)
    clock.press_mid_frame([(pygame.K_F11, 0)])
    assert loop.run_frame()
    assert (loop.window.fullscreen, loop.window.size) == (False, (320, 240))
    assert [plan.steps for plan in loop.last_plans] == [5]
    assert unbalanced_lanes(loop.session) == []
