"""World settings: the defaults the brief gives, and a clear refusal of anything else."""

import math

import numpy as np
import pytest

from game.world import CannonSettings, Scene, SpawnSpring, World, WorldSettings


def test_the_defaults() -> None:
    settings = WorldSettings()
    assert (settings.gravity, settings.arena_width, settings.arena_height) == (9.81, 32.0, 18.0)
    assert (settings.precision, settings.integrator, settings.seed) == (
        "float64",
        "semi-implicit",
        0,
    )
    assert settings.dtype == np.float64


def test_a_world_starts_at_tick_zero_with_nothing_in_it() -> None:
    world = World()
    assert (world.tick, world.time, world.last_dt, world.body_count) == (0, 0.0, 0.0, 0)
    assert not world.cannon_on


@pytest.mark.parametrize("precision", ["float32", "float64"])
def test_every_state_array_has_the_chosen_precision(precision: str) -> None:
    world = World(WorldSettings(precision=precision))
    world.submit(SpawnSpring(tick=0, anchor_x=5, anchor_y=5, k=4, mass=1))
    world.step(0.1)
    view = world.view()
    for array in (view.x, view.y, view.angle, view.analytic_x, view.vx, world.spring_energy()):
        assert array.dtype == np.dtype(precision)


@pytest.mark.parametrize(
    ("changes", "error", "message"),
    [
        ({"gravity": -9.81}, ValueError, "gravity must not be negative"),
        ({"gravity": math.nan}, ValueError, "gravity must be finite"),
        ({"arena_width": 0}, ValueError, "arena_width must be greater than 0"),
        ({"arena_height": "18"}, TypeError, "arena_height must be a number"),
        ({"precision": "float16"}, ValueError, "precision must be 'float32' or 'float64'"),
        ({"seed": -1}, ValueError, "seed must be at least 0"),
        ({"seed": 1.5}, TypeError, "seed must be an int"),
        ({"capacity": 0}, ValueError, "capacity must be at least 1"),
        ({"capacity": 10**9}, ValueError, "capacity must be at most 10,000,000"),
        ({"integrator": "rk4"}, ValueError, "integrator must be one of explicit, semi-implicit"),
        ({"projectile_radius": 0.0}, ValueError, "projectile_radius must be greater than 0"),
        ({"cannon": CannonSettings(x=40.0)}, ValueError, r"the cannon at \(40.0, 1.5\) is outside"),
        ({"cannon": "on"}, TypeError, "cannon must be CannonSettings"),
    ],
)
def test_bad_settings_are_refused(
    changes: dict[str, object], error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        WorldSettings(**changes)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"speed": 0.0}, "cannon speed must be greater than 0"),
        ({"every_ticks": 0}, "cannon every_ticks must be at least 1"),
        ({"speed_jitter": 20.0}, "cannon speed_jitter must be less than its speed"),
        ({"angle_jitter_deg": -1.0}, "cannon angle_jitter_deg must not be negative"),
        ({"spin": math.inf}, "cannon spin must be finite"),
    ],
)
def test_bad_cannon_settings_are_refused(changes: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        CannonSettings(**changes)  # type: ignore[arg-type]


def test_a_scene_that_does_not_fit_the_arena_is_refused() -> None:
    spring = SpawnSpring(tick=0, anchor_x=30.0, anchor_y=5.0, k=4.0, mass=1.0)
    with pytest.raises(ValueError, match=r"SpawnSpring anchor \(30, 5\) is outside the 10 x 10 m"):
        World(WorldSettings(arena_width=10.0, arena_height=10.0), scene=Scene(springs=(spring,)))


def test_a_scene_holds_only_spawn_commands() -> None:
    with pytest.raises(TypeError, match=r"Scene\.springs must be a tuple of SpawnSpring"):
        Scene(springs=("spring",))  # type: ignore[arg-type]
