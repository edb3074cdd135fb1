"""`Hud`: the stats panel, the graphs, the help, the banner and the caption, laid out on a window.

The app calls `hud.draw(surface, readout, histories)` once a frame, after the scene. The HUD
reads the values it is given and each lane's history of recent frames, and writes nothing back.

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
from dataclasses import dataclass, field, replace

import pygame

from game.display.live import LiveJudder
from game.hud.banner import CaptionBox, SpiralBanner
from game.hud.graphs import FrameGraphs
from game.hud.help import HelpOverlay, HelpRow
from game.hud.hud_colours import RGB
from game.hud.lane_label import LaneLabel
from game.hud.layout import ARENA_SHARE, PANEL_SHARE, Box, LayoutNeeds, ScreenLayout, lay_out
from game.hud.panel import StatsPanel
from game.hud.press_strip import PressStrip
from game.hud.rows import must_show
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
FITTED_KEPT = 256
"""How many (window, caption...) answers of the type-size search are kept."""
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
    rows: dict[str, pygame.Rect] = field(default_factory=dict)
    """Each panel row drawn, by label (`StatsPanel.rows`)."""


class HudParts:
    """Every HUD part at one scale, sharing that scale's fonts and text caches."""

    def __init__(self, hud: Hud, scale: float) -> None:
        self.fonts = hud.fonts_at(scale)
        self.panel = StatsPanel(self.fonts, hud.backdrop)
        self.graphs = FrameGraphs(self.fonts, hud.graph_seconds, hud.backdrop)
        self.caption = CaptionBox(self.fonts, hud.backdrop)
        self.banner = SpiralBanner(self.fonts, hud.backdrop)
        self.help = HelpOverlay(hud.fonts_at, scale)
        self.strip = PressStrip(self.fonts, hud.backdrop)
        self.lane_label = LaneLabel(self.fonts, hud.backdrop)


class Hud:
    """The whole heads-up display. `scale` sizes everything (presentation mode doubles it).

    `help_rows` are the `(keys, description)` rows of the help overlay and `spiral_hint` the line
    under the "SPIRAL OF DEATH" banner; both belong to the app, which knows its keys, and may be
    replaced at any time. `text_cache_size` bounds each font's cache of rendered text (0 renders
    every string every frame: the benchmark's baseline).

    `backdrop` is the plain colour the caller fills the window with before drawing, if it does
    (the game does): the layout keeps every box but the help off the arenas, so each box's
    translucent plate and words are then laid on that colour once, kept, and copied opaque
    each frame (`plate.flattened`), which gives the same pixels as blending them every frame.
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
        backdrop: RGB | None = None,
    ) -> None:
        if scale <= 0:
            raise ValueError(f"scale must be positive (got {scale})")
        self.scale = scale
        self.help_rows: tuple[HelpRow, ...] = tuple(help_rows)
        self.help_footer = help_footer
        self.spiral_hint = spiral_hint
        self.graph_seconds = graph_seconds
        self.text_cache_size = text_cache_size
        self.backdrop = backdrop
        self.layout = HudLayout()
        self._fonts: dict[float, Fonts] = {}
        self._parts: dict[float, HudParts] = {}
        self._fitted: dict[tuple[object, ...], float] = {}
        self._layouts: dict[tuple[object, ...], ScreenLayout] = {}
        self._recorded: HudParts | None = None
        """The parts of the frame recorded last (`record`), which `paint` paints."""
        """Each layout, under what it depends on: the window's size, the type's scale, the
        panel's size, the graphs, caption, spiral hint, lanes and press strip shown. The
        values change every frame, the layout only when one of those does."""

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

    def lay_out(self, size: tuple[int, int], readout: Readout) -> ScreenLayout:
        """Where everything goes on a window of `size` this frame (nothing is drawn)."""
        return self._lay_out_with(self.parts_for(size, readout), size, readout)

    def _lay_out_with(
        self, parts: HudParts, size: tuple[int, int], readout: Readout
    ) -> ScreenLayout:
        px = parts.fonts.px
        margin = px(MARGIN)
        window = pygame.Rect(0, 0, size[0], size[1])
        parts.panel.update(readout, window.inflate(-2 * margin, -2 * margin))
        caption, hint = readout.caption, self.spiral_hint
        spiral = any(lane.spiral for lane in readout.lanes)
        strip = _has_strip(readout)
        key = (
            parts.fonts.scale,
            size,
            parts.panel.rect.size,
            readout.show_graphs,
            caption,
            hint if spiral else None,
            len(readout.lanes),
            strip,
        )
        layout = self._layouts.get(key)
        if layout is None:
            if len(self._layouts) >= FITTED_KEPT:
                self._layouts.clear()  # captions come and go: keep the memory bounded
            layout = self._layouts[key] = self._placed(parts, size, readout, spiral, strip)
        return layout

    def _placed(
        self, parts: HudParts, size: tuple[int, int], readout: Readout, spiral: bool, strip: bool
    ) -> ScreenLayout:
        """`lay_out` for what is shown; kept by `_lay_out_with` under everything it reads."""
        px = parts.fonts.px
        caption, hint = readout.caption, self.spiral_hint
        return lay_out(
            LayoutNeeds(
                window=size,
                margin=px(MARGIN),
                panel=parts.panel.rect.size,
                graphs=(px(620), px(230)) if readout.show_graphs else None,
                graphs_min_height=px(90),
                caption_height=(lambda width: parts.caption.height_for(caption, width))
                if caption
                else None,
                banner_height=(
                    lambda width: parts.banner.height_for(hint, width, compact=bool(caption))
                )
                if spiral
                else None,
                label_height=parts.lane_label.height,
                lanes=len(readout.lanes),
                strip_height=px(STRIP_LANE_HEIGHT) * len(readout.lanes) if strip else 0,
            )
        )

    def draw(
        self,
        surface: pygame.Surface,
        readout: Readout,
        histories: tuple[FrameHistory, ...],
        layout: ScreenLayout | None = None,
        judder: tuple[LiveJudder, ...] = (),
        *,
        kept: bool = False,
    ) -> None:
        """Draw the HUD into the boxes of `layout` (laid out now if not given); `judder` are
        the lanes' live judder meters, for the graph's judder strip. `kept`: the surface still
        shows the HUD drawn on it last frame, on the backdrop, with this same layout (the panel
        and the graphs then copy only what changed)."""
        size = surface.get_size()
        if layout is None:
            layout = self.lay_out(size, readout)
        self.record(size, readout, histories, layout, judder)
        self.paint(surface, readout, layout, kept=kept)

    def record(
        self,
        size: tuple[int, int],
        readout: Readout,
        histories: tuple[FrameHistory, ...],
        layout: ScreenLayout | None,
        judder: tuple[LiveJudder, ...] = (),
    ) -> None:
        """What the HUD keeps of every frame drawn, painted or not: the type size it is drawn at
        (`parts_for`, whose choice is kept), and the graphs' bars, binned from the histories and
        meters as they are when a bar completes (a frame painted later would find them gone
        on); `layout` None: laid out when painted, so the graphs are not shown."""
        parts = self._recorded = self.parts_for(size, readout)
        if layout is not None and layout.graphs:
            parts.graphs.update(histories, readout, _rect(layout.graphs), judder)

    def paint(
        self, surface: pygame.Surface, readout: Readout, layout: ScreenLayout, *, kept: bool = False
    ) -> None:
        """Paint the HUD of the frame recorded last (`record`) into the boxes of `layout`."""
        parts = self._recorded or self.parts_for(surface.get_size(), readout)
        drawn = HudLayout()
        if parts.panel.rect.h > layout.panel.h:  # laid out taller than it may be: drop rows
            parts.panel.update(readout, _rect(layout.panel))
        parts.panel.draw(surface, kept)
        drawn.panel, drawn.rows = parts.panel.rect, dict(parts.panel.rows)
        if layout.graphs:
            parts.graphs.draw(surface, kept)
            drawn.graphs = parts.graphs.rect
        if layout.strip:
            parts.strip.update(readout, _rect(layout.strip))
            parts.strip.draw(surface)
            drawn.strip = parts.strip.rect
        if readout.caption and layout.caption:
            parts.caption.update(readout.caption, _rect(layout.caption))
            parts.caption.draw(surface, kept)
            drawn.caption = parts.caption.rect
        if layout.banner:
            compact = bool(readout.caption and layout.caption)
            parts.banner.update(self.spiral_hint, _rect(layout.banner), compact=compact)
            parts.banner.draw(surface, kept)
            drawn.banner = parts.banner.rect
        for index, (lane, box) in enumerate(zip(readout.lanes, layout.labels, strict=False)):
            text = f"lane {index + 1}: {lane.policy}" + ("  (B: keys here)" * lane.focused)
            parts.lane_label.draw(surface, _rect(box), text, lane.focused, kept)
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

    def parts_for(self, size: tuple[int, int], readout: Readout) -> HudParts:
        """The parts at the scale this window and readout are drawn at."""
        wanted = self.scale * (PRESENTATION_FACTOR if readout.presentation else 1.0)
        return self._largest_that_fits(wanted, size, readout)

    def _largest_that_fits(
        self, wanted: float, size: tuple[int, int], readout: Readout
    ) -> HudParts:
        """The parts at `wanted` scale, or smaller until everything fits: the panel within its
        share of the width, the arenas keeping their share of the height under the caption
        and the banner, both of those whole, and every row that must show (`must_show`: the
        rows the lesson step watches, the paused state) on the panel, the graphs too if the
        step watches them.

        Presentation mode on a small window shrinks the type (by 3/4 at a time), though never
        below the normal scale while that fits; only what does not fit at the normal scale goes
        below it, down to `MIN_SCALE`. The answer is kept per window, lanes and lasting caption
        (the step's words without a passing status).
        """
        spiral = any(lane.spiral for lane in readout.lanes)
        strip = _has_strip(readout)
        lasting = readout.caption if readout.lasting_caption is None else readout.lasting_caption
        key = (
            wanted,
            size,
            len(readout.lanes),
            lasting,
            spiral,
            strip,
            must_show(readout),
            readout.show_graphs,
        )
        scale = self._fitted.get(key)
        if scale is None:
            # Fitted to the lasting caption: a passing status takes its room from the arenas.
            readout = replace(readout, caption=lasting)
            candidates = [wanted]
            while candidates[-1] * SHRINK_STEP > self.scale:
                candidates.append(candidates[-1] * SHRINK_STEP)
            candidates.append(min(wanted, self.scale))
            while candidates[-1] * SHRINK_STEP >= MIN_SCALE:
                candidates.append(candidates[-1] * SHRINK_STEP)
            scale = next(
                (each for each in candidates if self._fits(each, size, readout)), candidates[-1]
            )
            if len(self._fitted) >= FITTED_KEPT:
                self._fitted.clear()  # captions come and go: keep the memory bounded
            self._fitted[key] = scale
        return self.parts_at(scale)

    def _fits(self, scale: float, size: tuple[int, int], readout: Readout) -> bool:
        parts = self.parts_at(scale)
        layout = self._lay_out_with(parts, size, readout)
        margin = parts.fonts.px(MARGIN)
        graphs_watched = readout.show_graphs and "graphs" in readout.watch
        return (
            layout.panel.w <= PANEL_SHARE * size[0] - margin
            and layout.arena_height >= ARENA_SHARE * size[1]
            and layout.whole
            and not must_show(readout) & parts.panel.dropped
            and (bool(layout.graphs) or not graphs_watched)
        )


def _has_strip(readout: Readout) -> bool:
    return all(lane.inputs is not None for lane in readout.lanes)


def _rect(box: Box) -> pygame.Rect:
    return pygame.Rect(box.x, box.y, box.w, box.h)
