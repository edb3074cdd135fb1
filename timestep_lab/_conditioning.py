"""Delta-time conditioning: what the loop does to a measured frame time before it counts it.

A measured frame time is noisy: a vsynced loop at 60 Hz measures 16.2, 17.1, 16.5 ms where the
display really showed a frame every 16.667 ms, and a fixed-step scheduler then runs 0 ticks in
one frame and 2 in the next (the "heartbeat"). Conditioning smooths the delta. It must not make
time or lose it: whatever it holds back or pays ahead is kept in one named account, the
*conditioning carry*, so that for every frame, exactly,

    conditioning carry in + measured == counted + conditioning carry out

and the scheduler is handed `counted`. Each mode is one small rule:

- `raw`: count what was measured (and pay back any carry left by another mode at once).
- `snap`: if measured + carry is within a tolerance of a whole number of refresh periods, count
  that number of periods (Tyler Glaiel, "How to make your game run at 60fps"); else count it all.
  abs(carry) <= the tolerance + 1 ns (the counts are whole ns on an exact grid).
- `average`: count the running mean of the last N measured deltas (Unity's smoothDeltaTime).
  The carry is what the window has not counted yet: between 0 and (N-1)/2 x the largest of the
  last N-1 deltas, +1 ns.
- `godot`: keep the number of ticks per frame what recent frames ran, when moving at most
  `jitter_fix` x h of time between frames does it (Godot's physics jitter fix, from its
  documented behaviour); the time moved is paid back by later frames. abs(carry) <= jitter_fix x h.

All values are whole nanoseconds; the state of each mode is a small immutable value, so the
scheduler can copy it with the rest of its state.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import ceil, floor
from typing import NamedTuple, Protocol

TICK_HISTORY = 12
"""How many recent frames the `godot` mode looks at to find the typical ticks per frame."""


@dataclass(frozen=True, slots=True)
class ConditioningContext:
    """What a conditioner may know besides the measured delta, all exact."""

    refresh_ns: Fraction
    """The display's refresh period (the snap unit)."""
    snap_tolerance_ns: Fraction
    average_frames: int
    jitter_fix: Fraction
    step_ns: Fraction
    time_scale: Fraction


class ConditioningState(NamedTuple):
    """The account and whatever a mode remembers. `carry_ns` is the account itself."""

    carry_ns: int = 0
    deltas: tuple[int, ...] = ()
    """The last measured deltas, newest last (`average`)."""
    ticks: tuple[int, ...] = ()
    """The ticks the last frames would run (`godot`)."""
    residue: Fraction = Fraction(0)
    """The part of a nanosecond the snapped counts are ahead of the exact refresh grid, in
    (-1, 0] (`snap`)."""


class Conditioner(Protocol):
    """One rule; stateless itself, so the mode can change between any two frames.

    `remainder_ns` is the scheduler's sub-step time carried in, which the counted delta adds to.
    """

    name: str
    summary: str

    def condition(
        self,
        measured_ns: int,
        state: ConditioningState,
        context: ConditioningContext,
        remainder_ns: Fraction,
    ) -> tuple[int, ConditioningState]: ...


class RawConditioning:
    """Count what was measured (and whatever carry another mode left, at once)."""

    name = "raw"
    summary = "count the measured delta as it is"

    def condition(
        self,
        measured_ns: int,
        state: ConditioningState,
        context: ConditioningContext,
        remainder_ns: Fraction,
    ) -> tuple[int, ConditioningState]:
        return max(0, measured_ns + state.carry_ns), ConditioningState(
            carry_ns=min(0, measured_ns + state.carry_ns)
        )


class SnapConditioning:
    """Count a whole number of refresh periods when measured + carry is within the tolerance."""

    name = "snap"
    summary = "snap to whole refresh periods within a tolerance (Glaiel)"

    def condition(
        self,
        measured_ns: int,
        state: ConditioningState,
        context: ConditioningContext,
        remainder_ns: Fraction,
    ) -> tuple[int, ConditioningState]:
        owed = measured_ns + state.carry_ns
        exact_owed = owed - state.residue  # the carry's true value, off the ns grid
        periods = round(exact_owed / context.refresh_ns)
        target = periods * context.refresh_ns
        if periods < 1 or abs(exact_owed - target) > context.snap_tolerance_ns:
            counted = max(0, owed)
            return counted, ConditioningState(carry_ns=owed - counted)
        # Count the periods on the exact refresh grid: whole ns now, the fraction next time,
        # rounded up so that a tick due on a vblank runs on it (16.667 x 3 is 3 ticks, not 2).
        exact = target + state.residue
        counted = ceil(exact)
        return counted, ConditioningState(carry_ns=owed - counted, residue=exact - counted)


class AverageConditioning:
    """Count the mean of the last N measured deltas (the carry is the unaveraged part)."""

    name = "average"
    summary = "the running mean of the last N deltas"

    def condition(
        self,
        measured_ns: int,
        state: ConditioningState,
        context: ConditioningContext,
        remainder_ns: Fraction,
    ) -> tuple[int, ConditioningState]:
        n = context.average_frames
        kept = (*state.deltas, measured_ns)[1 - n :] if n > 1 else ()
        # Each delta is counted 1/N a frame for N frames: the newest N-1 are partly uncounted,
        # the newest by (N-1)/N, the one before by (N-2)/N, and so on.
        weighted = sum(delta * (n - 1 - age) for age, delta in enumerate(reversed(kept)))
        owed = measured_ns + state.carry_ns
        counted = max(0, owed + (-weighted) // n)  # owed - ceil(weighted / n)
        return counted, ConditioningState(carry_ns=owed - counted, deltas=kept)


class GodotConditioning:
    """Keep the ticks per frame typical, moving at most jitter_fix x h between frames."""

    name = "godot"
    summary = "keep ticks per frame steady, paying back up to jitter_fix x h"

    def condition(
        self,
        measured_ns: int,
        state: ConditioningState,
        context: ConditioningContext,
        remainder_ns: Fraction,
    ) -> tuple[int, ConditioningState]:
        owed = measured_ns + state.carry_ns
        step, scale, remainder = context.step_ns, context.time_scale, remainder_ns
        natural = floor((remainder + owed * scale) / step)
        chosen = natural
        if state.ticks:
            # Typical: the whole numbers around the recent mean (both, when it lies between).
            total, frames = sum(state.ticks), len(state.ticks)
            chosen = min(max(natural, total // frames), -(-total // frames))
        reach = context.jitter_fix * step / scale  # wall ns the rule may move
        # The wall time that runs exactly `chosen` ticks: [low, high], whole ns.
        low = max(ceil((chosen * step - remainder) / scale), 0)
        high = ceil(((chosen + 1) * step - remainder) / scale) - 1
        low, high = max(low, ceil(owed - reach)), min(high, floor(owed + reach))
        if chosen == natural or low > high:
            counted, chosen = max(0, owed), natural
        else:
            counted = min(max(owed, low), high)
        ticks = (*state.ticks, chosen)[-TICK_HISTORY:]
        return counted, ConditioningState(carry_ns=owed - counted, ticks=ticks)


CONDITIONERS: dict[str, Conditioner] = {
    mode.name: mode
    for mode in (RawConditioning(), SnapConditioning(), AverageConditioning(), GodotConditioning())
}
"""Every conditioning mode by name, in the order the U key cycles them."""
