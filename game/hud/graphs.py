"""The graph panel: the last few seconds of frames, so a stall or a spiral has a shape.

Up to four strips share one time axis (newest on the right, a faint line every second):

- frame time, as bars against the frame budget (solid green line, when the render rate is
  capped) and the tick step (dashed violet line). Bars are amber when a frame took more than
  1.5 budgets and red while the scheduler reported overload;
- judder, in the live game: each bar the RMS displayed-velocity error of the refreshes in it,
  the DISPLAY rows' meter resolved over time (`game.display.live`); green under 10 %, amber,
  red from 50 %;
- ticks run per frame, as a line, against the catch-up cap M (dashed amber);
- time dropped, as red bars.

In split screen both lanes get the same frames, so the frame-time strip is theirs alike (red
where either lane was overloaded); the steps, the dropped time and the judder differ, so each
lane has its own: lane 1 in the usual colours (teal for its judder), lane 2 in pink (a second
staircase, and the right half of each bar), with a legend in the strip's label.

When the area is too short for every strip, the last ones go: the frame times are always the
graph. Which come next depends on the moment (`strip_order`): judder while the loop keeps up,
steps and dropped time once it strains.

Cost. The time axis is cut into bins on a fixed grid (every 40 ms or so, one bar each), and
the graph shows the bins that are complete. So the picture only changes when a bin completes,
every second or third frame at 60 fps: then numpy bins the history (`graph_bins`) and the bars,
lines and labels are drawn once into a picture. Every other frame costs one blit.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Literal

import numpy as np
import pygame
from numpy.typing import NDArray

from game.display.live import LiveJudder
from game.hud.display_rows import JUDDER_BAD_PCT, JUDDER_STRAINED_PCT, refresh_text
from game.hud.graph_bins import Bins, axis_top, bin_frames, bin_judder
from game.hud.hud_colours import (
    BAD,
    BUDGET_LINE,
    DIM,
    FRAME_BAR,
    LANE_TWO,
    OK,
    OVER_BUDGET_BAR,
    OVERLOADED_BAR,
    RGB,
    RULE,
    STEP_LINE,
    STEPS_LINE,
    STRAINED,
)
from game.hud.plate import flattened, make_plate, same_format
from game.hud.strip_pen import StripPen
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
MIN_JUDDER_AXIS_PCT = 100.0
"""The judder axis shows at least a picture that stands still every other refresh."""
SHARES = {4: (0.4, 0.2, 0.2, 0.2), 3: (0.5, 0.25, 0.25), 2: (0.64, 0.36), 1: (1.0,)}
"""How the plots split the height, for four, three, two or one strips."""
MISSED_FRAME = 1.5
"""A frame longer than this many budgets is drawn amber: a visible hitch."""
PLOT_SHADE = (0, 0, 0, 70)


Strip = Literal["frame", "judder", "steps", "dropped"]
CALM_ORDER: tuple[Strip, ...] = ("frame", "judder", "steps", "dropped")
STRAINED_ORDER: tuple[Strip, ...] = ("frame", "steps", "dropped", "judder")


def strip_order(lane_bins: Sequence[Bins], *, judder: bool) -> tuple[Strip, ...]:
    """Which strips come first, so the ones that say something survive a short area: while
    the loop keeps up (nothing dropped or overloaded in view) the steps and dropped strips
    would be flat, and the judder strip comes second; once it strains, they come first."""
    strained = any(bool(b.overloaded.any() or (b.dropped_ms > 0).any()) for b in lane_bins)
    order = STRAINED_ORDER if strained else CALM_ORDER
    return order if judder else tuple(strip for strip in order if strip != "judder")


class FrameGraphs:
    """Frame times, steps and dropped time over the last `seconds`, in `update`'s area."""

    def __init__(self, fonts: Fonts, seconds: float = 5.0, backdrop: RGB | None = None) -> None:
        self.fonts = fonts
        self.seconds = seconds
        self.backdrop = backdrop
        """The plain colour under the graphs, if the caller fills the window with one: the
        picture is then laid on it once per repaint and blitted opaque (`plate.flattened`)."""
        self.rect = pygame.Rect(0, 0, 0, 0)
        self.bins = Bins.empty(0)
        """What the picture shows of lane 1: one bin per bar, oldest first."""
        self.lane_bins: tuple[Bins, ...] = (self.bins,)
        """The same for every lane, lane 1 first."""
        self.lane_judder: tuple[NDArray[np.float64], ...] = ()
        """Per lane, the RMS judder (%) of the refreshes in each bin (`game.display.live`)."""
        self._pen = StripPen(fonts)
        self._plots: list[pygame.Rect] = []
        """Frame, steps, dropped and judder plots that fit, in the picture's coordinates."""
        self._plate = pygame.Surface((0, 0))
        self._picture = pygame.Surface((0, 0))
        self._flat: pygame.Surface | None = None
        """The picture laid on the backdrop, once per repaint; None when stale."""
        self._kept_flat: pygame.Surface | None = None
        """The last flat picture's Surface, written over at the next repaint."""
        self._copied_at = pygame.Rect(0, 0, 0, 0)
        """Where the flat picture was last put on a window."""
        self._shown: tuple[object, ...] = ()
        """What the picture was drawn from; a new picture only when this changes."""
        self._references: tuple[float, float, int] = (0.0, 0.0, 0)
        """The frame budget and the step (ms), and the cap M: the graphs' reference lines."""
        self._refresh = ""
        """What the judder strip's refresh rate is: `est. at 60 Hz (guess)`."""
        self._available = 3
        """Strips there is something to show in: 4 with live judder meters, else 3."""
        self._order: tuple[Strip, ...] = CALM_ORDER

    @property
    def frame_plot(self) -> pygame.Rect:
        """Where the frame-time bars are, in window coordinates."""
        return self._on_window("frame")

    @property
    def steps_plot(self) -> pygame.Rect:
        """Empty when the area is too short for it (and so are the others but the frames)."""
        return self._on_window("steps")

    @property
    def dropped_plot(self) -> pygame.Rect:
        return self._on_window("dropped")

    @property
    def judder_plot(self) -> pygame.Rect:
        return self._on_window("judder")

    @property
    def strips(self) -> tuple[Strip, ...]:
        """The strips shown, top to bottom (`strip_order`)."""
        return self._order[: len(self._plots)]

    def update(
        self,
        histories: Sequence[FrameHistory],
        readout: Readout,
        area: pygame.Rect,
        judder: Sequence[LiveJudder] = (),
    ) -> None:
        """Bin each lane's history and live judder meter (one per lane, lane 1 first) for the
        area, if it changed."""
        available = 4 if judder else 3
        if area != self.rect or available != self._available:  # new plots, and a new plate
            self.rect = pygame.Rect(area)
            self._available = available
            self._lay_out()
        count = self._plots[0].w // self._pen.pitch if self._plots else 0
        width = self.seconds / max(1, count)
        newest = histories[0].newest_wall_s
        completed = None if newest is None else math.floor(newest / width)
        lane = readout.lanes[0] if readout.lanes else None
        budget_and_step = (readout.frame_budget_ms, lane.step_ms if lane else 0.0)
        max_steps = lane.max_steps if lane else 0
        shown = (completed, count, *budget_and_step, max_steps, len(histories))
        if shown == self._shown and self.fonts.retains:
            return
        self._shown = shown
        self._references = (*budget_and_step, max_steps)
        self._refresh = _refresh_note(readout)
        if completed is None:
            self.lane_bins = tuple(Bins.empty(count) for _ in histories)
            self.lane_judder = tuple(np.zeros(count) for _ in judder)
        else:
            end = completed * width  # the end of the last complete bin
            self.lane_bins = tuple(
                bin_frames(
                    history.window(self.seconds + width), seconds=self.seconds, count=count, end=end
                )
                for history in histories
            )
            self.lane_judder = tuple(
                bin_judder(meter.trace(), seconds=self.seconds, count=count, end=end)
                for meter in judder
            )
        self.bins = self.lane_bins[0]
        self._order = strip_order(self.lane_bins, judder=bool(judder))
        if self.fonts.retains:
            # The plate's pixels into the kept picture, in place, rather than a new Surface
            # each time (BENCHMARKS.md, "Why the code looks like this").
            pygame.surfarray.pixels2d(self._picture)[...] = pygame.surfarray.pixels2d(self._plate)
            self._paint(self._picture, (0, 0))
            self._flat = None

    def draw(self, surface: pygame.Surface, kept: bool = False) -> None:
        """Put the graphs on `surface`; `kept`: it still shows what they drew there last time
        (so a picture not repainted since is not copied again)."""
        if self.fonts.retains and self.backdrop is not None:
            if self._flat is None or not same_format(self._flat, surface):
                self._flat = self._kept_flat = flattened(
                    self._picture, self.backdrop, surface, self._kept_flat
                )
            elif kept and self.rect == self._copied_at:
                return
            surface.blit(self._flat, self.rect.topleft)
            self._copied_at = self.rect.copy()
        elif self.fonts.retains:
            surface.blit(self._picture, self.rect.topleft)
        else:  # nothing kept between frames (the benchmark's baseline): draw it all again
            surface.blit(self._plate, self.rect.topleft)
            self._paint(surface, self.rect.topleft)

    def _paint(self, canvas: pygame.Surface, origin: tuple[int, int]) -> None:
        """Bars, lines and labels for `self.bins`, with the plots moved by `origin`."""
        budget_ms, step_ms, max_steps = self._references
        for strip, plot in zip(self._order, self._plots, strict=False):
            moved = plot.move(origin)
            if strip == "frame":
                self._frame_strip(canvas, moved, budget_ms, step_ms)
            elif strip == "steps":
                self._steps_strip(canvas, moved, max_steps)
            elif strip == "dropped":
                self._dropped_strip(canvas, moved)
            else:
                self._judder_strip(canvas, moved)

    # --- layout ----------------------------------------------------------------------------

    def _on_window(self, strip: Strip) -> pygame.Rect:
        if strip not in self.strips:
            return pygame.Rect(0, 0, 0, 0)
        return self._plots[self._order.index(strip)].move(self.rect.topleft)

    def _lay_out(self) -> None:
        """Plots for as many strips as fit readably (frame times always), each under a label."""
        fonts = self.fonts
        pad, gap = fonts.px(10), fonts.px(6)
        label_h = fonts.small.line_height + fonts.px(2)
        right = self.rect.w - pad - fonts.px(6) - round(fonts.small.char_width * 11)
        width = max(0, right - pad) // self._pen.pitch * self._pen.pitch
        for strips in range(self._available, 0, -1):
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
        self._pen.bar_chart(
            canvas, plot, bins.frame_ms, top, colours, (FRAME_BAR, OVER_BUDGET_BAR, BAD)
        )
        notes = [(f"last {self.seconds:g} s", DIM)]
        if len(self.lane_bins) > 1:
            notes.append(("both lanes", DIM))
        if colours.max(initial=0) == 2:
            notes.append(("red: overloaded", BAD))
        self._pen.strip_label(canvas, plot, "frame time", f"0-{top:g} ms", notes)
        labels: list[tuple[int, str, RGB]] = []
        if budget_ms > 0:
            y = self._pen.level(plot, budget_ms, top)
            pygame.draw.line(canvas, BUDGET_LINE, (plot.left, y), (plot.right, y))
            labels.append((y, f"budget {budget_ms:.1f}", BUDGET_LINE))
        if step_ms > 0:
            y = self._pen.level(plot, step_ms, top)
            self._pen.dashed(canvas, STEP_LINE, plot, y)
            labels.append((y, f"step {step_ms:.1f}", STEP_LINE))
        self._pen.side_labels(canvas, plot, labels)

    def _steps_strip(self, canvas: pygame.Surface, plot: pygame.Rect, max_steps: int) -> None:
        peak = max(float(lane.steps.max(initial=0)) for lane in self.lane_bins)
        top = axis_top(peak, axis_top(1.2 * max_steps, MIN_STEPS_AXIS))
        self._pen.strip_label(
            canvas, plot, "steps per frame", f"0-{top:g}", self._legend(STEPS_LINE)
        )
        if max_steps > 0:
            y = self._pen.level(plot, max_steps, top)
            self._pen.dashed(canvas, STRAINED, plot, y)
            self._pen.side_labels(canvas, plot, [(y, f"M {max_steps}", STRAINED)])
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
        points[0::2, 0] = plot.left + filled[starts] * self._pen.pitch
        points[1::2, 0] = plot.left + (filled[ends] + 1) * self._pen.pitch
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
            part = (index, share)
            self._pen.bar_chart(canvas, plot, bins.dropped_ms, top, colours, (colour,), part)
        self._pen.strip_label(canvas, plot, "time dropped", f"0-{top:g} ms", self._legend(BAD))

    def _judder_strip(self, canvas: pygame.Surface, plot: pygame.Rect) -> None:
        """Each bin's RMS judder: one lane in the DISPLAY rows' colours (`JUDDER_BAD_PCT`...),
        two lanes in their own colours, side by side."""
        lanes = self.lane_judder
        peak = max((float(values.max(initial=0.0)) for values in lanes), default=0.0)
        top = axis_top(peak, MIN_JUDDER_AXIS_PCT)
        if len(lanes) == 1:
            values = lanes[0]
            colours = (values >= JUDDER_STRAINED_PCT).astype(np.int64) + (values >= JUDDER_BAD_PCT)
            self._pen.bar_chart(canvas, plot, values, top, colours, (OK, STRAINED, BAD))
        else:
            pairs = zip(lanes, (STEPS_LINE, LANE_TWO), strict=False)
            for index, (values, colour) in enumerate(pairs):
                colours = np.zeros(len(values), dtype=np.int64)
                part = (index, len(lanes))
                self._pen.bar_chart(canvas, plot, values, top, colours, (colour,), part)
        notes = [(self._refresh, DIM), *self._legend(STEPS_LINE)]
        self._pen.strip_label(canvas, plot, "judder", f"0-{top:g} %", notes)


def _refresh_note(readout: Readout) -> str:
    """The judder strip is an estimate at a refresh rate read from pygame, or guessed."""
    shown = readout.display
    return "est." if shown is None else f"est. at {refresh_text(shown)}"
