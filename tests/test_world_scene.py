"""The demo scene the game opens with, and the springs' energy bookkeeping."""

import subprocess
import sys

import numpy as np
import pytest

from game.world import (
    Scene,
    SetIntegrator,
    SpawnSpring,
    World,
    WorldSettings,
    demo_scene,
    demo_world,
)


def test_the_demo_scene_hangs_four_springs_soft_to_stiff_with_the_cannon_on() -> None:
    scene = demo_scene()
    assert [spring.k for spring in scene.springs] == [4.0, 16.0, 16.0, 64.0]
    assert [spring.damping for spring in scene.springs] == [0.0, 0.0, 0.8, 0.0]
    assert sum(spring.spin != 0.0 for spring in scene.springs) == 2
    assert scene.cannon_on


def test_the_demo_world_starts_with_its_springs_and_fires_on_its_first_tick() -> None:
    world = demo_world()
    assert (world.tick, world.spring_count, world.projectile_count, world.cannon_on) == (
        0,
        4,
        0,
        True,
    )
    world.step(1 / 60)
    assert world.projectile_count == 1


@pytest.mark.parametrize(("width", "height"), [(32.0, 18.0), (8.0, 6.0), (320.0, 180.0)])
def test_the_demo_scene_fits_any_arena(width: float, height: float) -> None:
    settings = WorldSettings(arena_width=width, arena_height=height)
    assert demo_world(settings).spring_count == 4


def test_two_demo_worlds_stay_identical() -> None:
    first, second = demo_world(), demo_world()
    for _ in range(300):
        first.step(1 / 60)
        second.step(1 / 60)
    assert first.state_hash() == second.state_hash()


def test_spring_energy_is_kinetic_plus_potential() -> None:
    # 1 m from rest with k = 4: 2 J; mass 2 at (3, 4) m/s with no stretch: 25 J.
    stretched = SpawnSpring(
        tick=0, anchor_x=5, anchor_y=9, k=4, mass=1, rest_length=2, offset=(0.0, 1.0)
    )
    moving = SpawnSpring(tick=0, anchor_x=9, anchor_y=9, k=4, mass=2, velocity=(3, 4))
    world = World(scene=Scene(springs=(stretched, moving)))
    assert world.spring_energy().tolist() == [2.0, 25.0]


def test_explicit_euler_pumps_energy_into_a_spring_and_semi_implicit_does_not() -> None:
    energies = {}
    for name in ("explicit", "semi-implicit"):
        world = World()
        world.submit(SetIntegrator(tick=0, name=name))
        world.submit(SpawnSpring(tick=0, anchor_x=5, anchor_y=5, k=10, mass=1, offset=(1, 0)))
        history = []
        for _ in range(600):
            world.step(1 / 60)
            history.append(float(world.spring_energy()[0]))
        energies[name] = np.array(history) / 5.0  # E0 = k x0^2 / 2 = 5 J
    # Explicit Euler multiplies the energy by exactly 1 + (k/m) h^2 on every tick.
    growth = (1 + 10 / 60**2) ** np.arange(1, 601)
    np.testing.assert_allclose(energies["explicit"], growth, rtol=1e-12)
    assert np.all(np.abs(energies["semi-implicit"] - 1) < 0.04)  # wobbles, never drifts


def test_the_world_never_imports_pygame() -> None:
    code = "import sys, game.world, game.world.experiments; print('pygame' in sys.modules)"
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "False"
