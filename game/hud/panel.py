"""The stats panel: what the loop is doing this frame, in aligned columns on a plate.

The words come from `stats.stat_groups`; this module only places them. One label column, then
one value column per lane, so a split screen compares its two policies row by row. The plate and
its rules are drawn once per layout; every frame costs one plate blit, one `fblits` of cached
text, and a few rectangles for the alpha bar and the badge.

`update(readout, area)` lays the panel out at the top-left of `area` and drops the least
important rows until it fits the area's height; `draw(surface)` puts it on screen.
"""

from __future__ import annotations

from collections.abc import Iterator

import pygame

from game.hud.palette import (
    ALPHA_FILL,
    BAD,
    BADGE_TEXT,
    HEADING,
    LABEL,
    RGB,
    RULE,
    TEXT,
    TRACK,
    colour_of,
)
from game.hud.plate import make_plate
from game.hud.stats import Cell, Group, Position, Row, rows_to_keep, select, stat_groups
from game.hud.text import Fonts
from game.session.readout import Readout

MIN_VALUE_CHARS = 18
"""Value columns are at least this wide, so they do not twitch as numbers change length."""
BAR_TEXT_CHARS = 7
"""Room for the alpha as text ("12.750") before its bar starts."""
TRACK_SHARE = 0.6
"""The 0..1 track takes this share of the bar's room; the rest is where alpha > 1 overflows."""

Blit = tuple[pygame.Surface, tuple[int, int]]


class StatsPanel:
    """The grouped stats of one `Readout`, top-left, sized to its content."""

    def __init__(self, fonts: Fonts) -> None:
        self.fonts = fonts
        self.rect = pygame.Rect(0, 0, 0, 0)
        self.groups: tuple[Group, ...] = ()
        """The groups and rows shown after fitting (the rest did not fit)."""
        self._pad_x = fonts.px(14)
        self._pad_y = fonts.px(10)
        self._gap = fonts.px(18)
        self._row_h = fonts.body.line_height + fonts.px(3)
        self._heading_h = fonts.heading.line_height + fonts.px(5)
        self._group_gap = fonts.px(8)
        self._fit_key: tuple[object, ...] = ()
        self._kept: frozenset[Position] = frozenset()
        self._plate_key: tuple[object, ...] = ()
        self._plate = pygame.Surface((0, 0))
        self._texts: list[Blit] = []
        self._boxes: list[tuple[RGB, pygame.Rect, int]] = []
        self._tips: list[tuple[RGB, list[tuple[int, int]]]] = []

    def update(self, readout: Readout, area: pygame.Rect) -> None:
        self.groups = self._fit(stat_groups(readout), area.height, len(readout.lanes))
        lanes = max(1, len(readout.lanes))
        label_w, value_ws = self._columns(self.groups, lanes)
        width = 2 * self._pad_x + label_w + self._gap * lanes + sum(value_ws)
        self.rect = pygame.Rect(area.left, area.top, round(width), self._height(self.groups))
        self._texts.clear()
        self._boxes.clear()
        self._tips.clear()
        rules = self._place(label_w, value_ws)
        key = (self.rect.size, rules)
        if key != self._plate_key:
            self._plate_key = key
            self._plate = self._build_plate(rules)

    def draw(self, surface: pygame.Surface) -> None:
        surface.blit(self._plate, self.rect.topleft)
        for colour, box, radius in self._boxes:
            pygame.draw.rect(surface, colour, box, border_radius=radius)
        for colour, points in self._tips:
            pygame.draw.polygon(surface, colour, points)
        surface.fblits(self._texts)

    # --- fitting and measuring -------------------------------------------------------------

    def _height(self, groups: tuple[Group, ...]) -> int:
        rows = sum(len(group.rows) for group in groups)
        gaps = self._group_gap * max(0, len(groups) - 1)
        return 2 * self._pad_y + len(groups) * self._heading_h + rows * self._row_h + gaps

    def _fit(self, groups: tuple[Group, ...], height: int, lanes: int) -> tuple[Group, ...]:
        """The rows that fit in `height`, least important dropped first (see `rows_to_keep`).

        Which rows fit depends on the rows' labels and the height, never on their values, and
        the labels only change with the number of lanes: the choice is kept until either does.
        """
        key = (height, lanes)
        if key != self._fit_key:
            self._fit_key = key
            self._kept = rows_to_keep(groups, lambda shown: self._height(shown) <= height)
        return select(groups, self._kept)

    def _text_width(self, cell: Cell) -> float:
        width = len(cell.text) * self.fonts.body.char_width
        return width + 2 * self.fonts.px(6) if cell.badge else width

    def _columns(self, groups: tuple[Group, ...], lanes: int) -> tuple[float, list[float]]:
        """The label column's width, and each value column's (at least `MIN_VALUE_CHARS`)."""
        char = self.fonts.body.char_width
        rows = [row for group in groups for row in group.rows]
        label_w = max((len(row.label) * char for row in rows), default=0.0)
        value_ws = [MIN_VALUE_CHARS * char] * lanes
        for row in rows:
            if len(row.cells) == lanes:
                for lane, cell in enumerate(row.cells):
                    value_ws[lane] = max(value_ws[lane], self._text_width(cell))
        spanned = sum(value_ws) + self._gap * (lanes - 1)
        for row in rows:
            if len(row.cells) == 1 and lanes > 1:
                spanned = max(spanned, self._text_width(row.cells[0]))
        value_ws[-1] += spanned - (sum(value_ws) + self._gap * (lanes - 1))
        return label_w, [float(round(w)) for w in value_ws]

    # --- placing ---------------------------------------------------------------------------

    def _place(self, label_w: float, value_ws: list[float]) -> tuple[tuple[int, int, int], ...]:
        """Queue every text, box and bar for `draw`; return the heading rules for the plate."""
        fonts = self.fonts
        left = self.rect.left + self._pad_x
        value_xs = [round(left + label_w + self._gap)]
        for width in value_ws[:-1]:
            value_xs.append(round(value_xs[-1] + width + self._gap))
        text_dy = (self._row_h - fonts.body.line_height) // 2
        rules = []
        y = self.rect.top + self._pad_y
        for index, group in enumerate(self.groups):
            if index:
                y += self._group_gap
            heading = fonts.heading.render(group.title, HEADING)
            self._texts.append((heading, (left, y + fonts.px(2))))
            rule_y = y + fonts.px(2) + heading.get_height() // 2 - self.rect.top
            rule_x = left + heading.get_width() + fonts.px(8) - self.rect.left
            rules.append((rule_x, rule_y, self.rect.width - self._pad_x))
            y += self._heading_h
            for row in group.rows:
                label = fonts.body.render(row.label, LABEL)
                self._texts.append((label, (left, y + text_dy)))
                for x, width, cell in self._cells(row, value_xs, value_ws):
                    self._place_cell(cell, x, y, width, strong=row.strong)
                y += self._row_h
        return tuple(rules)

    @staticmethod
    def _cells(row: Row, xs: list[int], widths: list[float]) -> Iterator[tuple[int, float, Cell]]:
        if len(row.cells) == 1:
            yield xs[0], xs[-1] + widths[-1] - xs[0], row.cells[0]
        else:
            yield from zip(xs, widths, row.cells, strict=False)

    def _place_cell(self, cell: Cell, x: int, y: int, width: float, *, strong: bool) -> None:
        fonts = self.fonts
        line_h = fonts.body.line_height
        text_y = y + (self._row_h - line_h) // 2
        if cell.badge:
            pad = fonts.px(6)
            text = fonts.bold.render(cell.text, BADGE_TEXT)
            box = pygame.Rect(x, text_y, text.get_width() + 2 * pad, line_h)
            self._boxes.append((colour_of(cell.meaning), box, fonts.px(4)))
            self._texts.append((text, (x + pad, text_y)))
            return
        cache = fonts.bold if strong else fonts.body
        self._texts.append((cache.render(cell.text, colour_of(cell.meaning)), (x, text_y)))
        if cell.bar is not None:
            room = width - BAR_TEXT_CHARS * fonts.body.char_width
            self._place_bar(cell, round(x + width - room), y, room)

    def _place_bar(self, cell: Cell, x: int, y: int, room: float) -> None:
        """A 0..1 track with a mark at 1; alpha above 1 runs past the mark in red.

        The overflow uses the same scale as the track until it runs out of room, then ends in a
        red arrowhead: naive alpha reaching 6.75 is the lesson, and it should look wrong.
        """
        assert cell.bar is not None
        fonts = self.fonts
        height = max(4, round(fonts.body.line_height * 0.42))
        top = y + (self._row_h - height) // 2
        track = round(room * TRACK_SHARE)
        fill_colour = BAD if cell.overflows else ALPHA_FILL
        self._boxes.append((TRACK, pygame.Rect(x, top, track, height), 2))
        filled = round(min(cell.bar, 1.0) * track)
        if filled:
            self._boxes.append((fill_colour, pygame.Rect(x, top, filled, height), 2))
        mark_w = max(2, fonts.px(2))
        mark = pygame.Rect(x + track, top - fonts.px(3), mark_w, height + 2 * fonts.px(3))
        self._boxes.append((TEXT, mark, 0))
        if not cell.overflows:
            return
        start = mark.right + fonts.px(2)
        zone = round(room) - (start - x)
        wanted = round((cell.bar - 1.0) * track)
        if wanted <= zone:
            self._boxes.append((BAD, pygame.Rect(start, top, max(1, wanted), height), 2))
            return
        tip = fonts.px(8)
        self._boxes.append((BAD, pygame.Rect(start, top, zone - tip, height), 0))
        end = start + zone
        self._tips.append(
            (
                BAD,
                [
                    (end - tip, top - fonts.px(4)),
                    (end, top + height // 2),
                    (end - tip, top + height + fonts.px(4)),
                ],
            )
        )

    def _build_plate(self, rules: tuple[tuple[int, int, int], ...]) -> pygame.Surface:
        plate = make_plate(self.rect.size, self.fonts.px(10))
        for x, y, right in rules:
            if right > x:
                pygame.draw.line(plate, RULE, (x, y), (right, y), max(1, self.fonts.px(1)))
        return plate
