"""`ConfirmedPeer`: the world as the other peer has it, to catch a desync.

Two peers that run the same ticks with the same inputs hold the same state. Ours gets there by
predicting, rolling back and re-simulating; the confirmed peer gets there the plain way: it runs
a tick only once every input for it is confirmed, with those inputs, and never rolls back. That
is the state the remote ends up with for every confirmed tick, so every `DESYNC_CHECK_TICKS`
ticks the two state hashes are compared (GGRS's desync detection compares checksums at an
interval too), and the first tick where they differ is a desync: a rollback that restored less
than the tick had, or re-ran it with other orders. There must be none.
"""

from __future__ import annotations

from collections.abc import Callable

from game.network.peer import RemoteInput
from game.world.orders import Order, SetCannon
from game.world.world import World

RemoteApplied = Callable[[World, RemoteInput], None]
"""How the remote's input for a tick reaches a world (`game.session.sides`)."""

DESYNC_CHECK_TICKS = 15
"""Compare the peers' state hashes after every tick whose number is a multiple of this."""
KEPT_CHECKS = 64
"""The confirmed hashes kept, the newest (a real peer's arrive a round trip late)."""


class ConfirmedPeer:
    """A copy of the world that runs only confirmed ticks, and the comparisons it makes."""

    def __init__(
        self, world: World, on_desync: Callable[[int], None], apply: RemoteApplied
    ) -> None:
        self.world = world.clone()
        self._on_desync = on_desync
        self._apply = apply
        self.compared = 0
        self.checks: dict[int, str] = {}
        """The state hash of each compared tick, the last `KEPT_CHECKS`: what a real peer's
        confirmed world must hold too (a match sends them: `game.workshop.runs.match`)."""

    def run_to(
        self,
        last: int,
        orders: Callable[[int], list[Order]],
        remote: Callable[[int], tuple[RemoteInput, float]],
        our_hashes: dict[int, str],
    ) -> None:
        """Run every tick up to `last`, each with the local orders submitted for it and the
        remote's confirmed input; after a compared tick, check our hash of it."""
        world = self.world
        while world.tick <= last:
            tick = world.tick
            for order in orders(tick):
                world.submit(order)
            value, dt = remote(tick)
            self._apply(world, value)
            world.step(dt)
            if world.tick % DESYNC_CHECK_TICKS == 0:
                self.compared += 1
                confirmed = self.checks[world.tick] = world.state_hash()
                if len(self.checks) > KEPT_CHECKS:
                    del self.checks[next(iter(self.checks))]
                ours = our_hashes.pop(world.tick, None)
                if ours is not None and ours != confirmed:
                    self._on_desync(tick)


def pull_trigger(world: World, trigger: bool) -> None:
    """The remote's input for the world's next tick: the cannon on or off, as a `SetCannon`
    stamped only when it would switch it (as the avatar's input is stamped only on a change)."""
    if trigger != world.cannon_on:
        world.submit(SetCannon(tick=world.tick, enabled=trigger))
