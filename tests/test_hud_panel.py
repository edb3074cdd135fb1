"""The stats panel on a Surface: it fits its area, and naive alpha overflows in red."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pygame
import pytest

from game.hud.hud_colours import BAD
from game.hud.panel import StatsPanel
from game.hud.text import Fonts
from tests.test_hud_stats import READOUT, lane, readout

WINDOW = pygame.Rect(12, 12, 1256, 696)
LANE_DROP = lane(policy="drop")
LANE_UNCAPPED = lane(policy="uncapped", overloaded=True)


@pytest.fixture(scope="module")
def fonts() -> Iterator[Fonts]:
    pygame.init()
    yield Fonts.at_scale(1.0)
    pygame.quit()


def labels(panel: StatsPanel) -> list[str]:
    return list(panel.labels)


def red_pixels(panel: StatsPanel, alpha: float) -> tuple[int, int]:
    """(longest horizontal run, count) of exactly red pixels, the panel drawn with this alpha."""
    panel.update(readout(lanes=(lane(alpha=alpha, alpha_mode="naive"),)), WINDOW)
    surface = pygame.Surface((1280, 720))
    panel.draw(surface)
    red = np.all(pygame.surfarray.array3d(surface) == BAD, axis=2)  # indexed [x, y]
    longest = 0
    for row in red.T:
        edges = np.flatnonzero(np.diff(np.concatenate(([0], row.astype(np.int8), [0]))))
        if edges.shape[0]:
            longest = max(longest, int((edges[1::2] - edges[0::2]).max()))
    return longest, int(red.sum())


def test_naive_alpha_turns_the_bar_red_and_overflows_its_track(fonts: Fonts) -> None:
    panel = StatsPanel(fonts)
    track = round((18 - 7) * fonts.body.char_width * 0.6)  # see MIN_VALUE_CHARS, TRACK_SHARE
    assert red_pixels(panel, 0.5) == (0, 0)
    run_a_bit, red_a_bit = red_pixels(panel, 1.25)
    run_a_lot, red_a_lot = red_pixels(panel, 6.75)
    assert run_a_bit == run_a_lot == track  # the whole 0..1 track, in red
    assert red_a_lot > red_a_bit  # and the overflow beyond it is longer


def test_with_room_the_panel_shows_every_row_and_sizes_to_its_content(fonts: Fonts) -> None:
    panel = StatsPanel(fonts)
    panel.update(READOUT, pygame.Rect(0, 0, 1920, 1080))
    assert "remainder" in labels(panel) and "bodies" in labels(panel)
    assert len(labels(panel)) == 27
    assert panel.rect.topleft == (0, 0)
    assert 300 <= panel.rect.w <= 420


def test_a_short_area_drops_details_before_essentials(fonts: Fonts) -> None:
    panel = StatsPanel(fonts)
    panel.update(READOUT, pygame.Rect(12, 12, 1256, 400))
    shown = labels(panel)
    assert panel.rect.h <= 400
    assert {"status", "policy", "steps", "alpha", "frame"} <= set(shown)
    assert not {"remainder", "bodies", "integrator", "sim / wall"} & set(shown)


def test_a_second_lane_adds_a_value_column(fonts: Fonts) -> None:
    one, two = StatsPanel(fonts), StatsPanel(fonts)
    one.update(READOUT, WINDOW)
    two.update(readout(lanes=(LANE_DROP, LANE_UNCAPPED)), WINDOW)
    extra = two.rect.w - one.rect.w
    assert extra == pytest.approx(18 * fonts.body.char_width + 18, abs=2)
