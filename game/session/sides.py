"""`Sides`: whose input the remote's is, how it is predicted, and what ours becomes.

Rollback (`game.session.rollback`) runs one path for both links; what differs is who plays:

- `TriggerSides`, against the simulated peer: the remote's input is the cannon's trigger,
  predicted as the last one known, and reaches the world as a `SetCannon` when it would switch
  it (`pull_trigger`). Our avatar's input goes to our world as it always has; none is sent.
- `MatchSides`, against a real peer (`--host`, `--join`): each side steers its own avatar (the
  host the first, the joiner the second, `World.add_joiner`), and each tick's input is an
  `AvatarMove`. The remote's is predicted as the direction it held, with no presses. Ours is
  read now and stamped for `input_delay` ticks later (GGPO's frame delay), on both peers alike:
  it is sent, and it reaches our world right before its tick, as the remote's does on theirs,
  so both worlds take each move at the same point with the same order.

A move reaches a world as an order only when it does something (a press, or another direction
than the avatar runs in), as the avatar's own input is stamped only on a change.
"""

from __future__ import annotations

from typing import Protocol

from game.network.peer import AvatarMove, RemoteInput
from game.session.confirmed_peer import pull_trigger
from game.world.avatar import AvatarInput, JoinerInput
from game.world.orders import Order
from game.world.world import World

STILL = AvatarMove(0, 0, 0)
"""An avatar's move before any is read: standing, no presses."""


class Sides(Protocol):
    """What rollback needs to know of who plays."""

    match: bool
    """Two real players (`MatchSides`): what would change one world only is refused."""

    @property
    def first(self) -> RemoteInput:
        """The remote's input before any has arrived (known to both peers from the start)."""
        ...

    def predicted(self, last: RemoteInput) -> RemoteInput:
        """The remote's input for a tick not heard yet, from the last one confirmed."""
        ...

    def apply_remote(self, world: World, value: RemoteInput) -> None:
        """The remote's input for the world's next tick, submitted right before it runs."""
        ...

    def ours(self, world: World, order: AvatarInput | None, run: int) -> Order | None:
        """Our avatar's input for the world's next tick, as the input desk read it (`order`,
        or None for no change; `run`, the direction held): the order to stamp, if any."""
        ...

    def outgoing(self) -> tuple[int, tuple[RemoteInput, ...]]:
        """Our inputs read since the last call, to send: the first one's tick, and them."""
        ...


class TriggerSides:
    """Against the simulated peer: the remote flips the cannon's trigger; ours is not sent."""

    match = False

    def __init__(self, first: bool) -> None:
        self._first = first

    @property
    def first(self) -> RemoteInput:
        return self._first

    def predicted(self, last: RemoteInput) -> RemoteInput:
        return last

    def apply_remote(self, world: World, value: RemoteInput) -> None:
        pull_trigger(world, bool(value))

    def ours(self, world: World, order: AvatarInput | None, run: int) -> Order | None:
        return order

    def outgoing(self) -> tuple[int, tuple[RemoteInput, ...]]:
        return 0, ()


class MatchSides:
    """Against a real peer: two avatars, each side's moves stamped `input_delay` ticks on."""

    match = True

    def __init__(self, *, host: bool, input_delay: int, origin: int = 0, live: bool = True) -> None:
        self.host = host
        self.live = live
        """False in a replay: the recording holds our orders already, as they were stamped."""
        self._delay = input_delay
        self._moves: dict[int, AvatarMove] = dict.fromkeys(
            range(origin, origin + input_delay), STILL
        )
        """Our moves by the tick they are for, until that tick runs."""
        self._unsent: list[AvatarMove] = []
        self._unsent_first = origin + input_delay

    @property
    def first(self) -> RemoteInput:
        return STILL

    def predicted(self, last: RemoteInput) -> RemoteInput:
        return AvatarMove(last.run, 0, 0) if isinstance(last, AvatarMove) else STILL

    def apply_remote(self, world: World, value: RemoteInput) -> None:
        if isinstance(value, AvatarMove):
            order = _move_order(world, value, joiner=self.host)
            if order is not None:
                world.submit(order)

    def ours(self, world: World, order: AvatarInput | None, run: int) -> Order | None:
        if not self.live:
            return order
        tick = world.tick
        move = STILL if order is None else AvatarMove(order.run, order.jumps, order.dashes)
        move = move._replace(run=run)
        self._moves[tick + self._delay] = move
        self._unsent.append(move)
        return _move_order(world, self._moves.pop(tick, STILL), joiner=not self.host)

    def outgoing(self) -> tuple[int, tuple[RemoteInput, ...]]:
        first, moves = self._unsent_first, tuple(self._unsent)
        self._unsent_first += len(moves)
        self._unsent = []
        return first, moves


def _move_order(world: World, move: AvatarMove, *, joiner: bool) -> Order | None:
    """The order that gives an avatar `move` at the world's next tick, or None when it would
    change nothing (no press, and the direction it runs in already)."""
    avatar = world.joiner if joiner else world.avatar
    if avatar is None or not (move.jumps or move.dashes or move.run != avatar.run):
        return None
    kind = JoinerInput if joiner else AvatarInput
    return kind(tick=world.tick, run=move.run, jumps=move.jumps, dashes=move.dashes)
