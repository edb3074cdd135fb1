"""The press timeline: the last 2 s of presses, ticks and frames, under the arena.

Three rows per lane, wall time running left to right, now at the right edge:

    press   each press a mark at its wall time, coloured by what became of it
    tick    each tick that ran; a line from a press to every tick that acted on it
            (none if it was lost, two if it was doubled)
    frame   each flipped frame; a line from the press's first tick to the frame that showed it

So a lost press is a mark with nothing below it, and a doubled one forks. The data is the
lane's `InputReadout`; this only draws it, into the box the layout gave the strip.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
import pygame
from numpy.typing import NDArray

from game.hud import hud_colours as colours
from game.hud.plate import flattened, same_format
from game.hud.text import Fonts
from game.session.input_lab import TIMELINE_NS
from game.session.input_readout import Fate, InputReadout
from game.session.readout import Readout

FATE_COLOURS: dict[Fate, colours.RGB] = {
    Fate.PENDING: colours.DIM,
    Fate.SEEN: colours.OK,
    Fate.DOUBLED: colours.STRAINED,
    Fate.MERGED: colours.KEY,
    Fate.LOST: colours.BAD,
}
TICK = colours.STEPS_LINE
FRAME = colours.FRAME_BAR
ROWS = ("press", "tick", "frame")
FEW_RUNS = 16
"""The frame marks are filled as bars when they form at most this many runs of neighbouring
columns (at 1,000 fps, about one); more (at 144 fps, a mark every third column or so) and they
are written into the pixels at once."""
Ints = NDArray[np.int64]


class PressStrip:
    """Draws each lane's press timeline into a box."""

    def __init__(self, fonts: Fonts, backdrop: colours.RGB | None = None) -> None:
        self.fonts = fonts
        self.backdrop = backdrop
        """The plain colour under the strip, if the caller fills the window with one: the
        plate, the row names and their rules are then laid on it once per size (the *base*)
        and copied opaque each frame (`plate.flattened`)."""
        self.rect = pygame.Rect(0, 0, 0, 0)
        self._labs: tuple[InputReadout, ...] = ()
        self._plate = pygame.Surface((0, 0))
        self._base: pygame.Surface | None = None
        self._base_key: tuple[object, ...] = ()
        self._flips: tuple[Sequence[int], _Timeline | None, Ints, list[tuple[int, int]] | None] = (
            (),
            None,
            _NO_COLUMNS,
            None,
        )
        """The last flip times seen, the timeline they were placed on, and their columns and
        runs (`_flip_columns`)."""

    def update(self, readout: Readout, rect: pygame.Rect) -> None:
        self.rect = rect
        self._labs = tuple(lane.inputs for lane in readout.lanes if lane.inputs is not None)

    def draw(self, surface: pygame.Surface) -> None:
        if not self._labs or self.rect.h <= 0:
            return
        if self._plate.get_size() != self.rect.size:  # painted once per size, not per frame
            self._plate = pygame.Surface(self.rect.size, pygame.SRCALPHA)
            self._plate.fill(colours.PLATE)
        boxes = self._lane_boxes(self.rect)
        if self.backdrop is None or not self.fonts.retains:
            surface.blit(self._plate, self.rect.topleft)
            for box in boxes:
                self._draw_rows(surface, box)
        else:
            surface.blit(self._base_for(surface), self.rect.topleft)
        lanes = list(zip(self._labs, boxes, strict=True))
        columns: dict[tuple[Sequence[int], _Timeline], Ints] = {}  # lanes that ran the same ticks
        rows = [self._lane_marks(surface, lab, box, columns) for lab, box in lanes]
        _marks(surface, rows)  # every lane's marks, then their presses: the boxes do not overlap
        for lab, box in lanes:
            self._draw_presses(surface, lab, box)

    def _lane_boxes(self, rect: pygame.Rect) -> list[pygame.Rect]:
        band = rect.h // len(self._labs)
        return [
            pygame.Rect(rect.x, rect.y + index * band, rect.w, band)
            for index in range(len(self._labs))
        ]

    def _base_for(self, surface: pygame.Surface) -> pygame.Surface:
        """The plate with every lane's row names and rules, on the backdrop (kept per size)."""
        assert self.backdrop is not None
        key = (self.rect.size, len(self._labs))
        if self._base is None or key != self._base_key or not same_format(self._base, surface):
            self._base_key = key
            self._base = flattened(self._plate, self.backdrop, surface)
            for box in self._lane_boxes(self._base.get_rect()):
                self._draw_rows(self._base, box)
        return self._base

    def _rows_y(self, box: pygame.Rect) -> list[int]:
        return [box.y + box.h * (2 * row + 1) // 6 for row in range(3)]

    def _draw_rows(self, surface: pygame.Surface, box: pygame.Rect) -> None:
        """Each row's name, and its rule across the timeline."""
        small = self.fonts.small
        left, right = box.x + self.fonts.px(52), box.right - self.fonts.px(6)
        for name, y in zip(ROWS, self._rows_y(box), strict=True):
            text = small.render(name, colours.LABEL)
            surface.blit(text, (box.x + self.fonts.px(6), y - text.get_height() // 2))
            pygame.draw.line(surface, colours.RULE, (left, y), (right, y))

    def _lane_marks(
        self,
        surface: pygame.Surface,
        lab: InputReadout,
        box: pygame.Rect,
        columns: dict[tuple[Sequence[int], _Timeline], Ints],
    ) -> tuple[pygame.Rect, list[Mark]]:
        """A lane's rows of tick and frame marks, for `_marks` (a lane whose ticks another lane
        ran too, at the same times, shares its columns); frame marks that touch are filled as
        bars here."""
        left, right = box.x + self.fonts.px(52), box.right - self.fonts.px(6)
        _, tick_y, frame_y = self._rows_y(box)
        timeline = _Timeline(left, lab.now_ns - TIMELINE_NS, right - left)
        half = max(2, box.h // 14)
        clip = surface.get_clip().clip(box)
        flips, runs = self._flip_columns(lab.flips_ns, timeline)
        ticks = columns.get((lab.ticks_at_ns, timeline))
        if ticks is None:
            ticks = columns[lab.ticks_at_ns, timeline] = timeline.xs(_array(lab.ticks_at_ns))
        marks = [(ticks, tick_y, half, TICK, 2)]
        if runs is None:
            marks.append((flips, frame_y, half, FRAME, 1))
        else:  # at 1,000 fps the frames' marks are a few solid bars: a fill each
            top, bottom = max(clip.top, frame_y - half), min(clip.bottom, frame_y + half + 1)
            for start, end in runs:
                bar = pygame.Rect(start, top, end - start, bottom - top).clip(clip)
                if bar:
                    surface.fill(FRAME, bar)
        return clip, marks

    def _draw_presses(self, surface: pygame.Surface, lab: InputReadout, box: pygame.Rect) -> None:
        """The presses with their lines to the ticks and the frame that showed them, within
        the lane's box (a line to a tick after now would reach past it, onto pixels the next
        frame, starting from this one's window, does not restore)."""
        left, right = box.x + self.fonts.px(52), box.right - self.fonts.px(6)
        press_y, tick_y, frame_y = self._rows_y(box)
        x_of = _Timeline(left, lab.now_ns - TIMELINE_NS, right - left).x
        half = max(2, box.h // 14)
        line = pygame.draw.line
        previous_clip = surface.get_clip()
        surface.set_clip(previous_clip.clip(box))
        for press in lab.presses:
            colour = FATE_COLOURS[press.fate]
            x = x_of(press.at_ns)
            for at in press.tick_at_ns:
                line(surface, colour, (x, press_y), (x_of(at), tick_y))
            if press.tick_at_ns and press.shown_ns is not None:
                start, shown = x_of(press.tick_at_ns[0]), x_of(press.shown_ns)
                line(surface, colour, (start, tick_y), (shown, frame_y))
            pygame.draw.circle(surface, colour, (x, press_y), max(3, half))
        surface.set_clip(previous_clip)

    def _flip_columns(
        self, flips_ns: Sequence[int], timeline: _Timeline
    ) -> tuple[Ints, list[tuple[int, int]] | None]:
        """The columns of the frame marks, each once, and, when they form at most `FEW_RUNS`
        runs of neighbours, those runs (first column, one past the last). The lanes share one
        tuple of flips and, side by side, one timeline, so the second lane reuses the first's
        columns; at 1,000 fps two flips often fall in one column, and the marks of a whole
        stretch of frames touch one another: a bar, filled at once."""
        if flips_ns is not self._flips[0] or timeline != self._flips[1]:
            columns = timeline.xs(_array(flips_ns))
            runs = None
            if columns.shape[0] > 1:  # the flips are in order: a repeat follows its twin
                columns = columns[np.concatenate(([True], columns[1:] != columns[:-1]))]
                steps = np.diff(columns)
                breaks = np.flatnonzero(steps != 1)
                if breaks.shape[0] < FEW_RUNS and (steps > 0).all():
                    starts = [int(columns[0]), *(columns[breaks + 1].tolist())]
                    ends = [*(columns[breaks] + 1).tolist(), int(columns[-1]) + 1]
                    runs = list(zip(starts, ends, strict=True))
            self._flips = (flips_ns, timeline, columns, runs)
        return self._flips[2], self._flips[3]


class _Timeline(NamedTuple):
    """Wall time to a column of the strip: `start_ns` at `left`, `TIMELINE_NS` later at
    `left + span`."""

    left: int
    start_ns: int
    span: int

    def x(self, at_ns: int) -> int:
        return self.left + (at_ns - self.start_ns) * self.span // TIMELINE_NS

    def xs(self, times_ns: Ints) -> Ints:
        """The column of each time, all at once (the same whole-number floor division)."""
        columns: Ints = self.left + (times_ns - self.start_ns) * self.span // TIMELINE_NS
        return columns


_NO_COLUMNS: Ints = np.zeros(0, np.int64)


def _array(times_ns: Sequence[int]) -> Ints:
    return np.fromiter(times_ns, np.int64, len(times_ns))


Mark = tuple[Ints, int, int, colours.RGB, int]
"""A row of marks: their columns, the row's y, half their height, their colour and width."""


def _marks(surface: pygame.Surface, lanes: Sequence[tuple[pygame.Rect, Sequence[Mark]]]) -> None:
    """Short vertical marks, each lane's within its clip, written straight into the pixels: at
    1,000 fps the strip holds some 2,000 frame marks per lane, and one numpy assignment (their
    columns worked out in numpy too) beats 2,000 `draw.line` calls and 2,000 Python sums. Two
    lanes one above the other share their flips' columns, and often their ticks': those are
    clipped and widened once."""
    pixels = None
    shown: dict[tuple[int, int, int, int], Ints] = {}
    for clip, rows in lanes:
        for xs, y, half, colour, width in rows:
            top, bottom = max(clip.top, y - half), min(clip.bottom, y + half + 1)
            key = (id(xs), width, clip.left, clip.right)
            columns = shown.get(key)
            if columns is None:
                columns = xs if width == 1 else np.concatenate([xs + step for step in range(width)])
                columns = shown[key] = columns[(columns >= clip.left) & (columns < clip.right)]
            if bottom <= top or columns.shape[0] == 0:
                continue
            if pixels is None:
                pixels = pygame.surfarray.pixels2d(surface)
            pixels[columns, top:bottom] = surface.map_rgb(colour)
    del pixels  # unlock the surface
