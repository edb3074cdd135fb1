"""`SnapshotRing`: the world as it was at each of the last ticks, saved and restored exactly.

Going back in time (the rewind key, a late network input that rolls back) needs the world as
it was at an earlier tick, bit for bit, and needs it cheaply: the game saves one every tick. A
`copy.deepcopy` of the world walks every object it holds; a save here is one numpy copy per
body column into arrays allocated once, plus the world's few plain values, which are immutable
(the avatar, each order) or copied flat (the queued orders, the random generator's state).

**Bodies come and go.** Projectiles are fired and leave the arena, so the number of bodies
differs from tick to tick. The world keeps its columns as rows of one block per dtype
(`BodyArrays.blocks`); the ring keeps each block as one array of shape (slots, rows, width):
every slot has room for `width` bodies and remembers its own count, and a save is one copy per
block. A save with more bodies than that makes every slot twice as wide (keeping the slots
saved), as the world's own arrays grow; it happens only when the world holds more bodies than
ever before. Memory: slots x width x 201 bytes in float64 (24 float64 rows, an int64 id, a
one-byte kind).

**One history.** The ticks held are always in order, oldest first. Saving tick t forgets every
tick from t on (after a restore, the world has left the old future behind: the ticks after it
are saved again as they are re-run); when the ring is full, a save forgets the oldest tick.
Restoring leaves the ring as it is, so one can go back further, or step forward again.

The ring reads the world's private fields: it is the world's memory, kept beside it in this
package so that `World` itself stays the simulation alone.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

import numpy as np

from game.world.avatar import Avatar
from game.world.bodies import Array
from game.world.orders import Order
from game.world.world import World

FIRST_WIDTH = 64
"""Bodies each slot has room for before the first save that needs more."""


class _Header(NamedTuple):
    """Everything of the world at a tick that is not a body column."""

    tick: int
    bodies: int
    time: float
    last_dt: float
    integrator: str
    cannon_on: bool
    next_id: int
    non_finite_tick: int | None
    avatar: Avatar | None
    joiner: Avatar | None
    pending: tuple[tuple[int, tuple[Order, ...]], ...]
    rng: Mapping[str, Any]


class SnapshotRing:
    """The world's state at up to `capacity` ticks, the most recent ones, saved in place."""

    def __init__(self, capacity: int) -> None:
        if isinstance(capacity, bool) or not isinstance(capacity, int) or capacity < 1:
            raise ValueError(f"a snapshot ring holds at least 1 tick (got {capacity!r})")
        self.capacity = capacity
        self._width = 0
        self._blocks: tuple[Array, ...] = ()
        """The world's blocks, one slot per tick: (slots, rows, width) each."""
        self._slot_views: list[tuple[Array, ...]] = []
        """Each slot's part of every block, as views made once (a save makes no index)."""
        self._laid_out_as: tuple[Array, ...] | None = None
        """The world blocks last checked to match the slots' layout (checked again only when
        the world's arrays are replaced: they grew, or another world is saved)."""
        self._headers: list[_Header | None] = [None] * capacity
        self._slots: dict[int, int] = {}
        """Tick -> slot, oldest tick first (a dict keeps the order ticks were saved in)."""
        self._free = list(range(capacity - 1, -1, -1))

    def __deepcopy__(self, memo: dict[int, Any]) -> SnapshotRing:
        """An independent ring holding the same ticks (a lane twinned for the split screen
        keeps its past). The slots' views are made again over the copied blocks."""
        twin = SnapshotRing(self.capacity)
        twin._headers = list(self._headers)
        twin._slots = dict(self._slots)
        twin._free = list(self._free)
        twin._use(tuple(block.copy() for block in self._blocks), self._width)
        return twin

    # -- what it holds ------------------------------------------------------------------------

    def __len__(self) -> int:
        return len(self._slots)

    def __contains__(self, tick: object) -> bool:
        return tick in self._slots

    @property
    def oldest_tick(self) -> int | None:
        """The earliest tick held (None while empty)."""
        return next(iter(self._slots), None)

    @property
    def newest_tick(self) -> int | None:
        """The latest tick held (None while empty)."""
        return next(reversed(self._slots), None)

    @property
    def width(self) -> int:
        """Bodies each slot has room for now."""
        return self._width

    @property
    def nbytes(self) -> int:
        """The memory the body columns take, every slot together."""
        return sum(block.nbytes for block in self._blocks)

    # -- saving and restoring -----------------------------------------------------------------

    def save(self, world: World) -> None:
        """Save the world's state at `world.tick`, forgetting any tick held from it on."""
        tick = world.tick
        slots = self._slots
        while slots and next(reversed(slots)) >= tick:
            self._free.append(slots.popitem()[1])
        if not self._free:
            oldest = next(iter(slots))
            self._free.append(slots.pop(oldest))
        bodies = world._bodies
        count, blocks = bodies.count, bodies.blocks
        if count > self._width or blocks is not self._laid_out_as:
            if count > self._width or not self._holds(blocks):
                self._widen(count, blocks)
            self._laid_out_as = blocks
        slot = self._free.pop()
        for saved, block in zip(self._slot_views[slot], blocks, strict=True):
            np.copyto(saved[:, :count], block[:, :count])
        pending = world._pending
        self._headers[slot] = _Header(
            tick,
            count,
            world._time,
            world._last_dt,
            world._integrator,
            world._cannon_on,
            world._next_id,
            world.non_finite_tick,
            world._avatar,
            world._joiner,
            tuple([(at, tuple(orders)) for at, orders in pending.items()]) if pending else (),
            world._rng.bit_generator.state,
        )
        slots[tick] = slot

    def restore(self, world: World, tick: int) -> None:
        """Put the world back exactly as it was at `tick`: every body array, the tick, the
        time, the random generator, the ids, the avatar, the cannon and the queued orders.
        A tick not held raises ValueError, and the world is left untouched."""
        slot = self._slots.get(tick)
        if slot is None:
            held = "none" if not self._slots else f"{self.oldest_tick} to {self.newest_tick}"
            raise ValueError(f"tick {tick!r} is not in the snapshot ring (it holds {held})")
        header = self._headers[slot]
        assert header is not None
        bodies = world._bodies
        if not self._holds(bodies.blocks):
            raise ValueError(f"the ring holds worlds of another precision than {bodies.dtype}")
        count = header.bodies
        if count > bodies.capacity:
            bodies._grow(max(count, 2 * bodies.capacity))
        for saved, block in zip(self._slot_views[slot], bodies.blocks, strict=True):
            np.copyto(block[:, :count], saved[:, :count])
        bodies.count = count
        bodies._live = None
        world._tick = header.tick
        world._time = header.time
        world._last_dt = header.last_dt
        world._integrator = header.integrator
        world._cannon_on = header.cannon_on
        world._next_id = header.next_id
        world.non_finite_tick = header.non_finite_tick
        world._avatar = header.avatar
        world._joiner = header.joiner
        world._pending = {at: list(orders) for at, orders in header.pending}
        world._rng.bit_generator.state = header.rng
        world._smears.clear()

    def clear(self) -> None:
        """Forget every tick (the arrays stay allocated)."""
        self._free.extend(self._slots.values())
        self._slots.clear()

    def _holds(self, blocks: tuple[Array, ...]) -> bool:
        """Whether the slots are laid out as these blocks: the same dtypes and rows."""
        return len(blocks) == len(self._blocks) and all(
            saved.dtype == block.dtype and saved.shape[1] == block.shape[0]
            for saved, block in zip(self._blocks, blocks, strict=True)
        )

    def _widen(self, count: int, blocks: tuple[Array, ...]) -> None:
        """Make every slot room for at least `count` bodies (twice as many as before), keeping
        what is saved; a world laid out otherwise (another precision) starts the ring afresh."""
        if not self._holds(blocks):
            self.clear()
            self._width, self._blocks = 0, ()
        width = max(count, 2 * self._width, FIRST_WIDTH)
        wider = [np.zeros((self.capacity, block.shape[0], width), block.dtype) for block in blocks]
        for new, old in zip(wider, self._blocks, strict=False):
            new[:, :, : self._width] = old
        self._use(tuple(wider), width)

    def _use(self, blocks: tuple[Array, ...], width: int) -> None:
        """Keep the slots in `blocks`, `width` bodies wide, and make each slot's views."""
        self._blocks, self._width = blocks, width
        self._slot_views = [tuple(block[slot] for block in blocks) for slot in range(self.capacity)]
