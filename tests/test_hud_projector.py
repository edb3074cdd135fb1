"""The projector layout: every lesson step, at the sizes a room projects, in both modes, with
the caption and the spiral banner shown, lays out with no two boxes overlapping and the arenas
keeping a large share of the window."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import pygame
import pytest

from game.hud.hud import Hud
from game.hud.layout import ARENA_SHARE, Box
from game.session.input_readout import InputCounts, InputReadout
from game.workshop.files.lessons import LessonRun, load_lessons
from tests.test_hud_stats import lane, readout

SIZES = [(1280, 720), (1920, 1080), (3840, 2160)]
STEPS = [
    (lesson.number, index, step)
    for lesson in load_lessons()
    for index, step in enumerate(lesson.steps)
]


@pytest.fixture(scope="module", autouse=True)
def _pygame() -> Iterator[None]:
    pygame.init()
    yield
    pygame.quit()


@pytest.fixture(scope="module")
def hud() -> Hud:
    return Hud()


def span(boxes: tuple[Box, ...]) -> Box:
    left, top = min(b.x for b in boxes), min(b.y for b in boxes)
    return Box(left, top, max(b.right for b in boxes) - left, max(b.bottom for b in boxes) - top)


@pytest.mark.slow
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("presentation", [False, True], ids=["normal", "presentation"])
@pytest.mark.parametrize("spiral", [False, True], ids=["calm", "spiral"])
def test_every_lesson_step_lays_out_with_nothing_overlapping(
    hud: Hud, size: tuple[int, int], presentation: bool, spiral: bool
) -> None:
    for number, index, step in STEPS:
        run = dataclasses.replace(LessonRun(next(x for x in load_lessons() if x.number == number)),
                                  step=index)  # fmt: skip
        split = step.settings.second_policy is not None or step.settings.split is True
        lanes = (lane(spiral=spiral),) + ((lane(policy="backlog"),) if split else ())
        shown = readout(lanes=lanes, caption=run.caption(), presentation=presentation)
        layout = hud.lay_out(size, shown)
        where = f"lesson {number} step {index + 1} at {size}"
        boxes = layout.boxes()
        window = Box(0, 0, *size)
        assert all(b.x >= 0 and b.y >= 0 and b.right <= window.w and b.bottom <= window.h
                   for b in boxes), where  # fmt: skip
        overlaps = [(a, b) for i, a in enumerate(boxes) for b in boxes[i + 1 :] if a.overlaps(b)]
        assert overlaps == [], where
        assert layout.caption, where
        assert bool(layout.banner) is spiral, where
        arenas = span(layout.arenas)
        assert arenas.h >= ARENA_SHARE * size[1], where
        assert arenas.w >= ARENA_SHARE * size[0], where


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("presentation", [False, True], ids=["normal", "presentation"])
@pytest.mark.parametrize("lanes", [1, 2])
def test_the_press_strip_sits_under_the_arenas_and_they_keep_their_share(
    hud: Hud, size: tuple[int, int], presentation: bool, lanes: int
) -> None:
    lab = InputReadout(model="frame-edge", counts=InputCounts())
    lesson_7 = next(x for x in load_lessons() if x.number == 7)
    shown = readout(lanes=(lane(inputs=lab),) * lanes, caption=LessonRun(lesson_7).caption(),
                    presentation=presentation, show_graphs=True)  # fmt: skip
    layout = hud.lay_out(size, shown)
    boxes = layout.boxes()
    assert layout.strip in boxes
    assert [(a, b) for i, a in enumerate(boxes) for b in boxes[i + 1 :] if a.overlaps(b)] == []
    arenas = span(layout.arenas)
    assert layout.strip.y > arenas.bottom and layout.strip.w == arenas.w
    assert arenas.h >= ARENA_SHARE * size[1]


def test_presentation_mode_is_never_smaller_than_normal(hud: Hud) -> None:
    for size in SIZES:
        normal = hud.parts_for(size, readout()).fonts.scale
        projected = hud.parts_for(size, readout(presentation=True)).fonts.scale
        assert projected >= normal, size
    assert hud.parts_for((3840, 2160), readout(presentation=True)).fonts.scale == 2.0


def test_the_help_is_drawn_at_the_hud_s_own_scale(hud: Hud) -> None:
    for size in SIZES:
        for presentation in (False, True):
            shown = readout(show_help=True, presentation=presentation)
            parts = hud.parts_for(size, shown)
            assert parts.help.scale == parts.fonts.scale


def test_a_passing_status_never_shrinks_the_type_the_step_was_laid_out_in(hud: Hud) -> None:
    # Lesson 5 step 1 at 1920x1080 in presentation mode, then S: the status a stall appends to
    # the caption takes its room from the arenas, not from the type of every row.
    five = next(x for x in load_lessons() if x.number == 5)
    words, watch = LessonRun(five).caption(), tuple(five.steps[0].watch)
    size = (1920, 1080)
    calm = readout(caption=words, lasting_caption=words, presentation=True, watch=watch)
    stalled = dataclasses.replace(
        calm, caption=f"{words}  \N{EM DASH} stalled the loop for 2000 ms"
    )
    assert hud.parts_for(size, calm).fonts.scale == 2.0
    assert hud.parts_for(size, stalled).fonts.scale == 2.0
    assert hud.lay_out(size, stalled).whole
    # Fitted as if the status lasted (a readout that does not say what lasts), the type shrinks:
    assert (
        hud.parts_for(size, dataclasses.replace(stalled, lasting_caption=None)).fonts.scale == 1.5
    )
