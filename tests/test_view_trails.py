"""The trail ring: one row of drawn positions per frame, a bounded number of bodies."""

from __future__ import annotations

import pytest

from game.view.trails import Trails
from game.world.bodies import PROJECTILE, SPRING
from game.world.orders import Fire, SpawnSpring
from game.world.scene import Scene
from game.world.settings import WorldSettings
from game.world.world import World


def drifting_world(shots: int = 1) -> World:
    """Projectiles moving right at 1 m/s from x = 2, 4, 6... with no gravity."""
    fired = tuple(Fire(tick=0, x=2.0 * (i + 1), y=9.0, vx=1.0, vy=0.0) for i in range(shots))
    return World(WorldSettings(gravity=0.0), Scene(projectiles=fired))


def test_each_recorded_frame_adds_one_dot_per_body_oldest_first() -> None:
    world, trails = drifting_world(), Trails(frames=4, bodies=8)
    for _ in range(3):
        trails.record(world.view(1.0, "off"))
        world.step(0.5)
    x, y, kind, radius, age = trails.dots()
    assert x.tolist() == [2.0, 2.5, 3.0]
    assert y.tolist() == [9.0, 9.0, 9.0]
    assert kind.tolist() == [PROJECTILE] * 3
    assert radius.tolist() == [0.2] * 3
    assert age.tolist() == [2, 1, 0]


def test_the_ring_keeps_only_the_last_frames() -> None:
    world, trails = drifting_world(), Trails(frames=3, bodies=8)
    for _ in range(5):
        trails.record(world.view(1.0, "off"))
        world.step(0.5)
    x, _, _, _, age = trails.dots()
    assert x.tolist() == [3.0, 3.5, 4.0]
    assert age.tolist() == [2, 1, 0]


def test_a_frame_showing_the_same_moment_again_is_not_recorded() -> None:
    """A paused game redraws one view many times: its dots must not pile up on one spot."""
    world, trails = drifting_world(), Trails(frames=4, bodies=8)
    view = world.view(0.5, "interpolate")
    for _ in range(3):
        trails.record(view)
    assert trails.dots()[0].tolist() == [2.0]
    trails.record(world.view(0.75, "interpolate"))  # same tick, later alpha: a new picture
    assert trails.dots()[4].tolist() == [1, 0]


def test_clear_forgets_every_dot() -> None:
    world, trails = drifting_world(), Trails(frames=4, bodies=8)
    trails.record(world.view(1.0, "off"))
    trails.clear()
    assert trails.dots()[0].size == 0
    trails.record(world.view(1.0, "off"))  # the same picture is recorded again after a clear
    assert trails.dots()[0].tolist() == [2.0]


def test_with_more_bodies_than_the_cap_springs_then_the_newest_projectiles_get_trails() -> None:
    spring = SpawnSpring(tick=0, anchor_x=30.0, anchor_y=17.0, k=4.0, mass=1.0, rest_length=3.0)
    fired = tuple(Fire(tick=0, x=1.0 + i, y=9.0, vx=0.0, vy=0.0) for i in range(6))
    world = World(WorldSettings(gravity=0.0), Scene(springs=(spring,), projectiles=fired))
    trails = Trails(frames=2, bodies=3)
    trails.record(world.view(1.0, "off"))
    x, _, kind, _, _ = trails.dots()
    assert sorted(zip(kind.tolist(), x.tolist(), strict=True)) == [
        (PROJECTILE, 5.0),
        (PROJECTILE, 6.0),
        (SPRING, 30.0),
    ]


def test_a_body_that_is_gone_leaves_its_old_dots_and_no_new_ones() -> None:
    world = World(
        WorldSettings(gravity=0.0),
        Scene(projectiles=(Fire(tick=0, x=31.0, y=9.0, vx=2.0, vy=0.0),)),
    )
    trails = Trails(frames=4, bodies=8)
    trails.record(world.view(1.0, "off"))
    world.step(1.0)  # past the right edge: removed
    trails.record(world.view(1.0, "off"))
    x, _, _, _, age = trails.dots()
    assert x.tolist() == [31.0]
    assert age.tolist() == [1]


def test_sizes_must_be_positive() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        Trails(frames=0)
    with pytest.raises(ValueError, match="at least 1"):
        Trails(bodies=0)


def test_a_new_ring_has_no_dots() -> None:
    x, y, kind, radius, age = Trails(frames=2, bodies=4).dots()
    assert x.size == y.size == kind.size == radius.size == age.size == 0
