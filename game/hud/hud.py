"""`Hud`: the stats panel, the graphs, the help, the banner and the caption, laid out on a window.

The app calls `hud.draw(surface, readout, history)` once a frame, after the scene. The HUD reads
the values it is given and the history of recent frames, and writes nothing back.

Layout follows the window (1280 x 720, resized, fullscreen): the panel top-left, the graphs
bottom-right, captions and the banner in the scene to the right of the panel, the help centred.
When the panel and the graphs would overlap, the panel gives up its least important rows.

Presentation mode (`readout.presentation`) draws everything twice as large, for a projector
(smaller only if the panel would not fit the window's width). Each scale keeps its own fonts
and caches, so switching back and forth costs nothing after the first time.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import pygame

from game.hud.banner import CaptionBox, SpiralBanner
from game.hud.graphs import FrameGraphs
from game.hud.help import HelpOverlay, HelpRow
from game.hud.panel import StatsPanel
from game.hud.text import DEFAULT_CAPACITY, Fonts
from game.session.history import FrameHistory
from game.session.readout import Readout

DEFAULT_SPIRAL_HINT = "cap the catch-up or lower the step cost to recover"
"""The app, which knows its keys, passes a hint that names them; this one names none."""
PRESENTATION_FACTOR = 2.0
SHRINK_STEP = 0.75
MIN_SCALE = 0.5
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


class HudParts:
    """Every HUD part at one scale, sharing that scale's fonts and text caches."""

    def __init__(self, hud: Hud, scale: float) -> None:
        self.fonts = hud.fonts_at(scale)
        self.panel = StatsPanel(self.fonts)
        self.graphs = FrameGraphs(self.fonts, hud.graph_seconds)
        self.caption = CaptionBox(self.fonts)
        self.banner = SpiralBanner(self.fonts)
        self.help = HelpOverlay(hud.fonts_at, scale)


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

    def draw(self, surface: pygame.Surface, readout: Readout, history: FrameHistory) -> None:
        wanted = self.scale * (PRESENTATION_FACTOR if readout.presentation else 1.0)
        parts = self._widest_that_fits(wanted, surface.get_rect(), readout)
        px = parts.fonts.px
        margin = px(MARGIN)
        screen = surface.get_rect().inflate(-2 * margin, -2 * margin)
        layout = HudLayout()

        parts.panel.update(readout, screen)
        graphs = pygame.Rect(0, 0, 0, 0)
        if readout.show_graphs:
            graphs = self._graphs_area(screen, parts.panel.rect, margin, px)
            if parts.panel.rect.colliderect(graphs.inflate(margin, margin)):
                above = pygame.Rect(
                    screen.left, screen.top, screen.w, graphs.top - margin - screen.top
                )
                parts.panel.update(readout, above)
        parts.panel.draw(surface)
        layout.panel = parts.panel.rect

        if graphs:
            parts.graphs.update(history, readout, graphs)
            parts.graphs.draw(surface)
            layout.graphs = parts.graphs.rect

        scene = self._beside_panel(screen, parts.panel.rect, graphs, margin, px(420))
        if readout.caption:
            parts.caption.update(readout.caption, scene)
            parts.caption.draw(surface)
            layout.caption = parts.caption.rect
        if any(lane.spiral for lane in readout.lanes):
            parts.banner.update(self.spiral_hint, scene)
            parts.banner.draw(surface)
            layout.banner = parts.banner.rect
        if readout.menu is not None:
            menu = readout.menu
            parts.help.update(menu.rows, screen, title=menu.title, footer=menu.footer)
            parts.help.draw(surface)
            layout.help = parts.help.rect
        elif readout.show_help:
            parts.help.update(self.help_rows, screen, footer=self.help_footer)
            parts.help.draw(surface)
            layout.help = parts.help.rect
        self.layout = layout

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

    @staticmethod
    def _graphs_area(
        screen: pygame.Rect, panel: pygame.Rect, margin: int, px: Callable[[float], int]
    ) -> pygame.Rect:
        """Bottom-right: beside the panel if there is room for a useful graph, else under it
        (and the panel gives up rows)."""
        height = min(px(230), round(screen.h * 0.32))
        beside = screen.right - (panel.right + margin)
        width = min(px(620), beside if beside >= px(260) else screen.w)
        return pygame.Rect(screen.right - width, screen.bottom - height, width, height)

    @staticmethod
    def _beside_panel(
        screen: pygame.Rect, panel: pygame.Rect, graphs: pygame.Rect, margin: int, narrowest: int
    ) -> pygame.Rect:
        """The open scene right of the panel and above the graphs, or the whole screen if the
        panel leaves less than `narrowest` pixels."""
        bottom = graphs.top - margin if graphs else screen.bottom
        left = panel.right + margin
        if screen.right - left < narrowest:
            return pygame.Rect(screen.left, screen.top, screen.w, bottom - screen.top)
        return pygame.Rect(left, screen.top, screen.right - left, bottom - screen.top)
