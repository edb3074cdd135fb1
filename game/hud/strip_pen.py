"""`StripPen`: the marks every strip of the graph panel is made of.

Bars, dashed reference lines, a label above a plot and labels beside their lines: the graph panel
(`game.hud.graphs`) decides what each strip shows, this draws it. Kept apart so each strip reads
as "what", in a few lines.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pygame
from numpy.typing import NDArray

from game.hud.hud_colours import DIM, LABEL, RGB
from game.hud.text import Fonts


class StripPen:
    """Draws the graph panel's marks at one type scale, one bin every `pitch` pixels."""

    def __init__(self, fonts: Fonts) -> None:
        self.fonts = fonts
        self.pitch = max(2, fonts.px(4))
        """Pixels per bin: a bar and a gap."""
        self._dashes: dict[tuple[int, RGB], pygame.Surface] = {}

    @staticmethod
    def level(plot: pygame.Rect, value: float, top: float) -> int:
        """The y pixel of `value` on an axis from 0 (plot bottom) to `top` (plot top)."""
        return plot.bottom - 1 - round(min(value / top, 1.0) * (plot.h - 1))

    def bar_chart(
        self,
        canvas: pygame.Surface,
        plot: pygame.Rect,
        values: NDArray[np.float64],
        top: float,
        colour_index: NDArray[np.int64],
        colours: tuple[RGB, ...],
        part: tuple[int, int] = (0, 1),
    ) -> None:
        """One bar per bin with a value: at least a pixel tall, so a small value still shows.
        `part` (i, n) draws the i-th of n bars side by side in each bin (one per lane)."""
        shown = np.flatnonzero(values > 0)
        heights = np.rint(np.minimum(values[shown] / top, 1.0) * plot.h).astype(np.int64)
        heights = np.maximum(heights, 1)
        index, share = part
        width = max(1, (self.pitch - max(1, self.fonts.px(1))) // share)
        xs = plot.left + shown * self.pitch + index * width
        fill = canvas.fill
        for x, height, index in zip(
            xs.tolist(), heights.tolist(), colour_index[shown].tolist(), strict=True
        ):
            fill(colours[index], (x, plot.bottom - height, width, height))

    def dashed(self, canvas: pygame.Surface, colour: RGB, plot: pygame.Rect, y: int) -> None:
        """A dashed rule across the plot: drawn once into a strip, then one blit each time."""
        key = (plot.w, colour)
        dashes = self._dashes.get(key)
        if dashes is None:
            thickness, dash = max(1, self.fonts.px(1)), self.fonts.px(6)
            dashes = self._dashes[key] = pygame.Surface((plot.w, thickness), pygame.SRCALPHA)
            for x in range(0, plot.w, 2 * dash):
                dashes.fill(colour, (x, 0, dash, thickness))
        canvas.blit(dashes, (plot.left, y))

    def strip_label(
        self,
        canvas: pygame.Surface,
        plot: pygame.Rect,
        name: str,
        y_range: str,
        notes: Sequence[tuple[str, RGB]] = (),
    ) -> None:
        """Above the plot: its name, its y range at the right, and notes between while they fit
        (a narrow graph in presentation mode keeps only the name and the range)."""
        small, gap = self.fonts.small, self.fonts.px(12)
        y = plot.top - small.line_height - self.fonts.px(1)
        scale = small.render(y_range, DIM)
        scale_x = plot.right - scale.get_width()
        canvas.blit(scale, (scale_x, y))
        x = plot.left
        for index, (text, colour) in enumerate([(name, LABEL), *notes]):
            surface = small.render(text, colour)
            if index and x + surface.get_width() + gap > scale_x:
                break
            canvas.blit(surface, (x, y))
            x += surface.get_width() + gap

    def side_labels(
        self, canvas: pygame.Surface, plot: pygame.Rect, labels: list[tuple[int, str, RGB]]
    ) -> None:
        """Labels beside their lines, right of the plot, pushed apart when the lines are close
        and kept beside their own strip."""
        small = self.fonts.small
        x = plot.right + self.fonts.px(6)
        placed: list[tuple[pygame.Surface, int]] = []
        floor = -(10**9)
        for y, text, colour in sorted(labels):
            surface = small.render(text, colour)
            top = max(y - surface.get_height() // 2, floor)
            placed.append((surface, top))
            floor = top + surface.get_height()
        overshoot = max(0, floor - plot.bottom - small.line_height // 3)
        for surface, top in placed:
            canvas.blit(surface, (x, top - overshoot))
