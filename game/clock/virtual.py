"""`VirtualClock`: frame times computed instead of measured, so a run is the same on any laptop.

A real frame lasts as long as its work, or one frame budget (1 / render fps) when the pacer has
to wait; a stall makes it longer still. The virtual clock writes that down as a formula:

    frame length = max(1 / render_fps, render_cost + steps_last_frame x step_cost)
                   + jitter + stall

`steps_last_frame` is the number of ticks the previous frame ran: their cost is what this frame
waited for. So a step cost above the step makes the `uncapped` policy owe more ticks every frame,
and spiral, exactly as the real game does, without any machine being slow.

Exactness. Frame boundaries fall on exact rational times (1/144 s is 6,944,444 4/9 ns), and each
frame hands the scheduler the whole-nanosecond difference of two consecutive *floored*
boundaries. The fractions never pile up: whatever one frame's floor leaves behind the next frame
picks up, so 1,440 frames at 144 fps hand over exactly 10,000,000,000 ns and end on tick 600 at
60 Hz. Nothing here sleeps, and nothing reads a real clock.

The tick phase. Where the frames fall among the ticks matters as much as how long they are: at
60 Hz and 30 fps every steady frame holds two ticks' time, but a frame that ends exactly on a
tick boundary lands, once floored to whole ns, a third of a nanosecond short of it, and the
frames run 1, 2, 3, 1, 2, 3 ticks. `phase_ns` makes the first frame that much longer, so that
every steady frame after it ends that far into a tick (half a step: mid-tick, what docs/input.md's
input table assumes); 0 keeps the frames starting on a tick boundary.

`next_frame` is the clock as a `FrameSource` (`timestep_lab.FrameSource`): the formula above
(`frame_length`), the run's end (`ends_after`), then the move to the next boundary (`move_on`),
all three worked out in whole units of the clock (see `VirtualClock`).
"""

from __future__ import annotations

import math
from fractions import Fraction

from timestep_lab import NS_PER_SECOND, FrameRan

_MASK_64 = (1 << 64) - 1


class FrameJitter:
    """Seeded noise added to every frame: a whole number of ns from 0 to `max_ns`.

    The generator is SplitMix64, written out here (a dozen lines of integer arithmetic) rather
    than borrowed from `random` or numpy, whose streams may change between versions: a scenario's
    jitter must be the same frame by frame next year. Drawing with `% (max_ns + 1)` favours small
    values by less than one part in 10^9 for any jitter under a second.
    """

    def __init__(self, max_ns: int, seed: int) -> None:
        if isinstance(max_ns, bool) or not isinstance(max_ns, int) or max_ns < 0:
            raise ValueError(f"max_ns must be a whole number of ns, at least 0 (got {max_ns!r})")
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise ValueError(f"seed must be a whole number, at least 0 (got {seed!r})")
        self.max_ns = max_ns
        self._state = seed & _MASK_64

    def draw_ns(self) -> int:
        """The next frame's jitter."""
        if self.max_ns == 0:
            return 0
        self._state = (self._state + 0x9E3779B97F4A7C15) & _MASK_64
        mixed = self._state
        mixed = ((mixed ^ (mixed >> 30)) * 0xBF58476D1CE4E5B9) & _MASK_64
        mixed = ((mixed ^ (mixed >> 27)) * 0x94D049BB133111EB) & _MASK_64
        mixed ^= mixed >> 31
        return mixed % (self.max_ns + 1)


def _exact(value: object, name: str) -> Fraction:
    if isinstance(value, bool) or not isinstance(value, int | Fraction):
        raise TypeError(f"{name} must be an int or Fraction, not {type(value).__name__}")
    return Fraction(value)


class VirtualClock:
    """Exact frame boundaries for headless runs. `end_ns` starts at 0 and only moves forward.

    Inside, every time is a whole number of the clock's unit, 1/`_per_ns` ns: the boundary, the
    budget, the render cost and their longer one. A frame is then integer sums and one
    comparison, where `Fraction`s would make and reduce a new fraction at every step (a
    10-minute run at 144 fps has 86,400 frames). The unit gets finer, exactly, when a value
    needs it (`_refine`); `end_ns` and the lengths handed out are the same either way.
    """

    def __init__(
        self,
        render_fps: Fraction | int,
        render_cost_ns: Fraction | int = 0,
        *,
        jitter: FrameJitter | None = None,
        phase_ns: Fraction | int = 0,
    ) -> None:
        self._ticks = 0
        """The exact time of the last boundary is `_ticks / _per_ns` ns."""
        self._per_ns = 1
        self._now: Fraction | None = Fraction(0)
        self._now_ns = 0
        self._budget = Fraction(0)
        self._render_cost = Fraction(0)
        self._least = Fraction(0)
        self._budget_units = self._cost_units = self._least_units = 0
        self._pending_stall: Fraction | int = 0
        self.held_stall_ns: Fraction | int = 0
        """The stall time of the frames the clock moved through (a stall in a frame that was
        computed but not begun, the one after a run's end, is not in it)."""
        self._last_length = (0, 1)
        self.set_render(render_fps, render_cost_ns)
        self.jitter = jitter
        self.phase_ns = _exact(phase_ns, "phase_ns")
        """How much longer the first frame lasts: where the clock starts within a tick."""
        if self.phase_ns < 0:
            raise ValueError(f"phase_ns cannot be negative (got {self.phase_ns})")
        self._phase_due: Fraction | int = self.phase_ns or 0
        """The phase the first frame still owes; an `int` 0 when none (asked every frame, and the
        truth of a `Fraction` is a Python call, of an int none)."""

    @property
    def end_ns(self) -> Fraction:
        """The exact time of the last frame boundary, in ns since the start."""
        if self._now is None:
            self._now = Fraction(self._ticks, self._per_ns)
        return self._now

    def now_ns(self) -> int:
        """The last boundary, floored to whole ns: what a real clock would have read."""
        return self._now_ns

    @property
    def budget_ns(self) -> Fraction:
        """One frame at the render rate: the shortest a frame can be."""
        return self._budget

    @property
    def render_cost_ns(self) -> Fraction:
        return self._render_cost

    @property
    def last_length_ns(self) -> Fraction:
        """The length of the last frame computed, begun or not (0 before the first)."""
        return Fraction(*self._last_length)

    def set_render(
        self, render_fps: Fraction | int | None = None, render_cost_ns: Fraction | int | None = None
    ) -> None:
        """Change the render rate or the cost of drawing a frame, from the next frame on."""
        if render_fps is not None:
            fps = _exact(render_fps, "render_fps")
            if fps <= 0:
                raise ValueError(f"render_fps must be positive (got {fps})")
            self._budget = NS_PER_SECOND / fps
        if render_cost_ns is not None:
            cost = _exact(render_cost_ns, "render_cost_ns")
            if cost < 0:
                raise ValueError(f"render_cost_ns cannot be negative (got {cost})")
            self._render_cost = cost
        budget, cost = self._budget, self._render_cost
        self._least = cost if cost > budget else budget
        self._refine(budget.denominator)
        self._refine(cost.denominator)
        per_ns = self._per_ns
        self._budget_units = budget.numerator * (per_ns // budget.denominator)
        self._cost_units = cost.numerator * (per_ns // cost.denominator)
        self._least_units = max(self._budget_units, self._cost_units)

    @property
    def least_length_ns(self) -> Fraction:
        """A frame whose ticks cost nothing, without jitter or stall: the longer of the budget
        and the render cost (worked out when they change, not every frame)."""
        return self._least

    def next_frame(self, ran: FrameRan, until_ns: Fraction | int | None = None) -> int | None:
        """The next frame, as `FrameSource.next_frame` says: its length from what `ran` ran,
        worked out in the clock's whole units (no `Fraction` made)."""
        units = self._length_units(ran.steps, ran.step_cost_ns, ran.stall_ns)
        if until_ns is not None:
            ends = (self._ticks + units) * until_ns.denominator
            if ends > until_ns.numerator * self._per_ns:
                return None
        return self._advance(units)

    def frame_length(
        self, steps_last_frame: int, step_cost_ns: Fraction | int, stall_ns: Fraction | int = 0
    ) -> Fraction:
        """How long the next frame lasts, exactly (it draws the frame's jitter: call it once)."""
        units = self._length_units(steps_last_frame, step_cost_ns, stall_ns)
        if units == self._least_units:  # a quiet frame: the length made when the knobs changed
            return self._least
        return Fraction(units, self._per_ns)

    def _length_units(
        self, steps_last_frame: int, step_cost_ns: Fraction | int, stall_ns: Fraction | int
    ) -> int:
        """`frame_length` in the clock's units; the unit is made fine enough for the step cost,
        the stall and the tick phase first, so that every term is a whole number of it."""
        costed = steps_last_frame and step_cost_ns
        if costed:
            self._refine(step_cost_ns.denominator)
        if stall_ns:
            self._refine(stall_ns.denominator)
        if self._phase_due:
            self._refine(Fraction(self._phase_due).denominator)
        per_ns = self._per_ns
        units = self._least_units
        if costed:
            step_units = step_cost_ns.numerator * (per_ns // step_cost_ns.denominator)
            work = self._cost_units + steps_last_frame * step_units
            units = work if work > self._budget_units else self._budget_units
        if self.jitter is not None:
            units += self.jitter.draw_ns() * per_ns
        if stall_ns:
            units += stall_ns.numerator * (per_ns // stall_ns.denominator)
        if self._phase_due:  # the first frame only
            units += self._phase_units()
        self._pending_stall = stall_ns
        self._last_length = (units, per_ns)
        return units

    def _phase_units(self) -> int:
        """The tick phase in the clock's units (already fine enough for it), handed out once:
        the first frame's."""
        phase, self._phase_due = Fraction(self._phase_due), 0
        return phase.numerator * (self._per_ns // phase.denominator)

    def ends_after(self, length: Fraction | int, until_ns: Fraction | int) -> bool:
        """Whether a frame of `length` from the last boundary would end after `until_ns`:
        `now + length > until_ns`, worked out on whole numbers (a run asks every frame)."""
        per_ns, length_over = self._per_ns, length.denominator
        ends = (self._ticks * length_over + length.numerator * per_ns) * until_ns.denominator
        return ends > until_ns.numerator * per_ns * length_over

    def time_until(self, at_ns: Fraction | int) -> Fraction:
        """`at_ns - end_ns`, exactly (negative when `at_ns` is past), without making `end_ns`."""
        per_ns, over = self._per_ns, at_ns.denominator
        return Fraction(at_ns.numerator * per_ns - self._ticks * over, over * per_ns)

    def move_on(self, length: Fraction | int) -> int:
        """Move to the next boundary; return the frame's whole-ns duration for the scheduler."""
        if type(length) is not Fraction:
            length = _exact(length, "length")
        if length.numerator < 0:
            raise ValueError(f"a frame cannot last less than nothing (got {length} ns)")
        self._refine(length.denominator)
        return self._advance(length.numerator * (self._per_ns // length.denominator))

    def _advance(self, units: int) -> int:
        """Move the boundary on by `units`; the stall of the frame computed last was held."""
        if self._pending_stall:  # most frames hold no stall: no sum to make
            self.held_stall_ns += self._pending_stall
            self._pending_stall = 0
        self._ticks += units
        self._now = None
        before = self._now_ns
        self._now_ns = self._ticks // self._per_ns
        return self._now_ns - before

    def _refine(self, denominator: int) -> None:
        """Make the unit fine enough to count 1/`denominator` ns in whole numbers: the least
        common multiple, everything kept in units rescaled exactly (it only ever gets finer)."""
        per_ns = self._per_ns
        if per_ns % denominator:
            finer = math.lcm(per_ns, denominator)
            scale = finer // per_ns
            self._ticks *= scale
            self._budget_units *= scale
            self._cost_units *= scale
            self._least_units *= scale
            self._per_ns = finer
