"""The simulated screen's strip in pixels: a mark where `screen_marks` says, a held frame
stacked, nothing outside the strip."""

from __future__ import annotations

from collections.abc import Iterator

import pygame
import pytest

from game.display.screen_marks import ScreenMarks
from game.hud.hud_colours import KEY, TEXT
from game.hud.screen_strip import STRIP_PLATE, draw_screen_strip, line_width, strip_height
from game.hud.text import Fonts

BACK = (1, 2, 3)


@pytest.fixture(scope="module", autouse=True)
def _pygame() -> Iterator[None]:
    pygame.init()
    yield
    pygame.quit()


def test_the_shown_marks_are_drawn_where_they_are_and_stacked_when_held() -> None:
    fonts = Fonts.at_scale(1.0)
    surface = pygame.Surface((700, 200))
    surface.fill(BACK)
    area = pygame.Rect(10, 10, 600, strip_height(fonts))
    left = area.right - 6 - line_width(area, fonts)  # where the marks' line starts
    marks = ScreenMarks((0, 100, 200), (0, 0, 200), (0, 1, 0))
    draw_screen_strip(surface, area, marks, "165 Hz screen (simulated)", fonts)
    shown_y = area.y + fonts.small.line_height + 12 + 16
    assert surface.get_at((left, shown_y))[:3] == TEXT  # the first refresh
    assert surface.get_at((left, shown_y + 8))[:3] == TEXT  # held: stacked under it
    assert surface.get_at((left + 100, shown_y))[:3] != TEXT  # no new position there
    assert surface.get_at((left + 200, shown_y))[:3] == KEY  # the newest, in the key colour
    assert surface.get_at((area.x + 3, area.bottom - 3))[:3] == STRIP_PLATE
    assert surface.get_at((area.right + 5, area.y + 5))[:3] == BACK  # nothing outside
