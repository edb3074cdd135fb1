"""The simulated screen's strip: a faster screen than the room's, drawn refresh by refresh.

Two rows of marks over the arena (`game.display.screen_marks` says where): above, a ball in
even motion, one mark per refresh; below, where the screen shows it, a refresh that shows the
same position again stacked under the one before. Even gaps read as smooth, stacks and long gaps
as judder, on a projector of any refresh rate. The newest refresh is the bright one.
"""

from __future__ import annotations

import pygame

from game.display.screen_marks import ScreenMarks
from game.hud.hud_colours import DIM, KEY, LABEL, RULE, TEXT
from game.hud.text import Fonts

STRIP_PLATE = (10, 14, 22)
ROW_NAMES = ("even", "shown")


def strip_height(fonts: Fonts) -> int:
    """The strip's height at these fonts' scale: a title, the even row, three stacked marks."""
    return fonts.small.line_height + fonts.px(58)


def draw_screen_strip(
    surface: pygame.Surface, area: pygame.Rect, marks: ScreenMarks, title: str, fonts: Fonts
) -> None:
    """Draw `marks` in `area`: the plate, `title`, the even row and the shown row."""
    clip = surface.get_clip()
    surface.set_clip(area.clip(clip))  # a mark off the line, or a title too long, stays inside
    pygame.draw.rect(surface, STRIP_PLATE, area)
    pygame.draw.rect(surface, RULE, area, 1)
    pad = fonts.px(6)
    heading = f"{title}: stacks are judder"
    surface.blit(fonts.small.render(heading, LABEL), (area.x + pad, area.y + pad // 2))
    label_w = max(fonts.small.font.size(name)[0] for name in ROW_NAMES) + 2 * pad
    left = area.x + label_w
    even_y = area.y + fonts.small.line_height + fonts.px(12)
    shown_y = even_y + fonts.px(16)
    for name, y in zip(ROW_NAMES, (even_y, shown_y), strict=True):
        words = fonts.small.render(name, DIM)
        surface.blit(words, (area.x + pad, y - words.get_height() // 2))
        pygame.draw.line(surface, RULE, (left, y), (left + line_width(area, fonts), y))
    tick = fonts.px(6)
    for x in marks.even_px:
        pygame.draw.line(surface, DIM, (left + x, even_y - tick), (left + x, even_y + tick))
    radius, step = fonts.px(3), fonts.px(8)
    last = len(marks.shown_px) - 1
    for index, (x, stacked) in enumerate(zip(marks.shown_px, marks.stacked, strict=True)):
        colour = KEY if index == last else TEXT
        centre = (left + x, shown_y + min(stacked, 4) * step)
        pygame.draw.circle(surface, colour, centre, radius + (1 if index == last else 0))
    surface.set_clip(clip)


def line_width(area: pygame.Rect, fonts: Fonts) -> int:
    """The marks' line, in pixels: the strip less its row names and a margin."""
    pad = fonts.px(6)
    label_w = max(fonts.small.font.size(name)[0] for name in ROW_NAMES) + 2 * pad
    return max(2, area.w - label_w - pad)
