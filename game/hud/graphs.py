"""The graph panel: the last few seconds of frames, so a stall or a spiral has a shape.

Three strips share one time axis (newest on the right, a faint line every second):

- frame time, as bars against the frame budget (solid green line, when the render rate is
  capped) and the tick step (dashed violet line). Bars are amber when a frame took more than
  1.5 budgets and red while the scheduler reported overload;
- ticks run per frame, as a line, against the catch-up cap M (dashed amber);
- time dropped, as red bars.

In split screen both lanes get the same frames, so the frame-time strip is theirs alike (red
where either lane was overloaded); the steps and the dropped time differ, so each lane has its
own: lane 1 in the usual colours, lane 2 in pink (a second staircase, and the right half of each
dropped-time bar), with a legend in the strip's label.

When the area is too short for three readable strips, the dropped strip goes, then the steps
strip: the frame times are the graph.

Cost. The time axis is cut into bins on a fixed grid (every 40 ms or so, one bar each), and
the graph shows the bins that are complete. So the picture only changes when a bin completes,
every second or third frame at 60 fps: then numpy bins the history (`graph_bins`) and the bars,
lines and labels are drawn once into a picture. Every other frame costs one blit.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pygame
from numpy.typing import NDArray

from game.hud.graph_bins import Bins, axis_top, bin_frames
from game.hud.hud_colours import (
    BAD,
    BUDGET_LINE,
    DIM,
    FRAME_BAR,
    LABEL,
    LANE_TWO,
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
from game.session.history import FrameHistory
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


class FrameGraphs:
    """Frame times, steps and dropped time over the last `seconds`, in `update`'s area."""

    def __init__(self, fonts: Fonts, seconds: float = 5.0) -> None:
        self.fonts = fonts
        self.seconds = seconds
        self.rect = pygame.Rect(0, 0, 0, 0)
        self.bins = Bins.empty(0)
        """What the picture shows of lane 1: one bin per bar, oldest first."""
        self.lane_bins: tuple[Bins, ...] = (self.bins,)
        """The same for every lane, lane 1 first."""
        self._pitch = max(2, fonts.px(4))
        """Pixels per bin: a bar and a gap."""
        self._plots: list[pygame.Rect] = []
        """Frame, steps and dropped plots that fit, inside the picture (not window) coordinates."""
        self._plate = pygame.Surface((0, 0))
        self._picture = pygame.Surface((0, 0))
        self._shown: tuple[object, ...] = ()
        """What the picture was drawn from; a new picture only when this changes."""
        self._dashes: dict[tuple[int, RGB], pygame.Surface] = {}
        self._references: tuple[float, float, int] = (0.0, 0.0, 0)
        """The frame budget and the step (ms), and the cap M: the graphs' reference lines."""

    @property
    def frame_plot(self) -> pygame.Rect:
        """Where the frame-time bars are, in window coordinates."""
        return self._on_window(0)

    @property
    def steps_plot(self) -> pygame.Rect:
        """Empty when the area is too short for it (and so is `dropped_plot`)."""
        return self._on_window(1)

    @property
    def dropped_plot(self) -> pygame.Rect:
        return self._on_window(2)

    def update(
        self, histories: Sequence[FrameHistory], readout: Readout, area: pygame.Rect
    ) -> None:
        """Bin each lane's history (one per lane, lane 1 first) for the area, if it changed."""
        if area != self.rect:  # a new window size: new plots, and a new plate
            self.rect = pygame.Rect(area)
            self._lay_out()
        count = self._plots[0].w // self._pitch if self._plots else 0
        width = self.seconds / max(1, count)
        newest = histories[0].latest(1)
        completed = math.floor(newest.wall_s[0] / width) if len(newest) else None
        lane = readout.lanes[0] if readout.lanes else None
        budget_and_step = (readout.frame_budget_ms, lane.step_ms if lane else 0.0)
        max_steps = lane.max_steps if lane else 0
        shown = (completed, count, *budget_and_step, max_steps, len(histories))
        if shown == self._shown and self.fonts.retains:
            return
        self._shown = shown
        self._references = (*budget_and_step, max_steps)
        if completed is None:
            self.lane_bins = tuple(Bins.empty(count) for _ in histories)
        else:
            end = completed * width  # the end of the last complete bin
            self.lane_bins = tuple(
                bin_frames(
                    history.window(self.seconds + width), seconds=self.seconds, count=count, end=end
                )
                for history in histories
            )
        self.bins = self.lane_bins[0]
        if self.fonts.retains:
            # The plate's pixels into the kept picture, in place, rather than a new Surface
            # each time (BENCHMARKS.md, "Why the code looks like this").
            pygame.surfarray.pixels2d(self._picture)[...] = pygame.surfarray.pixels2d(self._plate)
            self._paint(self._picture, (0, 0))

    def draw(self, surface: pygame.Surface) -> None:
        if self.fonts.retains:
            surface.blit(self._picture, self.rect.topleft)
        else:  # nothing kept between frames (the benchmark's baseline): draw it all again
            surface.blit(self._plate, self.rect.topleft)
            self._paint(surface, self.rect.topleft)

    def _paint(self, canvas: pygame.Surface, origin: tuple[int, int]) -> None:
        """Bars, lines and labels for `self.bins`, with the plots moved by `origin`."""
        budget_ms, step_ms, max_steps = self._references
        plots = [plot.move(origin) for plot in self._plots]
        self._frame_strip(canvas, plots[0], budget_ms, step_ms)
        if len(plots) > 1:
            self._steps_strip(canvas, plots[1], max_steps)
        if len(plots) > 2:
            self._dropped_strip(canvas, plots[2])

    # --- layout ----------------------------------------------------------------------------

    def _on_window(self, index: int) -> pygame.Rect:
        if index >= len(self._plots):
            return pygame.Rect(0, 0, 0, 0)
        return self._plots[index].move(self.rect.topleft)

    def _lay_out(self) -> None:
        """Plots for as many strips as fit readably (frame times always), each under a label."""
        fonts = self.fonts
        pad, gap = fonts.px(10), fonts.px(6)
        label_h = fonts.small.line_height + fonts.px(2)
        right = self.rect.w - pad - fonts.px(6) - round(fonts.small.char_width * 11)
        width = max(0, right - pad) // self._pitch * self._pitch
        for strips in (3, 2, 1):
            room = self.rect.h - 2 * pad - strips * label_h - (strips - 1) * gap
            heights = [max(0, round(room * share)) for share in SHARES[strips]]
            smallest = MIN_STRIP_PLOT if strips > 1 else MIN_FRAME_PLOT
            if heights[0] >= fonts.px(MIN_FRAME_PLOT) and min(heights) >= fonts.px(smallest):
                break
        self._plots = []
        top = pad
        for height in heights:
            self._plots.append(pygame.Rect(pad, top + label_h, width, height))
            top = self._plots[-1].bottom + gap
        self._plate = self._build_plate()
        self._picture = pygame.Surface(self.rect.size, pygame.SRCALPHA)
        self._shown = ()

    def _build_plate(self) -> pygame.Surface:
        plate = make_plate(self.rect.size, self.fonts.px(10))
        for plot in self._plots:
            shade = pygame.Surface(plot.size, pygame.SRCALPHA)
            shade.fill(PLOT_SHADE)
            plate.blit(shade, plot)
            for second in range(1, math.ceil(self.seconds)):
                x = plot.right - round(second * plot.w / self.seconds)
                pygame.draw.line(plate, RULE, (x, plot.top), (x, plot.bottom - 1))
        return plate

    # --- strips ----------------------------------------------------------------------------

    def _frame_strip(
        self, canvas: pygame.Surface, plot: pygame.Rect, budget_ms: float, step_ms: float
    ) -> None:
        bins = self.bins
        floor = axis_top(1.25 * max(budget_ms, step_ms), MIN_FRAME_AXIS_MS)
        top = axis_top(float(bins.frame_ms.max(initial=0.0)), floor)
        colours = np.zeros(len(bins), dtype=np.int64)
        if budget_ms > 0:
            colours[bins.frame_ms > MISSED_FRAME * budget_ms] = 1
        colours[np.logical_or.reduce([lane.overloaded for lane in self.lane_bins])] = 2
        self._bar_chart(
            canvas, plot, bins.frame_ms, top, colours, (FRAME_BAR, OVER_BUDGET_BAR, BAD)
        )
        notes = [(f"last {self.seconds:g} s", DIM)]
        if len(self.lane_bins) > 1:
            notes.append(("both lanes", DIM))
        if colours.max(initial=0) == 2:
            notes.append(("red: overloaded", BAD))
        self._strip_label(canvas, plot, "frame time", f"0-{top:g} ms", notes)
        labels: list[tuple[int, str, RGB]] = []
        if budget_ms > 0:
            y = self._level(plot, budget_ms, top)
            pygame.draw.line(canvas, BUDGET_LINE, (plot.left, y), (plot.right, y))
            labels.append((y, f"budget {budget_ms:.1f}", BUDGET_LINE))
        if step_ms > 0:
            y = self._level(plot, step_ms, top)
            self._dashed(canvas, STEP_LINE, plot, y)
            labels.append((y, f"step {step_ms:.1f}", STEP_LINE))
        self._side_labels(canvas, plot, labels)

    def _steps_strip(self, canvas: pygame.Surface, plot: pygame.Rect, max_steps: int) -> None:
        peak = max(float(lane.steps.max(initial=0)) for lane in self.lane_bins)
        top = axis_top(peak, axis_top(1.2 * max_steps, MIN_STEPS_AXIS))
        self._strip_label(canvas, plot, "steps per frame", f"0-{top:g}", self._legend(STEPS_LINE))
        if max_steps > 0:
            y = self._level(plot, max_steps, top)
            self._dashed(canvas, STRAINED, plot, y)
            self._side_labels(canvas, plot, [(y, f"M {max_steps}", STRAINED)])
        # Lane 2 thin over lane 1 thick: where the two lanes agree, both still show.
        widths = (3, 1) if len(self.lane_bins) > 1 else (2,)
        for bins, colour, width in zip(
            self.lane_bins, (STEPS_LINE, LANE_TWO), widths, strict=False
        ):
            self._staircase(canvas, plot, bins, top, colour, self.fonts.px(width))

    def _staircase(
        self,
        canvas: pygame.Surface,
        plot: pygame.Rect,
        bins: Bins,
        top: float,
        colour: RGB,
        thickness: int,
    ) -> None:
        """One lane's steps: each run of equal values one flat segment, as wide as its bins."""
        filled = np.flatnonzero(bins.filled)
        if filled.shape[0] == 0:
            return
        values = bins.steps[filled]
        starts = np.flatnonzero(np.diff(values, prepend=values[0] - 1))
        ends = np.append(starts[1:], values.shape[0]) - 1
        heights = np.minimum(values[starts] / top, 1.0) * (plot.h - 1)
        points = np.empty((2 * starts.shape[0], 2), dtype=np.int64)
        points[0::2, 0] = plot.left + filled[starts] * self._pitch
        points[1::2, 0] = plot.left + (filled[ends] + 1) * self._pitch
        points[:, 1] = np.repeat(plot.bottom - 1 - np.rint(heights).astype(np.int64), 2)
        pygame.draw.lines(canvas, colour, False, points.tolist(), thickness)

    def _legend(self, lane_one: RGB) -> list[tuple[str, RGB]]:
        """In split screen, which colour is which lane; nothing with one lane."""
        return [("lane 1", lane_one), ("lane 2", LANE_TWO)] if len(self.lane_bins) > 1 else []

    def _dropped_strip(self, canvas: pygame.Surface, plot: pygame.Rect) -> None:
        lanes = self.lane_bins
        peak = max(float(lane.dropped_ms.max(initial=0.0)) for lane in lanes)
        top = axis_top(peak, MIN_DROPPED_AXIS_MS)
        share = len(lanes)
        for index, (bins, colour) in enumerate(
            zip(lanes, (OVERLOADED_BAR, LANE_TWO), strict=False)
        ):
            colours = np.zeros(len(bins), dtype=np.int64)
            self._bar_chart(canvas, plot, bins.dropped_ms, top, colours, (colour,), (index, share))
        self._strip_label(canvas, plot, "time dropped", f"0-{top:g} ms", self._legend(BAD))

    # --- pieces ----------------------------------------------------------------------------

    @staticmethod
    def _level(plot: pygame.Rect, value: float, top: float) -> int:
        """The y pixel of `value` on an axis from 0 (plot bottom) to `top` (plot top)."""
        return plot.bottom - 1 - round(min(value / top, 1.0) * (plot.h - 1))

    def _bar_chart(
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
        width = max(1, (self._pitch - max(1, self.fonts.px(1))) // share)
        xs = plot.left + shown * self._pitch + index * width
        fill = canvas.fill
        for x, height, index in zip(
            xs.tolist(), heights.tolist(), colour_index[shown].tolist(), strict=True
        ):
            fill(colours[index], (x, plot.bottom - height, width, height))

    def _dashed(self, canvas: pygame.Surface, colour: RGB, plot: pygame.Rect, y: int) -> None:
        """A dashed rule across the plot: drawn once into a strip, then one blit each time."""
        key = (plot.w, colour)
        dashes = self._dashes.get(key)
        if dashes is None:
            thickness, dash = max(1, self.fonts.px(1)), self.fonts.px(6)
            dashes = self._dashes[key] = pygame.Surface((plot.w, thickness), pygame.SRCALPHA)
            for x in range(0, plot.w, 2 * dash):
                dashes.fill(colour, (x, 0, dash, thickness))
        canvas.blit(dashes, (plot.left, y))

    def _strip_label(
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

    def _side_labels(
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
