"""Where everything goes on the window: one pure function from sizes to boxes.

`lay_out` takes the window's size and the sizes of what is to be shown (the stats panel as it
would like to be, the graphs if they are on, a caption's height for a given width) and returns
every box at once: panel, graphs, the open scene beside them, the caption, and the arenas the
worlds are drawn in. Nothing is drawn to find out where things go, so the loop knows where the
arenas are before it draws a pixel, and the rules can be tested without a display.

The rules, in order:
1. The panel sits top-left, inside the margin, at the size it asks for.
2. The graphs, when on, sit bottom-right: beside the panel when there is room for a useful
   graph, else across the bottom; the panel then gives up rows to stay above them.
3. The scene is what is left right of the panel and above the graphs (the whole screen when the
   panel leaves too narrow a strip); captions and the spiral banner go there.
4. The arenas take the window right of the panel (when the panel covers less than half of it)
   and above the graphs; a caption that asks to keep its band (a lesson's) pushes them down. One
   lane keeps a 16:9 arena; two lanes share the height, one above the other.
5. The press strip, when asked for, sits right under the arenas, as wide as they are; the
   arenas give up its height.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

ARENA_GAP = 8
"""Between the panel and the arenas, and between a caption's band and the arenas."""
ARENA_ASPECT = (16, 9)


@dataclass(frozen=True, slots=True)
class Box:
    """A rectangle in pixels: left, top, width, height. An empty box is not shown."""

    x: int
    y: int
    w: int
    h: int

    @property
    def right(self) -> int:
        return self.x + self.w

    @property
    def bottom(self) -> int:
        return self.y + self.h

    def __bool__(self) -> bool:
        return self.w > 0 and self.h > 0

    def overlaps(self, other: Box) -> bool:
        return (
            bool(self)
            and bool(other)
            and self.x < other.right
            and other.x < self.right
            and self.y < other.bottom
            and other.y < self.bottom
        )


EMPTY = Box(0, 0, 0, 0)


@dataclass(frozen=True, slots=True)
class LayoutNeeds:
    """What is to be shown, measured by the HUD at the scale it will be drawn at."""

    window: tuple[int, int]
    margin: int
    """Between the HUD and the window's edges, and between its parts."""
    panel: tuple[int, int]
    """The stats panel's size with every row it would like to show."""
    graphs: tuple[int, int] | None = None
    """The largest the graphs may be, or None when they are off."""
    graphs_min_width: int = 0
    """Narrower than this beside the panel, the graphs go across the bottom instead."""
    narrowest_scene: int = 0
    """A strip beside the panel narrower than this is no place for a caption."""
    caption_height: Callable[[int], int] | None = None
    """The caption's height when it may be this wide, or None when there is no caption."""
    caption_keeps_band: bool = False
    """The caption must never cover the arenas (a lesson's caption, read for minutes)."""
    lanes: int = 1
    strip_height: int = 0
    """The press timeline's height under the arenas, or 0 for none."""


@dataclass(frozen=True, slots=True)
class ScreenLayout:
    """Every box of one frame's picture."""

    screen: Box
    """The window inside the margin."""
    panel: Box
    """The most the panel may take (it may show fewer rows and be shorter)."""
    graphs: Box
    scene: Box
    """The open area right of the panel and above the graphs: captions and banners."""
    caption: Box
    arenas: tuple[Box, ...]
    strip: Box = EMPTY
    """The press timeline, under the arenas."""


def lay_out(needs: LayoutNeeds) -> ScreenLayout:
    """Place everything (the rules are in the module's docstring)."""
    width, height = needs.window
    margin = needs.margin
    screen = Box(margin, margin, max(0, width - 2 * margin), max(0, height - 2 * margin))
    panel = Box(screen.x, screen.y, min(needs.panel[0], screen.w), min(needs.panel[1], screen.h))
    graphs = _graphs_box(needs, screen, panel)
    if graphs and panel.overlaps(_grown(graphs, margin // 2)):
        panel = Box(panel.x, panel.y, panel.w, max(0, graphs.y - margin - screen.y))
    scene = _scene_box(needs, screen, panel, graphs)
    caption = EMPTY
    if needs.caption_height is not None and scene:
        caption_h = min(needs.caption_height(scene.w), scene.h)
        caption = Box(scene.x, scene.y, scene.w, caption_h)
    arenas = _arena_boxes(needs, panel, graphs, caption)
    strip = EMPTY
    if needs.strip_height and arenas:
        last = arenas[-1]
        strip = Box(last.x, last.bottom + ARENA_GAP, last.w, needs.strip_height)
    return ScreenLayout(screen, panel, graphs, scene, caption, arenas, strip)


def _graphs_box(needs: LayoutNeeds, screen: Box, panel: Box) -> Box:
    if needs.graphs is None:
        return EMPTY
    most_w, most_h = needs.graphs
    graph_h = min(most_h, round(screen.h * 0.32))
    beside = screen.right - (panel.right + needs.margin)
    graph_w = min(most_w, beside if beside >= needs.graphs_min_width else screen.w)
    return Box(screen.right - graph_w, screen.bottom - graph_h, graph_w, graph_h)


def _scene_box(needs: LayoutNeeds, screen: Box, panel: Box, graphs: Box) -> Box:
    bottom = graphs.y - needs.margin if graphs else screen.bottom
    left = panel.right + needs.margin
    if screen.right - left < needs.narrowest_scene:
        return Box(screen.x, screen.y, screen.w, max(0, bottom - screen.y))
    return Box(left, screen.y, screen.right - left, max(0, bottom - screen.y))


def _arena_boxes(needs: LayoutNeeds, panel: Box, graphs: Box, caption: Box) -> tuple[Box, ...]:
    width, height = needs.window
    left = panel.right + ARENA_GAP if panel.w and panel.right < width // 2 else 0
    top, bottom = 0, height
    if left and graphs and graphs.y > height // 2:
        bottom = graphs.y - ARENA_GAP
    if needs.caption_keeps_band and caption:
        top = caption.bottom + ARENA_GAP
    if needs.strip_height:
        bottom -= needs.strip_height + ARENA_GAP
    area_w, area_h = max(0, width - left), max(0, bottom - top)
    if needs.lanes == 1:
        aspect_w, aspect_h = ARENA_ASPECT
        return (Box(left, top, area_w, min(area_h, area_w * aspect_h // aspect_w)),)
    half = area_h // 2
    return (Box(left, top, area_w, half), Box(left, top + half, area_w, area_h - half))


def _grown(box: Box, by: int) -> Box:
    return Box(box.x - by, box.y - by, box.w + 2 * by, box.h + 2 * by)
