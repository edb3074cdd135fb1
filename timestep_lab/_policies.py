"""Overload policies: what a frame does with more time than it can afford to simulate.

Every policy receives the time already carried from earlier frames and this frame's scaled
elapsed time, and splits it three ways: whole steps to run now, time dropped (reported, never
hidden), and time carried to the next frame. All values are integer *grains* (see
`FixedStepScheduler`), so the split is exact:

    carried + scaled == steps * dt + dropped + carried_out

Symbols: h = step, M = catch-up cap (max steps per frame), F = max frame, B = max backlog.
A policy only plans; the caller runs the steps.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple, Protocol


@dataclass(frozen=True, slots=True)
class FrameLimits:
    """h, M, F and B of the current settings, in grains."""

    step: int
    max_steps: int
    max_frame: int
    max_backlog: int


class Allotment(NamedTuple):
    """How one frame's time is split. `dt` is the length of each of the `steps`."""

    steps: int
    dt: int
    dropped: int
    carried: int


class OverloadPolicy(Protocol):
    """One rule for splitting a frame's time; stateless, so it can be switched any frame."""

    name: str
    summary: str

    def allot(self, carried: int, scaled: int, limits: FrameLimits) -> Allotment: ...


class UncappedPolicy:
    """Run every whole step in carried + s; keep the rest. No protection: this one spirals."""

    name = "uncapped"
    summary = "run every whole step, however many (spirals)"

    def allot(self, carried: int, scaled: int, limits: FrameLimits) -> Allotment:
        steps, rest = divmod(carried + scaled, limits.step)
        return Allotment(steps, limits.step, 0, rest)


class ClampPolicy:
    """Count at most F of the frame and drop the part above F; then run every whole step.

    The accumulator article's clamp (docs/references.md#accumulator). F applies to the frame's
    *scaled* time s, after the time scale, so a frame counts at most F of new simulated time at
    any scale. Bevy's main branch clamps `max_delta` the same way; Bevy 0.19 clamps the real delta
    before its relative speed, so at speed 2 a frame adds up to 2F (docs/references.md#bevy).
    """

    name = "clamp"
    summary = "count at most F of a frame, drop the rest"

    def allot(self, carried: int, scaled: int, limits: FrameLimits) -> Allotment:
        counted = min(scaled, limits.max_frame)
        steps, rest = divmod(carried + counted, limits.step)
        return Allotment(steps, limits.step, scaled - counted, rest)


class DropPolicy:
    """Run at most M of the whole steps; drop the whole steps beyond M; keep the remainder.

    The remainder survives, so the next frame starts where the clock really is within a step.
    This is the step-cap article's policy (docs/references.md#step-cap).
    """

    name = "drop"
    summary = "run at most M steps, drop whole steps beyond M"

    def allot(self, carried: int, scaled: int, limits: FrameLimits) -> Allotment:
        whole, remainder = divmod(carried + scaled, limits.step)
        steps = min(whole, limits.max_steps)
        return Allotment(steps, limits.step, (whole - steps) * limits.step, remainder)


class ResetPolicy:
    """Clamp to F, run at most M steps, then drop everything left if more than 2 steps remain.

    The three-layer article's protection (docs/references.md#three-layers). The last layer
    throws away the sub-step remainder too, which the demo shows as a small stutter after every
    reset.
    """

    name = "reset"
    summary = "clamp to F, cap at M, empty the accumulator if > 2 steps remain"

    def allot(self, carried: int, scaled: int, limits: FrameLimits) -> Allotment:
        counted = min(scaled, limits.max_frame)
        total = carried + counted
        steps = min(total // limits.step, limits.max_steps)
        left = total - steps * limits.step
        dropped = scaled - counted
        if left > 2 * limits.step:
            return Allotment(steps, limits.step, dropped + left, 0)
        return Allotment(steps, limits.step, dropped, left)


class BacklogPolicy:
    """Run at most M steps; carry the whole steps beyond M as backlog, up to B; drop the excess.

    The simulation slows down for a while instead of losing time. Alpha still comes from the
    sub-step remainder only: the backlog is work to do, not a position between two states.
    """

    name = "backlog"
    summary = "run at most M steps, carry the rest as backlog up to B"

    def allot(self, carried: int, scaled: int, limits: FrameLimits) -> Allotment:
        whole, remainder = divmod(carried + scaled, limits.step)
        steps = min(whole, limits.max_steps)
        owed = whole - steps
        kept = min(owed, limits.max_backlog // limits.step)
        return Allotment(
            steps, limits.step, (owed - kept) * limits.step, kept * limits.step + remainder
        )


class VariablePolicy:
    """The beginner loop: no fixed step; one step of dt = min(s, F) per frame, the rest dropped.

    It is here to show what fixed steps fix: the simulation now depends on the frame rate.
    """

    name = "variable"
    summary = "one step per frame of the frame's own length (no fixed step)"

    def allot(self, carried: int, scaled: int, limits: FrameLimits) -> Allotment:
        available = carried + scaled
        dt = min(available, limits.max_frame)
        return Allotment(1 if dt > 0 else 0, dt, available - dt, 0)


POLICIES: dict[str, OverloadPolicy] = {
    policy.name: policy
    for policy in (
        UncappedPolicy(),
        ClampPolicy(),
        DropPolicy(),
        ResetPolicy(),
        BacklogPolicy(),
        VariablePolicy(),
    )
}
"""Every policy by its name; the order is the order of the keys 1-6 in the game."""
