"""Every body of the world as columns of numpy arrays (structure of arrays), two buffers deep.

One row per body, one array per property: a step is then a handful of whole-array operations,
the same code for one body or twenty thousand. Each motion column has a *previous* twin holding
where the body was when the last tick began; the renderer blends the two, the physics only ever
reads the current one.

The arrays are allocated for `capacity` rows with a live `count` in front; they double when
they fill, so a burst of spawns does not reallocate per body, and removal keeps the survivors in
order (ids and hashes stay stable). The columns of one dtype are rows of one block (`blocks`):
a snapshot (`game.world.snapshots`) then saves every body in three or four copies, not nineteen.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, fields
from enum import IntEnum
from typing import Any

import numpy as np
import numpy.typing as npt

Array = npt.NDArray[Any]

STATE = "state"
"""Stands for the world's precision (float32 or float64) in the column table."""


class BodyKind(IntEnum):
    """What a row is: it decides which forces apply and how the renderer draws it."""

    PROJECTILE = 0
    SPRING = 1


# Plain ints for array comparisons: numpy compares an IntEnum member about five times slower.
PROJECTILE = BodyKind.PROJECTILE.value
SPRING = BodyKind.SPRING.value


@dataclass(frozen=True, slots=True)
class Column:
    """One property of every body: a name, 1 or 2 rows (x and y), a dtype, and its meaning."""

    name: str
    rows: int
    dtype: str
    meaning: str


COLUMNS = (
    Column("position", 2, STATE, "x and y now, m"),
    Column("velocity", 2, STATE, "vx and vy now, m/s"),
    Column("angle", 1, STATE, "orientation now, rad, kept in [0, 2 pi)"),
    Column("spin", 1, STATE, "angular velocity, rad/s"),
    Column("previous_position", 2, STATE, "x and y when the last tick began, m"),
    Column("previous_angle", 1, STATE, "orientation when the last tick began, rad"),
    Column("gravity", 1, STATE, "vertical acceleration from gravity: -g, or 0 for a spring"),
    Column("stiffness", 1, STATE, "spring constant per mass k/m, 1/s^2 (0: no spring)"),
    Column("damping", 1, STATE, "damping per mass c/m, 1/s"),
    Column("rest", 2, STATE, "the point a spring pulls its bob towards, m"),
    Column("anchor", 2, STATE, "where a spring is mounted (drawn, not simulated), m"),
    Column("mass", 1, STATE, "kg"),
    Column("spring_constant", 1, STATE, "k, N/m (for the energy)"),
    Column("radius", 1, STATE, "drawn size, m"),
    Column("launch_position", 2, "float64", "where a projectile's reference flight starts, m"),
    Column("launch_velocity", 2, "float64", "its velocity then, m/s"),
    Column("launch_time", 1, "float64", "the world time then, s"),
    Column("ids", 1, "int64", "a number naming this body for the whole run, never reused"),
    Column("kind", 1, "uint8", "a BodyKind"),
)

Row = Mapping[str, float | tuple[float, float]]


@dataclass(frozen=True, slots=True)
class LiveBodies:
    """Views of the live rows of every column (writing to them writes the world)."""

    position: Array
    velocity: Array
    angle: Array
    spin: Array
    previous_position: Array
    previous_angle: Array
    gravity: Array
    stiffness: Array
    damping: Array
    rest: Array
    anchor: Array
    mass: Array
    spring_constant: Array
    radius: Array
    launch_position: Array
    launch_velocity: Array
    launch_time: Array
    ids: Array
    kind: Array


assert [f.name for f in fields(LiveBodies)] == [column.name for column in COLUMNS]


class BodyArrays:
    """The column store: append rows, remove rows, save the previous buffer, grow when full."""

    def __init__(self, dtype: np.dtype[Any], capacity: int) -> None:
        self.dtype = dtype
        self.count = 0
        self.blocks: tuple[Array, ...] = self._allocate(capacity)
        """Every column's storage: one 2-D block (rows, capacity) per dtype, in `_dtypes`
        order; the columns are views of their rows."""
        self._arrays = self._columns_in(self.blocks)
        self._live: LiveBodies | None = None  # views of rows [0, count), rebuilt when it changes

    def __deepcopy__(self, memo: dict[int, Any]) -> BodyArrays:
        """An independent copy (the split screen twins a world). The cached views are not
        copied: a copied view would be a detached array, and ticks would write into it."""
        twin = BodyArrays.__new__(BodyArrays)
        twin.dtype = self.dtype
        twin.count = self.count
        twin.blocks = tuple(block.copy() for block in self.blocks)
        twin._arrays = twin._columns_in(twin.blocks)
        twin._live = None
        return twin

    @property
    def capacity(self) -> int:
        return int(self._arrays["ids"].shape[-1])

    def live(self) -> LiveBodies:
        """The live rows of every column, as views (kept until the count or the arrays change)."""
        if self._live is None:
            n = self.count
            self._live = LiveBodies(
                **{name: array[..., :n] for name, array in self._arrays.items()}
            )
        return self._live

    def columns(self) -> Iterator[tuple[str, Array]]:
        """Each column's live rows in table order (what a state hash reads)."""
        n = self.count
        for name, array in self._arrays.items():
            yield name, array[..., :n]

    def append(self, row: Row) -> int:
        """Add one body at the end; `row` must give every column. Returns its row index."""
        missing = {column.name for column in COLUMNS} - set(row)
        if missing or len(row) != len(COLUMNS):
            raise KeyError(f"a body row must give exactly the columns; missing {sorted(missing)}")
        if self.count == self.capacity:
            self._grow(2 * self.capacity)
        index = self.count
        for name, value in row.items():
            self._arrays[name][..., index] = value
        self.count += 1
        self._live = None
        return index

    def keep(self, survivors: npt.NDArray[np.bool_]) -> None:
        """Keep only the live rows where `survivors` is True, in their order."""
        kept = int(np.count_nonzero(survivors))
        for block in self.blocks:
            block[:, :kept] = block[:, : self.count][:, survivors]
        self.count = kept
        self._live = None

    def clear(self) -> None:
        """Remove every body (the arrays stay allocated)."""
        self.count = 0
        self._live = None

    def save_previous(self) -> None:
        """Copy current to previous: what the tick about to run starts from."""
        bodies = self.live()
        np.copyto(bodies.previous_position, bodies.position)
        np.copyto(bodies.previous_angle, bodies.angle)

    def row_of(self, body_id: int) -> int | None:
        """The row of the live body with this id, or None if there is none."""
        rows = np.flatnonzero(self.live().ids == body_id)
        return int(rows[0]) if rows.size else None

    def _dtypes(self) -> dict[np.dtype[Any], int]:
        """Each dtype the columns use, with the rows its block holds, in table order."""
        rows: dict[np.dtype[Any], int] = {}
        for column in COLUMNS:
            dtype = self.dtype if column.dtype == STATE else np.dtype(column.dtype)
            rows[dtype] = rows.get(dtype, 0) + column.rows
        return rows

    def _allocate(self, capacity: int) -> tuple[Array, ...]:
        return tuple(np.zeros((rows, capacity), dtype) for dtype, rows in self._dtypes().items())

    def _columns_in(self, blocks: tuple[Array, ...]) -> dict[str, Array]:
        """Each column as a view of its rows of its dtype's block: (2, capacity) or (capacity,)."""
        block_of = dict(zip(self._dtypes(), blocks, strict=True))
        used = dict.fromkeys(block_of, 0)
        arrays: dict[str, Array] = {}
        for column in COLUMNS:
            dtype = self.dtype if column.dtype == STATE else np.dtype(column.dtype)
            first = used[dtype]
            block = block_of[dtype]
            arrays[column.name] = block[first : first + 2] if column.rows == 2 else block[first]
            used[dtype] = first + column.rows
        return arrays

    def _grow(self, capacity: int) -> None:
        bigger = self._allocate(capacity)
        for block, old in zip(bigger, self.blocks, strict=True):
            block[:, : self.count] = old[:, : self.count]
        self.blocks = bigger
        self._arrays = self._columns_in(bigger)
        self._live = None
