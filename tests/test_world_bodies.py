"""Bodies come and go: projectiles leave the arena, the arrays grow, and a body's motion does not
depend on how many others share the arrays."""

import numpy as np
import pytest

from game.world import Fire, SpawnSpring, World, WorldSettings


def test_projectiles_leaving_left_right_or_bottom_are_removed() -> None:
    world = World(WorldSettings(gravity=0.0, arena_width=10.0, arena_height=10.0))
    world.submit(Fire(tick=0, x=0.5, y=5.0, vx=-1.0, vy=0.0))  # out left after tick 0
    world.submit(Fire(tick=0, x=9.5, y=5.0, vx=1.0, vy=0.0))  # out right
    world.submit(Fire(tick=0, x=5.0, y=0.5, vx=0.0, vy=-1.0))  # out the bottom
    world.submit(Fire(tick=0, x=5.0, y=9.5, vx=0.0, vy=1.0))  # over the top: stays
    world.submit(Fire(tick=0, x=5.0, y=5.0, vx=0.0, vy=0.0))  # stays
    world.step(1.0)
    view = world.view(0.0, "off")
    # Shots of one tick get ids in their canonical order (by value): the survivors are 2 and 3.
    assert list(zip(view.ids.tolist(), view.x.tolist(), view.y.tolist(), strict=True)) == [
        (2, 5.0, 5.0),
        (3, 5.0, 10.5),
    ]


def test_what_goes_over_the_top_falls_back_in() -> None:
    world = World(WorldSettings(arena_height=5.0))
    world.submit(Fire(tick=0, x=5.0, y=4.0, vx=0.0, vy=10.0))  # peaks near 9 m
    for _ in range(60):
        world.step(1 / 60)
    assert world.projectile_count == 1


def test_springs_are_never_removed_even_when_they_swing_out() -> None:
    world = World(WorldSettings(gravity=0.0, arena_width=10.0, arena_height=10.0))
    world.submit(
        SpawnSpring(tick=0, anchor_x=1.0, anchor_y=5.0, k=1.0, mass=1.0, velocity=(-50.0, 0.0))
    )
    world.step(0.1)
    assert world.view(0.0, "off").x[0] < 0.0
    assert world.spring_count == 1


def test_the_arrays_grow_past_their_capacity_and_keep_every_body() -> None:
    world = World(WorldSettings(capacity=2, gravity=0.0))
    for i in range(9):
        world.submit(Fire(tick=0, x=1.0 + i, y=1.0, vx=1.0, vy=0.0))
    world.step(0.5)
    assert world.view(0.0, "off").x.tolist() == [1.5 + i for i in range(9)]


def test_counts_by_kind() -> None:
    world = World()
    world.submit(SpawnSpring(tick=0, anchor_x=5, anchor_y=5, k=4, mass=1))
    world.submit(Fire(tick=0, x=1.0, y=1.0, vx=1.0, vy=1.0))
    world.submit(Fire(tick=0, x=2.0, y=1.0, vx=1.0, vy=1.0))
    world.step(0.01)
    assert (world.body_count, world.projectile_count, world.spring_count) == (3, 2, 1)


@pytest.mark.slow
@pytest.mark.parametrize("precision", ["float32", "float64"])
def test_a_body_moves_the_same_alone_or_among_twenty_thousand(precision: str) -> None:
    """One vectorised code path: the crowd changes nothing about any one body, bit for bit."""
    settings = WorldSettings(precision=precision, integrator="verlet", capacity=4)
    shot = Fire(tick=0, x=2.0, y=3.0, vx=7.0, vy=11.0, spin=3.0)
    spring = SpawnSpring(
        tick=0,
        anchor_x=20.0,
        anchor_y=15.0,
        k=30.0,
        mass=2.0,
        damping=0.5,
        rest_length=4.0,
        offset=(1.0, -2.0),
    )
    alone, crowded = World(settings), World(settings)
    for world in (alone, crowded):
        world.submit(shot)
        world.submit(spring)
    rng = np.random.default_rng(3)
    # Launched from x > 2, the crowd sorts after our shot: the spring is id 0, the shot id 1.
    for x, vx, vy in rng.uniform((3.0, -5.0, 0.0), (31.0, 5.0, 15.0), size=(20_000, 3)).tolist():
        crowded.submit(Fire(tick=0, x=x, y=1.0, vx=vx, vy=vy))
    for _ in range(60):
        alone.step(1 / 60)
        crowded.step(1 / 60)
    ours = crowded.view(0.5, "interpolate")
    picked = np.isin(ours.ids, [0, 1])
    mine = alone.view(0.5, "interpolate")
    for name in ("x", "y", "angle", "vx", "vy", "analytic_x", "analytic_y"):
        np.testing.assert_array_equal(getattr(ours, name)[picked], getattr(mine, name))
