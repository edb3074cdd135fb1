"""The real game loop, driven frame by frame with posted events on the dummy video driver.

A `ManualClock` stands in for the wall clock: sleeping, spinning (the step cost) and stalling
move its hands, so every frame time is exact and the tests assert exact numbers.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pygame
import pytest

from game.app.loop import GameLoop
from game.clock.manual import ManualClock
from game.session.controls import Act, Action
from tests.helpers import game_loop

MS = 1_000_000

LoopFactory = Callable[..., GameLoop]


@pytest.fixture(scope="module", autouse=True)
def _pygame() -> Iterator[None]:
    pygame.init()
    yield
    pygame.quit()


@pytest.fixture
def make_loop(tmp_path: Path) -> LoopFactory:
    def build(*overrides: str, clock: ManualClock | None = None, script: str = "") -> GameLoop:
        return game_loop(
            *overrides, clock=clock or ManualClock(), screenshot_dir=tmp_path / "shots",
            lessons=False, script=script,
        )  # fmt: skip

    return build


def press(key: int, mod: int = 0) -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=mod, unicode=""))
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=key, mod=mod, unicode=""))


def test_frames_at_144_fps_are_paced_to_the_exact_period(make_loop: LoopFactory) -> None:
    loop = make_loop()
    loop.run_frame()  # the pacer anchors its schedule at the end of the first frame,
    loop.run_frame()  # so the second one is the first to be paced
    for _ in range(144):
        loop.run_frame()
    frames = loop.session.lanes[0].history.latest(144).frame_ms
    assert set(frames.round(6)) == {6.944444, 6.944445}
    assert frames.sum().round(6) == 1000.0
    assert loop.session.lanes[0].world.tick == 60  # exactly 1 s of frames: 60 ticks


def test_number_keys_and_tab_switch_the_policy(make_loop: LoopFactory) -> None:
    loop = make_loop()
    press(pygame.K_1)
    loop.run_frame()
    assert loop.session.lanes[0].scheduler.settings.policy == "uncapped"
    press(pygame.K_TAB)
    loop.run_frame()
    assert loop.session.lanes[0].scheduler.settings.policy == "clamp"


def test_a_posted_shift_held_before_tab_goes_back(make_loop: LoopFactory) -> None:
    loop = make_loop()
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_LSHIFT, mod=0, unicode=""))
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_TAB, mod=0, unicode=""))
    loop.run_frame()
    assert loop.session.controls.policies == ("clamp",)  # drop -> clamp: Shift+Tab


def test_the_stall_key_really_blocks_and_the_drop_policy_reports_what_it_dropped(
    make_loop: LoopFactory,
) -> None:
    clock = ManualClock()
    loop = make_loop(clock=clock)
    for _ in range(10):
        loop.run_frame()
    press(pygame.K_s)
    loop.run_frame()
    plan = loop.last_plans[0]
    assert clock.blocked_ns == 200 * MS
    assert plan.elapsed_ns > 200 * MS
    assert (plan.steps, plan.dropped_steps) == (5, 7)
    assert loop.readout().caption == "stalled the loop for 200 ms"


def test_shift_and_ctrl_stalls_last_2_s_and_50_ms(make_loop: LoopFactory) -> None:
    clock = ManualClock()
    loop = make_loop(clock=clock)
    press(pygame.K_s, pygame.KMOD_LSHIFT)
    loop.run_frame()
    press(pygame.K_s, pygame.KMOD_LCTRL)
    loop.run_frame()
    assert clock.blocked_ns == 2_050 * MS


class PressDuringTicks(ManualClock):
    """A clock that 'presses' a key once the loop has spun past a given time (mid-frame)."""

    def __init__(self, at_ns: int, key: int) -> None:
        super().__init__()
        self.at_ns, self.key, self.pressed = at_ns, key, False

    def busy_wait_ns(self, ns: int) -> None:
        super().busy_wait_ns(ns)
        if not self.pressed and self.now_ns() >= self.at_ns:
            self.pressed = True
            press(self.key)


def test_the_spiral_of_death_is_real_and_the_player_gets_out_within_a_second(
    make_loop: LoopFactory,
) -> None:
    clock = PressDuringTicks(at_ns=10**15, key=pygame.K_3)
    loop = make_loop("scheduler.policy=uncapped", "load.step_cost_ms=40", clock=clock)
    frames = []
    while not loop.readout().lanes[0].spiral:
        loop.run_frame()
        frames.append(loop.last_plans[0].elapsed_ns)
        assert len(frames) < 20
    assert all(later > earlier for earlier, later in zip(frames[-5:], frames[-4:], strict=False))
    assert loop.readout().lanes[0].spiral
    # The next frame would run far more than a second of 40 ms ticks. Press 3 (drop) in the
    # middle of it: the loop polls every 100 ms of stepping, stops, and drop takes over.
    start = clock.now_ns()
    clock.at_ns = start + frames[-1] + 300 * MS
    loop.run_frame()
    interrupted = loop.last_plans[0]
    assert loop.session.controls.policies == ("drop",)
    assert clock.now_ns() - clock.at_ns < 250 * MS  # stopped within a poll of the key press
    assert interrupted.backlog_steps > 0  # the unrun ticks went back into carried time
    recovery, ended_at = [], []
    for _ in range(8):
        loop.run_frame()
        recovery.append(loop.last_plans[0])
        ended_at.append(clock.now_ns())
    assert all(plan.steps <= 5 for plan in recovery)
    assert ended_at[0] - clock.at_ns < 1_000 * MS  # back to capped frames within a second
    assert all(plan.elapsed_ns <= 5 * 40 * MS + 10 * MS for plan in recovery[1:])
    assert not loop.readout().lanes[0].spiral


def test_losing_focus_pauses_and_the_hidden_time_is_not_billed(make_loop: LoopFactory) -> None:
    loop = make_loop()
    for _ in range(10):
        loop.run_frame()
    lane = loop.session.lanes[0]
    pygame.event.post(pygame.event.Event(pygame.WINDOWFOCUSLOST))
    loop.run_frame()
    tick = lane.world.tick
    for _ in range(100):
        loop.run_frame()
    assert (lane.world.tick, loop.session.paused) == (tick, True)
    pygame.event.post(pygame.event.Event(pygame.WINDOWFOCUSGAINED))
    loop.run_frame()
    loop.run_frame()
    assert not loop.session.paused
    assert lane.books.paused_ns > 100 * 6 * MS
    assert lane.books.dropped_ns == 0
    assert lane.world.tick - tick <= 2


def test_a_click_fires_a_projectile_through_the_clicked_point(make_loop: LoopFactory) -> None:
    loop = make_loop("world.cannon_period_ticks=0")
    loop.run_frame()
    world = loop.session.lanes[0].world
    before = world.projectile_count
    pixel = loop._to_pixels(16.0, 9.0)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pixel, button=1))
    for _ in range(10):
        loop.run_frame()
    assert world.projectile_count == before + 1


def test_space_fires_and_r_resets_the_scene(make_loop: LoopFactory) -> None:
    loop = make_loop("world.cannon_period_ticks=0")
    world = loop.session.lanes[0].world
    press(pygame.K_SPACE)
    for _ in range(5):
        loop.run_frame()
    assert world.projectile_count == 1
    press(pygame.K_r)
    for _ in range(5):
        loop.run_frame()
    assert world.projectile_count == 0


def test_f12_saves_a_screenshot(make_loop: LoopFactory, tmp_path: Path) -> None:
    loop = make_loop()
    press(pygame.K_F12)
    loop.run_frame()
    (shot,) = (tmp_path / "shots").glob("timestep-lab-*.png")
    assert pygame.image.load(str(shot)).get_size() == (1280, 720)
    assert loop.readout().caption.startswith("screenshot saved: ")


def test_h_opens_the_help_over_the_scene(make_loop: LoopFactory) -> None:
    loop = make_loop()
    loop.run_frame()
    before = pygame.surfarray.array3d(loop.window.surface)[500:780, 250:450].copy()
    press(pygame.K_h)
    loop.run_frame()
    after = pygame.surfarray.array3d(loop.window.surface)[500:780, 250:450]
    assert loop.session.controls.help
    assert (before != after).any(axis=2).mean() > 0.2
    assert loop.hud.layout.help.width > 0


def test_f_cycles_the_render_cap_and_the_pacer_follows(make_loop: LoopFactory) -> None:
    loop = make_loop()
    press(pygame.K_f)
    loop.run_frame()
    assert (loop.session.controls.fps_cap, loop.pacer.cap_fps) == (165, 165)
    press(pygame.K_f)
    loop.run_frame()
    assert (loop.session.controls.fps_cap, loop.pacer.cap_fps) == (240, 240)
    press(pygame.K_f)
    loop.run_frame()
    assert (loop.session.controls.fps_cap, loop.pacer.cap_fps) == (0, None)


def test_a_script_presses_keys_at_their_time(make_loop: LoopFactory) -> None:
    loop = make_loop(script="0 1\n50 shift+c\n100 p\n")
    loop.run_frame()
    assert loop.session.controls.policies == ("uncapped",)
    for _ in range(20):
        loop.run_frame()
    assert loop.session.paused


def test_split_screen_draws_two_arenas(make_loop: LoopFactory) -> None:
    loop = make_loop()
    loop.session.apply(Action(Act.TOGGLE_SPLIT))
    loop.run_frame()
    top, bottom = loop._lane_rects()
    assert not top.colliderect(bottom)  # side by side or stacked, never on top of each other
    assert len(loop.picture.renderers(loop.session)) == 2


def test_a_key_that_does_not_touch_time_lets_the_catch_up_finish(make_loop: LoopFactory) -> None:
    clock = PressDuringTicks(at_ns=10**15, key=pygame.K_g)
    loop = make_loop("scheduler.policy=uncapped", "load.step_cost_ms=40", clock=clock)
    while not loop.last_plans or loop.last_plans[0].elapsed_ns < 1_000 * MS:
        loop.run_frame()  # until a frame lasts a second: the next one lasts longer
    clock.at_ns = clock.now_ns() + 150 * MS
    loop.run_frame()
    assert clock.pressed
    assert not pygame.event.peek(pygame.KEYDOWN)  # G was read in the middle of the frame
    assert loop.last_plans[0].backlog_steps == 0  # yet every planned tick ran
    assert loop.session.controls.graphs is False  # and G took effect after the frame


@pytest.mark.parametrize("key", [pygame.K_3, pygame.K_4], ids=["3-drop", "4-reset"])
def test_the_keys_the_spiral_hint_names_get_out_within_a_second(
    make_loop: LoopFactory, key: int
) -> None:
    clock = PressDuringTicks(at_ns=10**15, key=key)
    loop = make_loop("scheduler.policy=uncapped", "load.step_cost_ms=40", clock=clock)
    while not loop.readout().lanes[0].spiral:
        loop.run_frame()
    assert f" {chr(key)} (" in loop.hud.spiral_hint
    clock.at_ns = clock.now_ns() + 300 * MS
    loop.run_frame()  # the key is read mid catch-up: the frame stops
    for _ in range(2):
        loop.run_frame()  # the new policy drops what cannot run
    assert clock.now_ns() - clock.at_ns < 1_000 * MS
    assert loop.last_plans[0].steps <= 5 and loop.last_plans[0].backlog_steps == 0
    assert loop.session.lanes[0].books.ledger_ok


def test_a_screenshot_asked_for_mid_catch_up_is_saved_at_the_next_redraw(
    make_loop: LoopFactory, tmp_path: Path
) -> None:
    clock = PressDuringTicks(at_ns=10**15, key=pygame.K_F12)
    loop = make_loop("scheduler.policy=uncapped", "load.step_cost_ms=40", clock=clock)
    while not loop.last_plans or loop.last_plans[0].elapsed_ns < 2_000 * MS:
        loop.run_frame()
    clock.at_ns = clock.now_ns() + 150 * MS
    shots = tmp_path / "shots"
    saved_at: list[int] = []
    original = loop.dispatcher.save_screenshot

    def save(path: Path) -> Path:
        saved_at.append(clock.now_ns())
        return original(path)

    loop.dispatcher.save_screenshot = save  # type: ignore[method-assign]
    loop.run_frame()
    assert len(list(shots.glob("*.png"))) == 1
    assert saved_at[0] - clock.at_ns < 250 * MS  # not at the end of a multi-second frame


def test_esc_closes_the_help_first_then_asks_once_before_quitting(make_loop: LoopFactory) -> None:
    loop = make_loop()
    press(pygame.K_h)
    loop.run_frame()
    assert loop.session.controls.help
    press(pygame.K_ESCAPE)
    loop.run_frame()
    assert not loop.session.controls.help and not loop.dispatcher.quitting
    press(pygame.K_ESCAPE)
    assert loop.run_frame()  # asked, not quit
    assert "press Esc again to quit" in loop.readout().caption
    press(pygame.K_ESCAPE)
    assert not loop.run_frame()
    assert loop.dispatcher.quitting


def test_q_quits_at_once(make_loop: LoopFactory) -> None:
    loop = make_loop()
    press(pygame.K_q)
    assert not loop.run_frame()


@pytest.mark.slow
@pytest.mark.parametrize("size", [(1, 1), (1280, 1), (1, 720), (200, 150), (7680, 4320)])
def test_any_window_size_draws_and_the_game_goes_on(
    make_loop: LoopFactory, size: tuple[int, int]
) -> None:
    loop = make_loop()
    loop.window.surface = pygame.display.set_mode(size, pygame.RESIZABLE)
    tick = loop.session.lanes[0].world.tick
    for _ in range(5):  # the pacer anchors on frame 1; 2 to 5 are paced: 28 ms, a tick at 60 Hz
        assert loop.run_frame()
    assert loop.session.lanes[0].world.tick > tick


@pytest.mark.slow
@pytest.mark.parametrize("key", [pygame.K_F12, pygame.K_h, pygame.K_q], ids=["F12", "H", "Q"])
def test_in_a_spiral_at_4k_f12_h_and_q_are_answered_within_a_quarter_second(
    make_loop: LoopFactory, key: int
) -> None:
    clock = PressDuringTicks(at_ns=10**15, key=key)
    loop = make_loop(
        "render.width=3840", "render.height=2160", "hud.presentation=true",
        "scheduler.policy=uncapped", "load.step_cost_ms=40", clock=clock,
    )  # fmt: skip
    while not loop.last_plans or loop.last_plans[0].elapsed_ns < 2_000 * MS:
        loop.run_frame()  # a spiral: the next frame owes more than two seconds of ticks
    answered: list[int] = []
    clock.at_ns = clock.now_ns() + 130 * MS
    original = loop.dispatcher.perform

    def perform(action: Action) -> None:
        answered.append(clock.now_ns())
        original(action)

    loop.dispatcher.perform = perform  # type: ignore[method-assign]
    loop.run_frame()
    assert clock.pressed and answered
    assert answered[0] - clock.at_ns <= 250 * MS
