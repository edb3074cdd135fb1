"""`RemotePeer`: the far end of the link, simulated from a seed, and the packets it sends.

The model, stated once. The remote machine is healthy: it runs one tick every step of the wall
clock (longer under time sync: a wait skips whole frames, a stretch makes a tick 10% longer),
starting `remote_late_ns` after us (0: with us, at time 0); like our scheduler, it runs tick j
once j + 1 steps have passed since it started.
On each tick j it reads its player's input for tick j + input_delay
(the player flips the cannon's trigger at seeded random ticks, `flips_per_s` on average) and
sends a packet. A packet carries every input we have not confirmed as far as the remote knows
(our acknowledgement rides back at the base latency, never lost), as GGPO sends every input not
yet acknowledged; so a lost packet's inputs come with the next one that arrives. A packet is
lost with probability `loss`, else it arrives after the latency plus 0 to `jitter` (seeded,
uniform, in whole ns), floored to a whole ns as a clock would read it: packets may overtake
each other. The first `input_delay` ticks have no
input read for them: they hold the trigger's first value, known to both peers from the start.

Who is ahead: each peer hears, with the base latency, the other's tick and averaged lead (the
remote hears us as `Heard`, we hear it as `Told`: small messages, never lost, as the
acknowledgements are), estimates the other's tick now as the one heard plus the latency in
ticks, and runs its own `TimeSync` on the difference (ours: `game.session.pacing`).
"""

from __future__ import annotations

import heapq
import math
from collections import deque
from collections.abc import Callable
from fractions import Fraction
from typing import NamedTuple

from game.network.draws import Draws
from game.network.settings import NetworkSettings
from game.network.time_sync import TimeSync
from timestep_lab import NS_PER_SECOND

MAX_INPUTS_PER_PACKET = 256
"""The most inputs one packet carries (the newest): a link that lost more than this many in a
row for good has broken, as GGPO disconnects."""


class AvatarMove(NamedTuple):
    """A real peer's input for one tick: its avatar's run direction held (-1, 0, 1), and its
    jump and dash presses (`game.world.avatar.AvatarInput` without the tick)."""

    run: int = 0
    jumps: int = 0
    dashes: int = 0


RemoteInput = bool | AvatarMove
"""One tick's input from the remote: the simulated player's trigger (True: on), or a real
peer's avatar move."""


class Packet(NamedTuple):
    """One packet from the remote: when it arrives, its sender's tick, and the inputs for
    ticks `first_tick`, `first_tick + 1`, ..."""

    arrives_ns: int
    sent_tick: int
    first_tick: int
    inputs: tuple[RemoteInput, ...]


class Heard(NamedTuple):
    """What the remote knows of us at a moment: our tick, the last tick whose remote input we
    had confirmed, and our averaged lead over it (all as they stood one latency earlier)."""

    tick: int
    confirmed: int
    lead: Fraction


class Told(NamedTuple):
    """What we know of the remote at a moment: its tick and its averaged lead over us (in
    ticks; negative: behind), as they stood one latency earlier."""

    tick: int
    lead: Fraction


class RemotePeer:
    """The remote machine's ticks and sends, computed up to any moment of our wall clock."""

    def __init__(self, settings: NetworkSettings, step_ns: Fraction, first: bool) -> None:
        self.settings = settings
        self.step_ns = step_ns
        self.tick = 0
        """The remote's next tick."""
        self._next_frame_ns = settings.remote_late_ns + step_ns
        self._first = first
        self._inputs: list[bool] = [first] * settings.input_delay
        self._latency_ticks = Fraction(settings.latency_ns) / step_ns
        self._flip_chance = min(Fraction(1), settings.flips_per_s * step_ns / NS_PER_SECOND)
        self._flips = Draws(settings.seed, 1)
        self._delays = Draws(settings.seed, 2)
        self._losses = Draws(settings.seed, 3)
        self._in_flight: list[tuple[int, int, Packet]] = []
        self._told: deque[tuple[Fraction, Told]] = deque()
        """Each frame's start and what the remote was then, until we have heard it."""
        self._sync = TimeSync(settings.time_sync)
        self._waiting = 0
        self.sent = 0
        self.lost = 0
        self.waited_frames = 0
        """Frames the remote ran no tick, waiting for us (`wait`)."""
        self.stretched_ticks = 0
        """Ticks the remote made 10% longer (`stretch`)."""

    def input_for(self, tick: int) -> bool:
        """The input the remote read for `tick` (it must have been read already)."""
        return self._inputs[tick]

    def run_until(self, now_ns: Fraction | int, heard: Callable[[Fraction], Heard | None]) -> None:
        """Run the remote's frames that begin by `now_ns`; `heard(t)` says what it knows of
        us at its frame's start t (our state one latency before t; None: nothing yet)."""
        latency = self.settings.latency_ns
        while self._next_frame_ns <= now_ns:
            at = self._next_frame_ns
            self._frame(at, heard(at - latency))

    def told(self, at: Fraction | int) -> Told | None:
        """What the remote was at its last frame start by `at` (None before its first). Ask
        with times that never go back: what is older is forgotten."""
        told = self._told
        while len(told) > 1 and told[1][0] <= at:
            told.popleft()
        return told[0][1] if told and told[0][0] <= at else None

    def arrivals(self, now_ns: Fraction | int) -> list[Packet]:
        """The packets that have arrived by `now_ns`, in the order they arrived."""
        flight = self._in_flight
        arrived = []
        while flight and flight[0][0] <= now_ns:
            arrived.append(heapq.heappop(flight)[2])
        return arrived

    def _frame(self, at: Fraction, us: Heard | None) -> None:
        """One frame; its time sync only once it has heard us (GGPO's, once the peers have
        synchronized: until then each would take the other for standing still)."""
        step = self.step_ns
        sync = self._sync
        if us is not None:
            sync.saw(self.tick - us.tick - self._latency_ticks)
            if not self._waiting:
                self._waiting = sync.wait_frames(us.lead)
        self._told.append((at, Told(self.tick, sync.average)))
        if self._waiting:
            self._waiting -= 1
            self.waited_frames += 1
            self._next_frame_ns = at + step
            return
        self._send(at, self.settings.input_delay - 1 if us is None else us.confirmed)
        self.tick += 1
        factor = Fraction(1) if us is None else sync.step_factor(us.lead)
        if factor != 1:
            self.stretched_ticks += 1
        self._next_frame_ns = at + step * factor

    def _send(self, at: Fraction, confirmed: int) -> None:
        """Read the input for tick + delay and send every input not confirmed yet."""
        inputs = self._inputs
        last = inputs[-1] if inputs else self._first
        inputs.append(last != self._flips.chance(self._flip_chance))
        newest = len(inputs) - 1
        first = max(confirmed + 1, newest - MAX_INPUTS_PER_PACKET + 1, 0)
        lost = self._losses.chance(self.settings.loss)
        delay = self.settings.latency_ns + self._delays.up_to(self.settings.jitter_ns)
        self.sent += 1
        if lost:
            self.lost += 1
            return
        packet = Packet(math.floor(at + delay), self.tick, first, tuple(inputs[first:]))
        heapq.heappush(self._in_flight, (packet.arrives_ns, self.sent, packet))
