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

import pygame

from game.hud import hud_colours as colours
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


class PressStrip:
    """Draws each lane's press timeline into a box."""

    def __init__(self, fonts: Fonts) -> None:
        self.fonts = fonts
        self.rect = pygame.Rect(0, 0, 0, 0)
        self._labs: tuple[InputReadout, ...] = ()
        self._plate = pygame.Surface((0, 0))

    def update(self, readout: Readout, rect: pygame.Rect) -> None:
        self.rect = rect
        self._labs = tuple(lane.inputs for lane in readout.lanes if lane.inputs is not None)

    def draw(self, surface: pygame.Surface) -> None:
        if not self._labs or self.rect.h <= 0:
            return
        if self._plate.get_size() != self.rect.size:  # painted once per size, not per frame
            self._plate = pygame.Surface(self.rect.size, pygame.SRCALPHA)
            self._plate.fill(colours.PLATE)
        surface.blit(self._plate, self.rect.topleft)
        band = self.rect.h // len(self._labs)
        for index, lab in enumerate(self._labs):
            self._draw_lane(surface, lab, pygame.Rect(self.rect.x, self.rect.y + index * band,
                                                      self.rect.w, band))  # fmt: skip

    def _draw_lane(self, surface: pygame.Surface, lab: InputReadout, box: pygame.Rect) -> None:
        small = self.fonts.small
        label_w = self.fonts.px(52)
        left, right = box.x + label_w, box.right - self.fonts.px(6)
        row_y = [box.y + box.h * (2 * row + 1) // 6 for row in range(3)]
        for name, y in zip(ROWS, row_y, strict=True):
            text = small.render(name, colours.LABEL)
            surface.blit(text, (box.x + self.fonts.px(6), y - text.get_height() // 2))
            pygame.draw.line(surface, colours.RULE, (left, y), (right, y))
        span = right - left
        start = lab.now_ns - TIMELINE_NS

        def x_of(at_ns: int) -> int:
            return left + (at_ns - start) * span // TIMELINE_NS

        tick_y, frame_y = row_y[1], row_y[2]
        half = max(2, box.h // 14)
        for at in lab.flips_ns:
            x = x_of(at)
            pygame.draw.line(surface, FRAME, (x, frame_y - half), (x, frame_y + half))
        for at in lab.ticks_ns:
            x = x_of(at)
            pygame.draw.line(surface, TICK, (x, tick_y - half), (x, tick_y + half), 2)
        for press in lab.presses:
            colour = FATE_COLOURS[press.fate]
            x = x_of(press.at_ns)
            for at in press.tick_ns:
                pygame.draw.line(surface, colour, (x, row_y[0]), (x_of(at), tick_y))
            if press.tick_ns and press.shown_ns is not None:
                pygame.draw.line(
                    surface,
                    colour,
                    (x_of(press.tick_ns[0]), tick_y),
                    (x_of(press.shown_ns), frame_y),
                )
            pygame.draw.circle(surface, colour, (x, row_y[0]), max(3, half))
