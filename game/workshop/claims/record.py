"""`DemoFrame`: what a lesson step's demo did in one frame, as the claims are measured from it.

The demo runs the real game loop (`game.app.demo`); after every frame it writes down each
lane's final plan, the simulated time the frame's picture showed and the input counters. The
measurements (`game.workshop.claims.measures`) read only these values, so they are pure
functions, tested on frames written by hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import NamedTuple

from game.session.input_readout import InputCounts
from game.session.rollback_books import RollbackFrame
from timestep_lab import NS_PER_SECOND, StepPlan


class DemoFrame(NamedTuple):
    """One frame of a demo (a NamedTuple: one a frame)."""

    wall_ns: int
    """When this frame's time was measured, in ns since the demo began: the frame boundary
    the scheduler counted up to (the lane's books say the same)."""
    plans: tuple[StepPlan, ...]
    """Each lane's plan as the frame settled it, lane 1 first."""
    drawn_ns: tuple[int, ...]
    """The simulated time each lane's picture showed (`game.session.drawn`), whole ns."""
    inputs: tuple[InputCounts, ...]
    """Each lane's input counters once the frame ended."""
    rollback: RollbackFrame | None = None
    """Lane 0's rollback figures for the frame, against a remote peer (None: no peer)."""


@dataclass(frozen=True, slots=True)
class DemoRun:
    """A demo as it was played: its frames, and the pictures filmed of it."""

    frames: tuple[DemoFrame, ...]
    pictures: int


@dataclass(frozen=True, slots=True)
class DemoWindow:
    """The frames a claim is measured over, and the counters just before them."""

    frames: tuple[DemoFrame, ...]
    before: DemoFrame | None
    """The last frame before the window (None when it starts with the demo)."""

    def plans(self, lane_index: int) -> list[StepPlan]:
        """That lane's plans, for the frames that had that lane."""
        return [frame.plans[lane_index] for frame in self.frames if lane_index < len(frame.plans)]

    def rollbacks(self) -> list[RollbackFrame]:
        """Lane 0's rollback figures, for the frames played against a remote peer."""
        return [frame.rollback for frame in self.frames if frame.rollback is not None]

    def inputs(self, lane_index: int) -> InputCounts:
        """That lane's counters of the presses made inside the window."""
        had = [frame.inputs[lane_index] for frame in self.frames if lane_index < len(frame.inputs)]
        if not had:
            return InputCounts()
        last, before = had[-1], self.before
        first = before.inputs[lane_index] if before and lane_index < len(before.inputs) else None
        if first is None:
            return last
        return InputCounts(*(now - then for now, then in zip(last, first, strict=True)))

    @property
    def seconds(self) -> Fraction:
        """Wall time the window covers, from the frame boundary before it to its last."""
        if not self.frames:
            return Fraction(0)
        start = self.before.wall_ns if self.before is not None else 0
        return Fraction(self.frames[-1].wall_ns - start, NS_PER_SECOND)


def window(frames: Sequence[DemoFrame], from_ns: int = 0, to_ns: int | None = None) -> DemoWindow:
    """The frames whose boundary falls after `from_ns` and at or before `to_ns` (the end of
    the demo if None)."""
    inside: list[DemoFrame] = []
    before: DemoFrame | None = None
    for frame in frames:
        if frame.wall_ns <= from_ns:
            before = frame
        elif to_ns is None or frame.wall_ns <= to_ns:
            inside.append(frame)
    return DemoWindow(tuple(inside), before)
