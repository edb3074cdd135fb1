"""The render view: blends of the previous and current tick, drawn, never written back."""

import math
from fractions import Fraction

import numpy as np
import pytest

from game.world import (
    Fire,
    InterpolationMode,
    Reset,
    Scene,
    SpawnSpring,
    Teleport,
    World,
    WorldSettings,
    demo_world,
)
from timestep_lab import FixedStepScheduler, SchedulerSettings

WEIGHTLESS = WorldSettings(gravity=0.0)


def glide(x: float, vx: float, dt: float) -> World:
    """A weightless projectile at (x, 1) moving at vx, after one tick of dt."""
    world = World(WEIGHTLESS)
    world.submit(Fire(tick=0, x=x, y=1.0, vx=vx, vy=0.0))
    world.step(dt)
    return world


def test_the_worked_example_article_draws_2_3_m_between_2_0_and_2_4() -> None:
    # h = 20 ms, 6 ms carried in, a 29 ms frame: one tick runs, 15 ms remain, alpha = 0.75.
    scheduler = FixedStepScheduler(
        SchedulerSettings(step_ns=Fraction(20_000_000)), initial_remainder_ns=6_000_000
    )
    plan = scheduler.advance(29_000_000)
    assert (plan.steps, plan.alpha) == (1, 0.75)
    world = World(WEIGHTLESS)
    world.submit(Fire(tick=0, x=2.0, y=1.0, vx=20.0, vy=0.0))  # 0.4 m per 20 ms tick
    for _ in range(plan.steps):
        world.step(plan.dt_seconds)
    view = world.view(plan.alpha, InterpolationMode.INTERPOLATE)
    assert view.raw_x[0] == pytest.approx(2.4, abs=1e-12)
    assert view.x[0] == pytest.approx(2.3, abs=1e-12)


def test_interpolate_blends_previous_to_current_by_alpha() -> None:
    world = glide(x=1.0, vx=2.0, dt=0.5)  # 1 m -> 2 m
    assert [float(world.view(alpha, "interpolate").x[0]) for alpha in (0, 0.25, 1)] == [
        1.0,
        1.25,
        2.0,
    ]


def test_off_draws_the_current_tick_whatever_alpha() -> None:
    world = glide(x=1.0, vx=2.0, dt=0.5)
    assert world.view(0.25, "off").x[0] == 2.0


def test_extrapolate_adds_velocity_times_alpha_times_dt() -> None:
    world = glide(x=1.0, vx=2.0, dt=0.5)
    assert world.view(0.25, "extrapolate").x[0] == 2.25  # 2 + 2 * 0.25 * 0.5


def test_a_naive_alpha_above_one_overshoots_the_current_tick() -> None:
    # The step-cap article's bug: everything carried divided by the step gives alpha = 6.75.
    world = glide(x=1.0, vx=2.0, dt=0.5)
    assert world.view(6.75, "interpolate").x[0] == 7.75


def test_raw_tick_markers_are_the_current_tick_in_every_mode() -> None:
    world = glide(x=1.0, vx=2.0, dt=0.5)
    for mode in InterpolationMode:
        assert world.view(0.5, mode).raw_x[0] == 2.0


def test_drawing_never_changes_the_world() -> None:
    drawn, untouched = demo_world(), demo_world()
    for _ in range(50):
        drawn.step(1 / 60)
        untouched.step(1 / 60)
        before = drawn.state_hash()
        for mode in InterpolationMode:
            for alpha in (0.0, 0.3, 1.0, 6.75):
                drawn.view(alpha, mode)
        assert drawn.state_hash() == before
    assert drawn.state_hash() == untouched.state_hash()


def test_view_arrays_are_read_only() -> None:
    view = demo_world().view(0.5, "interpolate")
    for name in (
        "ids",
        "kind",
        "x",
        "y",
        "angle",
        "radius",
        "raw_x",
        "raw_y",
        "analytic_x",
        "analytic_y",
        "anchor_x",
        "anchor_y",
        "vx",
        "vy",
    ):
        array = getattr(view, name)
        with pytest.raises(ValueError, match="read-only"):
            array[0] = 0


def test_a_view_keeps_its_values_after_the_world_moves_on() -> None:
    world = glide(x=1.0, vx=2.0, dt=0.5)
    view = world.view(0.0, "off")
    world.step(0.5)
    assert (view.x[0], world.view(0.0, "off").x[0]) == (2.0, 3.0)


def test_angles_interpolate_the_short_way_across_a_full_turn() -> None:
    world = World(WEIGHTLESS)
    # Facing 0.1 rad below +x (angle 2 pi - 0.1), turning +0.4 rad per tick: it crosses 0.
    world.submit(Fire(tick=0, x=1.0, y=1.0, vx=math.cos(-0.1), vy=math.sin(-0.1), spin=0.8))
    world.step(0.5)
    previous, current = 2 * math.pi - 0.1, 0.3
    assert world.view(0.0, "off").angle[0] == pytest.approx(current, abs=1e-12)
    halfway = float(world.view(0.5, "interpolate").angle[0])
    assert math.cos(halfway) == pytest.approx(math.cos(previous + 0.2), abs=1e-12)
    assert math.sin(halfway) == pytest.approx(math.sin(previous + 0.2), abs=1e-12)


def spring_world() -> World:
    world = World(WEIGHTLESS)
    world.submit(SpawnSpring(tick=0, anchor_x=5.0, anchor_y=5.0, k=4.0, mass=1.0, offset=(1, 0)))
    return world


def test_teleport_sets_both_buffers_so_nothing_smears() -> None:
    world = spring_world()
    world.step(0.5)
    body = int(world.view().ids[0])
    world.submit(Teleport(tick=1, body_id=body, x=20.0, y=5.0))
    world.step(0.5)
    # The tick started at the teleport point: alpha 0 draws it there, not back at x = 5.
    assert world.view(0.0, "interpolate").x[0] == 20.0
    xs = [float(world.view(alpha, "interpolate").x[0]) for alpha in np.linspace(0, 1, 11)]
    assert min(xs) >= float(world.view(0.0, "off").x[0])  # every frame between 20 and the new x


def test_a_body_spawned_this_tick_starts_at_its_spawn_point() -> None:
    world = World(WEIGHTLESS)
    world.step(0.5)
    world.submit(Fire(tick=1, x=3.0, y=4.0, vx=2.0, vy=0.0))
    world.step(0.5)
    view = world.view(0.0, "interpolate")
    assert (view.x[0], view.y[0]) == (3.0, 4.0)


def test_reset_puts_the_scene_back_in_both_buffers() -> None:
    scene = Scene(
        springs=(SpawnSpring(tick=0, anchor_x=5, anchor_y=5, k=4, mass=1, offset=(1, 0)),)
    )
    world = World(WEIGHTLESS, scene=scene)
    for _ in range(3):
        world.step(0.5)
    world.submit(Reset(tick=3))
    world.step(0.5)
    fresh = World(WEIGHTLESS, scene=scene)
    fresh.step(0.5)
    for alpha in (0.0, 0.5, 1.0):
        assert world.view(alpha, "interpolate").x[0] == fresh.view(alpha, "interpolate").x[0]


def test_the_analytic_ghost_is_the_exact_parabola_at_the_drawn_time() -> None:
    world = World()
    world.submit(Fire(tick=0, x=1.0, y=2.0, vx=3.0, vy=8.0))
    for _ in range(4):
        world.step(0.25)
    for alpha, mode, t in (
        (0.5, "interpolate", 0.875),
        (0.0, "off", 1.0),
        (0.5, "extrapolate", 1.125),
    ):
        view = world.view(alpha, mode)
        assert view.time == t
        assert view.analytic_x[0] == 1.0 + 3.0 * t
        assert view.analytic_y[0] == pytest.approx(2.0 + 8.0 * t - 9.81 * t * t / 2, abs=1e-12)


def test_springs_have_anchors_and_no_ghost_projectiles_the_reverse() -> None:
    world = spring_world()
    world.submit(Fire(tick=0, x=1.0, y=1.0, vx=1.0, vy=1.0))
    world.step(0.1)
    view = world.view()
    spring, shot = list(view.kind).index(1), list(view.kind).index(0)
    assert (view.anchor_x[spring], view.anchor_y[spring]) == (5.0, 5.0)
    assert math.isnan(view.analytic_x[spring]) and math.isnan(view.analytic_y[spring])
    assert math.isnan(view.anchor_x[shot]) and not math.isnan(view.analytic_x[shot])


@pytest.mark.parametrize("alpha", [math.nan, math.inf, -0.1, "0.5", None, True])
def test_a_bad_alpha_is_refused(alpha: object) -> None:
    with pytest.raises((ValueError, TypeError), match="alpha"):
        World().view(alpha, "interpolate")  # type: ignore[arg-type]


def test_an_unknown_mode_is_refused() -> None:
    with pytest.raises(ValueError, match="interpolation mode must be one of off, interpolate"):
        World().view(0.5, "smooth")
