"""What a headless run reports: each frame (`FrameReport`) and the whole run (`RunResult`).

Kept apart from the runner (`game.workshop.runs.runner`) that makes them, which is the frame
loop alone; everything that reads a run's figures imports them from either.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import NamedTuple

from game.display.judder import JudderReport
from game.display.vrr import VrrCounts
from game.scheduler.records import frame_record
from game.session.input_readout import InputCounts
from game.session.rollback_books import NO_ROLLBACK, RollbackFrame, RollbackTotals
from game.session.spiral import SpiralSpan
from timestep_lab import StepPlan, round_ns

NO_PRESSES = InputCounts()


class FrameReport(NamedTuple):
    """One frame of a headless run: the scheduler's plan, the clock, and the lag after it (a
    NamedTuple, like the plan: one is made every frame)."""

    number: int
    """1-based, as in the explainer."""
    plan: StepPlan
    wall_ns: int
    """The virtual wall clock at the end of the frame (floored to whole ns)."""
    lag: tuple[int, int]
    """`lag_ns` as the books give it (`TimeBooks.lag_parts`): numerator and denominator."""
    inputs: InputCounts = NO_PRESSES
    """Lane 0's input counters after this frame (all zero without key edges)."""
    rollback: RollbackFrame = NO_ROLLBACK
    """What rollback did in this frame (all zero without a remote peer)."""

    @property
    def lag_ns(self) -> Fraction:
        """Scaled wall time minus simulated time after this frame: dropped plus carried."""
        return Fraction(*self.lag)

    @property
    def frame_ns(self) -> int:
        """How long the frame lasted: exactly what it handed the scheduler as `elapsed_ns`."""
        return self.plan.elapsed_ns

    def record(self) -> dict[str, int | float | bool]:
        """The `schedule --json` frame keys, plus `wall_ns`, `frame_ns` and rollback's two
        (`resimulated`, `rollback_depth`: 0 without a remote peer)."""
        return {
            **frame_record(self.number, self.plan),
            "wall_ns": self.wall_ns,
            "frame_ns": self.frame_ns,
            "resimulated": self.rollback.resimulated,
            "rollback_depth": self.rollback.depth,
        }


FrameSink = Callable[[FrameReport], None]
"""Hears each frame of a headless run as it is made (`simulate --json` prints it)."""


@dataclass(frozen=True, slots=True)
class RunResult:
    """What a headless run did, frame by frame and in total."""

    frames: tuple[FrameReport, ...]
    """The frames kept: all of them, or the last `keep` (see `run_headless`)."""
    books: dict[str, int | bool]
    """The explainer's summary of lane 0's books (`TimeBooks.summary`)."""
    tick: int
    state_hash: str
    max_frame_ns: int
    spiral: bool
    runaway: bool
    """The runaway guard ended the run (see the module's docstring)."""
    lag_ns: Fraction
    inputs: InputCounts = NO_PRESSES
    """Lane 0's input counters at the end (its model: the session's `input_models[0]`)."""
    judder: JudderReport | None = None
    """The judder meter's figures, when the run had a display (`game.workshop.runs.display_run`)."""
    vrr: VrrCounts | None = None
    """What the display's VRR panel did (its repeats, the frames they delayed), if it had one."""
    non_finite_tick: int | None = None
    """The first tick after which the world held an infinite or NaN position: the integrator
    blew up (None: it never did). A clear event in the summary, not a numpy warning."""
    spirals: tuple[SpiralSpan, ...] = ()
    """Each spiral the rule saw in lane 0, from the frame it started to the frame it was over."""
    rollback: RollbackTotals | None = None
    """Rollback's totals, in a session with a remote peer (None without)."""

    def summary(self) -> dict[str, int | bool | str | float | dict[str, int | None] | None]:
        """The `simulate --json` summary: the explainer's keys, then this run's own (and the
        judder meter's, with a display)."""
        return {
            **self.books,
            "state_hash": self.state_hash,
            "max_frame_ns": self.max_frame_ns,
            "spiral": self.spiral,
            "lag_ns": round_ns(self.lag_ns),
            "runaway": self.runaway,
            "non_finite_tick": self.non_finite_tick,
            "rollback": None if self.rollback is None else self.rollback.summary(),
            **(self.judder.row() if self.judder is not None else {}),
            **(self.vrr.row() if self.vrr is not None else {}),
        }
