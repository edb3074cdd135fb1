"""The help overlay: every key and what it does, in a centred box.

The app owns the keys, so it hands the rows in, as `(keys, description)` pairs such as
`("Tab / Shift+Tab, 1-6", "overload policy")`. The box is drawn once per set of rows and window
size and then blitted. When the rows do not fit (presentation mode on a small window), they flow
into two or three columns, then the type gets smaller: the help never runs off the screen.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import pygame

from game.hud.hud_colours import DIM, HEADING, KEY, RGB, RGBA, TEXT
from game.hud.plate import make_plate
from game.hud.text import Fonts

HelpRow = tuple[str, str]
"""(keys, description): ("P", "pause / resume")."""

HELP_PLATE: RGBA = (8, 12, 20, 246)
"""Nearly opaque: while the help is open, reading it is the only thing to do."""
SHRINK = (1.0, 0.9, 0.8, 0.7, 0.6, 0.5, 0.4)
"""Type sizes to try, as a share of the HUD's scale, largest first."""
STRIPE: RGB = (16, 18, 22)
"""Added to every other row, so a long list reads across from key to description."""


class HelpOverlay:
    """A centred box listing the rows it was given, keys on the left, descriptions beside."""

    def __init__(self, fonts_at: Callable[[float], Fonts], scale: float) -> None:
        self._fonts_at = fonts_at
        self.scale = scale
        self.rect = pygame.Rect(0, 0, 0, 0)
        self.placed: list[tuple[HelpRow, pygame.Rect]] = []
        """Each row, with where its keys were drawn (window coordinates)."""
        self._key: tuple[object, ...] = ()
        self._box = pygame.Surface((0, 0))

    def update(
        self, rows: Sequence[HelpRow], area: pygame.Rect, *, title: str = "KEYS", footer: str = ""
    ) -> None:
        key = (tuple(rows), tuple(area), title, footer)
        if key == self._key and self._fonts_at(self.scale).retains:
            return
        self._key = key
        self._box, placed = self._build(tuple(rows), area, title, footer)
        self.rect = self._box.get_rect(center=area.center)
        self.placed = [(row, rect.move(self.rect.topleft)) for row, rect in placed]

    def draw(self, surface: pygame.Surface) -> None:
        surface.blit(self._box, self.rect.topleft)

    def _build(
        self, rows: tuple[HelpRow, ...], area: pygame.Rect, title: str, footer: str
    ) -> tuple[pygame.Surface, list[tuple[HelpRow, pygame.Rect]]]:
        """The largest type and fewest columns that fit `area`; if none does, the layout that
        overflows it least."""
        least_overflow: tuple[float, _Box] | None = None
        for share in SHRINK:
            fonts = self._fonts_at(self.scale * share)  # loaded only when this size is tried
            for columns in (1, 2, 3):
                box = _Box(fonts, rows, columns, title, footer)
                overflow = max(box.size[0] / max(1, area.w), box.size[1] / max(1, area.h))
                if overflow <= 1:
                    return box.render()
                if least_overflow is None or overflow < least_overflow[0]:
                    least_overflow = (overflow, box)
        assert least_overflow is not None
        return least_overflow[1].render()


class _Box:
    """The geometry of one candidate layout, and how to draw it."""

    def __init__(
        self, fonts: Fonts, rows: tuple[HelpRow, ...], columns: int, title: str, footer: str
    ) -> None:
        self.fonts, self.rows, self.title, self.footer = fonts, rows, title, footer
        self.columns = max(1, min(columns, len(rows)))
        self.per_column = math.ceil(len(rows) / self.columns) if rows else 0
        self.pad = fonts.px(24)
        self.row_h = fonts.body.line_height + fonts.px(6)
        self.title_h = fonts.caption.line_height + fonts.px(12)
        self.footer_h = fonts.small.line_height + fonts.px(10) if footer else 0
        self.key_w = round(max((len(k) for k, _ in rows), default=0) * fonts.bold.char_width)
        desc_w = round(max((len(d) for _, d in rows), default=0) * fonts.body.char_width)
        self.key_gap = fonts.px(20)
        self.column_gap = fonts.px(40)
        self.column_w = self.key_w + self.key_gap + desc_w
        body_w = self.columns * self.column_w + (self.columns - 1) * self.column_gap
        heading_w = len(title) * fonts.caption.char_width
        footer_w = len(footer) * fonts.small.char_width
        width = round(max(body_w, heading_w, footer_w)) + 2 * self.pad
        height = 2 * self.pad + self.title_h + self.per_column * self.row_h + self.footer_h
        self.size = (width, height)

    def render(self) -> tuple[pygame.Surface, list[tuple[HelpRow, pygame.Rect]]]:
        fonts = self.fonts
        box = make_plate(self.size, fonts.px(14), fill=HELP_PLATE)
        box.blit(fonts.caption.render(self.title, HEADING), (self.pad, self.pad))
        placed = []
        top = self.pad + self.title_h
        for index, row in enumerate(self.rows):
            column, line = divmod(index, self.per_column)
            x = self.pad + column * (self.column_w + self.column_gap)
            y = top + line * self.row_h
            text_y = y + (self.row_h - fonts.body.line_height) // 2
            if line % 2:  # faint stripes guide the eye from a key to its description
                stripe = pygame.Rect(x - fonts.px(8), y, self.column_w + fonts.px(16), self.row_h)
                box.fill(STRIPE, stripe, special_flags=pygame.BLEND_RGB_ADD)
            keys = fonts.bold.render(row[0], KEY)
            box.blit(keys, (x, text_y))
            box.blit(fonts.body.render(row[1], TEXT), (x + self.key_w + self.key_gap, text_y))
            placed.append((row, keys.get_rect(topleft=(x, text_y))))
        if self.footer:
            footer = fonts.small.render(self.footer, DIM)
            box.blit(footer, (self.pad, self.size[1] - self.pad - footer.get_height()))
        return box, placed
