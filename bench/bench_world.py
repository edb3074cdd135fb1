"""World figures: `step()` and `view()` for 10,000 projectiles and 1,000 springs.

Baseline, measured in the same run on the same bodies: a straightforward per-object Python loop
doing the same maths (the same force law, semi-implicit Euler, angle wrap, escape check). The
loop is checked to give the same float64 numbers as the world, bit for bit, before it is timed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import partial

import numpy as np

from bench.harness import Section, median_ns_per_batch, median_ns_per_call, ms, us, verdict
from game.world import Fire, InterpolationMode, Order, SpawnSpring, World, WorldSettings

PROJECTILES = 10_000
SPRINGS = 1_000
DT = 1 / 60
TAU = 2 * math.pi
TARGET_STEP_NS = 500_000
TARGET_RATIO = 20
TARGET_VIEW_NS = 200_000
# Tall enough that nothing falls out while it is timed: the count stays 11,000 throughout.
ARENA = {"arena_width": 10_000.0, "arena_height": 10_000.0}


def crowd(seed: int = 7) -> list[Order]:
    """10,000 spinning projectiles high in the air and 1,000 springs, from a fixed seed."""
    rng = np.random.default_rng(seed)
    orders: list[Order] = []
    for x, y, vx, vy, spin in rng.uniform(
        (2_000.0, 4_000.0, -20.0, 0.0, -6.0),
        (8_000.0, 9_000.0, 20.0, 30.0, 6.0),
        size=(PROJECTILES, 5),
    ).tolist():
        orders.append(Fire(tick=0, x=x, y=y, vx=vx, vy=vy, spin=spin))
    for x, k, damping in rng.uniform(
        (100.0, 1.0, 0.0), (9_900.0, 60.0, 0.5), size=(SPRINGS, 3)
    ).tolist():
        orders.append(
            SpawnSpring(
                tick=0,
                anchor_x=x,
                anchor_y=3_000.0,
                k=k,
                mass=1.0,
                damping=damping,
                rest_length=10.0,
                offset=(0.0, -2.0),
                spin=1.0,
            )
        )
    return orders


def crowded_world(precision: str, orders: list[Order]) -> World:
    world = World(WorldSettings(precision=precision, capacity=16_384, **ARENA))  # type: ignore[arg-type]
    for order in orders:
        world.submit(order)
    world.step(DT)  # applies the spawns
    return world


@dataclass(slots=True)
class Body:
    """One body as a plain Python object: what a first version of the game would write."""

    x: float
    y: float
    vx: float
    vy: float
    angle: float
    spin: float
    previous_x: float
    previous_y: float
    previous_angle: float
    gravity: float
    stiffness: float
    damping: float
    rest_x: float
    rest_y: float
    projectile: bool


def python_bodies(orders: list[Order], gravity: float) -> list[Body]:
    bodies = []
    for order in orders:
        if isinstance(order, Fire):
            angle = math.atan2(order.vy, order.vx) % TAU
            bodies.append(
                Body(
                    order.x,
                    order.y,
                    order.vx,
                    order.vy,
                    angle,
                    order.spin,
                    order.x,
                    order.y,
                    angle,
                    -gravity,
                    0.0,
                    0.0,
                    0.0,
                    0.0,
                    True,
                )
            )
        elif isinstance(order, SpawnSpring):
            rest_x, rest_y = order.rest
            x, y = rest_x + order.offset[0], rest_y + order.offset[1]
            bodies.append(
                Body(
                    x,
                    y,
                    *order.velocity,
                    0.0,
                    order.spin,
                    x,
                    y,
                    0.0,
                    0.0,
                    order.k / order.mass,
                    order.damping / order.mass,
                    rest_x,
                    rest_y,
                    False,
                )
            )
    return bodies


def python_step(bodies: list[Body], dt: float, width: float) -> list[Body]:
    """One semi-implicit Euler tick, body by body."""
    survivors = []
    for body in bodies:
        body.previous_x, body.previous_y, body.previous_angle = body.x, body.y, body.angle
        ax = -(body.stiffness * (body.x - body.rest_x)) - body.damping * body.vx
        ay = -(body.stiffness * (body.y - body.rest_y)) - body.damping * body.vy + body.gravity
        body.vx += ax * dt
        body.vy += ay * dt
        body.x += body.vx * dt
        body.y += body.vy * dt
        body.angle += body.spin * dt
        body.angle -= TAU * math.floor(body.angle / TAU)
        if body.projectile and (body.x < 0.0 or body.x > width or body.y < 0.0):
            continue
        survivors.append(body)
    return survivors


def _same_numbers(orders: list[Order]) -> bool:
    """Run both for 10 ticks from the same start: do they agree exactly (float64)?

    The world sorts bodies its own way, so the two are compared as sets of (x, y, angle).
    """
    world = World(WorldSettings(capacity=16_384, **ARENA))  # type: ignore[arg-type]
    for order in orders:
        world.submit(order)
    bodies = python_bodies(orders, world.settings.gravity)
    for _ in range(10):
        world.step(DT)
        bodies = python_step(bodies, DT, world.settings.arena_width)
    view = world.view(0.0, InterpolationMode.OFF)
    mine = {
        (float(x), float(y), float(a)) for x, y, a in zip(view.x, view.y, view.angle, strict=True)
    }
    theirs = {(body.x, body.y, body.angle) for body in bodies}
    return mine == theirs


def step_cost(quick: bool, orders: list[Order]) -> Section:
    number, repeat = (10, 9) if quick else (20, 41)
    loop_repeat = 3 if quick else 9
    section = Section(
        title=f"World: `step()` for {PROJECTILES:,} projectiles + {SPRINGS:,} springs",
        intro=(
            f"Median time of one tick ({repeat} batches of {number} ticks, semi-implicit Euler), "
            f"beside a per-object Python loop doing the same maths on the same bodies (median of "
            f"{loop_repeat} ticks). Targets: <= {TARGET_STEP_NS / 1e6:g} ms per tick and >= "
            f"{TARGET_RATIO}x faster than the loop."
        ),
        columns=["world", "median per tick", "Python loop", "ratio", "targets"],
    )
    width = ARENA["arena_width"]
    holder = {"bodies": python_bodies(orders, WorldSettings().gravity)}

    def loop_tick() -> None:
        holder["bodies"] = python_step(holder["bodies"], DT, width)

    loop_ns = median_ns_per_batch(loop_tick, repeat=loop_repeat)
    crowd_ns = {}
    for precision in ("float64", "float32"):
        world = crowded_world(precision, orders)
        cost = median_ns_per_call(partial(world.step, DT), number=number, repeat=repeat)
        assert world.body_count == PROJECTILES + SPRINGS, "bodies left the arena while timed"
        crowd_ns[precision] = cost
        ratio = loop_ns / cost
        ok = cost <= TARGET_STEP_NS and ratio >= TARGET_RATIO
        section.add(precision, ms(cost), ms(loop_ns), f"{ratio:.0f}x", verdict(ok))
    single = World()
    single.submit(SpawnSpring(tick=0, anchor_x=5.0, anchor_y=5.0, k=10.0, mass=1.0, offset=(1, 0)))
    one_ns = median_ns_per_call(partial(single.step, DT), number=2_000, repeat=repeat)
    section.notes.append(
        f"The loop and the world agree bit for bit after 10 ticks (float64, checked in this run: "
        f"{'yes' if _same_numbers(orders) else 'NO'}). A world of one spring steps in "
        f"{us(one_ns)}, the fixed cost of some twenty numpy calls; the 11,000 bodies add "
        f"{us(crowd_ns['float64'] - one_ns)} to it in float64."
    )
    return section


def view_cost(quick: bool, orders: list[Order]) -> Section:
    number, repeat = (20, 9) if quick else (50, 41)
    section = Section(
        title=f"World: `view()` for {PROJECTILES:,} projectiles + {SPRINGS:,} springs",
        intro=(
            f"Median time of one `view(0.5, mode)` ({repeat} batches of {number}): fresh "
            "read-only arrays of drawn and raw positions, angles, analytic ghosts, anchors and "
            f"velocities. Target: <= {TARGET_VIEW_NS / 1e6:g} ms."
        ),
        columns=["world", "mode", "median per view", "target"],
    )
    for precision in ("float64", "float32"):
        world = crowded_world(precision, orders)
        for mode in InterpolationMode:
            cost = median_ns_per_call(partial(world.view, 0.5, mode), number=number, repeat=repeat)
            section.add(precision, mode.value, ms(cost), verdict(cost <= TARGET_VIEW_NS))
    section.notes.append(
        "Every float array of a view is a row of one block: one allocation per view. Twelve "
        "separate float64 arrays cost 0.5 ms here, because the C allocator handed the freed "
        "memory back to the system and took page faults to get it again on every frame."
    )
    return section


def run(quick: bool) -> list[Section]:
    orders = crowd()
    return [step_cost(quick, orders), view_cost(quick, orders)]
