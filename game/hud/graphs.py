"""The graph panel: the last few seconds of frames, so a stall or a spiral has a shape.

Three strips share one time axis (newest on the right, a faint line every second):

- frame time, as bars against the frame budget (solid green line, when the render rate is
  capped) and the tick step (dashed violet line). Bars are amber when a frame took more than
  1.5 budgets and red while the scheduler reported overload;
- ticks run per frame, as a line, against the catch-up cap M (dashed amber);
- time dropped, as red bars.

When the area is too short for three readable strips, the dropped strip goes, then the steps
strip: the frame times are the graph. Each frame costs a plate blit, one `fill` per bar, one
`draw.lines` and cached labels. numpy does the binning and the mapping to pixels (`timeline`);
the y axes keep a fixed minimum so a calm game looks calm, and grow in round steps when frames
spike.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pygame
from numpy.typing import NDArray

from game.hud.palette import (
    BAD,
    BUDGET_LINE,
    DIM,
    FRAME_BAR,
    LABEL,
    OVER_BUDGET_BAR,
    OVERLOADED_BAR,
    RGB,
    RULE,
    STEP_LINE,
    STEPS_LINE,
    STRAINED,
)
from game.hud.plate import make_plate
from game.hud.text import Fonts
from game.hud.timeline import Bins, axis_top, bin_frames
from game.session.history import HistoryWindow
from game.session.readout import Readout

MIN_FRAME_AXIS_MS = 50.0
"""The frame-time axis never shows less than this: a 60 fps game fills a third of it."""
MIN_STEPS_AXIS = 5.0
MIN_DROPPED_AXIS_MS = 20.0
MIN_FRAME_PLOT = 36
MIN_STRIP_PLOT = 16
"""Smallest readable plot heights (at scale 1) for the frame strip and the other two."""
SHARES = {3: (0.5, 0.25, 0.25), 2: (0.64, 0.36), 1: (1.0,)}
"""How the plots split the height, for three, two or one strips."""
MISSED_FRAME = 1.5
"""A frame longer than this many budgets is drawn amber: a visible hitch."""
PLOT_SHADE = (0, 0, 0, 70)

Blit = tuple[pygame.Surface, tuple[int, int]]


class FrameGraphs:
    """Frame times, steps and dropped time over the last `seconds`, in `update`'s area."""

    def __init__(self, fonts: Fonts, seconds: float = 5.0) -> None:
        self.fonts = fonts
        self.seconds = seconds
        self.rect = pygame.Rect(0, 0, 0, 0)
        self.frame_plot = pygame.Rect(0, 0, 0, 0)
        self.steps_plot = pygame.Rect(0, 0, 0, 0)
        """Empty when the area is too short for it (so is `dropped_plot`)."""
        self.dropped_plot = pygame.Rect(0, 0, 0, 0)
        self.bins = Bins.empty(0)
        self._pitch = max(2, fonts.px(4))
        """Pixels per time bin: a bar and a one-pixel gap."""
        self._plate = pygame.Surface((0, 0))
        self._dashes: dict[tuple[int, RGB], pygame.Surface] = {}
        self._bars: list[tuple[RGB, list[int]]] = []
        self._lines: list[tuple[RGB, list[list[int]]]] = []
        self._rules: list[tuple[RGB, int, int, int, pygame.Surface | None]] = []
        """Horizontal reference lines: colour, left, right, y, and the dashes if dashed."""
        self._texts: list[Blit] = []

    def update(self, window: HistoryWindow, readout: Readout, area: pygame.Rect) -> None:
        if area != self.rect:  # a new window size: new plots, and a new plate
            self.rect = pygame.Rect(area)
            self._lay_out()
        self._bars.clear()
        self._lines.clear()
        self._rules.clear()
        self._texts.clear()
        self.bins = bin_frames(window, seconds=self.seconds, count=self.frame_plot.w // self._pitch)
        lane = readout.lanes[0] if readout.lanes else None
        self._frame_strip(readout.frame_budget_ms, lane.step_ms if lane else 0.0)
        if self.steps_plot:
            self._steps_strip(lane.max_steps if lane else 0)
        if self.dropped_plot:
            self._dropped_strip()

    def draw(self, surface: pygame.Surface) -> None:
        surface.blit(self._plate, self.rect.topleft)
        fill = surface.fill
        for colour, bar in self._bars:
            fill(colour, bar)
        for colour, points in self._lines:
            pygame.draw.lines(surface, colour, False, points, max(1, self.fonts.px(2)))
        for colour, left, right, y, dashes in self._rules:
            if dashes is None:
                pygame.draw.line(surface, colour, (left, y), (right, y), max(1, self.fonts.px(1)))
            else:
                surface.blit(dashes, (left, y))
        surface.fblits(self._texts)

    # --- layout ----------------------------------------------------------------------------

    def _lay_out(self) -> None:
        """Plots for as many strips as fit readably (frame times always), each under a label."""
        fonts = self.fonts
        pad, gap = fonts.px(10), fonts.px(6)
        label_h = fonts.small.line_height + fonts.px(2)
        left = self.rect.left + pad
        right = self.rect.right - pad - fonts.px(6) - round(fonts.small.char_width * 11)
        width = max(0, right - left) // self._pitch * self._pitch
        for strips in (3, 2, 1):
            room = self.rect.h - 2 * pad - strips * label_h - (strips - 1) * gap
            heights = [round(room * share) for share in SHARES[strips]]
            if heights[0] >= fonts.px(MIN_FRAME_PLOT) and min(heights) >= fonts.px(
                MIN_STRIP_PLOT if strips > 1 else MIN_FRAME_PLOT
            ):
                break
        plots = []
        top = self.rect.top + pad
        for height in heights:
            plots.append(pygame.Rect(left, top + label_h, width, max(0, height)))
            top = plots[-1].bottom + gap
        empty = pygame.Rect(0, 0, 0, 0)
        self.frame_plot = plots[0]
        self.steps_plot = plots[1] if len(plots) > 1 else empty
        self.dropped_plot = plots[2] if len(plots) > 2 else empty
        self._plate = self._build_plate(plots)

    def _build_plate(self, plots: list[pygame.Rect]) -> pygame.Surface:
        plate = make_plate(self.rect.size, self.fonts.px(10))
        shade = pygame.Surface((1, 1), pygame.SRCALPHA)
        shade.fill(PLOT_SHADE)
        for plot in plots:
            local = plot.move(-self.rect.left, -self.rect.top)
            plate.blit(pygame.transform.scale(shade, local.size), local)
            for second in range(1, int(self.seconds)):
                x = local.right - round(second * local.w / self.seconds)
                pygame.draw.line(plate, RULE, (x, local.top), (x, local.bottom - 1))
        return plate

    # --- strips ----------------------------------------------------------------------------

    def _frame_strip(self, budget_ms: float, step_ms: float) -> None:
        plot, bins = self.frame_plot, self.bins
        floor = axis_top(1.25 * max(budget_ms, step_ms), MIN_FRAME_AXIS_MS)
        top = axis_top(float(bins.frame_ms.max(initial=0.0)), floor)
        colours = np.full(len(bins), 0, dtype=np.int64)
        if budget_ms > 0:
            colours[bins.frame_ms > MISSED_FRAME * budget_ms] = 1
        colours[bins.overloaded] = 2
        self._bar_chart(plot, bins.frame_ms, top, colours, (FRAME_BAR, OVER_BUDGET_BAR, BAD))
        notes = [(f"last {self.seconds:g} s", DIM)]
        if bins.overloaded.any():
            notes.append(("red: overloaded", BAD))
        self._strip_label(plot, "frame time", f"0-{top:g} ms", notes)
        labels: list[tuple[int, str, RGB]] = []
        if budget_ms > 0:
            y = self._level(plot, budget_ms, top)
            self._rules.append((BUDGET_LINE, plot.left, plot.right, y, None))
            labels.append((y, f"budget {budget_ms:.1f}", BUDGET_LINE))
        if step_ms > 0:
            y = self._level(plot, step_ms, top)
            self._dashed(STEP_LINE, plot.left, plot.right, y)
            labels.append((y, f"step {step_ms:.1f}", STEP_LINE))
        self._side_labels(plot, labels)

    def _steps_strip(self, max_steps: int) -> None:
        plot, bins = self.steps_plot, self.bins
        floor = axis_top(1.2 * max_steps, MIN_STEPS_AXIS)
        top = axis_top(float(bins.steps.max(initial=0)), floor)
        self._strip_label(plot, "steps per frame", f"0-{top:g}")
        if max_steps > 0:
            y = self._level(plot, max_steps, top)
            self._dashed(STRAINED, plot.left, plot.right, y)
            self._side_labels(plot, [(y, f"M {max_steps}", STRAINED)])
        filled = np.flatnonzero(bins.filled)
        if filled.shape[0] == 0:
            return
        ys = self._levels(plot, bins.steps[filled].astype(np.float64), top)
        xs = plot.left + filled * self._pitch
        # A staircase: each bin's value held flat across the bin, like the bars above it.
        points = np.empty((2 * filled.shape[0], 2), dtype=np.int64)
        points[0::2, 0] = xs
        points[1::2, 0] = xs + self._pitch
        points[:, 1] = np.repeat(ys, 2)
        self._lines.append((STEPS_LINE, points.tolist()))

    def _dropped_strip(self) -> None:
        plot, bins = self.dropped_plot, self.bins
        top = axis_top(float(bins.dropped_ms.max(initial=0.0)), MIN_DROPPED_AXIS_MS)
        colours = np.zeros(len(bins), dtype=np.int64)
        self._bar_chart(plot, bins.dropped_ms, top, colours, (OVERLOADED_BAR,))
        self._strip_label(plot, "time dropped", f"0-{top:g} ms")

    # --- pieces ----------------------------------------------------------------------------

    def _levels(
        self, plot: pygame.Rect, values: NDArray[np.float64], top: float
    ) -> NDArray[np.int64]:
        """The y pixel of each value on an axis from 0 (plot bottom) to `top` (plot top)."""
        heights = np.rint(np.minimum(values / top, 1.0) * (plot.h - 1)).astype(np.int64)
        levels: NDArray[np.int64] = plot.bottom - 1 - heights
        return levels

    @staticmethod
    def _level(plot: pygame.Rect, value: float, top: float) -> int:
        """`_levels` for one value."""
        return plot.bottom - 1 - round(min(value / top, 1.0) * (plot.h - 1))

    def _bar_chart(
        self,
        plot: pygame.Rect,
        values: NDArray[np.float64],
        top: float,
        colour_index: NDArray[np.int64],
        colours: tuple[RGB, ...],
    ) -> None:
        """One bar per bin with a value: at least a pixel tall, so a small value still shows."""
        shown = np.flatnonzero(values > 0)
        if shown.shape[0] == 0:
            return
        heights = np.rint(np.minimum(values[shown] / top, 1.0) * plot.h).astype(np.int64)
        heights = np.maximum(heights, 1)
        width = self._pitch - max(1, self.fonts.px(1))
        rects = np.column_stack(
            (
                plot.left + shown * self._pitch,
                plot.bottom - heights,
                np.full_like(heights, width),
                heights,
            )
        )
        palette = [colours[index] for index in colour_index[shown].tolist()]
        self._bars.extend(zip(palette, rects.tolist(), strict=True))

    def _dashed(self, colour: RGB, left: int, right: int, y: int) -> None:
        """A dashed rule: drawn once into a strip and then blitted, not 60 lines a frame."""
        width = right - left
        strip = self._dashes.get((width, colour))
        if strip is None:
            thickness = max(1, self.fonts.px(1))
            strip = pygame.Surface((width, thickness), pygame.SRCALPHA)
            dash = self.fonts.px(6)
            for x in range(0, width, 2 * dash):
                strip.fill(colour, (x, 0, dash, thickness))
            self._dashes[(width, colour)] = strip
        self._rules.append((colour, left, right, y, strip))

    def _strip_label(
        self,
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
        self._texts.append((scale, (scale_x, y)))
        x = plot.left
        for index, (text, colour) in enumerate([(name, LABEL), *notes]):
            surface = small.render(text, colour)
            if index and x + surface.get_width() + gap > scale_x:
                break
            self._texts.append((surface, (x, y)))
            x += surface.get_width() + gap

    def _side_labels(self, plot: pygame.Rect, labels: list[tuple[int, str, RGB]]) -> None:
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
        self._texts.extend((surface, (x, top - overshoot)) for surface, top in placed)
