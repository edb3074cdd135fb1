"""`[network]` in a scenario: a remote peer, the link to it, and rollback.

    [network]
    latency_ms = 100         # one way, the least a packet takes
    jitter_ms = 20           # each packet 0 to this much later (seeded)
    loss = 0.05              # the share of packets lost (0 to 1)
    input_delay = 2          # ticks between reading an input and the tick it is for
    prediction_window = 8    # ticks that may run on predicted input (GGPO's and GGRS's 8)
    time_sync = "wait"       # "none", "wait" (GGPO: pause) or "stretch" (GGRS: 10% slower)
    seed = 7                 # every draw of the link and of the remote player
    remote_late_ms = 0       # the remote joined this much after us: we start that far ahead
    remote_flips_per_s = 2   # how often the remote player flips the cannon's trigger

The remote peer holds the cannon's trigger: its input, one per tick, switches the cannon on or
off (`game.network.peer` states the model). A scenario without `[network]` runs as before.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Annotated

from pydantic import Field

from game.config.exact import exact_number
from game.config.section import Section
from game.knobs import MAX_SEED
from game.network.settings import DEFAULT_PREDICTION_WINDOW, NetworkSettings, TimeSyncMode
from timestep_lab import NS_PER_MS

MAX_LATENCY_MS = 10_000
MAX_WINDOW = 120
"""Ticks of prediction: two seconds at 60 Hz, far past what any game ships (8)."""


class NetworkSection(Section):
    """`[network]`: the link to a remote peer and the rollback that hides its latency."""

    latency_ms: Annotated[Fraction, exact_number(at_least=0, at_most=MAX_LATENCY_MS)] = Fraction(0)
    """One-way latency, in ms (whole ns)."""
    jitter_ms: Annotated[Fraction, exact_number(at_least=0, at_most=MAX_LATENCY_MS)] = Fraction(0)
    """Each packet takes 0 to this much longer, in ms (seeded, whole ns)."""
    loss: Annotated[Fraction, exact_number(at_least=0, at_most=1, example="0.05")] = Fraction(0)
    """The share of packets lost, 0 to 1."""
    input_delay: Annotated[int, Field(ge=0, le=MAX_WINDOW)] = 0
    """Ticks between reading an input and the tick it is stamped for (GGPO's frame delay)."""
    prediction_window: Annotated[int, Field(ge=1, le=MAX_WINDOW)] = DEFAULT_PREDICTION_WINDOW
    """At most this many ticks run on predicted input; the next waits (a window stall)."""
    time_sync: TimeSyncMode = "none"
    """How the peer that is ahead slows down: "none", "wait" (GGPO) or "stretch" (GGRS)."""
    seed: Annotated[int, Field(ge=0, le=MAX_SEED)] = 0
    """Every random draw of the link and of the remote player: 0 to 2^64 - 1, as every seed in
    every file kind (the knob table's `MAX_SEED`)."""
    remote_flips_per_s: Annotated[Fraction, exact_number(at_least=0, at_most=1000, example="2")] = (
        Fraction(2)
    )
    """How often, on average, the remote player flips the cannon's trigger."""
    remote_late_ms: Annotated[Fraction, exact_number(at_least=0, at_most=MAX_LATENCY_MS)] = (
        Fraction(0)
    )
    """The remote joined this much after us, in ms (whole ns): we run that far ahead of it."""

    def resimulated_at_most(self, ticks: int) -> int:
        """The most ticks a run of `ticks` may re-simulate: a prediction can be wrong only when
        the remote flips its trigger, and then every tick may find one of its last
        `prediction_window` ticks wrong (the window stalls the run past that), so re-simulate
        them all. None with a remote that never flips. What a run's work is checked against
        (`game.workshop.files.scenario_checks.work_refusal`, `replay`)."""
        return ticks * self.prediction_window if self.remote_flips_per_s > 0 else 0

    @classmethod
    def of(cls, settings: NetworkSettings) -> NetworkSection:
        """The section that describes `settings` (`settings()` gives them back, exactly)."""
        return cls(
            latency_ms=Fraction(settings.latency_ns, NS_PER_MS),
            jitter_ms=Fraction(settings.jitter_ns, NS_PER_MS),
            loss=settings.loss,
            input_delay=settings.input_delay,
            prediction_window=settings.prediction_window,
            time_sync=settings.time_sync,
            seed=settings.seed,
            remote_flips_per_s=settings.flips_per_s,
            remote_late_ms=Fraction(settings.remote_late_ns, NS_PER_MS),
        )

    def settings(self) -> NetworkSettings:
        return NetworkSettings(
            latency_ns=int(self.latency_ms * NS_PER_MS),
            jitter_ns=int(self.jitter_ms * NS_PER_MS),
            loss=self.loss,
            input_delay=self.input_delay,
            prediction_window=self.prediction_window,
            time_sync=self.time_sync,
            seed=self.seed,
            flips_per_s=self.remote_flips_per_s,
            remote_late_ns=int(self.remote_late_ms * NS_PER_MS),
        )
