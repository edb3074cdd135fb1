"""Each integrator's first step, as exact worked examples.

The numbers are chosen to be exact in binary (g = 4 m/s^2, dt = 0.5 s, k/m = 4), so every
assertion is `==`: a changed order of operations shows up as a failure, not a tolerance.
"""

import math

import pytest

from game.world import BodyKind, Fire, SetIntegrator, SpawnSpring, World, WorldSettings


def one_step(integrator: str, command: Fire | SpawnSpring, *, dt: float = 0.5) -> World:
    world = World(WorldSettings(gravity=4.0, integrator=integrator))
    world.submit(command)
    world.step(dt)
    return world


def state(world: World) -> tuple[float, float, float, float]:
    view = world.view(0.0, "off")
    return float(view.x[0]), float(view.y[0]), float(view.vx[0]), float(view.vy[0])


THROW = Fire(tick=0, x=1.0, y=1.0, vx=2.0, vy=4.0)


@pytest.mark.parametrize(
    ("integrator", "expected"),
    [
        # x += v dt with the old velocity (y 1 + 4 * 0.5), then v += a dt (4 - 4 * 0.5).
        ("explicit", (2.0, 3.0, 2.0, 2.0)),
        # v += a dt first (vy 2), then x += v dt with the new velocity (y 1 + 2 * 0.5).
        ("semi-implicit", (2.0, 2.0, 2.0, 2.0)),
        # y 1 + 4 * 0.5 - 4 * 0.25 / 2 = 2.5: on the exact parabola.
        ("verlet", (2.0, 2.5, 2.0, 2.0)),
    ],
)
def test_one_projectile_step(integrator: str, expected: tuple[float, ...]) -> None:
    assert state(one_step(integrator, THROW)) == expected


# A spring whose bob starts 1 m right of its rest point (5, 5) at rest: a = -4 m/s^2.
PLUCK = SpawnSpring(tick=0, anchor_x=5.0, anchor_y=5.0, k=4.0, mass=1.0, offset=(1.0, 0.0))


@pytest.mark.parametrize(
    ("integrator", "expected"),
    [
        ("explicit", (6.0, 5.0, -2.0, 0.0)),  # moves with v = 0, then v = -4 * 0.5
        ("semi-implicit", (5.0, 5.0, -2.0, 0.0)),  # v = -2 first, then x = 6 - 2 * 0.5
        # x = 6 - 4 * 0.25 / 2 = 5.5, a_new = -2, v = (-4 - 2) * 0.5 / 2 = -1.5
        ("verlet", (5.5, 5.0, -1.5, 0.0)),
    ],
)
def test_one_spring_step(integrator: str, expected: tuple[float, ...]) -> None:
    assert state(one_step(integrator, PLUCK)) == expected


# k/m = 2, c/m = 1, 1 m out, moving away at 2 m/s: a = -2 * 1 - 1 * 2 = -4 m/s^2.
DAMPED = SpawnSpring(
    tick=0,
    anchor_x=5.0,
    anchor_y=5.0,
    k=4.0,
    mass=2.0,
    damping=2.0,
    offset=(1.0, 0.0),
    velocity=(2.0, 0.0),
)


@pytest.mark.parametrize(
    ("integrator", "expected"),
    [
        ("explicit", (7.0, 5.0, 0.0, 0.0)),
        ("semi-implicit", (6.0, 5.0, 0.0, 0.0)),
        # x = 6 + 1 - 0.5 = 6.5; the velocity guess 2 - 2 = 0 gives a_new = -3; v = 2 - 7/4
        ("verlet", (6.5, 5.0, 0.25, 0.0)),
    ],
)
def test_one_damped_spring_step(integrator: str, expected: tuple[float, ...]) -> None:
    assert state(one_step(integrator, DAMPED)) == expected


def test_springs_feel_no_gravity_and_projectiles_feel_no_spring() -> None:
    world = World(WorldSettings(gravity=4.0))
    world.submit(SpawnSpring(tick=0, anchor_x=5.0, anchor_y=5.0, k=4.0, mass=1.0))
    world.submit(Fire(tick=0, x=1.0, y=1.0, vx=0.0, vy=0.0))
    world.step(0.5)
    view = world.view(0.0, "off")
    spring = list(view.kind).index(BodyKind.SPRING)
    shot = list(view.kind).index(BodyKind.PROJECTILE)
    assert (view.x[spring], view.y[spring]) == (5.0, 5.0)  # at rest, stays at rest
    assert (view.x[shot], view.y[shot], view.vy[shot]) == (1.0, 0.0, -2.0)  # falls only


def test_the_default_integrator_is_semi_implicit_euler() -> None:
    assert World().integrator == "semi-implicit"


def test_set_integrator_takes_effect_at_its_tick() -> None:
    world = World(WorldSettings(gravity=4.0))
    world.submit(SetIntegrator(tick=1, name="explicit"))
    world.submit(THROW)
    world.step(0.5)
    assert world.integrator == "semi-implicit"
    assert state(world) == (2.0, 2.0, 2.0, 2.0)
    world.step(0.5)
    assert world.integrator == "explicit"
    # explicit from (2, 2) at (2, 2): y += 2 * 0.5 with the old velocity, vy -= 2
    assert state(world) == (3.0, 3.0, 2.0, 0.0)


def test_bodies_turn_by_spin_times_dt() -> None:
    world = World()
    world.submit(SpawnSpring(tick=0, anchor_x=5.0, anchor_y=5.0, k=4.0, mass=1.0, spin=1.5))
    world.step(0.5)
    assert world.view(0.0, "off").angle[0] == 0.75


def test_angles_stay_within_one_turn() -> None:
    world = World()
    world.submit(SpawnSpring(tick=0, anchor_x=5.0, anchor_y=5.0, k=4.0, mass=1.0, spin=10.0))
    for _ in range(100):
        world.step(0.25)
    angle = float(world.view(0.0, "off").angle[0])
    assert 0.0 <= angle < 2 * math.pi
    assert angle == pytest.approx(250.0 % (2 * math.pi), abs=1e-12)


def test_a_projectile_starts_facing_where_it_flies() -> None:
    world = World()
    world.submit(Fire(tick=0, x=1.0, y=1.0, vx=0.0, vy=3.0))
    world.step(0.01)
    assert world.view(0.0, "interpolate").angle[0] == math.pi / 2
