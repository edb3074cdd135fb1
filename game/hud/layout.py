"""Where everything goes on the window: one pure function from sizes to boxes.

`lay_out` takes the window's size and the sizes of what is to be shown (the stats panel as it
would like to be, the graphs if they are on, a caption's and a banner's height for a given
width) and returns every box at once: panel, graphs, caption, banner, lane labels and the arenas
the worlds are drawn in. Nothing is drawn to find out where things go, so the loop knows where
the arenas are before it draws a pixel, and the rules can be tested without a display.

The rules, for a room that must read the screen from the back:
1. Nothing overlaps anything: the layout shrinks the arenas, it never draws over them. (The help
   and the lesson menu are the one exception: they are modal, opened and closed by a key.)
2. The panel sits top-left, inside the margin; it may be at most `PANEL_SHARE` of the window's
   width (the HUD picks its type size so that it fits) and gives up rows to fit the height,
   never a row the lesson step watches nor the paused state (the HUD picks a smaller type
   rather than drop one: `game.hud.rows.must_show`).
3. Right of the panel, from the top: the caption, then the spiral banner, stacked; then the
   arenas; then the graphs along the bottom. The caption and the banner are never cut short
   (`ScreenLayout.whole` says whether they were: the HUD then picks a smaller type).
4. The arenas keep at least `ARENA_SHARE` of the window's height: the graphs shrink, or go, to
   leave it. Two lanes share the arena height, each under its own label.
5. The press strip (the input lab's timeline), when asked for, sits under the arenas in the same
   column, as wide as they are: it takes its height from the arenas' (the graphs shrink first to
   leave room for both), and shrinks itself so that the arenas keep `ARENA_SHARE`.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

PANEL_SHARE = 0.45
"""The widest the panel may be, as a share of the window's width."""
ARENA_SHARE = 0.4
"""The least height the arenas keep, as a share of the window's height."""
WORLD_ASPECT = (16, 9)
"""Roughly the arena's shape (30 m x 17 m): enough to choose how two lanes share the room."""
GRAPHS_SHARE = 0.32
"""The tallest the graphs may be, as a share of the screen's height."""


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
    graphs_min_height: int = 0
    """Shorter than this, the graphs are not worth drawing: they go."""
    caption_height: Callable[[int], int] | None = None
    """The caption's height when it may be this wide, or None when there is no caption."""
    banner_height: Callable[[int], int] | None = None
    """The spiral banner's height at this width, or None when there is no spiral."""
    label_height: int = 0
    """Each lane's label strip, in split screen."""
    lanes: int = 1
    strip_height: int = 0
    """The press timeline's height under the arenas, or 0 for none."""

    def arena_least(self) -> int:
        """The least height the arenas keep (their labels included)."""
        labels = 2 * self.label_height if self.lanes > 1 else 0
        return math.ceil(ARENA_SHARE * self.window[1]) + labels


@dataclass(frozen=True, slots=True)
class ScreenLayout:
    """Every box of one frame's picture."""

    screen: Box
    """The window inside the margin."""
    panel: Box
    """The most the panel may take (it may show fewer rows and be shorter)."""
    graphs: Box
    caption: Box
    banner: Box
    arenas: tuple[Box, ...]
    labels: tuple[Box, ...]
    """One label strip per lane above its arena, in split screen; none for one lane."""
    strip: Box = EMPTY
    """The press timeline, under the arenas (the input lab)."""
    whole: bool = True
    """The caption and the banner got all the height they need (else they are cut short)."""

    @property
    def arena_height(self) -> int:
        """From the top of the highest arena to the bottom of the lowest (labels between
        stacked arenas included)."""
        if not self.arenas:
            return 0
        return max(a.bottom for a in self.arenas) - min(a.y for a in self.arenas)

    def boxes(self) -> tuple[Box, ...]:
        """Every box that is shown (the ones that must never overlap)."""
        return tuple(
            box
            for box in (
                self.panel,
                self.graphs,
                self.caption,
                self.banner,
                *self.labels,
                *self.arenas,
                self.strip,
            )
            if box
        )


def lay_out(needs: LayoutNeeds) -> ScreenLayout:
    """Place everything (the rules are in the module's docstring)."""
    width, height = needs.window
    margin = needs.margin
    screen = Box(margin, margin, max(0, width - 2 * margin), max(0, height - 2 * margin))
    panel = Box(screen.x, screen.y, min(needs.panel[0], screen.w), min(needs.panel[1], screen.h))
    left = panel.right + margin if panel else screen.x
    column = Box(left, screen.y, max(0, screen.right - left), screen.h)

    top = column.y
    caption = banner = EMPTY
    words = needs.caption_height is not None or needs.banner_height is not None
    whole = bool(column) or not words
    if needs.caption_height is not None and column:
        wanted = needs.caption_height(column.w)
        caption = Box(column.x, top, column.w, min(wanted, column.h))
        top, whole = caption.bottom + margin, whole and caption.h == wanted
    if needs.banner_height is not None and column:
        wanted = needs.banner_height(column.w)
        banner = Box(column.x, top, column.w, max(0, min(wanted, column.bottom - top)))
        top, whole = banner.bottom + margin, whole and banner.h == wanted

    bottom = column.bottom
    graphs = _graphs_box(needs, column, top)
    if graphs:
        bottom = graphs.y - margin
    area = Box(column.x, top, column.w, max(0, bottom - top))
    strip = EMPTY
    if needs.strip_height:
        strip_h = min(needs.strip_height, area.h - needs.arena_least() - margin)
        if strip_h > 0:
            strip = Box(area.x, area.bottom - strip_h, area.w, strip_h)
            area = Box(area.x, area.y, area.w, area.h - strip_h - margin)
    arenas, labels = _arena_boxes(needs, area)
    return ScreenLayout(screen, panel, graphs, caption, banner, arenas, labels, strip, whole)


def _graphs_box(needs: LayoutNeeds, column: Box, top: int) -> Box:
    """Along the bottom of the column, as tall as they may be while the arenas keep their
    share of the height; gone if that leaves them too short to read."""
    if needs.graphs is None:
        return EMPTY
    most_w, most_h = needs.graphs
    strip = needs.strip_height + needs.margin if needs.strip_height else 0
    room = column.bottom - top - needs.arena_least() - strip - needs.margin
    graph_h = min(most_h, round(column.h * GRAPHS_SHARE), room)
    if graph_h < max(1, needs.graphs_min_height):
        return EMPTY
    graph_w = min(most_w, column.w)
    return Box(column.right - graph_w, column.bottom - graph_h, graph_w, graph_h)


def _arena_boxes(needs: LayoutNeeds, area: Box) -> tuple[tuple[Box, ...], tuple[Box, ...]]:
    """One arena takes the area. Two go one above the other, or side by side when that
    draws the worlds larger (a wide, short area), each under its own label strip."""
    if needs.lanes == 1:
        return (area,), ()
    label_h = min(needs.label_height, area.h)
    aspect_w, aspect_h = WORLD_ASPECT
    stacked = min(area.w / aspect_w, (area.h / 2 - label_h) / aspect_h)
    beside = min(area.w / 2 / aspect_w, (area.h - label_h) / aspect_h)
    boxes, labels = [], []
    for index in range(2):
        if beside > stacked:
            half = area.w // 2
            x, w = area.x + index * half, half if index == 0 else area.w - half
            y, h = area.y, area.h
        else:
            half = area.h // 2
            x, w = area.x, area.w
            y, h = area.y + index * half, half if index == 0 else area.h - half
        labels.append(Box(x, y, w, label_h))
        boxes.append(Box(x, y + label_h, w, max(0, h - label_h)))
    return tuple(boxes), tuple(labels)
