"""`NetworkSettings`: one link between two peers, and the remote player at its far end.

A scenario's `[network]` section (`game.workshop.files.network_section`) is read into this. The
figures are the ones rollback netcode is tuned with: the one-way latency and its jitter, the
share of packets lost, the input delay (GGPO's frame delay) and the prediction window (GGPO's
`MAX_PREDICTION_FRAMES`, GGRS's `max_prediction`, both 8 by default).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

TimeSyncMode = Literal["none", "wait", "stretch"]
TIME_SYNC_MODES: tuple[TimeSyncMode, ...] = ("none", "wait", "stretch")
REAL_PEER = "peer"
"""The `network` knob's third value: a match's real peer when there is one (`--host`,
`--join`), the simulated one otherwise. A lesson step asks for it to use the room's neighbour."""
NETWORK_CHOICES: tuple[bool | str, ...] = (False, True, REAL_PEER)
"""The `network` knob's values: off, the simulated peer, a real one if connected."""
DEFAULT_PREDICTION_WINDOW = 8
"""GGPO's `MAX_PREDICTION_FRAMES` and GGRS's default `max_prediction`."""


@dataclass(frozen=True, slots=True)
class NetworkSettings:
    """The link and the remote player, exact. Every random draw comes from `seed`."""

    latency_ns: int = 0
    """One way, the least a packet takes."""
    jitter_ns: int = 0
    """Each packet takes 0 to this much longer than the latency (seeded, uniform)."""
    loss: Fraction = Fraction(0)
    """The share of packets that never arrive (0 to 1)."""
    input_delay: int = 0
    """Ticks between reading an input and the tick it is stamped for, on both peers."""
    prediction_window: int = DEFAULT_PREDICTION_WINDOW
    """At most this many ticks may run on predicted input; one more waits (a window stall)."""
    time_sync: TimeSyncMode = "none"
    """How the peer that is ahead slows down: not at all, GGPO's wait, GGRS's stretch."""
    seed: int = 0
    remote_late_ns: int = 0
    """The remote joined this much after us: its tick 0 runs this much later than ours, so we
    are that far ahead of it (what time sync is for)."""
    flips_per_s: Fraction = Fraction(2)
    """How often, on average, the remote player flips the cannon's trigger (at most once a
    tick: at the tick rate, every prediction is wrong)."""

    def __post_init__(self) -> None:
        for name in ("latency_ns", "jitter_ns", "input_delay", "seed", "remote_late_ns"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"{name} must be a whole number, at least 0 (got {value!r})")
        window = self.prediction_window
        if isinstance(window, bool) or not isinstance(window, int) or window < 1:
            raise ValueError(f"prediction_window must be at least 1 tick (got {window!r})")
        if not 0 <= self.loss <= 1:
            raise ValueError(f"loss must be from 0 to 1 (got {self.loss})")
        if self.flips_per_s < 0:
            raise ValueError(f"flips_per_s cannot be negative (got {self.flips_per_s})")
        if self.time_sync not in TIME_SYNC_MODES:
            raise ValueError(
                f"time_sync must be one of {', '.join(TIME_SYNC_MODES)} (got {self.time_sync!r})"
            )
