"""`run_open_loop`: a capture's frame times through one policy, planned as the scheduler plans them.

Open loop: each frame lasts what the capture says it lasted, whatever the ticks before it ran
(the game that was captured ran its own ticks inside those times). So only the scheduler is
needed, not the world, and a frame's plan depends only on the time carried into it.

A million frames through six policies cannot go through `FixedStepScheduler.advance` one at a
time in seconds (it costs microseconds a frame), so the runs use one fact about the fixed-step
policies: on a *plain* frame, one that carries in less than a step (c < h) and brings less than
M steps of time (x < M h) and no more than F (x <= F), every one of them does the same thing:
runs every whole step and carries the remainder (under M + 1 steps in all, nothing clamped,
nothing to cap or reset). Over a stretch of plain frames that is arithmetic on the running sum
S of time since the stretch began, carried time included:

    ticks of frame k = floor(S_k / h) - floor(S_(k-1) / h)        carried after it = S_k mod h

which numpy does for all the stretches at once. Every other frame (a hitch, and the frames
after it while more than a step is carried) goes through the policy's own `allot`, one at a
time, as the scheduler would hand it. `variable` has no fixed step: each frame is one step of
its own length, up to F, and nothing is ever carried, so it is computed directly.
`tests/test_capture_open_loop.py` checks every frame against `FixedStepScheduler.advance`.

Exact: time is in the scheduler's integer grains (1/D ns, as `FixedStepScheduler` counts), and
every frame's books are checked to balance with `==`, as a `Ledger` does:

    carried_in + scaled == steps * dt + dropped + carried_out
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from math import lcm
from typing import Any

import numpy as np
from numpy.typing import NDArray

from game.workshop.captures.frame_times import exact_sum
from timestep_lab import POLICIES, FrameLimits, SchedulerSettings

Int64s = NDArray[np.int64]

_INT64_ROOM = 2**62
"""Sums of grains below this stay exact in int64 (with room for one more term); a capture whose
running sum in grains would pass it (months of frames at a fine grain) is run in Python ints."""


@dataclass(frozen=True, slots=True)
class Grain:
    """The scheduler's unit for one settings value: 1/`per_ns` ns, in which the step, the time
    scale and the limits are whole numbers (the lcm of their denominators, as the scheduler
    takes it)."""

    per_ns: int
    scale: int
    """Grains of simulated time per ns of wall time (the time scale, in grains)."""
    limits: FrameLimits

    @classmethod
    def of(cls, settings: SchedulerSettings) -> Grain:
        per_ns = lcm(
            settings.step_ns.denominator,
            settings.time_scale.denominator,
            settings.max_frame_ns.denominator,
            settings.max_backlog_ns.denominator,
        )

        def grains(ns: Fraction) -> int:
            return int(ns * per_ns)

        limits = FrameLimits(
            step=grains(settings.step_ns),
            max_steps=settings.max_steps,
            max_frame=grains(settings.max_frame_ns),
            max_backlog=grains(settings.max_backlog_ns),
        )
        return cls(per_ns, grains(settings.time_scale), limits)


@dataclass(frozen=True, slots=True)
class OpenLoopRun:
    """Every frame's plan in grains (one array a term of the ledger), and the grain."""

    settings: SchedulerSettings
    grain: Grain
    steps: Int64s
    dt: Int64s
    """Each frame's tick length: the step, but under `variable` the frame's own."""
    dropped: Int64s
    carried: Int64s
    """Carried out of each frame (into the next)."""
    scaled: Int64s

    def balances(self) -> NDArray[np.bool_]:
        """Each frame's books, as a `Ledger` checks them: in == stepped + dropped + carried
        (summed in place: a million frames' check takes three arrays, not six)."""
        came_in = np.concatenate((np.zeros(1, self.carried.dtype), self.carried[:-1]))
        came_in += self.scaled
        went_out = self.steps * self.dt
        went_out += self.dropped
        went_out += self.carried
        return np.asarray(came_in == went_out)


def run_open_loop(elapsed_ns: Int64s, settings: SchedulerSettings) -> OpenLoopRun:
    """Plan every frame of `elapsed_ns` under `settings` (raw conditioning: the frame times
    are counted as measured), from nothing carried; see the module for how."""
    if settings.conditioning != "raw":
        raise ValueError("an open-loop run counts the frames as measured: conditioning raw")
    grain = Grain.of(settings)
    total = exact_sum(elapsed_ns)
    fits = (total + 1) * grain.scale + 2 * grain.limits.step + grain.limits.max_backlog
    dtype = np.int64 if fits < _INT64_ROOM else object
    scaled = elapsed_ns.astype(dtype) * grain.scale
    if settings.policy == "variable":
        dt = np.minimum(scaled, grain.limits.max_frame)
        steps = (dt > 0).astype(dtype)
        return OpenLoopRun(settings, grain, steps, dt, scaled - dt, np.zeros_like(scaled), scaled)
    steps, dropped, carried = _fixed_step(scaled, settings.policy, grain.limits)
    dt = np.broadcast_to(np.asarray(grain.limits.step, scaled.dtype), scaled.shape)  # no copies
    return OpenLoopRun(settings, grain, steps, dt, dropped, carried, scaled)


def _fixed_step(scaled: Int64s, policy: str, limits: FrameLimits) -> tuple[Int64s, Int64s, Int64s]:
    """Steps, dropped and carried out per frame: the frames that may not be plain through the
    policy's `allot`, one by one; the stretches of plain frames between them, all at once."""
    allot = POLICIES[policy].allot
    step = limits.step
    count = len(scaled)
    running = np.concatenate((np.zeros(1, scaled.dtype), np.cumsum(scaled)))
    maybe_not_plain = np.flatnonzero(
        (scaled >= limits.max_steps * step) | (scaled > limits.max_frame)
    ).tolist()
    steps = np.zeros_like(scaled)
    dropped = np.zeros_like(scaled)
    carried = np.zeros_like(scaled)
    plain = np.zeros(count, dtype=np.bool_)
    stretches: list[tuple[int, int, int]] = []  # (start, length, carry less the sum before it)
    carry, index, next_odd = 0, 0, 0
    while index < count:
        while next_odd < len(maybe_not_plain) and maybe_not_plain[next_odd] < index:
            next_odd += 1
        end = maybe_not_plain[next_odd] if next_odd < len(maybe_not_plain) else count
        if carry < step and end > index:  # a stretch of plain frames, up to the next odd one
            plain[index:end] = True
            stretches.append((index, end - index, carry - int(running[index])))
            carry = int((carry + running[end] - running[index]) % step)
            index = end
            continue
        ran, _, lost, carry = allot(carry, int(scaled[index]), limits)
        steps[index], dropped[index], carried[index] = ran, lost, carry
        index += 1
    for start, end, shift in _blocks(stretches, scaled.dtype):
        _plain_stretches(running, plain, (start, end, shift), step, (steps, carried))
    return steps, dropped, carried


BLOCK = 1 << 16
"""Plain frames worked out at a time: a few arrays of this many frames beside the results."""


def _blocks(
    stretches: list[tuple[int, int, int]], dtype: np.dtype[Any]
) -> Iterator[tuple[int, int, Int64s]]:
    """The stretches, in order, in blocks of about `BLOCK` frames (a longer one cut in pieces):
    each block's first frame, the frame after its last, and each of its plain frames' offset."""
    block: list[tuple[int, int, int]] = []
    size = 0
    for start, length, offset in stretches:
        while length:
            piece = min(length, BLOCK - size)
            block.append((start, piece, offset))
            size, start, length = size + piece, start + piece, length - piece
            if size == BLOCK:
                yield _block(block, dtype)
                block, size = [], 0
    if block:
        yield _block(block, dtype)


def _block(block: list[tuple[int, int, int]], dtype: np.dtype[Any]) -> tuple[int, int, Int64s]:
    offsets = np.array([offset for _, _, offset in block], dtype=dtype)
    shift = np.repeat(offsets, [length for _, length, _ in block])
    return block[0][0], block[-1][0] + block[-1][1], shift


def _plain_stretches(
    running: Int64s,
    plain: NDArray[np.bool_],
    block: tuple[int, int, Int64s],
    step: int,
    results: tuple[Int64s, Int64s],
) -> None:
    """The steps and carried time of a block's plain frames (`_blocks`), written into
    `results`, from the running sums after and before each, shifted by its stretch's offset."""
    start, end, shift = block
    steps, carried = results
    mine = plain[start:end]
    after = running[start + 1 : end + 1][mine]
    after += shift
    before = running[start:end][mine]
    before += shift
    carried[start:end][mine] = after % step
    after //= step
    before //= step
    after -= before
    steps[start:end][mine] = after
