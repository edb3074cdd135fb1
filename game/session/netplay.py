"""The live game's remote peer: the network controls turned into a connected `Rollback`.

A headless run connects once, before its first frame, with its scenario's `[network]`
(`LabSession.connect`). The game connects and disconnects while it runs: `;` turns the remote
peer on and off, `'` steps its latency, and a lesson step sets the rest. A lesson step's
`network = "peer"` asks for a real peer: in a match (`--host`, `--join`) the match's link is
left as it is (no control here reconnects a match); otherwise it is the simulated peer.

Every such change is made between frames, and makes a new connection from the tick the world
is at (the remote's tick 0 is ours then, `Rollback.origin`): a fresh link, an empty prediction,
a new confirmed peer to catch desyncs. The tick rate is part of the link (the remote ticks at
ours), so a new one connects again too.

Rollback covers lane 0 only, so split screen runs without the remote peer (the controls are
kept, and the peer comes back when split screen ends). A recording (`--record`) keeps each
connection, at the tick it was made, with its settings (`LinkLog`), and each arrival of the
remote's inputs: its replay connects again at the same ticks and hands them back.
"""

from __future__ import annotations

from collections.abc import Callable

from game.network.settings import TIME_SYNC_MODES, NetworkSettings, TimeSyncMode
from game.session.controls import Controls
from game.session.lane import Lane
from game.session.rollback import Rollback
from timestep_lab import NS_PER_MS, hz_to_step_ns

LIVE_SEED = 1
"""The live game's link and remote player draw from this seed: the same game every time."""

NETWORK_CONTROLS = (
    "network",
    "latency_ms",
    "input_delay",
    "prediction_window",
    "time_sync",
    "remote_late_ms",
    "remote_flips_per_s",
    "hz",
    "policies",
)
"""The controls that make a new connection when they change (`policies`: split screen)."""


def network_settings(controls: Controls) -> NetworkSettings:
    """The link and the remote player the controls describe (no jitter, no loss)."""
    time_sync: TimeSyncMode = next(
        (mode for mode in TIME_SYNC_MODES if mode == controls.time_sync), "none"
    )  # the knob took only these
    return NetworkSettings(
        latency_ns=int(controls.latency_ms * NS_PER_MS),
        input_delay=controls.input_delay,
        prediction_window=controls.prediction_window,
        time_sync=time_sync,
        seed=LIVE_SEED,
        remote_late_ns=int(controls.remote_late_ms * NS_PER_MS),
        flips_per_s=controls.remote_flips_per_s,
    )


def link_changed(old: Controls, new: Controls) -> bool:
    """Whether turning `old` into `new` connects, disconnects or connects again. Never when the
    network is off before and after: a headless run's own connection is left alone."""
    if not (old.network or new.network):
        return False
    return any(getattr(old, name) != getattr(new, name) for name in NETWORK_CONTROLS)


LinkLog = Callable[[int, Rollback | None], None]
"""Told of each new connection of the live game (None: disconnected) and lane 0's tick then."""


def live_rollback(controls: Controls, lane: Lane) -> Rollback | None:
    """A new connection from the tick of the lane's world, or None: the network off, or split
    screen. Either way no wait of the last connection's time sync is left
    pending (its stretch is gone already: the controls set the lane's time scale again)."""
    lane.scheduler.hold(0)
    if not controls.network or controls.split:
        return None
    return Rollback.online(lane.world, network_settings(controls), hz_to_step_ns(controls.hz))
