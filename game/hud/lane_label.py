"""`LaneLabel`: the name tag above each arena in split screen.

Two arenas side by side only teach something if the audience knows which policy is which; the
tag repeats the lane's policy where the eye already is, and marks the lane the keys change.
"""

from __future__ import annotations

import pygame

from game.hud.hud_colours import KEY, LABEL, PLATE, RGB
from game.hud.plate import flattened, same_format
from game.hud.text import Fonts

KEPT_TAGS = 16
"""Tags kept laid on the backdrop: two lanes, focused or not, under a few policies."""


class LaneLabel:
    """Draws a tag such as "lane 1: drop" in the label strip the layout gives it."""

    def __init__(self, fonts: Fonts, backdrop: RGB | None = None) -> None:
        self.fonts = fonts
        self.backdrop = backdrop
        """The plain colour under the tags, if the caller fills the window with one: each tag
        is then laid on it once and copied opaque (`plate.flattened`)."""
        self.height = fonts.bold.line_height + 2 * fonts.px(6)
        """The strip one label needs."""
        self._tags: dict[tuple[str, bool], pygame.Surface] = {}
        self._shown: dict[tuple[int, int, int, int], tuple[str, bool]] = {}
        """The tag last drawn in each strip."""

    def draw(
        self,
        surface: pygame.Surface,
        rect: pygame.Rect,
        text: str,
        focused: bool,
        kept: bool = False,
    ) -> None:
        """The tag in its strip. `kept`: the surface still shows what was drawn on it last
        frame, on the backdrop, so the same tag in the same strip is already there, and a
        new one is drawn on the strip cleared (the old tag may have been wider)."""
        strip = (rect.x, rect.y, rect.w, rect.h)
        if kept and self.backdrop is not None:
            if self._shown.get(strip) == (text, focused):
                return
            surface.fill(self.backdrop, rect)
        if len(self._shown) >= KEPT_TAGS:
            self._shown.clear()  # strips of old layouts: a kept frame then draws its tag again
        self._shown[strip] = (text, focused)
        cache = self.fonts.bold if focused else self.fonts.body
        label = cache.render(text, KEY if focused else LABEL)
        pad = self.fonts.px(6)
        plate = pygame.Rect(
            rect.x, rect.y + pad // 2, label.get_width() + 2 * pad, label.get_height() + pad
        )
        if self.backdrop is not None and self.fonts.retains:
            tag = self._tags.get((text, focused))
            if tag is None or not same_format(tag, surface):
                if len(self._tags) >= KEPT_TAGS:
                    self._tags.clear()
                tag = flattened(_backing(plate.size), self.backdrop, surface)
                tag.blit(label, (pad, pad // 2))
                self._tags[text, focused] = tag
            surface.blit(tag, plate)
            return
        surface.blit(_backing(plate.size), plate)
        surface.blit(label, (plate.x + pad, plate.y + pad // 2))


def _backing(size: tuple[int, int]) -> pygame.Surface:
    backing = pygame.Surface(size, pygame.SRCALPHA)
    backing.fill(PLATE)
    return backing
