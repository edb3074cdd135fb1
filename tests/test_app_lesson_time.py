"""The lesson clock in the real game loop (dummy video driver): the same frames and ticks on a
fast laptop and a slow one, the fall-back when a laptop cannot hold a step's rate, the clock
row, and D.

The laptop is a `ManualClock` under the `SwitchedClock`: its hands move by what the loop really
waits, and by a drawing delay each picture costs (slow or fast), as a real machine's would.
"""

from __future__ import annotations

from collections.abc import Iterator

import pygame
import pytest

from game.app.lesson_guide import LessonGuide
from game.app.lesson_time import SwitchedClock
from game.app.loop import GameLoop
from game.app.loop_options import LoopOptions
from game.app.window import Window
from game.clock.manual import ManualClock
from game.config.loading import load_config
from game.from_config import session_from
from game.workshop.files.lessons import Lesson, find_lesson
from tests.helpers import shipped_lessons
from timestep_lab import hz_to_step_ns

MS = 1_000_000
PERIOD_144 = hz_to_step_ns(144)


@pytest.fixture(scope="module", autouse=True)
def _pygame() -> Iterator[None]:
    pygame.init()
    yield
    pygame.quit()


def _laptop_loop(
    drawing_ns: int, lesson: int, step: int = 1, lessons: tuple[Lesson, ...] | None = None
) -> tuple[GameLoop, ManualClock]:
    """The played game (`lesson_clock=True`) on a laptop whose every picture takes
    `drawing_ns`, in lesson `lesson` (of `lessons`, or the shipped ones) at step `step`."""
    laptop = ManualClock()
    config = load_config(None, ())
    window = Window(640, 360, fullscreen=False, vsync=False)
    options = LoopOptions(print_hash=False, lesson_clock=True, pause_on_focus_loss=False)
    pygame.event.clear()
    session = session_from(config)
    guide = LessonGuide(lessons if lessons is not None else shipped_lessons())
    loop = GameLoop(session, window, laptop, options, lessons=guide)
    draw = loop._draw

    def slow_draw(catching_up: bool = False) -> None:
        draw(catching_up)
        laptop.move_on(drawing_ns)

    loop._draw = slow_draw  # type: ignore[method-assign]
    guide.start(lesson, session)
    for _ in range(step - 1):
        guide.next_step(session)
    loop.warm_up()
    return loop, laptop


def _run(loop: GameLoop, frames: int) -> list[int]:
    lengths = []
    for _ in range(frames):
        assert loop.run_frame()
        lengths.append(loop._frame_ns)
    return lengths


def _press(key: int) -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode=""))
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=key, mod=0, unicode=""))


def test_a_lesson_step_makes_the_same_frames_and_ticks_on_any_laptop() -> None:
    runs = []
    for drawing in (2 * MS, 40 * MS):  # a fast laptop and one at 25 fps
        loop, _ = _laptop_loop(drawing, lesson=1, step=2)  # 144 fps, the variable step
        lengths = _run(loop, 40)
        world = loop.session.lanes[0].world
        runs.append((lengths[2:], world.tick, world.state_hash(), loop.session.controls.clock))
    assert runs[0] == runs[1]
    lengths, _, _, clock = runs[0]
    assert clock == "lesson"
    assert set(lengths) == {6_944_444, 6_944_445}  # 1/144 s, floored to whole ns in turn
    assert sum(lengths[:9]) == 62_500_000  # nine frames of exactly 62,500,000/9 ns


def test_the_clock_row_says_the_slow_motion() -> None:
    loop, laptop = _laptop_loop(4 * int(PERIOD_144), lesson=1, step=2)
    _run(loop, 200)
    assert loop.readout().clock == "lesson \N{MIDDLE DOT} shown at 0.25x"
    assert isinstance(loop.clock, SwitchedClock) and loop.clock.on_lesson_clock
    # a key is stamped in lesson time: what the loop's clock says, a quarter of the laptop's
    since_start = loop._since_start()
    assert 0 <= since_start - loop.session.lanes[0].books.wall_ns < PERIOD_144  # the last frame
    assert laptop.now_ns() > 3 * since_start


def test_a_fast_laptop_is_shown_the_lesson_at_1x_never_faster() -> None:
    loop, laptop = _laptop_loop(1 * MS, lesson=1, step=2)
    _run(loop, 200)
    assert loop.readout().clock == "lesson \N{MIDDLE DOT} shown at 1x"
    lesson_ns = loop.session.lanes[0].books.wall_ns
    assert laptop.now_ns() >= lesson_ns


def test_d_switches_to_the_real_clock_and_back() -> None:
    loop, _ = _laptop_loop(1 * MS, lesson=1, step=2)
    _run(loop, 3)
    _press(pygame.K_d)
    _run(loop, 2)
    assert loop.session.controls.clock == "real"
    assert loop.readout().clock == "real (wall)"
    _press(pygame.K_d)
    _run(loop, 2)
    assert loop.readout().clock.startswith("lesson \N{MIDDLE DOT} ")


@pytest.mark.parametrize(("share", "falls_back"), [(0.89, True), (0.95, False)])
def test_the_game_falls_back_under_90_percent_of_the_step_rate(
    share: float, falls_back: bool
) -> None:
    # a laptop that draws a frame in 1/share of the period holds `share` of the rate
    loop, _ = _laptop_loop(int(PERIOD_144 / share), lesson=1, step=2)  # 144 fps
    _run(loop, 2)
    _press(pygame.K_d)  # to the real clock, to prove it
    _run(loop, 2)
    assert loop.session.controls.clock == "real"
    _run(loop, 150)  # more than a second of frames
    assert (loop.session.controls.clock == "lesson") is falls_back
    caption = loop.readout().caption
    said = "of the step's rate over a second: on the lesson clock now (D: the real clock)"
    assert (said in caption) is falls_back
    if falls_back:
        assert "this laptop held 89% of the step's rate" in caption


def test_no_fall_back_where_the_step_does_not_ask_for_the_lesson_clock() -> None:
    # Every shipped step asks for the lesson clock (on a slow laptop their claims did not show),
    # so lesson 9 without its `clock` settings stands for a step that shows on the wall clock:
    # a laptop at a third of the rate stays there.
    nine = find_lesson(shipped_lessons(), 9)
    steps = tuple(
        step.model_copy(update={"settings": step.settings.model_copy(update={"clock": None})})
        for step in nine.steps
    )
    on_the_wall = nine.model_copy(update={"steps": steps})
    loop, _ = _laptop_loop(int(PERIOD_144 * 3), lesson=9, lessons=(on_the_wall,))
    _run(loop, 150)
    assert loop.session.controls.clock == "real"


def test_no_fall_back_in_free_play() -> None:
    loop, _ = _laptop_loop(int(PERIOD_144 * 3), lesson=1, step=2)
    loop.lessons.run = None
    _press(pygame.K_d)
    _run(loop, 150)
    assert loop.session.controls.clock == "real"
