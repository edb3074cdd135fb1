"""`TimeBooks`: exact running totals over many frames, and the ledger check.

Each `StepPlan` balances on its own; the books check that the whole run balances too:

    initial carried + scaled time + granted == simulated time + dropped + final carried
    measured (unpaused) wall time == counted wall time + conditioning carry out - carry in

The second line is delta-time conditioning's account (`conditioning_carry_ns`): conditioning
moves measured time between frames, never makes or loses it.

The explainer's summary, the headless simulation and the HUD's totals all read these books.

Books can also be opened in the middle of a run (`TimeBooks.from_now`, when a lesson step starts
counting afresh): they then take over the time carried at that moment and count simulated time
from there, so the same equation holds, to the grain, for the part of the run they saw.

The totals are kept in the plans' own integer grains while the grain stays the same (an int
addition per frame, where four `Fraction` additions cost a sweep of 200 runs several seconds),
and folded into exact `Fraction` nanoseconds only when the grain changes (a new time scale or
tick rate can make it finer). Read out, they are the same exact values either way.
"""

from __future__ import annotations

from fractions import Fraction

from timestep_lab._plan import StepPlan
from timestep_lab._units import round_ns


class TimeBooks:
    """Totals of wall, paused, scaled, simulated and dropped time, in exact nanoseconds.

    Keep one from the scheduler's first frame, so that its simulated time is all on the books,
    or open one mid-run with `from_now`.
    """

    def __init__(
        self, initial_carried_ns: Fraction | int = 0, *, initial_sim_ns: Fraction | int = 0
    ) -> None:
        self.initial_carried_ns = Fraction(initial_carried_ns)
        self.initial_sim_ns = Fraction(initial_sim_ns)
        """The scheduler's simulated time when these books were opened (0 from the start)."""
        self.frames = 0
        self.ticks = 0
        self.rewound_ticks = 0
        """Ticks a rewind took the world back (Timestep Lab's Backspace): its tick is where the
        books opened, plus `ticks`, minus these. The time they simulated stays on the books."""
        self.wall_ns = 0
        self.paused_ns = 0
        self.every_frame_balanced = True
        self.last: StepPlan | None = None
        """The last plan written in (or, for books opened mid-run, the one they opened after)."""
        self._grains_per_ns = 1
        """The grain of the four sums below; what came before it is folded into `_folded`."""
        self._scaled = self._granted = self._stepped = self._dropped = 0
        self._folded: tuple[Fraction | int, ...] = (0, 0, 0, 0)
        """The sums of earlier grains, in exact ns: `int` zeros until a grain changes (the lag
        asks whether anything dropped was folded every frame; an int answers without a call)."""
        self._dropped_ns: Fraction | None = Fraction(0)
        """`dropped_ns`, kept until a frame drops something: the lag reads it every frame."""
        self.counted_ns = 0
        """Measured (unpaused) wall time the scheduler counted after conditioning."""
        self.initial_conditioning_ns = 0
        """The conditioning account when these books were opened (0 from the start)."""

    @classmethod
    def from_now(cls, books: TimeBooks) -> TimeBooks:
        """Fresh books that open where `books` stand now: nothing dropped, stepped or elapsed
        yet, the time carried at this moment as their initial carried time, and simulated time
        counted from here. The ledger of the new books balances on its own."""
        fresh = cls(books.carried_ns, initial_sim_ns=books.initial_sim_ns + books.sim_time_ns)
        fresh.last = books.last
        fresh.initial_conditioning_ns = books.conditioning_carry_ns
        return fresh

    def record(self, plan: StepPlan) -> None:
        """Add one plan (a frame, or a single step while paused) to the totals."""
        ledger = plan.ledger
        if ledger.granted == 0:
            self.frames += 1
            self.wall_ns += plan.elapsed_ns
            if plan.indicators.paused:
                self.paused_ns += plan.elapsed_ns
        self.ticks += ledger.steps
        if ledger.grains_per_ns != self._grains_per_ns:
            self._fold(ledger.grains_per_ns)
        self._scaled += ledger.scaled
        self._granted += ledger.granted
        self._stepped += ledger.steps * ledger.dt
        if ledger.dropped:
            self._dropped += ledger.dropped
            self._dropped_ns = None
        self.counted_ns += plan.account.counted_ns
        self.every_frame_balanced = self.every_frame_balanced and plan.balances
        self.last = plan

    def _fold(self, grains_per_ns: int) -> None:
        """Move the sums into exact ns before counting in a new grain."""
        sums = (self._scaled, self._granted, self._stepped, self._dropped)
        self._folded = tuple(
            folded + Fraction(grains, self._grains_per_ns) if grains else folded
            for folded, grains in zip(self._folded, sums, strict=True)
        )
        self._scaled = self._granted = self._stepped = self._dropped = 0
        self._grains_per_ns = grains_per_ns
        self._dropped_ns = None

    def _ns(self, which: int, grains: int) -> Fraction:
        folded = self._folded[which]
        exact = Fraction(grains, self._grains_per_ns)
        return exact + folded if folded else exact

    @property
    def scaled_ns(self) -> Fraction:
        """Wall time after the time scale, handed to the scheduler (paused time is not)."""
        return self._ns(0, self._scaled)

    @property
    def granted_ns(self) -> Fraction:
        """Time granted by single steps while paused."""
        return self._ns(1, self._granted)

    @property
    def stepped_ns(self) -> Fraction:
        """Time simulated by the ticks run."""
        return self._ns(2, self._stepped)

    @property
    def dropped_ns(self) -> Fraction:
        """Time the overload policy threw away."""
        if self._dropped_ns is None:
            self._dropped_ns = self._ns(3, self._dropped)
        return self._dropped_ns

    @property
    def lag_ns(self) -> Fraction:
        """Dropped plus carried: scaled wall time minus simulated time."""
        return Fraction(*self.lag_parts)

    @property
    def lag_parts(self) -> tuple[int, int]:
        """`lag_ns` as (numerator, denominator), not yet made a `Fraction` (nor reduced): a
        headless run keeps the lag of every frame and makes the `Fraction` only when a frame's
        is read (`FrameReport.lag_ns`), as a `Fraction` costs some twenty times a tuple. While
        the sums are in the last plan's grain it is a grain sum over the grains per ns."""
        last = self.last
        if last is None or last.ledger.grains_per_ns != self._grains_per_ns or self._folded[3]:
            exact = self.dropped_ns + self.carried_ns
            return exact.numerator, exact.denominator
        return self._dropped + last.ledger.carried_out, self._grains_per_ns

    @property
    def carried_ns(self) -> Fraction:
        return self.last.carried_out_ns if self.last else self.initial_carried_ns

    @property
    def conditioning_carry_ns(self) -> int:
        """The conditioning account: measured time not counted yet (negative: counted ahead)."""
        return self.last.conditioning_carry_ns if self.last else self.initial_conditioning_ns

    @property
    def remainder_ns(self) -> Fraction:
        return self.last.remainder_ns if self.last else self.initial_carried_ns

    @property
    def backlog_steps(self) -> int:
        return self.last.backlog_steps if self.last else 0

    @property
    def sim_time_ns(self) -> Fraction:
        """Simulated time on these books, as the scheduler counts it (it must equal the stepped
        total): the scheduler's simulated time minus what it was when the books opened."""
        return self.last.sim_time_ns - self.initial_sim_ns if self.last else Fraction(0)

    @property
    def ledger_ok(self) -> bool:
        """Every frame balanced, and so did the whole run, to the grain."""
        came_in = self.initial_carried_ns + self.scaled_ns + self.granted_ns
        went_out = self.stepped_ns + self.dropped_ns + self.carried_ns
        measured = self.wall_ns - self.paused_ns
        moved = self.conditioning_carry_ns - self.initial_conditioning_ns
        return (
            self.every_frame_balanced
            and came_in == went_out
            and self.stepped_ns == self.sim_time_ns
            and measured == self.counted_ns + moved
        )

    def summary(self) -> dict[str, int | bool]:
        """The explainer's summary; `*_ns` values are the exact values rounded to whole ns."""
        return {
            "frames": self.frames,
            "ticks": self.ticks,
            "wall_ns": self.wall_ns,
            "paused_ns": self.paused_ns,
            "scaled_ns": round_ns(self.scaled_ns),
            "sim_time_ns": round_ns(self.sim_time_ns),
            "dropped_ns": round_ns(self.dropped_ns),
            "remainder_ns": round_ns(self.remainder_ns),
            "backlog_steps": self.backlog_steps,
            "conditioning_carry_ns": self.conditioning_carry_ns,
            "ledger_ok": self.ledger_ok,
        }
