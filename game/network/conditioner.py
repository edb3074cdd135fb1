"""`LinkConditioner`: a slow, lossy network made out of a fast one, on the sending side.

Two laptops on one room's network are a millisecond apart and lose nothing, so rollback has
nothing to hide. The conditioner gives a match the network a lesson wants: each datagram this
side sends is held for the latency plus 0 to the jitter (seeded, uniform) before it goes, or
is lost (dropped, with the seeded share `loss`), as the simulated peer's model does
(`game.network.peer`). Each side conditions what it sends, so the round trip holds both sides'
latencies, and the NETWORK rows show what was dialled.

The draws come from the world's seed (one stream for the delays, one for the losses, each side
its own), so a run repeats: the same datagrams are lost, the same ones are late. The conditioner
never reads a clock: it is told the time (rollback's, the frames' lengths added up) and hands
back what is due by then, so a datagram goes at the first frame on or after its due time.
"""

from __future__ import annotations

import heapq
from fractions import Fraction

from game.network.draws import Draws

DELAY_STREAM = 11
"""The delays' draws (the joiner's are the next stream: the two sides draw apart)."""
LOSS_STREAM = 13
"""The losses' draws (the joiner's: the next)."""


class LinkConditioner:
    """Datagrams held until due, or lost: `hold` one as it is sent, `due` what may go now."""

    def __init__(
        self, latency_ns: int, jitter_ns: int, loss: Fraction, seed: int, *, host: bool
    ) -> None:
        if latency_ns < 0 or jitter_ns < 0 or not 0 <= loss <= 1:
            raise ValueError(f"no such link: {latency_ns} ns, jitter {jitter_ns} ns, loss {loss}")
        side = 0 if host else 1
        self.latency_ns = latency_ns
        self.jitter_ns = jitter_ns
        self.loss = loss
        self._delays = Draws(seed, DELAY_STREAM + side)
        self._losses = Draws(seed, LOSS_STREAM + side)
        self._held: list[tuple[int, int, bytes]] = []
        """(due time, order held, datagram): a heap, so jitter may reorder datagrams."""
        self._count = 0
        self.lost = 0
        """Datagrams dropped on purpose."""

    @property
    def idle(self) -> bool:
        """Nothing to add: every datagram goes as it is sent."""
        return self.latency_ns == 0 and self.jitter_ns == 0 and self.loss == 0

    @property
    def most_ns(self) -> int:
        """The longest a datagram is held."""
        return self.latency_ns + self.jitter_ns

    @property
    def holding(self) -> int:
        """Datagrams held, not yet due."""
        return len(self._held)

    def hold(self, now_ns: int, datagram: bytes) -> None:
        """A datagram sent at `now_ns`: lost, or held until its due time (both draws are made
        for every datagram, so a higher loss does not move the delays)."""
        delay = self.latency_ns + self._delays.up_to(self.jitter_ns)
        if self._losses.chance(self.loss):
            self.lost += 1
            return
        heapq.heappush(self._held, (now_ns + delay, self._count, datagram))
        self._count += 1

    def all_held(self) -> list[bytes]:
        """Every datagram held, due or not, in the order they fall due: the match is over, and
        the peer must still hear our last word (the state hash that shows it a desync)."""
        going = [datagram for _, _, datagram in sorted(self._held)]
        self._held.clear()
        return going

    def due(self, now_ns: int) -> list[bytes]:
        """The datagrams due by `now_ns`, in the order they fall due."""
        going = []
        while self._held and self._held[0][0] <= now_ns:
            going.append(heapq.heappop(self._held)[2])
        return going
