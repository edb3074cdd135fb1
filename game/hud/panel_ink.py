"""The stats panel's values as *ink*, and the kept picture that only redraws the ink that changed.

Each row of the panel puts a few things on the window: its texts, and the rectangles and the
arrowhead of the alpha bar or a badge. `Ink` is that list for one row, with the area it covers.
The panel (`game.hud.panel`) places a row's ink again only when the row's cells change, so from
one frame to the next most rows keep the very same `Ink` object.

`KeptPicture` is the panel's card laid on the window's plain backdrop, with every row's ink
drawn on it. Each frame it restores, from the card, the areas of the rows whose ink is not the
one it drew (old and new areas both), and draws their new ink; the window then gets one opaque
copy. Restoring before drawing is what keeps the pixels exact: a translucent text drawn twice
over itself would come out darker at its edges.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import pygame

from game.hud.hud_colours import RGB
from game.hud.plate import flattened, same_format

Box = tuple[RGB, pygame.Rect, int]
"""A filled rectangle: colour, where, and the radius of its corners."""
Tip = tuple[RGB, list[tuple[int, int]]]
"""A filled polygon: colour and corners."""
Text = tuple[pygame.Surface, tuple[int, int]]
"""Rendered text and its top-left corner."""


class Ink(NamedTuple):
    """What one row's values put on the window, in window coordinates, drawn in this order."""

    boxes: tuple[Box, ...]
    tips: tuple[Tip, ...]
    texts: tuple[Text, ...]
    area: pygame.Rect
    """Every pixel it may touch."""

    @classmethod
    def of(cls, boxes: list[Box], tips: list[Tip], texts: list[Text]) -> Ink:
        rects = [box for _, box, _ in boxes]
        rects += [pygame.Rect(position, text.get_size()) for text, position in texts]
        for _, points in tips:
            xs, ys = [x for x, _ in points], [y for _, y in points]
            left, top = min(xs), min(ys)
            rects.append(pygame.Rect(left, top, max(xs) - left + 1, max(ys) - top + 1))
        area = rects[0].unionall(rects[1:]) if rects else pygame.Rect(0, 0, 0, 0)
        return cls(tuple(boxes), tuple(tips), tuple(texts), area)


def draw_inks(
    surface: pygame.Surface,
    inks: Sequence[Ink],
    origin: tuple[int, int] = (0, 0),
    first_texts: Sequence[Text] = (),
) -> None:
    """The rows' ink moved by -`origin`, in the panel's order: every box, every tip, then every
    text in one `fblits` (after `first_texts`: the card's words, when there is no card)."""
    left, top = origin
    for ink in inks:
        for colour, box, radius in ink.boxes:
            pygame.draw.rect(surface, colour, box.move(-left, -top), border_radius=radius)
    for ink in inks:
        for colour, points in ink.tips:
            pygame.draw.polygon(surface, colour, [(x - left, y - top) for x, y in points])
    texts = [(text, (x - left, y - top)) for ink in inks for text, (x, y) in ink.texts]
    surface.fblits([*first_texts, *texts])


class KeptPicture:
    """A card on a backdrop with rows of ink on it, brought up to date by redrawing only what
    changed (see the module's docstring)."""

    def __init__(self) -> None:
        self._base = pygame.Surface((0, 0))
        """The card on the backdrop: what is under every row's ink."""
        self._picture = pygame.Surface((0, 0))
        self._card: pygame.Surface | None = None
        self._drawn: list[Ink] = []
        self.damage: list[pygame.Rect] = []
        """The areas of the picture (in its own coordinates) the last `brought_up` changed:
        what a window still showing the picture before it needs copied again."""

    def brought_up(
        self,
        card: pygame.Surface,
        inks: Sequence[Ink],
        origin: tuple[int, int],
        backdrop: RGB,
        like: pygame.Surface,
    ) -> pygame.Surface:
        """The picture of `card` (a new card is laid on `backdrop` afresh) with `inks` on it,
        placed at `origin` on a window in `like`'s format."""
        if card is not self._card or not same_format(self._picture, like):
            self._card = card
            self._base = flattened(card, backdrop, like)
            self._picture = self._base.copy()
            draw_inks(self._picture, inks, origin)
            self.damage = [self._picture.get_rect()]
        elif len(inks) != len(self._drawn):
            self._picture.blit(self._base, (0, 0))
            draw_inks(self._picture, inks, origin)
            self.damage = [self._picture.get_rect()]
        else:
            changed = {index for index, ink in enumerate(inks) if ink is not self._drawn[index]}
            self.damage = self._redraw(changed, inks, origin) if changed else []
        self._drawn = list(inks)
        return self._picture

    def _redraw(
        self, dirty: set[int], inks: Sequence[Ink], origin: tuple[int, int]
    ) -> list[pygame.Rect]:
        """Restore the changed rows' old and new areas from the card, then draw their ink again,
        in the panel's order; a row whose ink overlaps those areas is redrawn with them. Returns
        the areas restored, in the picture's coordinates."""
        old_areas = [ink.area for ink in self._drawn]
        new_areas = [ink.area for ink in inks]
        while True:
            areas = [area for index in dirty for area in (old_areas[index], new_areas[index])]
            touched = {  # each area against every row's, in pygame's own loop
                index
                for area in areas
                for under in (old_areas, new_areas)
                for index in area.collidelistall(under)
            }
            touched -= dirty
            if not touched:
                break
            dirty |= touched
        restored = [area.move(-origin[0], -origin[1]) for area in areas]
        for local in restored:
            self._picture.blit(self._base, local, area=local)
        draw_inks(self._picture, [inks[index] for index in sorted(dirty)], origin)
        return restored
