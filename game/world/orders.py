"""Orders as values: each is stamped with the tick it applies to.

A key press does not poke the world; it becomes, say, `Fire(tick=812, ...)`, and the world applies
it at the start of tick 812 whatever the frame rate was. That is what makes a replay identical at
30 Hz and at 144 Hz of rendering: the world sees the same orders at the same ticks.

Orders for the same tick are applied in one canonical sequence (`canonical_key`), never in
the sequence they arrived in, so two machines that received them in a different sequence still
agree. An order checks its own values when built (a NaN velocity or a negative mass never becomes an
order); the world checks the rest when it is submitted (the tick is not past, the points are in the
arena).
"""

from __future__ import annotations

from dataclasses import astuple, dataclass
from typing import Any

from game.world.avatar import AvatarInput, JoinerInput
from game.world.checks import (
    finite_number,
    non_negative_number,
    number_pair,
    positive_number,
    whole_number,
)
from game.world.integrators import INTEGRATORS

Point = tuple[str, float, float]
"""A named point an order puts in the world: it must lie inside the arena."""


def _set_numbers(order: Any, *names: str) -> None:
    """Check these fields are finite numbers and store them as floats (so 1 and 1.0 hash alike)."""
    for name in names:
        value = finite_number(getattr(order, name), f"{type(order).__name__}.{name}")
        object.__setattr__(order, name, value)


def _check_tick(order: Any) -> None:
    whole_number(order.tick, f"{type(order).__name__}.tick")


@dataclass(frozen=True, slots=True)
class Fire:
    """Launch a projectile from (x, y) at (vx, vy) m/s, spinning at `spin` rad/s."""

    tick: int
    x: float
    y: float
    vx: float
    vy: float
    spin: float = 0.0

    def __post_init__(self) -> None:
        _check_tick(self)
        _set_numbers(self, "x", "y", "vx", "vy", "spin")

    def points(self) -> tuple[Point, ...]:
        return (("launch point", self.x, self.y),)


@dataclass(frozen=True, slots=True)
class SpawnSpring:
    """Hang a mass-spring oscillator from (anchor_x, anchor_y).

    Its bob rests `rest_length` metres below the anchor and is pulled towards that rest point
    with stiffness `k` (N/m), against a `damping` of c (N s/m). It starts `offset` metres from
    rest at `velocity` m/s, spinning at `spin` rad/s.
    """

    tick: int
    anchor_x: float
    anchor_y: float
    k: float
    mass: float
    damping: float = 0.0
    rest_length: float = 0.0
    offset: tuple[float, float] = (0.0, 0.0)
    velocity: tuple[float, float] = (0.0, 0.0)
    spin: float = 0.0
    radius: float = 0.4

    def __post_init__(self) -> None:
        _check_tick(self)
        _set_numbers(self, "anchor_x", "anchor_y", "spin")
        object.__setattr__(self, "k", positive_number(self.k, "SpawnSpring.k"))
        object.__setattr__(self, "mass", positive_number(self.mass, "SpawnSpring.mass"))
        object.__setattr__(
            self, "damping", non_negative_number(self.damping, "SpawnSpring.damping")
        )
        object.__setattr__(
            self, "rest_length", non_negative_number(self.rest_length, "SpawnSpring.rest_length")
        )
        object.__setattr__(self, "offset", number_pair(self.offset, "SpawnSpring.offset"))
        object.__setattr__(self, "velocity", number_pair(self.velocity, "SpawnSpring.velocity"))
        object.__setattr__(self, "radius", positive_number(self.radius, "SpawnSpring.radius"))

    @property
    def rest(self) -> tuple[float, float]:
        return self.anchor_x, self.anchor_y - self.rest_length

    def points(self) -> tuple[Point, ...]:
        rest_x, rest_y = self.rest
        return (("anchor", self.anchor_x, self.anchor_y), ("rest point", rest_x, rest_y))


@dataclass(frozen=True, slots=True)
class Teleport:
    """Put body `body_id` at (x, y) in both buffers, so it jumps instead of smearing.

    Interpolation draws a body between its previous and its current state. A teleport that moved
    only the current state would be drawn sliding across the arena for one tick: the smear.
    Resetting the previous buffer too is the rule (docs/references.md#worked-example);
    `smear=True` breaks it on purpose, to show why it exists.

    Its velocity is kept; a projectile's reference flight restarts from there. A body that is
    gone by that tick is left alone (it may have left the arena since the order was sent).
    """

    tick: int
    body_id: int
    x: float
    y: float
    smear: bool = False

    def __post_init__(self) -> None:
        _check_tick(self)
        whole_number(self.body_id, "Teleport.body_id")
        _set_numbers(self, "x", "y")
        if not isinstance(self.smear, bool):
            raise TypeError(
                f"Teleport.smear must be a bool, not {type(self.smear).__name__} "
                f"(got {self.smear!r})"
            )

    def points(self) -> tuple[Point, ...]:
        return (("destination", self.x, self.y),)


@dataclass(frozen=True, slots=True)
class Reset:
    """Put the world's scene back as it began: its bodies (in both buffers) and cannon switch.

    The tick, the time, the random generator and the integrator carry on: a reset is an event
    in the run, not a new run, and the player usually resets to watch the same integrator again.
    """

    tick: int

    def __post_init__(self) -> None:
        _check_tick(self)

    def points(self) -> tuple[Point, ...]:
        return ()


@dataclass(frozen=True, slots=True)
class SetIntegrator:
    """Integrate with `name` ("explicit", "semi-implicit" or "verlet") from this tick on."""

    tick: int
    name: str

    def __post_init__(self) -> None:
        _check_tick(self)
        if self.name not in INTEGRATORS:
            raise ValueError(
                f"SetIntegrator.name must be one of {', '.join(INTEGRATORS)} (got {self.name!r})"
            )

    def points(self) -> tuple[Point, ...]:
        return ()


@dataclass(frozen=True, slots=True)
class SetCannon:
    """Switch the world's cannon on or off from this tick on."""

    tick: int
    enabled: bool

    def __post_init__(self) -> None:
        _check_tick(self)
        if not isinstance(self.enabled, bool):
            raise TypeError(
                f"SetCannon.enabled must be a bool, not {type(self.enabled).__name__} "
                f"(got {self.enabled!r})"
            )

    def points(self) -> tuple[Point, ...]:
        return ()


Order = (
    Fire | SpawnSpring | Teleport | Reset | SetIntegrator | SetCannon | AvatarInput | JoinerInput
)

APPLY_SEQUENCE: tuple[type[Order], ...] = (
    Reset,
    SetIntegrator,
    SetCannon,
    Teleport,
    SpawnSpring,
    Fire,
    AvatarInput,
    JoinerInput,
)
"""Within one tick: a reset first (so the other orders of its tick survive it), then the
switches, then moves, then spawns, then the avatar's input (the joiner's last: only a match's world
has it). Among orders of one kind, their values decide."""


def canonical_key(order: Order) -> tuple[int, tuple[Any, ...]]:
    """Sort key giving one sequence for a tick's orders, whatever sequence they arrived in."""
    return APPLY_SEQUENCE.index(type(order)), astuple(order)
