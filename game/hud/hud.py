"""`Hud`: the stats panel, the graphs, the help, the banner and the caption, laid out on a window.

The app calls `hud.draw(surface, readout, history)` once a frame, after the scene. The HUD reads
the values it is given and the history of recent frames, and writes nothing back.

Layout follows the window (1280 x 720, resized, fullscreen): `lay_out` measures what is to be
shown and hands the sizes to the pure `game.hud.layout.lay_out`, which places the panel, the
graphs, the caption and the arenas; `draw` then draws into those boxes. The app asks for the
layout first, so it knows where the arenas go before drawing anything.

Presentation mode (`readout.presentation`) draws everything twice as large, for a projector
(smaller only if the panel would not fit the window's width). Each scale keeps its own fonts
and caches, so switching back and forth costs nothing after the first time.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import pygame

from game.hud.banner import CaptionBox, SpiralBanner
from game.hud.graphs import FrameGraphs
from game.hud.help import HelpOverlay, HelpRow
from game.hud.layout import Box, LayoutNeeds, ScreenLayout, lay_out
from game.hud.panel import StatsPanel
from game.hud.press_strip import PressStrip
from game.hud.text import DEFAULT_CAPACITY, Fonts
from game.session.history import FrameHistory
from game.session.readout import Readout

DEFAULT_SPIRAL_HINT = "cap the catch-up or lower the step cost to recover"
"""The app, which knows its keys, passes a hint that names them; this one names none."""
PRESENTATION_FACTOR = 2.0
SHRINK_STEP = 0.75
MIN_SCALE = 0.5
STRIP_LANE_HEIGHT = 54
"""The press strip's height per lane (at scale 1)."""
MARGIN = 12
"""Between the HUD and the window's edges, and between its parts (at scale 1)."""


@dataclass
class HudLayout:
    """Where each part was drawn on the last frame; an empty Rect when it was not drawn."""

    panel: pygame.Rect = field(default_factory=pygame.Rect)
    graphs: pygame.Rect = field(default_factory=pygame.Rect)
    caption: pygame.Rect = field(default_factory=pygame.Rect)
    banner: pygame.Rect = field(default_factory=pygame.Rect)
    help: pygame.Rect = field(default_factory=pygame.Rect)
    strip: pygame.Rect = field(default_factory=pygame.Rect)


class HudParts:
    """Every HUD part at one scale, sharing that scale's fonts and text caches."""

    def __init__(self, hud: Hud, scale: float) -> None:
        self.fonts = hud.fonts_at(scale)
        self.panel = StatsPanel(self.fonts)
        self.graphs = FrameGraphs(self.fonts, hud.graph_seconds)
        self.caption = CaptionBox(self.fonts)
        self.banner = SpiralBanner(self.fonts)
        self.help = HelpOverlay(hud.fonts_at, scale)
        self.strip = PressStrip(self.fonts)


class Hud:
    """The whole heads-up display. `scale` sizes everything (presentation mode doubles it).

    `help_rows` are the `(keys, description)` rows of the help overlay and `spiral_hint` the line
    under the "SPIRAL OF DEATH" banner; both belong to the app, which knows its keys, and may be
    replaced at any time. `text_cache_size` bounds each font's cache of rendered text (0 renders
    every string every frame: the benchmark's baseline).
    """

    def __init__(
        self,
        scale: float = 1.0,
        *,
        help_rows: Sequence[HelpRow] = (),
        help_footer: str = "",
        spiral_hint: str = DEFAULT_SPIRAL_HINT,
        graph_seconds: float = 5.0,
        text_cache_size: int = DEFAULT_CAPACITY,
    ) -> None:
        if scale <= 0:
            raise ValueError(f"scale must be positive (got {scale})")
        self.scale = scale
        self.help_rows: tuple[HelpRow, ...] = tuple(help_rows)
        self.help_footer = help_footer
        self.spiral_hint = spiral_hint
        self.graph_seconds = graph_seconds
        self.text_cache_size = text_cache_size
        self.layout = HudLayout()
        self._fonts: dict[float, Fonts] = {}
        self._parts: dict[float, HudParts] = {}
        self._fitted: dict[tuple[float, tuple[int, int], int], float] = {}

    def fonts_at(self, scale: float) -> Fonts:
        """The fonts (and their caches) at `scale`, loaded the first time they are asked for."""
        fonts = self._fonts.get(scale)
        if fonts is None:
            fonts = self._fonts[scale] = Fonts.at_scale(scale, self.text_cache_size)
        return fonts

    def parts_at(self, scale: float) -> HudParts:
        """The HUD's parts at `scale` (built the first time), to inspect what they show."""
        parts = self._parts.get(scale)
        if parts is None:
            parts = self._parts[scale] = HudParts(self, scale)
        return parts

    def lay_out(
        self, size: tuple[int, int], readout: Readout, *, caption_keeps_band: bool = False
    ) -> ScreenLayout:
        """Where everything goes on a window of `size` this frame (nothing is drawn)."""
        parts = self._parts_for(size, readout)
        px = parts.fonts.px
        margin = px(MARGIN)
        parts.panel.update(
            readout, pygame.Rect(0, 0, size[0], size[1]).inflate(-2 * margin, -2 * margin)
        )
        caption = readout.caption
        return lay_out(
            LayoutNeeds(
                window=size,
                margin=margin,
                panel=parts.panel.rect.size,
                graphs=(px(620), px(230)) if readout.show_graphs else None,
                graphs_min_width=px(260),
                narrowest_scene=px(420),
                caption_height=(lambda width: parts.caption.height_for(caption, width))
                if caption
                else None,
                caption_keeps_band=caption_keeps_band,
                lanes=len(readout.lanes),
                strip_height=px(STRIP_LANE_HEIGHT) * len(readout.lanes)
                if all(lane.inputs is not None for lane in readout.lanes)
                else 0,
            )
        )

    def draw(
        self,
        surface: pygame.Surface,
        readout: Readout,
        history: FrameHistory,
        layout: ScreenLayout | None = None,
    ) -> None:
        """Draw the HUD into the boxes of `layout` (laid out now if not given)."""
        size = surface.get_size()
        if layout is None:
            layout = self.lay_out(size, readout)
        parts = self._parts_for(size, readout)
        drawn = HudLayout()
        parts.panel.update(readout, _rect(layout.panel))
        parts.panel.draw(surface)
        drawn.panel = parts.panel.rect
        if layout.graphs:
            parts.graphs.update(history, readout, _rect(layout.graphs))
            parts.graphs.draw(surface)
            drawn.graphs = parts.graphs.rect
        if layout.strip:
            parts.strip.update(readout, _rect(layout.strip))
            parts.strip.draw(surface)
            drawn.strip = parts.strip.rect
        if readout.caption and layout.caption:
            parts.caption.update(readout.caption, _rect(layout.caption))
            parts.caption.draw(surface)
            drawn.caption = parts.caption.rect
        if any(lane.spiral for lane in readout.lanes):
            parts.banner.update(self.spiral_hint, _rect(layout.scene))
            parts.banner.draw(surface)
            drawn.banner = parts.banner.rect
        screen = _rect(layout.screen)
        if readout.menu is not None:
            menu = readout.menu
            parts.help.update(menu.rows, screen, title=menu.title, footer=menu.footer)
            parts.help.draw(surface)
            drawn.help = parts.help.rect
        elif readout.show_help:
            parts.help.update(self.help_rows, screen, footer=self.help_footer)
            parts.help.draw(surface)
            drawn.help = parts.help.rect
        self.layout = drawn

    def _parts_for(self, size: tuple[int, int], readout: Readout) -> HudParts:
        wanted = self.scale * (PRESENTATION_FACTOR if readout.presentation else 1.0)
        return self._widest_that_fits(wanted, pygame.Rect(0, 0, *size), readout)

    def _widest_that_fits(self, wanted: float, window: pygame.Rect, readout: Readout) -> HudParts:
        """The parts at `wanted` scale, or smaller until the panel fits the window's width.

        Rows can be dropped to fit a short window, but columns cannot: presentation mode on a
        small window shrinks the type instead (by 3/4 at a time, not below `MIN_SCALE`). The
        answer is kept per window size and lane count.
        """
        key = (wanted, window.size, len(readout.lanes))
        scale = self._fitted.get(key)
        if scale is None:
            scale = wanted
            while scale * SHRINK_STEP >= MIN_SCALE and not self._panel_fits(scale, window, readout):
                scale *= SHRINK_STEP
            self._fitted[key] = scale
        return self.parts_at(scale)

    def _panel_fits(self, scale: float, window: pygame.Rect, readout: Readout) -> bool:
        panel = self.parts_at(scale).panel
        margin = panel.fonts.px(MARGIN)
        panel.update(readout, window.inflate(-2 * margin, -2 * margin))
        return panel.rect.w <= window.w - 2 * margin


def _rect(box: Box) -> pygame.Rect:
    return pygame.Rect(box.x, box.y, box.w, box.h)
