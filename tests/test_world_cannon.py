"""The world's cannon: on schedule, jittered by the world's own seeded generator, replayable."""

import math

import pytest

from game.world import CannonSettings, Scene, SetCannon, World, WorldSettings

CANNON = CannonSettings(
    every_ticks=10, angle_deg=60.0, speed=12.0, angle_jitter_deg=5.0, speed_jitter=1.0
)


def cannon_world(seed: int = 0) -> World:
    return World(WorldSettings(seed=seed, cannon=CANNON), scene=Scene(cannon_on=True))


def shots(world: World, ticks: int) -> dict[int, tuple[float, float]]:
    """Each new projectile's launch velocity, by the tick it was fired on."""
    fired: dict[int, tuple[float, float]] = {}
    seen: set[int] = set()
    for _ in range(ticks):
        tick = world.tick
        world.step(1 / 60)
        view = world.view(0.0, "interpolate")
        for body, vx, vy in zip(view.ids.tolist(), view.vx.tolist(), view.vy.tolist(), strict=True):
            if body not in seen:
                seen.add(body)
                fired[tick] = (vx, vy + 9.81 / 60)  # undo the one tick of gravity
    return fired


def test_the_cannon_fires_on_every_multiple_of_every_ticks() -> None:
    assert sorted(shots(cannon_world(), 35)) == [0, 10, 20, 30]


def test_each_shot_is_jittered_within_the_settings() -> None:
    for vx, vy in shots(cannon_world(), 200).values():
        speed, angle = math.hypot(vx, vy), math.degrees(math.atan2(vy, vx))
        assert 11.0 - 1e-9 <= speed <= 13.0 + 1e-9
        assert 55.0 - 1e-9 <= angle <= 65.0 + 1e-9


def test_the_same_seed_fires_the_same_volley_and_another_seed_does_not() -> None:
    assert shots(cannon_world(seed=4), 100) == shots(cannon_world(seed=4), 100)
    assert shots(cannon_world(seed=4), 100) != shots(cannon_world(seed=5), 100)


def test_switching_the_cannon_off_and_on_does_not_shift_later_shots() -> None:
    """The generator advances on every tick, fired or not: shot 60 is the same either way."""
    steady, toggled = cannon_world(), cannon_world()
    toggled.submit(SetCannon(tick=15, enabled=False))
    toggled.submit(SetCannon(tick=45, enabled=True))
    steady_shots, toggled_shots = shots(steady, 70), shots(toggled, 70)
    assert sorted(toggled_shots) == [0, 10, 50, 60]
    assert toggled_shots[60] == pytest.approx(steady_shots[60], abs=0.0)


def test_no_cannon_unless_the_scene_or_a_command_switches_it_on() -> None:
    world = World(WorldSettings(cannon=CANNON))
    assert shots(world, 25) == {}
    world.submit(SetCannon(tick=world.tick, enabled=True))
    assert sorted(shots(world, 10)) == [30]
