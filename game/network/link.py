"""`Link`: what rollback asks of the other end, whichever end it is.

Rollback (`game.session.rollback`) talks to the remote peer through three calls, once a frame,
in this order, and nothing else:

- `send(now_ns, us, first, inputs)`: where we are (`Heard`: our tick, the last tick whose remote
  input we have confirmed, our averaged lead over the remote) and our inputs for the ticks
  `first`, `first + 1`, ... read since the last call;
- `arrivals(now_ns)`: the packets that arrived since the last call, in the order they arrived;
- `remote(now_ns)`: the remote's tick as we estimate it now, and its averaged lead over us (for
  time sync), or None before we have heard it.

And, for the HUD, `one_way_ns`: the link's one-way latency, set (simulated) or measured (half the
last round trip); the datagrams `sent` to the peer, and the peer's `lost`.

Two links answer them. `SimulatedLink` wraps the seeded remote peer (`game.network.peer`): it
ignores our inputs (its player does not watch ours) and hears where we are over its lossless
side channel. `UdpLink` (`game.network.udp_link`) is a real peer on the other end of a socket:
our inputs and where we are travel in its packets, with every input the peer has not
acknowledged, so a lost packet is made good by the next.

Times are our wall clock as rollback counts it (the sum of the frames' lengths, whole ns): a
link never reads a clock. Ticks are counted from the connection (the remote's tick 0).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from fractions import Fraction
from typing import NamedTuple, Protocol

from game.network.peer import Heard, Packet, RemoteInput, RemotePeer


class Remote(NamedTuple):
    """The remote as we estimate it now: its tick (a fraction: heard, plus the ticks the news
    took to reach us) and its averaged lead over us, in ticks."""

    tick: Fraction
    lead: Fraction


class Link(Protocol):
    """The other end of the link, as rollback sees it."""

    def send(self, now_ns: int, us: Heard, first: int, inputs: Sequence[RemoteInput]) -> None: ...

    def arrivals(self, now_ns: int) -> list[Packet]: ...

    def remote(self, now_ns: int) -> Remote | None: ...

    @property
    def one_way_ns(self) -> int: ...

    @property
    def sent(self) -> int: ...

    @property
    def lost(self) -> int: ...


class SimulatedLink:
    """The seeded remote peer behind the link interface: what it hears of us travels at the base
    latency and is never lost (its acknowledgements, as `game.network.peer` states)."""

    def __init__(self, peer: RemotePeer) -> None:
        self.peer = peer
        self._history: deque[tuple[int, Heard]] = deque()
        """Where we were at each frame start, until the remote has heard it."""
        self._latency_ticks = Fraction(peer.settings.latency_ns) / peer.step_ns

    def send(self, now_ns: int, us: Heard, first: int, inputs: Sequence[RemoteInput]) -> None:
        """Where we are reaches the remote one latency from now; our inputs are not sent (the
        simulated player does not watch ours)."""
        self._history.append((now_ns, us))

    def arrivals(self, now_ns: int) -> list[Packet]:
        """Run the remote up to now, then collect what it sent that has arrived."""
        self.peer.run_until(now_ns, self._heard)
        return self.peer.arrivals(now_ns)

    @property
    def one_way_ns(self) -> int:
        return self.peer.settings.latency_ns

    @property
    def sent(self) -> int:
        return self.peer.sent

    @property
    def lost(self) -> int:
        return self.peer.lost

    def remote(self, now_ns: int) -> Remote | None:
        """The remote's tick one latency ago, plus the latency in ticks."""
        them = self.peer.told(now_ns - self.peer.settings.latency_ns)
        if them is None:
            return None
        return Remote(them.tick + self._latency_ticks, them.lead)

    def _heard(self, at: Fraction) -> Heard | None:
        """What the remote knows of us at `at`: our state at the last frame start by then
        (None before our first)."""
        history = self._history
        while len(history) > 1 and history[1][0] <= at:
            history.popleft()
        if history and history[0][0] <= at:
            return history[0][1]
        return None
