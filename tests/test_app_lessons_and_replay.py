"""In the game: the lesson menu and lessons (L, N, --lesson), and a recorded game that replays
to the same state at any render rate."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest

from game.app.lesson_guide import LessonGuide
from game.app.loop import GameLoop
from game.app.loop_options import LoopOptions
from game.app.script import parse_script
from game.app.window import Window
from game.cli import main
from game.clock.manual import ManualClock
from game.config.loading import load_config
from game.from_config import session_from
from game.workshop.files.recording import SessionRecorder


@pytest.fixture(scope="module", autouse=True)
def _pygame() -> Iterator[None]:
    pygame.init()
    yield
    pygame.quit()


def press(key: int) -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode=""))


def game(script: str = "", recorder: SessionRecorder | None = None) -> GameLoop:
    config = load_config(None)
    session = session_from(
        config,
        on_order=recorder.on_order if recorder else None,
        on_tick_rate=recorder.tick_rate_changed if recorder else None,
    )
    pygame.event.clear()
    options = LoopOptions(print_hash=False, script=parse_script(script, "script"))
    loop = GameLoop(session, Window(1280, 720, fullscreen=False, vsync=False), ManualClock(),
                    options, lessons=LessonGuide())  # fmt: skip
    loop.warm_up()
    return loop


def test_l_opens_the_lesson_menu_and_a_number_starts_that_lesson() -> None:
    loop = game()
    press(pygame.K_l)
    loop.run_frame()
    menu = loop.readout().menu
    assert menu is not None and menu.title == "LESSONS"
    assert [number for number, _ in menu.rows] == [
        "1",
        "2",
        "3",
        "4",
        "5",
        "6",
        "7",
        "8",
        "9",
        "10 (0)",
    ]
    press(pygame.K_2)
    loop.run_frame()
    assert loop.readout().menu is None
    controls = loop.session.controls
    assert (controls.hz, controls.interpolation, controls.policies) == (10, "off", ("drop",))
    assert loop.readout().caption.startswith("Lesson 2, step 1/2: Ten ticks a second")


def test_escape_closes_the_menu_without_quitting() -> None:
    loop = game()
    press(pygame.K_l)
    loop.run_frame()
    press(pygame.K_ESCAPE)
    assert loop.run_frame()
    assert loop.readout().menu is None
    assert loop.session.controls.policies == ("drop",)  # the digit keys are policies again


def test_n_walks_through_a_lesson_to_its_end() -> None:
    loop = game()
    loop.lessons.start(4, loop.session)
    assert loop.session.controls.alpha_mode.value == "naive"
    press(pygame.K_n)
    loop.run_frame()
    assert loop.session.controls.alpha_mode.value == "correct"
    assert loop.readout().caption.startswith("Lesson 4, step 2/2")
    press(pygame.K_n)
    loop.run_frame()
    assert (
        loop.readout().caption
        == "lesson complete: A long stall and the naive alpha. L for another one"
    )


def test_an_unknown_lesson_is_refused_before_the_window_opens(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["--lesson", "99", "--frames", "1"]) == 2
    assert capsys.readouterr().err == (
        "error: there is no lesson 99 (the lessons are 1, 2, 3, 4, 5, 6, 7, 8, 9, 10)\n"
    )


def test_a_recorded_game_replays_to_the_same_state_at_any_render_rate(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "session.jsonl"
    recorder = SessionRecorder(load_config(None), record)
    loop = game("0 space\n200 t\n400 click 20 8\n700 e\n900 s\n1000 r\n1200 space\n", recorder)
    for _ in range(300):
        loop.run_frame()
    world = loop.session.lanes[0].world
    recorder.finish(world)
    live = f"final tick {world.tick} state {world.state_hash()}"
    assert loop.session.lanes[0].books.dropped_ns > 0  # the stall dropped time: no matter
    for fps in ("30", "144", "240"):
        assert main(["replay", str(record), "--render-fps", fps]) == 0
        out = capsys.readouterr().out.splitlines()
        assert out[0] == live


def test_a_lesson_s_render_cap_reaches_the_pacer() -> None:
    loop = game()
    loop.lessons.start(1, loop.session)  # step 1 runs at 30 fps
    loop.run_frame()
    assert (loop.session.controls.fps_cap, loop.pacer.cap_fps) == (30, 30)


def test_a_lesson_step_that_says_so_fires_once_as_it_starts() -> None:
    loop = game()
    counts = []
    for lesson in (3, 3, 2):  # 10 Hz; 3 resets the scene and fires nothing, 2 resets and fires
        loop.lessons.start(lesson, loop.session)
        for _ in range(30):  # 0.2 s: a tick or two (the cannon fires on ticks 0, 45, 90...)
            loop.run_frame()
        counts.append(loop.session.lanes[0].world.body_count)
    assert counts == [5, 4, 5]  # the cannon's shot at tick 0; the springs alone; and the shot


def test_a_lesson_step_that_says_so_counts_the_books_from_its_start() -> None:
    loop = game()
    press(pygame.K_s)
    for _ in range(3):
        loop.run_frame()
    assert loop.session.lanes[0].books.dropped_ns > 0
    loop.lessons.start(6, loop.session)
    loop.run_frame()
    readout = loop.readout()
    assert readout.books_since == "step start"
    assert [lane.dropped_total_ms for lane in readout.lanes] == [0.0, 0.0]
    assert all(lane.books.ledger_ok for lane in loop.session.lanes)


def test_the_lesson_caption_stays_up_while_catching_up() -> None:
    loop = game()
    loop.lessons.start(5, loop.session)
    caption = loop.readout(catching_up=True).caption
    assert caption == (
        f"{loop.lessons.caption()}  \N{EM DASH} catching up: 0 ticks run in this frame so far"
    )


def test_w_rewatches_the_frames_drawn_at_a_tenth_of_their_speed_and_w_goes_back_to_live() -> None:
    loop = game()
    for _ in range(20):
        loop.run_frame()
    tick = loop.session.lanes[0].world.tick
    press(pygame.K_w)
    loop.run_frame()
    assert loop.rewatch.playing and loop.session.controls.paused
    assert loop.picture.hud.layout.caption  # the label is on screen
    assert loop.rewatch.readout() is not None
    for _ in range(10):
        loop.run_frame()
    assert loop.session.lanes[0].world.tick == tick  # paused: nothing ran, nothing billed
    press(pygame.K_p)  # any other key waits for live play
    loop.run_frame()
    assert loop.session.controls.paused and loop.rewatch.playing
    press(pygame.K_w)
    loop.run_frame()
    assert not loop.rewatch.playing and not loop.session.controls.paused
    assert loop.readout().caption == "back to live"


def test_in_lesson_6_w_starts_at_the_stall_and_counts_clamps_15_ticks_on_screen() -> None:
    loop = game()
    clock = loop.clock
    assert isinstance(clock, ManualClock)
    loop.lessons.start(6, loop.session)
    loop.lessons.next_step(loop.session)  # drop beside clamp
    for _ in range(30):
        loop.run_frame()
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_s, mod=pygame.KMOD_SHIFT))
    for _ in range(12):
        loop.run_frame()
    press(pygame.K_w)
    loop.run_frame()
    labels: list[str] = []
    while (shown := loop.rewatch.readout()) is not None:
        assert loop.picture.hud.layout.caption  # the label is on screen
        label = shown.caption.split(" before W")[1]
        if not labels or labels[-1] != label:
            labels.append(label)
        clock.move_on(50_000_000)  # a quarter of a tick's 0.2 s on screen
        loop.run_frame()
    ticks = [f", lane 1 tick {min(n, 5)} of 5, lane 2 tick {n} of 15" for n in range(1, 16)]
    assert labels == [*ticks, ""]  # then the frame's own picture, and the frames after it
