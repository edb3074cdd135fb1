"""Fonts, and a cache of rendered text, so the HUD does not rasterise the same strings every frame.

`font.render` rasterises every glyph each time it is called. A HUD that renders its forty
strings every frame spends most of its time there, redrawing the same pixels (BENCHMARKS.md,
"HUD: `Hud.draw` cost per frame", caches against none). `TextCache` keeps
each rendered string, keyed by (text, colour), and hands back the same Surface next time.

Numbers that change every frame would fill such a cache forever, so it is bounded: least
recently used first out. The stats layer formats values at a fixed precision, so the values a
HUD shows (alpha "0.000" to "0.999", frame times) repeat and mostly hit.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path

import pygame

from game.hud.hud_colours import RGB
from game.resources import FONTS

REGULAR = "DejaVuSansMono.ttf"
BOLD = "DejaVuSansMono-Bold.ttf"

DEFAULT_CAPACITY = 2_048
"""Per font: every alpha at 3 decimals and room to spare; a few MB at most."""


def font_path(name: str) -> Path:
    """The path of a font shipped in `assets/fonts`, or a clear error saying what is missing."""
    path = FONTS / name
    if not path.is_file():
        raise FileNotFoundError(
            f"HUD font not found: {path}. The game's files are incomplete: reinstall it "
            "(`make install` in a checkout)."
        )
    return path


def load_font(name: str, size: int) -> pygame.font.Font:
    pygame.font.init()  # idempotent: the HUD may be built before or after pygame.init()
    return pygame.font.Font(font_path(name), size)


class TextCache:
    """Rendered text of one font, keyed by (text, colour); bounded, least recently used first out.

    A capacity of 0 caches nothing: every `render` rasterises again (the benchmark's baseline).
    """

    def __init__(self, font: pygame.font.Font, capacity: int = DEFAULT_CAPACITY) -> None:
        if capacity < 0:
            raise ValueError(f"capacity must be 0 or more (got {capacity})")
        self.font = font
        self.capacity = capacity
        self.line_height = int(font.get_linesize())
        self.char_width = font.size("0" * 10)[0] / 10
        """The advance of one character: the font is monospaced, so columns line up."""
        self.hits = 0
        self.misses = 0
        self._surfaces: OrderedDict[tuple[str, RGB], pygame.Surface] = OrderedDict()

    def __len__(self) -> int:
        return len(self._surfaces)

    def render(self, text: str, colour: RGB) -> pygame.Surface:
        """The text as an anti-aliased Surface with per-pixel alpha. Do not draw on it: shared."""
        key = (text, colour)
        surface = self._surfaces.get(key)
        if surface is not None:
            self.hits += 1
            self._surfaces.move_to_end(key)
            return surface
        self.misses += 1
        surface = self.font.render(text, True, colour)
        if self.capacity:
            self._surfaces[key] = surface
            if len(self._surfaces) > self.capacity:
                self._surfaces.popitem(last=False)
        return surface


@dataclass(frozen=True, slots=True)
class Fonts:
    """The HUD's type at one scale. Presentation mode uses a second set at twice the size."""

    scale: float
    body: TextCache
    """Labels and values."""
    bold: TextCache
    """The policy, badges, keys in the help."""
    heading: TextCache
    """Small bold group titles."""
    small: TextCache
    """Graph labels."""
    caption: TextCache
    """Captions, the spiral hint, the help title."""
    banner: TextCache
    """"SPIRAL OF DEATH"."""

    @classmethod
    def at_scale(cls, scale: float, capacity: int = DEFAULT_CAPACITY) -> Fonts:
        def cache(name: str, size: int) -> TextCache:
            return TextCache(load_font(name, max(6, round(size * scale))), capacity)

        return cls(
            scale=scale,
            body=cache(REGULAR, 16),
            bold=cache(BOLD, 16),
            heading=cache(BOLD, 13),
            small=cache(REGULAR, 13),
            caption=cache(BOLD, 21),
            banner=cache(BOLD, 64),
        )

    @property
    def retains(self) -> bool:
        """False when the caches keep nothing (capacity 0): then no HUD part keeps anything it
        drew between frames either, so every string is rendered every frame (the baseline)."""
        return self.body.capacity > 0

    def px(self, value: float) -> int:
        """A layout length at this scale, in whole pixels (never 0 for a positive length)."""
        return max(1, round(value * self.scale)) if value > 0 else 0
