"""`World`: the simulation state, advanced one fixed tick at a time by whoever owns the clock.

The world never reads a clock. The app's scheduler decides how many ticks to run and hands each
one its `dt`; the world applies the orders stamped for that tick, saves the current state as
the previous one, integrates, removes projectiles that left the arena, and counts the tick. The
renderer asks for a `view`, a read-only blend of the two states, and can never write back.

Everything that can differ between two runs lives in here and in the state hash: the tick, the
time, the integrator, the random generator, the queued orders and every array of both
buffers. Same settings and same orders give the same hash, at any frame rate.
"""

from __future__ import annotations

import copy
import json
import math
from typing import Any

import numpy as np

from game.world.avatar import Avatar, AvatarInput, JoinerInput
from game.world.bodies import PROJECTILE, SPRING, Array, BodyArrays, LiveBodies, Row
from game.world.cannon import cannon_shot, fires_on
from game.world.checks import positive_number
from game.world.digest import state_digest
from game.world.forces import ForceLaw
from game.world.integrators import INTEGRATORS, Workspace, add_scaled
from game.world.orders import (
    APPLY_SEQUENCE,
    Fire,
    Order,
    Reset,
    SetCannon,
    SetIntegrator,
    SpawnSpring,
    Teleport,
    canonical_key,
)
from game.world.render_view import (
    TAU,
    InterpolationMode,
    RenderView,
    check_alpha,
    check_mode,
    render_view,
)
from game.world.scene import Scene, demo_scene
from game.world.settings import WorldSettings

NOT_APPLICABLE = math.nan
"""Stored where a column means nothing for a kind (a projectile's anchor, a spring's launch)."""


class World:
    """Projectiles and springs in numpy arrays, moved by fixed ticks and tick-stamped orders."""

    def __init__(self, settings: WorldSettings | None = None, scene: Scene | None = None) -> None:
        settings = WorldSettings() if settings is None else settings
        if not isinstance(settings, WorldSettings):
            raise TypeError(f"settings must be WorldSettings, not {type(settings).__name__}")
        scene = Scene() if scene is None else scene
        if not isinstance(scene, Scene):
            raise TypeError(f"scene must be a Scene, not {type(scene).__name__}")
        spawns: tuple[Order, ...] = (*scene.springs, *scene.projectiles)
        for spawn in spawns:
            _check_in_arena(settings, spawn)
        self._settings = settings
        self._scene = scene
        self._bodies = BodyArrays(settings.dtype, settings.capacity)
        self._work = Workspace(settings.dtype)
        self._rng = np.random.default_rng(settings.seed)
        self._pending: dict[int, list[Order]] = {}
        self.non_finite_tick: int | None = None
        """The first tick after which a position was infinite or NaN (the integrator blew up,
        as explicit Euler does on a stiff spring at a low tick rate); None while all is finite."""
        self._smears: list[tuple[int, Array]] = []
        """Bodies teleported this tick with `smear=True`, and where they were: the previous
        state is put back there after it is saved, so the picture slides across."""
        self._tick = 0
        self._time = 0.0
        self._last_dt = 0.0
        self._integrator = settings.integrator
        self._cannon_on = False
        self._next_id = 0
        self._avatar: Avatar | None = None
        self._joiner_at: float | None = None  # a match's world: where the joiner's avatar starts
        self._joiner: Avatar | None = None
        self._load_scene()

    # -- what can be read --------------------------------------------------------------------

    @property
    def settings(self) -> WorldSettings:
        return self._settings

    @property
    def scene(self) -> Scene:
        """What the world started with and what `Reset` brings back."""
        return self._scene

    @property
    def tick(self) -> int:
        """Ticks completed so far. The next `step` runs tick number `tick`."""
        return self._tick

    @property
    def time(self) -> float:
        """Simulated seconds so far: the sum of every step's dt."""
        return self._time

    @property
    def last_dt(self) -> float:
        """The dt of the last step (0.0 before the first): extrapolation looks this far ahead."""
        return self._last_dt

    @property
    def integrator(self) -> str:
        return self._integrator

    @property
    def cannon_on(self) -> bool:
        return self._cannon_on

    @property
    def avatar(self) -> Avatar | None:
        """The avatar the player steers (`game.world.avatar`), if the scene has one."""
        return self._avatar

    @property
    def joiner(self) -> Avatar | None:  # the second avatar, in a match's world (`add_joiner`)
        return self._joiner

    @property
    def body_count(self) -> int:
        return self._bodies.count

    @property
    def projectile_count(self) -> int:
        return int(np.count_nonzero(self._bodies.live().kind == PROJECTILE))

    @property
    def spring_count(self) -> int:
        return int(np.count_nonzero(self._bodies.live().kind == SPRING))

    def spring_energy(self) -> Array:
        """Each spring's energy, m v^2 / 2 + k |x - rest|^2 / 2 (J), in view order."""
        bodies = self._bodies.live()
        springs = bodies.kind == SPRING
        velocity = bodies.velocity[:, springs]
        stretch = bodies.position[:, springs] - bodies.rest[:, springs]
        half = bodies.mass.dtype.type(0.5)
        kinetic = half * bodies.mass[springs] * (velocity * velocity).sum(axis=0)
        potential = half * bodies.spring_constant[springs] * (stretch * stretch).sum(axis=0)
        energy: Array = kinetic + potential
        return energy

    def view(
        self, alpha: float = 1.0, mode: InterpolationMode | str = InterpolationMode.INTERPOLATE
    ) -> RenderView:
        """A read-only picture of the world `alpha` of the way into the next tick (see
        render_view.py). A blown-up state blends to inf and NaN quietly: `non_finite_tick` says."""
        with np.errstate(over="ignore", invalid="ignore"):
            return render_view(
                self._bodies.live(),
                tick=self._tick,
                time=self._time,
                last_dt=self._last_dt,
                gravity=self._settings.gravity,
                alpha=check_alpha(alpha),
                mode=check_mode(mode),
            )

    def clone(self) -> World:
        """An independent copy in the same state: same hash now, same future given the same
        ticks and orders (the split screen starts its second world this way)."""
        return copy.deepcopy(self)

    def state_hash(self) -> str:
        """A digest of everything that decides the future: equal hashes, identical runs."""
        queued = [
            repr(order)
            for tick in sorted(self._pending)
            for order in sorted(self._pending[tick], key=canonical_key)
        ]
        header = {
            "precision": self._settings.precision,
            "tick": self._tick,
            "time": self._time.hex(),
            "last_dt": self._last_dt.hex(),
            "integrator": self._integrator,
            "cannon_on": self._cannon_on,
            "next_id": self._next_id,
            "count": self._bodies.count,
            "rng": json.dumps(self._rng.bit_generator.state, sort_keys=True),
            "queued": queued,
            "avatar": repr(self._avatar),
        }
        if self._joiner_at is not None:  # a match's world: no other world's hash changes
            header["joiner"] = repr(self._joiner)
        return state_digest(header, self._bodies.columns())

    # -- what can be done --------------------------------------------------------------------

    def add_joiner(self) -> None:
        """A match's world: a second avatar, the joiner's, where the first stands mirrored,
        steered by `JoinerInput` orders. Both peers add it at tick 0, before anything else."""
        width, first = self._settings.arena_width, self._scene.avatar_at
        self._joiner_at = round(width - (0.25 * width if first is None else first), 2)
        self._joiner = Avatar(x=self._joiner_at)

    def submit(self, order: Order) -> None:
        """Queue an order for its tick. A past tick or a point outside the arena is refused,
        with nothing queued."""
        if not isinstance(order, APPLY_SEQUENCE):
            names = ", ".join(kind.__name__ for kind in APPLY_SEQUENCE)
            raise TypeError(f"an order must be one of {names}, not {type(order).__name__}")
        if order.tick < self._tick:
            raise ValueError(
                f"{type(order).__name__} for tick {order.tick} comes too late: the world has "
                f"run {self._tick} ticks and the next is tick {self._tick}; stamp it "
                f"{self._tick} or later"
            )
        _check_in_arena(self._settings, order)
        self._pending.setdefault(order.tick, []).append(order)

    def step(self, dt: float) -> None:
        """Run tick number `tick`, `dt` seconds long, and count it."""
        dt = positive_number(dt, "dt")
        for order in sorted(self._pending.pop(self._tick, ()), key=canonical_key):
            self._apply(order)
        angle_draw, speed_draw = self._rng.uniform(-1.0, 1.0, size=2)  # every tick, fired or not
        cannon = self._settings.cannon
        if self._cannon_on and fires_on(cannon, self._tick):
            self._launch(cannon_shot(cannon, self._tick, float(angle_draw), float(speed_draw)))
        self._bodies.save_previous()
        bodies = self._bodies.live()
        for row, old in self._smears:
            bodies.previous_position[:, row] = old  # drawn sliding from there: the smear
        self._smears.clear()
        with np.errstate(over="ignore", invalid="ignore"):  # a blow-up is an event, not a warning
            self._integrate(bodies, self._bodies.dtype.type(dt))
            if self.non_finite_tick is None and not math.isfinite(float(bodies.position.sum())):
                self.non_finite_tick = self._tick  # one sum: any inf or NaN shows in it
            self._remove_escaped(bodies)
        if self._avatar is not None:
            self._avatar = self._avatar.stepped(dt, self._settings.arena_width)
        if self._joiner is not None:
            self._joiner = self._joiner.stepped(dt, self._settings.arena_width)
        self._time += dt
        self._last_dt = dt
        self._tick += 1

    # -- inside a tick -----------------------------------------------------------------------

    def _integrate(self, bodies: LiveBodies, dt: np.floating[Any]) -> None:
        work = self._work.sized(self._bodies.count)
        advance = INTEGRATORS[self._integrator]
        advance(bodies.position, bodies.velocity, ForceLaw.of(bodies), dt, work)
        add_scaled(bodies.angle, bodies.spin, dt, work.product[0])
        _wrap_angles(bodies.angle, work.product[0])

    def _remove_escaped(self, bodies: LiveBodies) -> None:
        """Projectiles past the left, right or bottom edge are gone (the sky is open)."""
        x, y = bodies.position
        escaped = x < 0.0
        escaped |= x > self._settings.arena_width
        escaped |= y < 0.0
        escaped &= bodies.kind == PROJECTILE
        if escaped.any():
            self._bodies.keep(~escaped)

    def _apply(self, order: Order) -> None:
        match order:
            case Reset():
                self._load_scene()
            case SetIntegrator(name=name):
                self._integrator = name
            case SetCannon(enabled=enabled):
                self._cannon_on = enabled
            case AvatarInput() if self._avatar is not None:
                self._avatar = self._avatar.given(order)
            case JoinerInput() if self._joiner is not None:
                self._joiner = self._joiner.given(order)
            case Teleport():
                self._teleport(order)
            case SpawnSpring():
                self._hang(order)
            case Fire():
                self._launch(order)

    def _load_scene(self) -> None:
        """Empty the world and spawn the scene's bodies (new ids: an id is never reused)."""
        self._bodies.clear()
        for spring in self._scene.springs:
            self._hang(spring)
        for shot in self._scene.projectiles:
            self._launch(shot)
        self._cannon_on = self._scene.cannon_on
        at = self._scene.avatar_at
        self._avatar = None if at is None else Avatar(x=at)
        self._joiner = None if self._joiner_at is None else Avatar(x=self._joiner_at)

    def _new_id(self) -> int:
        self._next_id += 1
        return self._next_id - 1

    def _launch(self, shot: Fire) -> None:
        """A projectile, in both buffers, with its reference flight starting now."""
        angle = math.atan2(shot.vy, shot.vx) % TAU  # it starts facing where it flies
        here = (shot.x, shot.y)
        row: Row = {
            "position": here,
            "velocity": (shot.vx, shot.vy),
            "angle": angle,
            "spin": shot.spin,
            "previous_position": here,
            "previous_angle": angle,
            "gravity": -self._settings.gravity,
            "stiffness": 0.0,
            "damping": 0.0,
            "rest": (0.0, 0.0),
            "anchor": (NOT_APPLICABLE, NOT_APPLICABLE),
            "mass": NOT_APPLICABLE,
            "spring_constant": NOT_APPLICABLE,
            "radius": self._settings.projectile_radius,
            "launch_position": here,
            "launch_velocity": (shot.vx, shot.vy),
            "launch_time": self._time,
            "ids": self._new_id(),
            "kind": PROJECTILE,
        }
        self._bodies.append(row)

    def _hang(self, spring: SpawnSpring) -> None:
        """A spring's bob, in both buffers, `offset` from its rest point."""
        rest_x, rest_y = spring.rest
        here = (rest_x + spring.offset[0], rest_y + spring.offset[1])
        row: Row = {
            "position": here,
            "velocity": spring.velocity,
            "angle": 0.0,
            "spin": spring.spin,
            "previous_position": here,
            "previous_angle": 0.0,
            "gravity": 0.0,
            "stiffness": spring.k / spring.mass,
            "damping": spring.damping / spring.mass,
            "rest": spring.rest,
            "anchor": (spring.anchor_x, spring.anchor_y),
            "mass": spring.mass,
            "spring_constant": spring.k,
            "radius": spring.radius,
            "launch_position": (NOT_APPLICABLE, NOT_APPLICABLE),
            "launch_velocity": (NOT_APPLICABLE, NOT_APPLICABLE),
            "launch_time": NOT_APPLICABLE,
            "ids": self._new_id(),
            "kind": SPRING,
        }
        self._bodies.append(row)

    def _teleport(self, move: Teleport) -> None:
        row = self._bodies.row_of(move.body_id)
        if row is None:
            return  # gone by this tick: nothing to move
        bodies = self._bodies.live()
        if move.smear:
            self._smears.append((row, bodies.position[:, row].copy()))
        bodies.position[:, row] = bodies.previous_position[:, row] = (move.x, move.y)
        if bodies.kind[row] == PROJECTILE:
            bodies.launch_position[:, row] = (move.x, move.y)
            bodies.launch_velocity[:, row] = bodies.velocity[:, row]
            bodies.launch_time[row] = self._time


def _wrap_angles(angle: Array, whole: Array) -> None:
    """angle -= 2 pi * floor(angle / 2 pi): back into [0, 2 pi), in place, with `whole` as scratch.

    Not `np.remainder`, which takes longer (BENCHMARKS.md, "Why the code looks like this").
    """
    turns = angle.dtype.type(TAU)
    np.divide(angle, turns, out=whole)
    np.floor(whole, out=whole)
    whole *= turns
    angle -= whole


def _check_in_arena(settings: WorldSettings, order: Order) -> None:
    for name, x, y in order.points():
        if not settings.contains(x, y):
            raise ValueError(
                f"{type(order).__name__} {name} ({x:g}, {y:g}) is outside the "
                f"{settings.arena_width:g} x {settings.arena_height:g} m arena"
            )


def demo_world(settings: WorldSettings | None = None) -> World:
    """A world at tick 0 holding the demo scene: what the game plays."""
    settings = settings or WorldSettings()
    return World(settings, scene=demo_scene(settings))
