"""`UdpLink`: a real peer at the other end of a UDP socket, behind rollback's link interface.

Once a frame rollback calls `send`, `arrivals` and `remote` (`game.network.link`). `send` sends
one `INPUTS` datagram (`game.network.packets`): where we are, and every input of ours the peer
has not acknowledged yet, so a lost datagram costs nothing once the next one arrives: the way
GGPO sends. The peer's acknowledgement rides in its own datagrams: the last tick of ours it has
confirmed. `arrivals` reads whatever the socket holds, without waiting (the socket is
non-blocking), and hands rollback the peer's inputs as they arrived.

Who is ahead: each datagram says its sender's tick; the peer's tick now is the one heard plus
the ticks since it was sent (half the round trip, plus the time since it arrived). The round trip
is measured without shared clocks: each datagram echoes the last clock reading of ours the peer
heard, and how long it held it.

A `LinkConditioner` (`game.network.conditioner`), when given, holds each datagram sent for the
match's latency and jitter, or loses it: a room's fast network made slow on purpose.

The link never reads a clock: its times are rollback's (the frames' lengths added up).
"""

from __future__ import annotations

import contextlib
import socket
from collections import Counter
from collections.abc import Sequence
from fractions import Fraction

from game.network.address import Address
from game.network.conditioner import LinkConditioner
from game.network.link import Remote
from game.network.packets import (
    MAX_DATAGRAM,
    MAX_SENT_MOVES,
    STALE,
    STRANGER,
    Inputs,
    goodbye,
    inputs,
    read_inputs,
)
from game.network.peer import AvatarMove, Heard, Packet, RemoteInput

SEEN_SEQUENCES = 4096
"""Sequence numbers remembered, to tell a duplicate from a new datagram."""


class UdpLink:
    """Our half of a match's link: the socket, our unacknowledged inputs, and the counts."""

    def __init__(
        self,
        sock: socket.socket,
        peer: Address,
        step_ns: Fraction,
        round_trip_ns: int,
        conditioner: LinkConditioner | None = None,
    ) -> None:
        sock.setblocking(False)
        self._sock = sock
        self.conditioner = conditioner
        """Holds or loses what we send (None: each datagram goes as it is sent)."""
        self.peer = peer
        self.step_ns = step_ns
        self.round_trip_ns = round_trip_ns
        """The last round trip measured (the handshake's, until the first echo)."""
        self._unacked: list[AvatarMove] = []
        self._unacked_first = 0
        """The tick of the first input in `_unacked`."""
        self.acked = -1
        """The last tick of ours whose input the peer has confirmed."""
        self._heard: tuple[int, int, Fraction] | None = None
        """When we last heard the peer (our clock), its tick then, its averaged lead."""
        self._echo: tuple[int, int] = (-1, 0)
        """The peer's clock in its last datagram, and ours when it arrived (-1: none yet)."""
        self._seen: set[int] = set()
        self._highest = -1
        self.sent = 0
        self.received = 0
        self.drops: Counter[str] = Counter()
        """Datagrams dropped, by reason (`game.network.packets.DROPPED`)."""
        self.last_heard_ns = 0
        """When the peer's last well-formed datagram arrived (our clock; 0: the start)."""
        self.left = False
        """The peer said goodbye: it has quit."""
        self.our_check: tuple[int, bytes] = (-1, bytes(8))
        """The last confirmed tick's state hash we know, sent in each datagram (`Match`)."""
        self.their_checks: dict[int, bytes] = {}
        """The peer's confirmed state hashes by tick, until compared with ours."""
        self._last_us: Heard | None = None
        """Where we were in the last datagram sent (`tell_check` says it again)."""

    @property
    def lost(self) -> int:
        """Sequence numbers never received, up to the highest received."""
        return self._highest + 1 - self.received

    def send(self, now_ns: int, us: Heard, first: int, moves: Sequence[RemoteInput]) -> None:
        """One datagram: where we are, and every input the peer has not acknowledged."""
        self._last_us = us
        if moves:
            assert first == self._unacked_first + len(self._unacked), "inputs sent in order"
            self._unacked.extend(move for move in moves if isinstance(move, AvatarMove))
        drop = min(max(0, self.acked + 1 - self._unacked_first), len(self._unacked))
        if drop:
            del self._unacked[:drop]
            self._unacked_first += drop
        echo, echoed_at = self._echo
        packet = Inputs(
            seq=self.sent,
            tick=us.tick,
            confirmed=us.confirmed,
            lead=us.lead,
            sent_ns=now_ns,
            echo_ns=echo,
            held_ns=now_ns - echoed_at if echo >= 0 else 0,
            check_tick=self.our_check[0],
            check=self.our_check[1],
            first=self._unacked_first,
            moves=tuple(self._unacked[:MAX_SENT_MOVES]),
        )
        self.sent += 1
        conditioner = self.conditioner
        if conditioner is None:
            self._send(inputs(packet))
            return
        conditioner.hold(now_ns, inputs(packet))
        for datagram in conditioner.due(now_ns):
            self._send(datagram)

    def flush(self) -> None:
        """Send at once whatever the conditioner holds: the match has ended, and no frame will
        send them when they fall due."""
        if self.conditioner is not None:
            for datagram in self.conditioner.all_held():
                self._send(datagram)

    def _send(self, datagram: bytes) -> None:
        with contextlib.suppress(OSError):  # the peer's port closed: lost like any datagram
            self._sock.sendto(datagram, self.peer)

    def arrivals(self, now_ns: int) -> list[Packet]:
        """The peer's datagrams the socket holds, read now, in the order they arrived."""
        arrived = []
        while (data := self._receive()) is not None:
            packet = self.take(data[0], data[1], now_ns)
            if packet is not None:
                arrived.append(packet)
        return arrived

    @property
    def one_way_ns(self) -> int:
        """Half the last round trip, to a tenth of a millisecond (what the HUD shows)."""
        tenth_ms = 100_000
        return (self.round_trip_ns // 2 + tenth_ms // 2) // tenth_ms * tenth_ms

    def remote(self, now_ns: int) -> Remote | None:
        if self._heard is None:
            return None
        at, tick, lead = self._heard
        ahead = Fraction(self.round_trip_ns, 2) + (now_ns - at)
        return Remote(tick + ahead / self.step_ns, lead)

    def take(self, data: bytes, sender: Address, now_ns: int) -> Packet | None:
        """One datagram, received at `now_ns`: the peer's inputs, or None (counted)."""
        if sender != self.peer:
            self.drops[STRANGER] += 1
            return None
        if data == goodbye():
            self.left = True
            return None
        packet = read_inputs(data)
        if isinstance(packet, str):
            self.drops[packet] += 1
            return None
        if packet.seq in self._seen or packet.seq <= self._highest - SEEN_SEQUENCES:
            self.drops[STALE] += 1
            return None
        self._seen.add(packet.seq)
        if len(self._seen) > SEEN_SEQUENCES:
            self._seen = {seq for seq in self._seen if seq > packet.seq - SEEN_SEQUENCES}
        self.received += 1
        self.last_heard_ns = now_ns
        self._highest = max(self._highest, packet.seq)
        self.acked = max(self.acked, packet.confirmed)
        if packet.check_tick >= 0 and len(self.their_checks) < SEEN_SEQUENCES:
            self.their_checks[packet.check_tick] = packet.check
        if self._heard is None or packet.tick >= self._heard[1]:
            self._heard = (now_ns, packet.tick, packet.lead)
        if packet.echo_ns >= 0:
            self.round_trip_ns = max(0, now_ns - packet.echo_ns - packet.held_ns)
        if packet.sent_ns > self._echo[0]:
            self._echo = (packet.sent_ns, now_ns)
        return Packet(now_ns, packet.tick, packet.first, packet.moves)

    def _receive(self) -> tuple[bytes, Address] | None:
        """One datagram from the socket, or None when it holds no more."""
        while True:
            try:
                data, sender = self._sock.recvfrom(MAX_DATAGRAM + 1)
            except BlockingIOError:
                return None
            except ConnectionError:  # an earlier send found the peer's port closed
                continue
            return data, (str(sender[0]), int(sender[1]))

    def tell_check(self, now_ns: int, tick: int, check: bytes) -> None:
        """Send our state hash of `tick` three times over, as we leave the match at a desync:
        the peer may not have had it yet, and it must see the desync at the same tick."""
        self.our_check = (tick, check)
        if self._last_us is None:
            return
        for _ in range(3):
            self.send(now_ns, self._last_us, self._unacked_first + len(self._unacked), ())

    def say_goodbye(self) -> None:
        """Tell the peer we quit, three times over (a goodbye lost is a peer lost, later): at
        once, past the conditioner (what it still holds is never sent)."""
        for _ in range(3):
            self._send(goodbye())

    def close(self) -> None:
        self._sock.close()
