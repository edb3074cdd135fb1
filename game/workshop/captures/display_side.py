"""The display side of a capture: which frames reached the screen, by the capture and by the model.

Where a capture says which frames reached the screen and when (PresentMon's `Dropped` and its
display-change times; MangoHud says neither), three steps:

1. The refresh grid, fitted from the shown frames' display times (`game.display.grid`). Times
   that sit on no grid (a torn display shows frames as they come, and its refreshes leave no
   trace in the capture) get a stated one instead: the refresh given, else 60 Hz.
2. The model: the virtual display (`game.display.model`) on that grid, handed each frame when
   it was *ready* (`ready_from`: a frame cannot reach the screen before the GPU has drawn it,
   so where the capture gives every shown frame a ready time, each frame is handed over at
   its ready time, else at its present; a frame is never ready before the one before it, as a
   GPU draws them in turn), plus the *lead*, how long before a refresh the driver or the
   compositor takes the frame it will show: the least time a shown frame took from being
   handed over to its vblank, or for `latest` whichever of a few quantiles of those times
   agrees best (`leads_ns`). In each present mode, or the one asked; the mode that agrees with
   the capture on the most frames is the best fit, ties going to the mode listed first
   (`PRESENT_MODES`), or to `immediate` when the display times do not sit on a grid.
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

from dataclasses import dataclass
from fractions import Fraction
from typing import NamedTuple

import numpy as np

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
from game.workshop.captures.display_columns import Bools, DisplayColumns

METER_REFRESHES_A_FRAME = 64
"""The judder meter measures every refresh from the first frame shown to the last; when those
are more than this many a frame shown (and than `METER_REFRESHES`), a pause in the capture
(a jump in its times) holds the screen for more refreshes than its frames could say anything
about, and the meter is not run: the display side then costs in proportion to the frames, not
to the span. A real capture has one to a few refreshes a frame (10 fps on 240 Hz: 24)."""
METER_REFRESHES = 1_000_000
"""Refreshes the meter always measures (4.6 hours at 60 Hz): 8 MB an array."""
LEAD_QUANTILES = tuple(Fraction(percent, 100) for percent in (0, 1, 5, 10, 25, 50))
"""The shares of the shown frames' present-to-refresh times tried as `latest`'s lead."""
UNSEEN_REFRESH_HZ = Fraction(60)
"""The refresh taken for a display whose times sit on no grid (torn), unless one is given."""
FIRST_DISAGREEMENTS = 8
"""How many frames the model and the capture disagree on are named by their rows in a report."""


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
    captured_judder: JudderReport | None
    """None: not measured (`meter_note` says why)."""
    predicted_judder: JudderReport | None
    ready_from: str = "present"
    """What the model was handed each frame at: `"ready"` (its ready time) or `"present"`."""
    meter_note: str | None = None
    """Why the judder meter was not run (`METER_REFRESHES_A_FRAME`), or None."""

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

    def record(self) -> dict[str, int | float | str]:
        """`--json`'s `"display"` object."""
        return {
            "captured_shown": self.captured_shown,
            "predicted_shown": self.predicted_shown,
            "agreement": round(float(self.agreement), 9),
            "ready_from": self.ready_from,
        }


def compare_display(
    columns: DisplayColumns,
    *,
    mode: PresentMode | None = None,
    refresh_hz: Fraction | None = None,
    ready: bool = True,
) -> DisplaySide:
    """The display side of a capture (see the module's docstring): in `mode`, or in the mode
    that fits best; `refresh_hz`, when given, is the grid fit's first period, and the grid of a
    capture whose display times sit on none; `ready=False` hands the model the present times
    even where the capture gives ready times. The capture must give what the display side
    reads (`DisplayColumns.missing` is None)."""
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
    ready_from = columns.ready_from if ready else "present"
    handed = np.maximum.accumulate(columns.handed_ns(ready_from))  # a GPU draws them in turn
    agreements: dict[PresentMode, Fraction] = {}
    best: tuple[PresentMode, _Run] | None = None
    for tried in _modes_to_try(grid, mode):
        run = _best_run(columns, handed, grid, tried, captured)  # only the best run is kept
        agreements[tried] = run.agreement
        if best is None or run.agreement > best[1].agreement:  # the first of equals
            best = tried, run
        del run  # let go before the next mode's runs, unless it is the best
    assert best is not None, "there is always a mode to try"
    chosen, (lead, shown_ns, predicted, _) = best
    meter_note = _too_many_refreshes(columns, shown_ns, predicted, grid)
    capture_judder, model_judder = (
        (None, None) if meter_note else _judders(columns, shown_ns, predicted, grid)
    )
    return DisplaySide(
        fit=fit,
        grid=grid,
        mode=chosen,
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
        ready_from=ready_from,
        meter_note=meter_note,
    )


class _Run(NamedTuple):
    """The model's run in one mode with one lead."""

    lead_ns: int
    shown_ns: Ints
    predicted: Bools
    agreement: Fraction


def _best_run(
    columns: DisplayColumns, handed_ns: Ints, grid: RefreshGrid, mode: PresentMode, captured: Bools
) -> _Run:
    """The model in `mode`, handed each frame at `handed_ns`, with each lead to try (`leads_ns`);
    the one that agrees best with the capture (the least lead of equals)."""
    said = columns.said
    best: _Run | None = None
    for lead in leads_ns(columns, grid, mode, handed_ns):
        shown_ns = predict_shown_ns(handed_ns, grid, mode, lead)
        predicted = reached_screen(shown_ns)
        agreement = Fraction(int((predicted == captured)[said].sum()), int(said.sum()))
        if best is None or agreement > best.agreement:
            best = _Run(lead, shown_ns, predicted, agreement)
        del shown_ns, predicted  # held only as the best: a million frames' are 9 MB
    assert best is not None, "there is always a lead to try"
    return best


def _a_display_s_grid(fit: RefreshGrid, refresh_hz: Fraction | None) -> bool:
    """Whether the fitted grid is a display's: the times sit on it, it is no faster than a
    display refreshes, and within 1 % of the refresh given (else it is a torn game's cadence)."""
    near = refresh_hz is None or abs(fit.refresh_hz - refresh_hz) <= refresh_hz / 100
    return fit.on_a_grid and fit.refresh_hz <= MAX_REFRESH_HZ and near


def _display_ns(columns: DisplayColumns) -> Ints:
    """The shown frames' display times; one earlier than the one before is taken as that one
    (a screen does not go back in time; the grid fit counts the two as one display change)."""
    running: Ints = columns.display_ns[columns.shown]
    np.maximum.accumulate(running, out=running)
    return running


def _modes_to_try(grid: RefreshGrid, mode: PresentMode | None) -> tuple[PresentMode, ...]:
    """The asked mode; else every mode, `immediate` first on a grid that was not fitted (the
    display times sat on none)."""
    if mode is not None:
        return (mode,)
    if grid.fitted:
        return PRESENT_MODES
    return ("immediate", *(tried for tried in PRESENT_MODES if tried != "immediate"))


def leads_ns(
    columns: DisplayColumns, grid: RefreshGrid, mode: PresentMode, handed_ns: Ints | None = None
) -> list[int]:
    """The leads to try, least first: how long a shown frame took from being handed over (its
    present, or `handed_ns`) to the refresh that showed it (its nearest vblank on the grid; for
    `immediate`, its display time), in whole ns (rounded down, never below 0). The least of
    them is the lead of a driver or compositor that takes frames at a fixed time before each
    refresh; Windows' compositor takes them earlier on some refreshes than others, so for
    `latest` the `LEAD_QUANTILES` of those times are tried too, and the one that agrees best is
    kept."""
    shown = columns.shown
    present = (columns.present_ns if handed_ns is None else handed_ns)[shown]
    if mode == "immediate":
        return [max(0, int((columns.display_ns[shown] - present).min()))]
    vblanks = grid.nearest_vblanks_ps(columns.display_ns[shown])
    gaps = np.sort(np.maximum(0, (vblanks - present * PICOSECONDS) // PICOSECONDS))
    if mode != "latest":
        return [int(gaps[0])]
    picks = {
        int(gaps[(len(gaps) - 1) * share.numerator // share.denominator])
        for share in LEAD_QUANTILES
    }
    return sorted(picks)


def predict_shown_ns(present_ns: Ints, grid: RefreshGrid, mode: PresentMode, lead_ns: int) -> Ints:
    """When the virtual display on `grid`, in `mode`, shows (or would have shown, `latest`) each
    frame handed to it `lead_ns` after its present time, open loop, to the nearest whole ns
    (halves up; the grid is kept to the picosecond, and the model counts exactly in its units)."""
    settings = DisplaySettings(refresh_hz=grid.refresh_hz, phase=grid.phase, present_mode=mode)
    display = VirtualDisplay(settings)
    shown, per_ns = display.present_open_loop(present_ns + lead_ns), display.units_per_ns
    shown *= 2  # to the nearest ns, in place: (2 units + per_ns) // (2 per_ns)
    shown += per_ns
    shown //= 2 * per_ns
    return shown


def _too_many_refreshes(
    columns: DisplayColumns, model_ns: Ints, predicted: Bools, grid: RefreshGrid
) -> str | None:
    """Why the meter is not run on these frames (`METER_REFRESHES_A_FRAME`), or None."""
    shown = int(columns.shown.sum())
    start = max(int(columns.display_ns[columns.shown].min()), int(model_ns[predicted][0]))
    end = min(int(columns.display_ns[columns.shown].max()), int(model_ns[predicted][-1]))
    refreshes = max(end - start, 0) * 1000 // max(grid.period_ps, 1)
    if refreshes <= max(METER_REFRESHES_A_FRAME * shown, METER_REFRESHES):
        return None
    return (
        f"the frames shown span {refreshes:,} refreshes, more than {METER_REFRESHES_A_FRAME} "
        f"a frame shown ({shown:,}): a pause in the capture the meter would only measure the "
        "stillness of"
    )


def _judders(
    columns: DisplayColumns, model_ns: Ints, predicted: Bools, grid: RefreshGrid
) -> tuple[JudderReport, JudderReport]:
    """The meter's figures for the capture's shown frames (each at its nearest vblank, on a
    fitted grid) and the model's, over the refreshes of the grid from the later first shown
    frame of the two to the earlier last."""
    capture_ns = _display_ns(columns)
    if grid.fitted:
        capture_ns = grid.nearest_vblanks_ps(capture_ns)  # to the nearest ns, in place
        capture_ns += PICOSECONDS // 2
        capture_ns //= PICOSECONDS
    model_shown = model_ns[predicted]
    start = max(int(capture_ns[0]), int(model_shown[0]))
    end = min(int(capture_ns[-1]), int(model_shown[-1]))
    instants = grid.vblanks_ns(start, end)
    present = columns.present_ns
    captured = _judder(instants, capture_ns, np.flatnonzero(columns.shown), present)
    del capture_ns  # one side's arrays at a time: a million frames' are 8 MB each
    return captured, _judder(instants, model_shown, np.flatnonzero(predicted), present)


def _judder(instants: Ints, shown_ns: Ints, frames: Ints, present_ns: Ints) -> JudderReport:
    """The meter's figures at `instants` for the `frames` shown at `shown_ns`."""
    on = frames[on_screen(shown_ns, instants)]
    return measure(instants, present_ns[on], on.astype(np.int64, copy=False))
