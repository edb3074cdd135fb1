"""The stats panel: what the loop is doing this frame, in aligned columns on a plate.

The words come from `stats.stat_groups`; this module only places them. One label column, then
one value column per lane, so a split screen compares its two policies row by row.

Two layers. The *card*: the plate, the group headings and their rules, and every label, drawn
once for a layout (which rows fit, how wide the columns are). The *values*: each row's *ink*
(its texts from the text cache, and a few rectangles for the alpha bar and the badge), placed
again only when the row's cells change. So a frame costs one card blit, one `fblits` and a
handful of `draw.rect`. (With caching off, the benchmark's baseline, there is no card: the
labels are rendered and drawn every frame too.)

With a `backdrop` (the plain colour the window is filled with under the panel), the card is
laid on it once and kept as an opaque *picture* with every row's ink on it; a frame then puts
again only the rows whose ink changed (their pixels restored from the card first, so the
result is the same as drawing them afresh) and copies the picture to the window: a handful of
values redrawn, and one opaque blit instead of a translucent one.

`update(readout, area)` lays the panel out at the top-left of `area`, dropping the least
important rows until it fits the area's height; `draw(surface)` puts it on screen.
"""

from __future__ import annotations

import pygame

from game.hud.display_rows import display_group
from game.hud.hud_colours import (
    ALPHA_FILL,
    BAD,
    BADGE_TEXT,
    HEADING,
    LABEL,
    MEANING_COLOURS,
    RGB,
    RULE,
    TEXT,
    TRACK,
)
from game.hud.network_rows import network_groups
from game.hud.panel_ink import Box, Ink, KeptPicture, Text, Tip, draw_inks
from game.hud.plate import make_plate
from game.hud.rows import Cell, Group, Position, Row, must_show, rows_to_keep, select
from game.hud.stats import stat_groups
from game.hud.text import Fonts, TextCache
from game.session.readout import Readout

MIN_VALUE_CHARS = 18
"""Value columns are at least this wide, so they do not twitch as numbers change length."""
BAR_TEXT_CHARS = 7
"""Room for the alpha as text ("12.750") before its bar starts."""
TRACK_SHARE = 0.6
"""The 0..1 track takes this share of the bar's room; the rest is where alpha > 1 overflows."""

Slot = tuple[int, int, int]
"""Where a value goes: x, y (top of its row) and the width it may use."""


class StatsPanel:
    """The grouped stats of one `Readout`, top-left, sized to its content."""

    def __init__(self, fonts: Fonts, backdrop: RGB | None = None) -> None:
        self.fonts = fonts
        self.backdrop = backdrop
        """The plain colour under the panel, if the caller fills the window with one (see the
        module's docstring)."""
        self.rect = pygame.Rect(0, 0, 0, 0)
        self.labels: tuple[str, ...] = ()
        """The rows shown, by label, in order (the others did not fit)."""
        self.dropped: frozenset[str] = frozenset()
        """The rows the readout has that did not fit, by label (as `_fit` last chose)."""
        self.rows: dict[str, pygame.Rect] = {}
        """Where each row shown is on the window, by label: its label and values."""
        self._pad_x = fonts.px(14)
        self._pad_y = fonts.px(10)
        self._gap = fonts.px(18)
        self._row_h = fonts.body.line_height + fonts.px(3)
        self._text_dy = (self._row_h - fonts.body.line_height) // 2
        """From the top of a row to the top of its text."""
        self._heading_h = fonts.heading.line_height + fonts.px(5)
        self._group_gap = fonts.px(8)
        self._fit_key: tuple[object, ...] = ()
        self._kept: frozenset[Position] = frozenset()
        self._card_key: tuple[object, ...] = ()
        self._plate = pygame.Surface((0, 0))
        self._card = pygame.Surface((0, 0))
        """The plate with the headings, rules and labels drawn on it."""
        self._fixed: list[tuple[TextCache, str, RGB, tuple[int, int]]] = []
        """The card's words: font, text, colour and place on the card."""
        self._rules: list[tuple[tuple[int, int], tuple[int, int]]] = []
        self._slots: list[tuple[Slot, ...]] = []
        """For each row shown, where its values go."""
        self._shown: list[tuple[tuple[Cell, ...], bool]] = []
        self._inks: list[Ink] = []
        """Each row's ink this frame; the same object as last frame's when its cells are."""
        self._labels_ink: tuple[Text, ...] = ()
        """Without caches (the baseline), the card's words, drawn every frame."""
        self._picture = KeptPicture()
        self._copied_at = pygame.Rect(0, 0, 0, 0)
        """Where the whole picture was last put on a window (with a backdrop)."""

    def update(self, readout: Readout, area: pygame.Rect) -> None:
        groups = (*stat_groups(readout), display_group(readout), *network_groups(readout))
        lanes = max(1, len(readout.lanes))
        kept = self._fit(groups, area.height, lanes, must_show(readout))
        every = [row for group in groups for row in group.rows]
        if len(kept) < len(every):  # the window is too short for them all
            every = [
                row
                for g, group in enumerate(groups)
                for r, row in enumerate(group.rows)
                if (g, r) in kept
            ]
        rows = every
        widths = self._value_widths(rows, lanes)
        key = (area.topleft, kept, widths)
        if key != self._card_key:
            self._card_key = key
            self._lay_out(select(groups, kept), widths, area.topleft)
            self._shown, self._inks = [], []
        retains = self.fonts.retains
        if not retains:
            left, top = self.rect.topleft
            self._labels_ink = tuple(
                (cache.render(text, colour), (left + x, top + y))
                for cache, text, colour, (x, y) in self._fixed
            )
        shown = [(row.cells, row.strong) for row in rows]
        if not retains or len(shown) != len(self._shown):
            self._inks = [
                self._ink(row, slots) for row, slots in zip(rows, self._slots, strict=True)
            ]
        else:
            for index, (row, slots) in enumerate(zip(rows, self._slots, strict=True)):
                if shown[index] != self._shown[index]:
                    self._inks[index] = self._ink(row, slots)
        self._shown = shown

    def draw(self, surface: pygame.Surface, kept: bool = False) -> None:
        """Put the panel on `surface`. `kept`: the surface still shows what this panel drew on
        it last time, on the backdrop, so only what changed since is copied (the whole picture
        where the panel moved or changed size, the backdrop laid where it no longer is)."""
        if self.backdrop is not None and self.fonts.retains:
            origin = self.rect.topleft
            picture = self._picture.brought_up(
                self._card, self._inks, origin, self.backdrop, surface
            )
            if kept and self.rect == self._copied_at:
                damage = self._picture.damage
                surface.blits([(picture, area.move(origin), area) for area in damage], False)
                return
            if kept:
                surface.fill(self.backdrop, self._copied_at)
            surface.blit(picture, origin)
            self._copied_at = self.rect.copy()
            return
        surface.blit(self._card, self.rect.topleft)
        if not self.fonts.retains:
            left, top = self.rect.topleft
            for start, end in self._rules:
                pygame.draw.line(
                    surface, RULE, (left + start[0], top + start[1]), (left + end[0], top + end[1])
                )
        draw_inks(surface, self._inks, (0, 0), self._labels_ink)

    # --- fitting and measuring -------------------------------------------------------------

    def _height(self, groups: tuple[Group, ...]) -> int:
        rows = sum(len(group.rows) for group in groups)
        gaps = self._group_gap * max(0, len(groups) - 1)
        return 2 * self._pad_y + len(groups) * self._heading_h + rows * self._row_h + gaps

    def _fit(
        self, groups: tuple[Group, ...], height: int, lanes: int, must: frozenset[str]
    ) -> frozenset[Position]:
        """The rows that fit in `height`, least important dropped first (see `rows_to_keep`).

        Which rows fit depends on the rows' labels, their priorities, the rows that must show
        and the height, never on their values: the choice is kept until one of them changes (a
        row that comes and goes, such as "owed", changes the labels; a conditioning other than
        raw makes its row important; a pause makes the state row one that must show).
        """
        labels = tuple((row.label, row.priority) for group in groups for row in group.rows)
        if (height, lanes, labels, must) != self._fit_key:
            self._fit_key = (height, lanes, labels, must)
            self._kept = rows_to_keep(groups, lambda shown: self._height(shown) <= height, must)
            self.dropped = frozenset(
                row.label
                for g, group in enumerate(groups)
                for r, row in enumerate(group.rows)
                if (g, r) not in self._kept
            )
        return self._kept

    def _value_widths(self, rows: list[Row], lanes: int) -> tuple[int, ...]:
        """Each value column's width: its widest value, and at least `MIN_VALUE_CHARS`.

        Counted in characters (the type is monospaced); a badge counts two more for its edges.
        """
        per_lane = [row.cells for row in rows if len(row.cells) == lanes]
        columns = zip(*per_lane, strict=True) if per_lane else [()] * lanes
        chars = [
            max([MIN_VALUE_CHARS, *[len(cell.text) + 2 * cell.badge for cell in column]])
            for column in columns
        ]
        # One value for the whole game (split screen): it may span every lane's column.
        spanning = max(
            (len(row.cells[0].text) for row in rows if row.cells and len(row.cells) != lanes),
            default=0,
        )
        char_w = self.fonts.body.char_width
        widths = [round(n * char_w) for n in chars]
        widths[-1] += max(0, round(spanning * char_w) - (sum(widths) + self._gap * (lanes - 1)))
        return tuple(widths)

    # --- the card: everything but the values -----------------------------------------------

    def _lay_out(
        self, groups: tuple[Group, ...], widths: tuple[int, ...], topleft: tuple[int, int]
    ) -> None:
        fonts = self.fonts
        label_w = round(
            max((len(row.label) for g in groups for row in g.rows), default=0)
            * fonts.body.char_width
        )
        width = 2 * self._pad_x + label_w + self._gap * len(widths) + sum(widths)
        self.rect = pygame.Rect(topleft, (width, self._height(groups)))
        self.labels = tuple(row.label for group in groups for row in group.rows)
        if self._plate.get_size() != self.rect.size:
            self._plate = make_plate(self.rect.size, fonts.px(10))
        value_xs = [self._pad_x + label_w + self._gap]
        for column_w in widths[:-1]:
            value_xs.append(value_xs[-1] + column_w + self._gap)
        spanning = (self.rect.left + value_xs[0], value_xs[-1] + widths[-1] - value_xs[0])
        self._fixed, self._rules, self._slots = [], [], []
        self.rows = {}
        y = self._pad_y
        for index, group in enumerate(groups):
            y += self._group_gap if index else 0
            heading_y = y + fonts.px(2)
            self._fixed.append((fonts.heading, group.title, HEADING, (self._pad_x, heading_y)))
            heading_w = round(len(group.title) * fonts.heading.char_width)
            rule_y = heading_y + fonts.heading.line_height // 2
            rule_x = self._pad_x + heading_w + fonts.px(8)
            self._rules.append(((rule_x, rule_y), (width - self._pad_x, rule_y)))
            y += self._heading_h
            for row in group.rows:
                self._fixed.append((fonts.body, row.label, LABEL, (self._pad_x, y + self._text_dy)))
                top = self.rect.top + y
                self.rows[row.label] = pygame.Rect(self.rect.left, top, width, self._row_h)
                if len(row.cells) == 1 and len(widths) > 1:
                    self._slots.append(((spanning[0], top, spanning[1]),))
                else:
                    self._slots.append(
                        tuple(
                            (self.rect.left + x, top, w)
                            for x, w in zip(value_xs, widths, strict=True)
                        )
                    )
                y += self._row_h
        self._card = self._plate
        if self.fonts.retains:
            self._card = self._plate.copy()
            for start, end in self._rules:
                pygame.draw.line(self._card, RULE, start, end)
            for cache, text, colour, position in self._fixed:
                self._card.blit(cache.render(text, colour), position)

    # --- the values ------------------------------------------------------------------------

    def _ink(self, row: Row, slots: tuple[Slot, ...]) -> Ink:
        boxes: list[Box] = []
        tips: list[Tip] = []
        texts: list[Text] = []
        for cell, slot in zip(row.cells, slots, strict=False):
            self._place_value(cell, slot, row.strong, (boxes, tips, texts))
        return Ink.of(boxes, tips, texts)

    def _place_value(
        self,
        cell: Cell,
        slot: Slot,
        strong: bool,
        ink: tuple[list[Box], list[Tip], list[Text]],
    ) -> None:
        fonts = self.fonts
        boxes, _, texts = ink
        x, y, width = slot
        text_y = y + self._text_dy
        if cell.badge:
            pad = fonts.px(6)
            text = fonts.bold.render(cell.text, BADGE_TEXT)
            box = pygame.Rect(x, text_y, text.get_width() + 2 * pad, fonts.body.line_height)
            boxes.append((MEANING_COLOURS[cell.meaning], box, fonts.px(4)))
            texts.append((text, (x + pad, text_y)))
            return
        cache = fonts.bold if strong else fonts.body
        texts.append((cache.render(cell.text, MEANING_COLOURS[cell.meaning]), (x, text_y)))
        if cell.bar is not None:
            room = width - round(BAR_TEXT_CHARS * fonts.body.char_width)
            self._place_bar(cell.bar, x + width - room, y, room, ink)

    def _place_bar(
        self,
        value: float,
        x: int,
        y: int,
        room: int,
        ink: tuple[list[Box], list[Tip], list[Text]],
    ) -> None:
        """A 0..1 track with a mark at 1; a value above 1 turns it red and runs past the mark.

        The overflow uses the same scale as the track until it runs out of room, then ends in a
        red arrowhead: naive alpha reaching 6.75 is the lesson, and it should look wrong.
        """
        fonts = self.fonts
        boxes, tips, _ = ink
        height = max(4, round(fonts.body.line_height * 0.42))
        top = y + (self._row_h - height) // 2
        track = round(room * TRACK_SHARE)
        overflows = value >= 1.0
        boxes.append((TRACK, pygame.Rect(x, top, track, height), 2))
        filled = round(min(value, 1.0) * track)
        if filled:
            fill = BAD if overflows else ALPHA_FILL
            boxes.append((fill, pygame.Rect(x, top, filled, height), 2))
        notch = fonts.px(3)
        mark = pygame.Rect(x + track, top - notch, max(2, fonts.px(2)), height + 2 * notch)
        boxes.append((TEXT, mark, 0))
        if not overflows:
            return
        start = mark.right + fonts.px(2)
        zone = room - (start - x)
        wanted = round((value - 1.0) * track)
        if wanted <= zone:
            boxes.append((BAD, pygame.Rect(start, top, max(1, wanted), height), 2))
            return
        tip, end = fonts.px(8), start + zone
        boxes.append((BAD, pygame.Rect(start, top, zone - tip, height), 0))
        arrowhead = [
            (end - tip, top - fonts.px(4)),
            (end, top + height // 2),
            (end - tip, top + height + fonts.px(4)),
        ]
        tips.append((BAD, arrowhead))
