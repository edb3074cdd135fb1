"""Headroom: how much more each tick could cost before a policy stops keeping up with a capture.

The model (closed loop): the game that was captured ran its own ticks inside its frame times;
give each tick `c` more work and every frame lasts its captured time plus `c` for each tick the
frame before it ran (that frame's ticks are the work the next frame's length holds, as
`VirtualClock` counts it):

    frame k lasts  e_k + c x ticks(k - 1)

These frames now depend on the ticks, so they go through `FixedStepScheduler.advance` one by
one (a `LoadedCaptureFrames` is their `FrameSource`), and the spiral rule (`game.session.spiral`)
judges them.

A policy *keeps up* at cost c when no spiral starts and it strains on no more frames than it
does at c = 0 plus 1% of the frames (at least one): strained is the scheduler's own light, a
frame owed more than M ticks or that dropped time. The capture's own hitches strain every
capped policy at any cost; a policy that has run out of room strains frame after frame.

The headroom is the largest cost, in whole steps of `RESOLUTION_NS`, at which the policy still
keeps up, found by bisection between 0 and an upper bound where it cannot (the step h in wall
time, h / R at a time scale R: K ticks that each cost that never pay for themselves; F / R under
`variable`, whose one tick a frame is dropped past F), and checked by a run on each side: the
runs at the answer (keeps up) and one resolution above it (does not) are both kept in
`Headroom`. The closed loop costs microseconds a frame, so the runs take the capture's heaviest
stretch of at most `HEADROOM_FRAMES` consecutive frames (`heaviest_stretch`: those that last
longest together), where a policy runs out of room first.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import ceil

import numpy as np
from numpy.typing import NDArray

from game.clock.recorded import RecordedFrames
from game.session.spiral import FrameLoad, SpiralRule, SpiralState
from timestep_lab import (
    MAX_ELAPSED_NS,
    NOTHING_RAN,
    FixedStepScheduler,
    FrameRan,
    SchedulerSettings,
)

RESOLUTION_NS = 10_000
"""The headroom is found to 10 us: a tenth of a percent of a 60 Hz step."""

HEADROOM_FRAMES = 2_000
"""The longest stretch of frames the closed-loop runs take by default (`--headroom-frames`)."""

STRAIN_SLACK_PERCENT = 1
"""Strained frames a policy may add to the capture's own before it no longer keeps up."""


class LoadedCaptureFrames(RecordedFrames):
    """A `FrameSource`: the captured frames, each longer by the cost of the ticks the frame
    before it ran (`ran.steps x ran.step_cost_ns`, whole ns)."""

    def _length(self, recorded_ns: int, ran: FrameRan) -> int:
        return recorded_ns + ran.steps * int(ran.step_cost_ns)


@dataclass(frozen=True, slots=True)
class Verdict:
    """One closed-loop run at one step cost."""

    step_cost_ns: int
    frames: int
    """Frames run (a run stops once its verdict is sure)."""
    strained: int
    spiral: bool
    keeps_up: bool


@dataclass(frozen=True, slots=True)
class Headroom:
    """A policy's headroom on a capture, with the runs on each side that check it."""

    policy: str
    frames: int
    """The frames the runs took (the heaviest stretch)."""
    below: Verdict | None
    """The run at the headroom, which keeps up (None: not even at cost 0)."""
    above: Verdict | None
    """The run one resolution above, which does not (None: kept up up to the bound)."""

    @property
    def headroom_ns(self) -> int | None:
        return None if self.below is None else self.below.step_cost_ns


def heaviest_stretch(elapsed_ns: NDArray[np.int64], frames: int) -> NDArray[np.int64]:
    """The `frames` consecutive frames that last longest together (the first such)."""
    if len(elapsed_ns) <= frames:
        return elapsed_ns
    running = np.concatenate((np.zeros(1, np.int64), np.cumsum(elapsed_ns)))
    start = int(np.argmax(running[frames:] - running[:-frames]))
    return elapsed_ns[start : start + frames]


def run_under_load(
    elapsed_ns: list[int], settings: SchedulerSettings, step_cost_ns: int, allowed: int
) -> Verdict:
    """One closed-loop run (see the module); it stops once more than `allowed` frames strained,
    a spiral started, or a frame would outlast the scheduler's limit (a spiral's end)."""
    source = LoadedCaptureFrames(elapsed_ns)
    scheduler = FixedStepScheduler(settings)
    rule, state = SpiralRule(), SpiralState()
    ran, strained, spiral = NOTHING_RAN, 0, False
    while (length := source.next_frame(ran)) is not None:
        if length > MAX_ELAPSED_NS:
            spiral = True
            break
        plan = scheduler.advance(length)
        strained += plan.indicators.strained
        state = rule.after(state, FrameLoad(length, plan.ledger.steps, plan.backlog_steps))
        spiral = spiral or state.on
        if spiral or strained > allowed:
            break
        ran = FrameRan(plan.ledger.steps, step_cost_ns)
    keeps_up = not spiral and strained <= allowed
    return Verdict(step_cost_ns, source.played, strained, spiral, keeps_up)


def find_headroom(elapsed_ns: NDArray[np.int64], settings: SchedulerSettings) -> Headroom:
    """Bisect the step cost (see the module) on the frames of `elapsed_ns`, all of them."""
    frames = elapsed_ns.tolist()
    slack = max(1, len(frames) * STRAIN_SLACK_PERCENT // 100)
    free = run_under_load(frames, settings, 0, len(frames))
    allowed = free.strained + slack
    if free.spiral:
        return Headroom(settings.policy, len(frames), None, free)
    bound = settings.max_frame_ns if settings.policy == "variable" else settings.step_ns
    bound /= settings.time_scale  # a tick that simulates h of game time lasts h / R of wall time
    high = ceil(bound / RESOLUTION_NS)
    above = run_under_load(frames, settings, high * RESOLUTION_NS, allowed)
    if above.keeps_up:
        return Headroom(settings.policy, len(frames), above, None)
    low, below = 0, Verdict(0, free.frames, free.strained, False, True)
    while high - low > 1:
        middle = (low + high) // 2
        verdict = run_under_load(frames, settings, middle * RESOLUTION_NS, allowed)
        if verdict.keeps_up:
            low, below = middle, verdict
        else:
            high, above = middle, verdict
    return Headroom(settings.policy, len(frames), below, above)
