"""The whole HUD on a window: it fits, presentation doubles it, and it only ever reads."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import numpy as np
import pygame
import pytest

from game.hud.banner import SpiralBanner
from game.hud.hud import Hud, HudLayout
from game.session.history import FrameHistory, FrameSample
from game.session.readout import Readout
from tests.test_hud_stats import READOUT, lane, readout

KEYS = [
    ("Tab / Shift+Tab, 1-6", "overload policy"),
    ("[ and ]", "time scale (1/8 ... 4)"),
    ("P", "pause / resume"),
    (".", "single tick while paused"),
    ("S / Shift+S / Ctrl+S", "stall 200 ms / 2 s / 50 ms"),
    ("C / Shift+C", "step cost up / down"),
    ("- and =", "catch-up cap M"),
    ("I", "interpolation off / interpolate / extrapolate"),
    ("A", "alpha mode (correct / naive)"),
    ("E", "integrator"),
    ("T", "tick rate (10, 30, 60, 120)"),
    ("F", "render-rate cap"),
    ("R", "reset the scene"),
    ("G", "graphs"),
    ("Space / click", "fire"),
    ("F1 or H", "this help"),
    ("F11", "fullscreen"),
    ("F12", "screenshot"),
    ("Esc / Q", "quit"),
]


@pytest.fixture(scope="module", autouse=True)
def pygame_running() -> Iterator[None]:
    pygame.init()
    yield
    pygame.quit()


@pytest.fixture(scope="module")
def history() -> FrameHistory:
    """Five seconds at 60 fps, the last one overloaded and dropping."""
    recorded = FrameHistory()
    for frame in range(300):
        late = frame >= 240
        recorded.append(FrameSample((frame + 1) / 60, 1000 / 60, 1, 4.0 * late, 0, late))
    return recorded


def drawn(size: tuple[int, int], shown: Readout, history: FrameHistory, hud: Hud) -> HudLayout:
    surface = pygame.Surface(size)
    hud.draw(surface, shown, (history,))
    return hud.layout


def parts(layout: HudLayout) -> dict[str, pygame.Rect]:
    named = {
        "panel": layout.panel,
        "graphs": layout.graphs,
        "caption": layout.caption,
        "banner": layout.banner,
        "help": layout.help,
    }
    return {name: rect for name, rect in named.items() if rect}


EVERYTHING = readout(
    lanes=(lane(overloaded=True, spiral=True), lane(policy="uncapped", spiral=True)),
    caption="step cost 24 ms > step 16.7 ms: every tick costs more than it simulates",
    show_help=True,
)


@pytest.mark.parametrize("size", [(1280, 720), (800, 500), (1920, 1080)])
@pytest.mark.parametrize("presentation", [False, True])
@pytest.mark.parametrize("lanes", [1, 2])
def test_every_part_stays_on_screen_and_nothing_overlaps(
    size: tuple[int, int], presentation: bool, lanes: int, history: FrameHistory
) -> None:
    shown = readout(
        lanes=EVERYTHING.lanes[:lanes],
        caption=EVERYTHING.caption,
        show_help=True,
        presentation=presentation,
    )
    hud = Hud(help_rows=KEYS)
    drawn_parts = drawn(size, shown, history, hud)
    screen = pygame.Rect((0, 0), size)
    assert {"panel", "caption", "banner", "help"} <= set(parts(drawn_parts))
    for name, rect in parts(drawn_parts).items():
        assert screen.contains(rect), (name, rect)
    boxes = hud.lay_out(size, shown).boxes()
    overlaps = [(a, b) for i, a in enumerate(boxes) for b in boxes[i + 1 :] if a.overlaps(b)]
    assert overlaps == []
    drawn_boxes = [r for name, r in parts(drawn_parts).items() if name != "help"]
    assert not any(
        a.colliderect(b) for i, a in enumerate(drawn_boxes) for b in drawn_boxes[i + 1 :]
    )


def test_presentation_mode_doubles_the_hud(history: FrameHistory) -> None:
    hud = Hud()
    normal = drawn((3840, 2160), READOUT, history, hud).panel
    doubled = drawn((3840, 2160), readout(presentation=True), history, hud).panel
    assert doubled.w / normal.w == pytest.approx(2, rel=0.06)
    assert doubled.h / normal.h == pytest.approx(2, rel=0.06)
    assert drawn((3840, 2160), READOUT, history, hud).panel == normal  # and back


def test_presentation_on_a_small_window_drops_rows_rather_than_run_off(
    history: FrameHistory,
) -> None:
    hud = Hud()
    layout = drawn((1280, 720), readout(presentation=True), history, hud)
    assert layout.panel.bottom <= 720 - 12
    shown = hud.parts_for((1280, 720), readout(presentation=True)).panel.labels
    assert {"status", "policy", "steps", "alpha", "frame"} <= set(shown)
    assert "remainder" not in shown


def test_the_banner_shows_only_while_a_lane_spirals(history: FrameHistory) -> None:
    hud = Hud()
    assert not drawn((1280, 720), READOUT, history, hud).banner
    second_spirals = readout(lanes=(lane(), lane(spiral=True)))
    assert drawn((1280, 720), second_spirals, history, hud).banner


def test_a_long_spiral_hint_wraps_inside_the_area() -> None:
    banner = SpiralBanner(Hud().fonts_at(1.0))
    area = pygame.Rect(0, 0, 700, 600)
    banner.update("press 3", area)
    short = banner.rect
    banner.update("press 3 (drop) or Shift+C (less step cost) to recover, " * 3, area)
    assert area.contains(banner.rect)
    assert banner.rect.h > short.h


def test_the_caption_shows_only_when_there_is_one(history: FrameHistory) -> None:
    hud = Hud()
    assert not drawn((1280, 720), READOUT, history, hud).caption
    assert drawn((1280, 720), readout(caption="screenshot saved"), history, hud).caption


def test_the_help_lists_every_row_it_was_given_without_overlap(history: FrameHistory) -> None:
    for presentation in (False, True):
        hud = Hud(help_rows=KEYS)
        layout = drawn(
            (1280, 720), readout(show_help=True, presentation=presentation), history, hud
        )
        placed = hud.parts_for((1280, 720), readout(presentation=presentation)).help.placed
        assert [row for row, _ in placed] == KEYS
        rects = [rect for _, rect in placed]
        assert all(layout.help.contains(rect) for rect in rects)
        assert not any(a.colliderect(b) for i, a in enumerate(rects) for b in rects[i + 1 :])
        assert pygame.Rect(0, 0, 1280, 720).contains(layout.help)


def test_the_help_is_hidden_unless_asked_for(history: FrameHistory) -> None:
    assert not drawn((1280, 720), READOUT, history, Hud(help_rows=KEYS)).help


def test_drawing_changes_neither_the_readout_nor_the_history(history: FrameHistory) -> None:
    before = history.latest(len(history))
    count = len(history)
    expected = dataclasses.replace(EVERYTHING)
    drawn((1280, 720), EVERYTHING, history, Hud(help_rows=KEYS))
    assert expected == EVERYTHING
    assert len(history) == count
    after = history.latest(len(history))
    for field in ("wall_s", "frame_ms", "steps", "dropped_ms", "backlog_steps", "overloaded"):
        assert np.array_equal(getattr(before, field), getattr(after, field)), field


def test_each_scale_keeps_its_own_fonts(history: FrameHistory) -> None:
    hud = Hud()
    drawn((1280, 720), READOUT, history, hud)
    normal = hud.fonts_at(1.0)
    drawn((1280, 720), readout(presentation=True), history, hud)
    drawn((1280, 720), READOUT, history, hud)
    assert hud.fonts_at(1.0) is normal
    assert hud.fonts_at(2.0).body.line_height > normal.body.line_height


def test_the_layout_is_kept_while_only_values_change_and_redone_when_what_it_reads_does() -> None:
    hud = Hud()
    first = hud.lay_out((1280, 720), READOUT)
    assert hud.lay_out((1280, 720), readout(fps=59.2, frame_ms=17.1, work_ms=4.4)) is first
    assert hud.lay_out((1280, 720), readout(lanes=(lane(alpha=0.1, tick=9),))) is first
    for changed, size in [
        (readout(caption="a lesson's caption"), (1280, 720)),
        (readout(lanes=(lane(spiral=True),)), (1280, 720)),
        (readout(show_graphs=False), (1280, 720)),
        (readout(lanes=(lane(), lane(policy="uncapped"))), (1280, 720)),
        (readout(presentation=True), (1280, 720)),
        (READOUT, (1024, 640)),
    ]:
        again = hud.lay_out(size, changed)
        assert again is not first
        assert again == lay_out_afresh(size, changed)
    assert hud.lay_out((1280, 720), READOUT) is first


def lay_out_afresh(size: tuple[int, int], shown: Readout) -> object:
    """The same layout from a HUD that has kept nothing."""
    return Hud().lay_out(size, shown)
