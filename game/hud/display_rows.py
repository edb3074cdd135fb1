"""The DISPLAY rows of the stats panel: the live judder meter and each lane's conditioning.

Kept apart from `stats` (whose vocabulary they use) so the panel's rows stay readable in one
sitting; `panel` appends this group to `stat_groups`.
"""

from __future__ import annotations

import functools
from fractions import Fraction

from game.display.latency import estimated_to_photons
from game.hud.hud_colours import Meaning
from game.hud.rows import DETAIL, IMPORTANT, USEFUL, Cell, Group, Row
from game.session.input_readout import Fate
from game.session.readout import DisplayReadout, LaneReadout, Readout

JUDDER_STRAINED_PCT = 10.0
JUDDER_BAD_PCT = 50.0
"""Judder reads green below 10 %, amber to 50 %, red from 50 % (at 50 % every other refresh is
visibly off), in the DISPLAY rows and the graph's judder strip alike."""


def display_group(readout: Readout) -> Group:
    """Each lane's live judder meter (estimated from frame-end times) and conditioning with
    its account (`snap +0.88 ms`: measured time not counted yet)."""
    conditioned = any(lane.conditioning != "raw" for lane in readout.lanes)
    rows = [
        Row(
            "conditioning",
            tuple(_conditioning(lane) for lane in readout.lanes),
            IMPORTANT if conditioned else USEFUL,  # its account is what a lesson asks to watch
        )
    ]
    shown = readout.display
    if shown is not None:
        meters = shown.lanes
        rows[:0] = [
            Row("refresh", (Cell(refresh_text(shown)),), USEFUL),
            Row("ticks/refresh", tuple(Cell(m.cadence[-16:] or "-") for m in meters), IMPORTANT),
            Row("judder", tuple(_judder(m.judder_pct) for m in meters), IMPORTANT),
            Row("pos. error", tuple(Cell(f"{m.position_error_ms:.2f} ms") for m in meters), DETAIL),
        ]
        if any(lane.inputs is not None for lane in readout.lanes):
            cells = tuple(_to_photons(lane, shown, readout.vsync) for lane in readout.lanes)
            rows.append(Row("to photons", cells, USEFUL))
    return Group("DISPLAY", tuple(rows))


def refresh_text(shown: DisplayReadout) -> str:
    """`60 Hz (guess)`, or `144 Hz` when pygame could read the refresh rate, or `165 Hz
    (simulated)`: a lesson step's screen, on the lesson clock."""
    if shown.refresh_simulated:
        return f"{shown.refresh_hz:g} Hz (simulated)"
    return f"{shown.refresh_hz:g} Hz" + ("" if shown.refresh_read else " (guess)")


def _judder(pct: float) -> Cell:
    meaning = (
        Meaning.BAD
        if pct >= JUDDER_BAD_PCT
        else Meaning.STRAINED
        if pct >= JUDDER_STRAINED_PCT
        else Meaning.OK
    )
    return Cell(f"{pct:.1f} %", meaning)


def _to_photons(lane: LaneReadout, shown: DisplayReadout, vsync: bool) -> Cell:
    """The last press, from the key to the light: the input lab's press-to-flip latency plus
    the display's expected share (half a refresh to the scan-out, a refresh more per queued
    frame with vsync): an estimate, and said to be one."""
    lab = lane.inputs
    if lab is None or lab.last_latency is None or lab.last_fate is Fate.LOST:
        return Cell("-")
    total = lab.last_latency.total_ns + _display_share_ns(shown.refresh_hz, vsync)
    return Cell(f"~{float(total) / 1e6:.1f} ms (est.)")


@functools.lru_cache(maxsize=16)
def _display_share_ns(refresh_hz: float, vsync: bool) -> Fraction:
    """The display's expected share of a press's latency, worked out once per refresh rate and
    vsync (a `Fraction` of the rate and exact arithmetic: some 30 us a lane a frame otherwise)."""
    refresh = Fraction(refresh_hz).limit_denominator(1000)
    return estimated_to_photons(0, 0, refresh, vsync=vsync, queued_frames=int(vsync)).total_ns


def _conditioning(lane: LaneReadout) -> Cell:
    if lane.conditioning == "raw":
        return Cell("raw")
    return Cell(f"{lane.conditioning} {lane.conditioning_carry_ms:+.2f} ms")
