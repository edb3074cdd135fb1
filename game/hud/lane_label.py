"""`LaneLabel`: the name tag above each arena in split screen.

Two arenas side by side only teach something if the audience knows which policy is which; the
tag repeats the lane's policy where the eye already is, and marks the lane the keys change.
"""

from __future__ import annotations

import pygame

from game.hud.hud_colours import KEY, LABEL, PLATE
from game.hud.text import Fonts


class LaneLabel:
    """Draws a tag such as "lane 1: drop" in the label strip the layout gives it."""

    def __init__(self, fonts: Fonts) -> None:
        self.fonts = fonts
        self.height = fonts.bold.line_height + 2 * fonts.px(6)
        """The strip one label needs."""

    def draw(self, surface: pygame.Surface, rect: pygame.Rect, text: str, focused: bool) -> None:
        cache = self.fonts.bold if focused else self.fonts.body
        label = cache.render(text, KEY if focused else LABEL)
        pad = self.fonts.px(6)
        plate = pygame.Rect(rect.x, rect.y + pad // 2, label.get_width() + 2 * pad,
                            label.get_height() + pad)  # fmt: skip
        backing = pygame.Surface(plate.size, pygame.SRCALPHA)
        backing.fill(PLATE)
        surface.blit(backing, plate)
        surface.blit(label, (plate.x + pad, plate.y + pad // 2))
