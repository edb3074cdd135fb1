"""The display side of a capture: which frames reached the screen, by the capture and by the model.

Where a capture says which frames reached the screen and when (PresentMon's `Dropped` and its
display-change times; MangoHud says neither), three steps:

1. The refresh grid, fitted from the shown frames' display times (`game.display.grid`). Times
   that sit on no grid (a torn display shows frames as they come, and its refreshes leave no
   trace in the capture) get a stated one instead: the refresh given, else 60 Hz.
2. The model: the virtual display (`game.display.model`) on that grid, handed each frame at its
   present time plus the *lead*, the least time a shown frame took from its present to its
   vblank (how long before a refresh the driver or the compositor takes the frame it will show),
   in each present mode, or the one asked. The mode that agrees with the capture on the most
   frames is the best fit; ties go to the mode listed first (`PRESENT_MODES`), or to
   `immediate` when the display times do not sit on a grid.
3. Side by side: per frame, shown by the capture's word and by the model's; the agreement (the
   share of the frames the capture speaks of on which the two agree); and the judder meter's
   figures (`game.display.judder`) for what was on screen at each refresh of the grid, by the
   model's shown times and by the capture's display times, over the refreshes both cover.

Open loop: the capture's present times are what they were. The `queue` mode therefore never holds
a frame back as it would hold a live loop; it shows every frame, later and later when the game
outran the display. A frame's picture is taken to show the moment it was presented (a capture
holds no simulated time), so the meter's "ticks" are frames: its cadence digits count the frames
each refresh advanced (`2222...` when every other frame is shown).
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import chain, islice
from operator import itemgetter

import numpy as np
import numpy.typing as npt

from game.capture.frame import Capture, CapturedFrame, CaptureInfo
from game.display.grid import PICOSECONDS, RefreshGrid, fit_refresh_grid
from game.display.judder import Ints, JudderReport, measure, on_screen
from game.display.model import (
    MAX_REFRESH_HZ,
    PRESENT_MODES,
    DisplaySettings,
    PresentMode,
    VirtualDisplay,
    reached_screen,
)

Bools = npt.NDArray[np.bool_]
NOT_SAID = -1
"""In `DisplayColumns`: the capture does not say (whether a frame was shown, or when)."""
UNSEEN_REFRESH_HZ = Fraction(60)
"""The refresh taken for a display whose times sit on no grid (torn), unless one is given."""
FIRST_DISAGREEMENTS = 8
CHUNK_FRAMES = 1 << 16
"""Frames written down at a time: a chunk's `CapturedFrame`s are held at once, not the file's."""
_ROW, _TIME, _DISPLAYED, _DISPLAY_TIME = (itemgetter(index) for index in (0, 1, 4, 5))
"""`CapturedFrame`'s `row`, `time_ns`, `displayed` and `display_time_ns`, taken in C."""
_SAID = {True: 1, False: 0, None: NOT_SAID}
_NONE_NOT_SAID: dict[int | None, int] = {None: NOT_SAID}
"""`.get(time, time)`: the time, or `NOT_SAID` for None, in C."""
"""How many frames the model and the capture disagree on are named by their rows in a report."""


@dataclass(frozen=True, slots=True, eq=False)
class DisplayColumns:
    """The columns of a capture the display side reads, one entry per frame, as arrays: a
    million-frame capture is 32 MB here, not the 150 of a list of tuples."""

    rows: Ints
    present_ns: Ints
    displayed: npt.NDArray[np.int8]
    """1 shown, 0 not shown, `NOT_SAID` when the capture does not say."""
    display_ns: Ints
    """When it was shown, `NOT_SAID` when not or not said."""

    @classmethod
    def from_frames(cls, frames: Iterable[CapturedFrame]) -> DisplayColumns:
        source, written = iter(frames), _Columns()
        while chunk := list(islice(source, CHUNK_FRAMES)):
            written.add(chunk)
        return written.arrays()

    @property
    def said(self) -> Bools:
        """The frames the capture says whether it showed."""
        said: Bools = self.displayed != NOT_SAID
        return said

    @property
    def shown(self) -> Bools:
        """The frames the capture says it showed, at a time it gives."""
        shown: Bools = (self.displayed == 1) & (self.display_ns != NOT_SAID)
        return shown

    def missing(self) -> str | None:
        """Why the display side cannot run on this capture, or None when it can."""
        if not self.said.any():
            return "the capture does not say which frames reached the screen"
        times = self.display_ns[self.shown]
        if times.shape[0] == 0 or (times == times[0]).all():
            return "the capture gives fewer than two display times to fit a refresh grid to"
        return None


class _Columns:
    """`DisplayColumns` being written, a chunk of frames at a time, in arrays of machine integers
    (each column taken in C: no Python code runs per frame); the rows and present times only
    when no one else keeps them (`with_times`)."""

    def __init__(self, *, with_times: bool = True) -> None:
        self.with_times = with_times
        self.rows, self.present, self.display = array("q"), array("q"), array("q")
        self.displayed = array("b")

    def add(self, frames: Sequence[CapturedFrame]) -> None:
        if self.with_times:
            self.rows.extend(map(_ROW, frames))
            self.present.extend(map(_TIME, frames))
        self.displayed.extend(map(_SAID.__getitem__, map(_DISPLAYED, frames)))
        display = list(map(_DISPLAY_TIME, frames))
        self.display.extend(map(_NONE_NOT_SAID.get, display, display))

    def arrays(self, rows: Ints | None = None, present_ns: Ints | None = None) -> DisplayColumns:
        """The columns; `rows` and `present_ns` from whoever kept them, when not `with_times`."""
        if rows is None or present_ns is None:
            rows = np.frombuffer(self.rows, dtype=np.int64)
            present_ns = np.frombuffer(self.present, dtype=np.int64)
        return DisplayColumns(
            rows,
            present_ns,
            np.frombuffer(self.displayed, dtype=np.int8),
            np.frombuffer(self.display, dtype=np.int64),
        )


class ColumnsOnTheWay:
    """A capture read once for two readers: its frames pass on to whoever reads them (the
    policies' runs), and the display side's own columns (whether and when each frame was shown)
    are written down on the way, so that a 1 GB capture is not read from the file twice. A
    `Capture` itself."""

    def __init__(self, capture: Capture) -> None:
        self._capture = capture
        self._written: _Columns | None = None
        self._to_the_end = False

    @property
    def info(self) -> CaptureInfo:
        return self._capture.info

    def frames(self) -> Iterator[CapturedFrame]:
        """The capture's frames, a chunk at a time: each chunk's columns are written down, then
        its frames handed on (by `chain`, in C: nothing runs per frame)."""
        source, written = self._capture.frames(), _Columns(with_times=False)
        self._written, self._to_the_end = written, False

        def next_chunk() -> list[CapturedFrame]:
            chunk = list(islice(source, CHUNK_FRAMES))
            written.add(chunk)
            self._to_the_end = not chunk
            return chunk

        return chain.from_iterable(iter(next_chunk, []))

    def columns(self, rows: Ints, present_ns: Ints) -> DisplayColumns:
        """The columns of the frames read last, to the end, with their rows and present times
        as the other reader kept them (`FrameTimes.row`, `.time_ns`): not kept twice."""
        written = self._written
        if written is None or not self._to_the_end:
            raise ValueError("the capture's frames have not been read to the end")
        if not rows.shape[0] == present_ns.shape[0] == len(written.displayed):
            raise ValueError("the rows and times given are not the frames read")
        return written.arrays(rows, present_ns)


@dataclass(frozen=True, slots=True, eq=False)
class DisplaySide:
    """The display side's figures, and which frames each side says were shown."""

    fit: RefreshGrid
    """The grid fitted to the capture's display times."""
    grid: RefreshGrid
    """The grid the model ran on: the fit where the display times sit on it, else `nominal`."""
    mode: PresentMode
    asked: bool
    """True when the mode was asked for, False when it is the best fit."""
    lead_ns: int
    agreements: dict[PresentMode, Fraction]
    """Each mode tried, and its agreement."""
    columns: DisplayColumns
    """The capture's frames: their rows, present times, and what the capture says of them."""
    said: Bools
    """Per frame: the capture says whether it was shown (the frames the agreement counts)."""
    captured: Bools
    """Per frame: shown, by the capture's word (False where it does not say)."""
    predicted: Bools
    """Per frame: shown, by the model in `mode`."""
    predicted_ns: Ints
    """Per frame: when the model shows it (or, replaced, would have), to the nearest ns."""
    captured_judder: JudderReport
    predicted_judder: JudderReport

    @property
    def frames(self) -> int:
        """The frames the capture says whether it showed: the ones the agreement counts."""
        return int(self.said.sum())

    @property
    def captured_shown(self) -> int:
        return int(self.captured.sum())

    @property
    def predicted_shown(self) -> int:
        return int(self.predicted[self.said].sum())

    @property
    def agreed(self) -> int:
        return int((self.captured == self.predicted)[self.said].sum())

    @property
    def agreement(self) -> Fraction:
        return self.agreements[self.mode]

    def disagreements(self, limit: int = FIRST_DISAGREEMENTS) -> list[int]:
        """The file rows of the first frames the two disagree on."""
        differ = self.said & (self.captured != self.predicted)
        return [int(row) for row in self.columns.rows[differ][:limit]]

    def record(self) -> dict[str, int | float]:
        """`--json`'s `"display"` object."""
        return {
            "captured_shown": self.captured_shown,
            "predicted_shown": self.predicted_shown,
            "agreement": round(float(self.agreement), 9),
        }


def compare_display(
    columns: DisplayColumns,
    *,
    mode: PresentMode | None = None,
    refresh_hz: Fraction | None = None,
) -> DisplaySide:
    """The display side of a capture (see the module's docstring): in `mode`, or in the mode
    that fits best; `refresh_hz`, when given, is the grid fit's first period, and the grid of a
    capture whose display times sit on none. The capture must give what the display side reads
    (`DisplayColumns.missing` is None)."""
    why_not = columns.missing()
    if why_not is not None:
        raise ValueError(why_not)
    fit = fit_refresh_grid(_display_ns(columns), refresh_hz=refresh_hz)
    grid = (
        fit
        if _a_display_s_grid(fit, refresh_hz)
        else RefreshGrid.nominal(refresh_hz or UNSEEN_REFRESH_HZ)
    )
    said = columns.said
    captured = columns.shown & said
    runs: dict[PresentMode, tuple[int, Ints, Bools]] = {}
    for tried in _modes_to_try(grid, mode):
        lead = lead_ns(columns, grid, tried)
        shown_ns = predict_shown_ns(columns.present_ns, grid, tried, lead)
        runs[tried] = lead, shown_ns, reached_screen(shown_ns)
    agreements = {
        tried: Fraction(int((predicted == captured)[said].sum()), int(said.sum()))
        for tried, (_, _, predicted) in runs.items()
    }
    best = max(runs, key=agreements.__getitem__)  # the first of equals
    lead, shown_ns, predicted = runs[best]
    capture_judder, model_judder = _judders(columns, shown_ns, predicted, grid)
    return DisplaySide(
        fit=fit,
        grid=grid,
        mode=best,
        asked=mode is not None,
        lead_ns=lead,
        agreements=agreements,
        columns=columns,
        said=said,
        captured=captured,
        predicted=predicted,
        predicted_ns=shown_ns,
        captured_judder=capture_judder,
        predicted_judder=model_judder,
    )


def _a_display_s_grid(fit: RefreshGrid, refresh_hz: Fraction | None) -> bool:
    """Whether the fitted grid is a display's: the times sit on it, it is no faster than a
    display refreshes, and within 1 % of the refresh given (else it is a torn game's cadence)."""
    near = refresh_hz is None or abs(fit.refresh_hz - refresh_hz) <= refresh_hz / 100
    return fit.on_a_grid and fit.refresh_hz <= MAX_REFRESH_HZ and near


def _display_ns(columns: DisplayColumns) -> Ints:
    """The shown frames' display times; one earlier than the one before is taken as that one
    (a screen does not go back in time; the grid fit counts the two as one display change)."""
    running: Ints = np.maximum.accumulate(columns.display_ns[columns.shown])
    return running


def _modes_to_try(grid: RefreshGrid, mode: PresentMode | None) -> tuple[PresentMode, ...]:
    """The asked mode; else every mode, `immediate` first on a grid that was not fitted (the
    display times sat on none)."""
    if mode is not None:
        return (mode,)
    if grid.fitted:
        return PRESENT_MODES
    return ("immediate", *(tried for tried in PRESENT_MODES if tried != "immediate"))


def lead_ns(columns: DisplayColumns, grid: RefreshGrid, mode: PresentMode) -> int:
    """The least time a shown frame took from its present to the refresh that showed it (its
    nearest vblank on the grid; for `immediate`, its display time), in whole ns (rounded down,
    and never below 0): the model hands each frame to the display this much after its present."""
    shown = columns.shown
    present = columns.present_ns[shown]
    if mode == "immediate":
        return max(0, int((columns.display_ns[shown] - present).min()))
    vblanks = grid.nearest_vblanks_ps(columns.display_ns[shown])
    return max(0, int(((vblanks - present * PICOSECONDS) // PICOSECONDS).min()))


def predict_shown_ns(present_ns: Ints, grid: RefreshGrid, mode: PresentMode, lead_ns: int) -> Ints:
    """When the virtual display on `grid`, in `mode`, shows (or would have shown, `latest`) each
    frame handed to it `lead_ns` after its present time, open loop, to the nearest whole ns
    (halves up; the grid is kept to the picosecond, and the model counts exactly in its units)."""
    settings = DisplaySettings(refresh_hz=grid.refresh_hz, phase=grid.phase, present_mode=mode)
    display = VirtualDisplay(settings)
    units, per_ns = display.present_open_loop(present_ns + lead_ns), display.units_per_ns
    shown: Ints = (2 * units + per_ns) // (2 * per_ns)
    return shown


def _judders(
    columns: DisplayColumns, model_ns: Ints, predicted: Bools, grid: RefreshGrid
) -> tuple[JudderReport, JudderReport]:
    """The meter's figures for the capture's shown frames (each at its nearest vblank, on a
    fitted grid) and the model's, over the refreshes of the grid from the later first shown
    frame of the two to the earlier last."""
    capture_ns = _display_ns(columns)
    if grid.fitted:
        capture_ns = (grid.nearest_vblanks_ps(capture_ns) + PICOSECONDS // 2) // PICOSECONDS
    capture_frames = np.flatnonzero(columns.shown)
    model_shown = model_ns[predicted]
    model_frames = np.flatnonzero(predicted)
    start = max(int(capture_ns[0]), int(model_shown[0]))
    end = min(int(capture_ns[-1]), int(model_shown[-1]))
    instants = grid.vblanks_ns(start, end)
    present = columns.present_ns
    figures = []
    for times, frames in ((capture_ns, capture_frames), (model_shown, model_frames)):
        on = frames[on_screen(times, instants)]
        figures.append(measure(instants, present[on], on.astype(np.int64)))
    return figures[0], figures[1]
