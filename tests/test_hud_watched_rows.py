"""Watched rows are never hidden: each lesson step names the HUD rows its caption and keys talk
about (`watch`), and at every size a room projects, in both modes, each of them is drawn whole:
inside the window, inside the panel as it was laid out, under no other part of the HUD. So are
the paused state and the spiral banner's advice.

The readouts are the real game's (the dummy video driver, a manual clock): every lesson is
played step by step, split screen where the step splits it, the DISPLAY rows and the input
lab's rows as the game has them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import pygame
import pytest

from game.hud.display_rows import display_group
from game.hud.hud import PRESENTATION_FACTOR, Hud
from game.hud.network_rows import network_groups
from game.hud.rows import must_show
from game.hud.stats import stat_groups
from game.session.history import FrameHistory
from game.session.input_readout import InputCounts, InputReadout
from game.session.readout import DisplayReadout, LaneJudder, Readout
from game.vocabulary import HUD_ROWS
from game.workshop.files.lessons import LessonStep
from tests.helpers import game_loop, shipped_lessons
from tests.test_hud_network_rows import NETWORK
from tests.test_hud_stats import cell, lane, readout

SIZES = [(1280, 720), (1920, 1080), (3840, 2160)]
READABLE_PX = 20
"""The least height of a watched row at 1920 x 1080 in presentation mode."""


@pytest.fixture(scope="module", autouse=True)
def _pygame() -> Iterator[None]:
    pygame.init()
    yield
    pygame.quit()


def played(number: int) -> Iterator[tuple[int, LessonStep, Readout]]:
    """Each step of lesson `number` as the game shows it two frames after it starts."""
    lesson = next(lesson for lesson in shipped_lessons() if lesson.number == number)
    loop = game_loop()
    loop.lessons.start(number, loop.session)
    for index, step in enumerate(lesson.steps, start=1):
        loop.run_frame()
        loop.run_frame()
        yield index, step, loop.readout()
        loop.lessons.next_step(loop.session)


def stopped(shown: Readout) -> Readout:
    """The same picture, paused, in a spiral: the state row and the banner must show too."""
    lanes = tuple(dataclasses.replace(each, paused=True, spiral=True) for each in shown.lanes)
    return dataclasses.replace(shown, lanes=lanes)


def problems(hud: Hud, surface: pygame.Surface, shown: Readout, names: frozenset[str]) -> list[str]:
    """What is wrong with how `names` are drawn (nothing, when each is drawn whole)."""
    size = surface.get_size()
    layout = hud.lay_out(size, shown)
    hud.draw(surface, shown, tuple(FrameHistory() for _ in shown.lanes), layout)
    drawn, window = hud.layout, pygame.Rect(0, 0, *size)
    laid = pygame.Rect(layout.panel.x, layout.panel.y, layout.panel.w, layout.panel.h)
    others = [drawn.caption, drawn.banner, drawn.graphs, drawn.strip]
    others += [pygame.Rect(b.x, b.y, b.w, b.h) for b in (*layout.arenas, *layout.labels)]
    found = []
    if not laid.contains(drawn.panel):
        found.append(f"the panel {drawn.panel} is cut to {laid}")
    for name in sorted(names):
        box = drawn.graphs if name == "graphs" else drawn.rows.get(name)
        if box is None:
            found.append(f"{name!r} is not drawn")
            continue
        if not box or not window.contains(box):
            found.append(f"{name!r} at {box} is not inside the window")
        found += [f"{name!r} is under {other}" for other in others if other.colliderect(box)
                  and other != box]  # fmt: skip
        if size == (1920, 1080) and shown.presentation and box.h < READABLE_PX:
            found.append(f"{name!r} is {box.h} px high")
    banner_whole = layout.whole and drawn.banner and window.contains(drawn.banner)
    if shown.lanes[0].spiral and not banner_whole:
        found.append(f"the banner is cut: {drawn.banner}")
    return found


@pytest.mark.slow
@pytest.mark.parametrize("number", [lesson.number for lesson in shipped_lessons()])
def test_every_watched_row_is_drawn_whole_at_every_size_in_both_modes(number: int) -> None:
    hud = Hud()
    surfaces = {size: pygame.Surface(size) for size in SIZES}
    for index, step, shown in played(number):
        assert shown.watch == step.watch
        assert "graphs" not in step.watch or shown.show_graphs
        for size, surface in surfaces.items():
            for presentation in (False, True):
                for each in (shown, stopped(shown)):
                    each = dataclasses.replace(each, presentation=presentation)
                    names = frozenset(step.watch) | must_show(each)
                    found = problems(hud, surface, each, names)
                    mode = "presentation" if presentation else "normal"
                    assert found == [], f"lesson {number} step {index}, {size} {mode}"


def test_the_lesson_clock_row_leaves_presentation_mode_its_full_size() -> None:
    # Tried live at 1920 x 1080 (playtest 17): `lesson · 106 fps simulated, shown at 0.099x`
    # made the panel too wide for twice the type, and every lesson-clock step fell back to 1.125.
    hud = Hud()
    _, _, shown = next(played(1))
    shown = dataclasses.replace(
        shown, presentation=True, clock="lesson \N{MIDDLE DOT} shown at 0.099x"
    )
    assert hud.parts_for((1920, 1080), shown).fonts.scale == PRESENTATION_FACTOR


def test_the_paused_state_must_show_and_reads_paused() -> None:
    paused = readout(lanes=(lane(paused=True),))
    assert must_show(paused) == {"state"}
    assert cell("state", paused).text == "PAUSED"
    assert must_show(readout(lanes=(lane(non_finite_tick=12),))) == {"state"}
    assert must_show(readout(watch=("judder", "graphs"))) == {"judder", "graphs"}


def test_a_watched_row_is_kept_where_a_more_important_one_goes() -> None:
    hud = Hud()
    shown = readout(presentation=True, lanes=(lane(),))
    surface = pygame.Surface((1280, 720))
    hud.draw(surface, shown, (FrameHistory(),))
    assert "total" not in hud.layout.rows  # a detail: dropped on a small projector
    hud.draw(surface, dataclasses.replace(shown, watch=("total",)), (FrameHistory(),))
    assert "total" in hud.layout.rows


def test_the_names_a_step_may_watch_are_the_panels_labels_and_the_graphs() -> None:
    lab = InputReadout(model="latched", counts=InputCounts())
    judder = LaneJudder(cadence="0101", holds="2323", judder_pct=3.3, position_error_ms=0.1)
    everything = readout(
        lanes=(lane(inputs=lab, paused=True, time_scale="1/2"),),
        books_since="step start",
        display=DisplayReadout(refresh_hz=60.0, refresh_read=False, lanes=(judder,)),
        clock="real (wall)",
        capture="hitch.csv \N{MIDDLE DOT} 1/284",
        network=NETWORK,
    )
    groups = (*stat_groups(everything), display_group(everything), *network_groups(everything))
    labels = [row.label for g in groups for row in g.rows]
    assert (*labels, "graphs") == HUD_ROWS
