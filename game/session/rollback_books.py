"""Rollback's books: what each frame re-simulated and why, and the run's totals.

Beside the ledger of time (which still balances exactly: re-simulated ticks are work, not
time), each frame says how many ticks were new and how many were run again, how deep the
deepest rollback went (ticks back from the newest), how many of the inputs that arrived proved
a prediction wrong, whether the prediction window stopped its new ticks, and what our own time
sync did to it (`game.session.pacing`): ticks held back for a wait, or ticks stretched.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple


class RollbackFrame(NamedTuple):
    """One frame's rollback figures (a NamedTuple: one is made every frame)."""

    new_ticks: int = 0
    """Ticks simulated for the first time."""
    resimulated: int = 0
    """Ticks run again after a rollback, in every rollback of the frame."""
    depth: int = 0
    """The deepest rollback of the frame, in ticks back from the newest (0: none)."""
    misses: int = 0
    """Remote inputs that arrived and differed from the prediction the world had run."""
    window_stall: bool = False
    """The prediction window was full: the frame's remaining new ticks did not run."""
    held: int = 0
    """Ticks our time sync's wait held back (their time dropped): we were ahead."""
    stretched: bool = False
    """Our time sync's stretch made the frame's ticks 11/10 of the step: we were ahead."""


NO_ROLLBACK = RollbackFrame()


@dataclass(slots=True)
class RollbackTotals:
    """A run's rollback figures, added up frame by frame; desyncs from the confirmed peer."""

    resimulated_ticks: int = 0
    max_depth: int = 0
    prediction_misses: int = 0
    window_stalls: int = 0
    held_ticks: int = 0
    """Ticks our wait held back, their time dropped."""
    stretched_frames: int = 0
    """Frames whose ticks our stretch made 11/10 long."""
    desyncs: int = 0
    first_desync_tick: int | None = None
    """The first compared tick whose state hash differed between the peers (None: none)."""

    def add(self, frame: RollbackFrame) -> None:
        self.resimulated_ticks += frame.resimulated
        self.max_depth = max(self.max_depth, frame.depth)
        self.prediction_misses += frame.misses
        self.window_stalls += frame.window_stall
        self.held_ticks += frame.held
        self.stretched_frames += frame.stretched

    def desync(self, tick: int) -> None:
        self.desyncs += 1
        if self.first_desync_tick is None:
            self.first_desync_tick = tick

    def summary(self) -> dict[str, int | None]:
        """The `simulate --json` summary's `"rollback"` object."""
        return {
            "resimulated_ticks": self.resimulated_ticks,
            "max_depth": self.max_depth,
            "prediction_misses": self.prediction_misses,
            "window_stalls": self.window_stalls,
            "held_ticks": self.held_ticks,
            "stretched_frames": self.stretched_frames,
            "desyncs": self.desyncs,
            "first_desync_tick": self.first_desync_tick,
        }
