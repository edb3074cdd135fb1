"""`OurPace`: time sync on our own side, acting on our own loop (lane 0's scheduler).

The remote peer slows down when it is ahead of us (`game.network.peer`); when we are the one
ahead (it joined late: `remote_late_ms`), we slow down by the same rule (`TimeSync`), on what
we hear of it (`Told`: its tick and averaged lead, at the base latency):

- `wait`: when both averages say we are at least 3 ticks ahead, our scheduler holds back half
  the gap, at most 9 ticks (`FixedStepScheduler.hold`): the frames run no new tick, and the
  time of the ticks held back is dropped, on the books, not carried, so we fall back by exactly
  that many ticks instead of catching them up. On screen the picture freezes: a stutter.
- `stretch`: while the averages see us a whole tick ahead, the next frame's ticks last 11/10 of
  the step on our wall clock: lane 0's time scale is the controls' x 10/11, exact, as any time
  scale is (the wall time it leaves out is on the books: wall minus scaled). On screen the motion is
  10% slower and never stops: a steady small judder.

The frame's order: at its start the rollback sees how far ahead we are (`saw`, with the remote's
averaged lead as we hear it); at its end (`pace`) the frame's books say what its plan
held back or stretched, and the next plan's wait and stretch are set, between two plans, as a
key would set them. GGPO's frames are ticks (its loop runs one a frame), so a wait counts ticks.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import NamedTuple

from game.network.settings import TimeSyncMode
from game.network.time_sync import STRETCH, TimeSync
from timestep_lab import FixedStepScheduler


class Paced(NamedTuple):
    """What time sync did to one finished frame of ours."""

    held: int
    """Ticks its plan held back (dropped) for a wait."""
    stretched: bool
    """Its ticks lasted 11/10 of the step."""


UNPACED = Paced(0, False)


class OurPace:
    """Our averaged lead, the remote's as we hear it, and the wait and stretch they set."""

    def __init__(self, mode: TimeSyncMode) -> None:
        self.sync = TimeSync(mode)
        self.their_lead = Fraction(0)
        """The remote's averaged lead over us, as we last heard it (0 before we have)."""
        self.holding = 0
        """Ticks the scheduler still holds back for the current wait."""
        self.stretching = False
        """The next plan's ticks are stretched."""
        self._base_scale = Fraction(1)
        """The time scale the controls set, while we stretch it."""

    def saw(self, lead: Fraction, their_lead: Fraction) -> None:
        """A frame starts `lead` ticks ahead of the remote, which says it is `their_lead` ahead
        of us, on average."""
        self.sync.saw(lead)
        self.their_lead = their_lead

    def pace(self, scheduler: FixedStepScheduler) -> Paced:
        """At a frame's end: what its plan held back and whether it was stretched; then the next
        plan's wait (a new one once the last is over) and stretch, by the remote's rule."""
        settings = scheduler.settings
        held = self.holding - scheduler.held_ticks
        stretched = self.stretching and settings.time_scale == self._base_scale / STRETCH
        base = self._base_scale if stretched else settings.time_scale  # a key may have reset it
        if not scheduler.held_ticks:
            scheduler.hold(self.sync.wait_frames(self.their_lead))
        self.holding = scheduler.held_ticks
        factor = self.sync.step_factor(self.their_lead)
        self.stretching = factor != 1
        self._base_scale = base
        if base / factor != settings.time_scale:
            scheduler.reconfigure(replace(settings, time_scale=base / factor))
        return Paced(held, stretched) if held or stretched else UNPACED
