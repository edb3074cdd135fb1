"""Every lesson, walked by its own captions: the keys a step names take the controls where it says.

Each step lists the keys its caption tells the room to press (`press`, in script names) and the
controls they should end at (`expect`). Here the real game plays every step of every lesson:
the step starts, exactly those keys go through the real event queue, key map and session, and
the controls must then equal `expect` turned on the controls the step started with. A caption
that says "press E for explicit Euler" when one E gives Verlet fails here.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pygame
import pytest

from game.app.lesson_guide import LessonGuide
from game.app.loop import GameLoop
from game.app.loop_options import LoopOptions
from game.app.script import ScriptPlayer, parse_script
from game.app.window import Window
from game.clock.manual import ManualClock
from game.config.loading import load_config
from game.from_config import session_from
from game.workshop.files.lessons import LessonStep, load_lessons

LESSONS = load_lessons()
SHOWN = {"period": ".", "minus": "-", "equals": "=", "space": "Space", "tab": "Tab",
         "up": "Up", "down": "Down", "left": "Left", "right": "Right"}  # fmt: skip
"""How the keys text writes a key whose script name is a word."""


@pytest.fixture(scope="module", autouse=True)
def _pygame() -> Iterator[None]:
    pygame.init()
    yield
    pygame.quit()


def shown(press: str) -> str:
    """A script key name as a caption writes it: "shift+s" -> "Shift+S", "period" -> "."."""
    *modifiers, key = press.split("+")
    return "+".join([m.capitalize() for m in modifiers] + [SHOWN.get(key, key.upper())])


def names(text: str, press: str) -> bool:
    """Whether `text` names the key on its own (the S of "Shift+S" is not an S)."""
    return re.search(rf"(?<![\w+]){re.escape(shown(press))}(?![\w+])", text) is not None


def game() -> GameLoop:
    pygame.event.clear()
    window = Window(1280, 720, fullscreen=False, vsync=False)
    options = LoopOptions(print_hash=False, pause_on_focus_loss=False)
    loop = GameLoop(session_from(load_config(None)), window, ManualClock(), options,
                    lessons=LessonGuide())  # fmt: skip
    loop.warm_up()
    return loop


def type_keys(loop: GameLoop, *keys: str) -> None:
    """Each key through the real event queue, a frame after each, as a player would."""
    for key in keys:
        ScriptPlayer(parse_script(f"0 {key}", "press")).post_due(0, lambda x, y: (0, 0))
        loop.run_frame()


@pytest.mark.slow
@pytest.mark.parametrize("number", [lesson.number for lesson in LESSONS])
def test_every_step_ends_where_its_caption_says_when_its_keys_are_pressed(number: int) -> None:
    lesson = next(lesson for lesson in LESSONS if lesson.number == number)
    loop = game()
    loop.lessons.start(number, loop.session)
    for index, step in enumerate(lesson.steps, start=1):
        loop.run_frame()
        assert loop.readout().caption.startswith(f"Lesson {number}, step {index}/")
        started = loop.session.controls
        type_keys(loop, *step.press)
        loop.run_frame()
        assert not loop.rewatch.playing, f"step {index} leaves a rewatch running"
        assert loop.session.controls == step.expect.applied_to(started), f"step {index}"
        type_keys(loop, "n")
    assert loop.lessons.run is None


@pytest.mark.parametrize(
    "step",
    [step for lesson in LESSONS for step in lesson.steps],
    ids=[f"{lesson.number}.{i}" for lesson in LESSONS for i in range(1, len(lesson.steps) + 1)],
)
def test_every_key_a_step_presses_is_named_in_its_keys_text(step: LessonStep) -> None:
    assert step.press, "a step says which keys to press"
    for key in step.press:
        assert names(step.keys, key), f"{key!r} is not named in {step.keys!r}"


def test_a_key_name_is_found_only_on_its_own() -> None:
    assert names("press Shift+S, then W", "shift+s")
    assert not names("press Shift+S, then W", "s")
    assert names("press S three times", "s")
    assert names("press P to pause, . twice", "period")
    assert not names("press E twice", "f")
