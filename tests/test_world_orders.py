"""Tick-stamped orders: applied at their tick, in one order, refused whole when bad."""

import math
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.world import (
    Fire,
    Order,
    Reset,
    SetCannon,
    SetIntegrator,
    SpawnSpring,
    Teleport,
    World,
    WorldSettings,
    demo_world,
)
from timestep_lab import FixedStepScheduler, SchedulerSettings

DT = 1 / 60

SCRIPT: list[Order] = [
    Fire(tick=2, x=3.0, y=2.0, vx=6.0, vy=9.0, spin=2.0),
    Fire(tick=2, x=3.0, y=2.0, vx=5.0, vy=9.0),
    SpawnSpring(tick=5, anchor_x=10.0, anchor_y=15.0, k=9.0, mass=2.0, rest_length=3.0),
    SetIntegrator(tick=40, name="verlet"),
    Teleport(tick=60, body_id=1, x=20.0, y=9.0),
    SetCannon(tick=80, enabled=False),
    Reset(tick=120),
    Fire(tick=120, x=1.0, y=1.0, vx=4.0, vy=12.0),
]


def run(orders: list[Order], ticks: int = 150) -> World:
    world = demo_world()
    for order in orders:
        world.submit(order)
    for _ in range(ticks):
        world.step(DT)
    return world


def test_the_same_commands_give_the_same_hash() -> None:
    assert run(SCRIPT).state_hash() == run(SCRIPT).state_hash()


def test_a_different_command_gives_a_different_hash() -> None:
    nudged = [*SCRIPT[:-1], Fire(tick=120, x=1.0, y=1.0, vx=4.0, vy=12.000001)]
    assert run(SCRIPT).state_hash() != run(nudged).state_hash()


def test_same_tick_commands_in_any_arrival_order_give_the_same_hash() -> None:
    assert run(SCRIPT).state_hash() == run(list(reversed(SCRIPT))).state_hash()


orders_at_ticks = st.lists(
    st.one_of(
        st.builds(
            Fire,
            tick=st.integers(0, 6),
            x=st.sampled_from([1.0, 5.0]),
            y=st.sampled_from([1.0, 2.0]),
            vx=st.sampled_from([3.0, -1.0]),
            vy=st.sampled_from([5.0, 8.0]),
            spin=st.sampled_from([0.0, 2.0]),
        ),
        st.builds(
            SpawnSpring,
            tick=st.integers(0, 6),
            anchor_x=st.sampled_from([8.0, 12.0]),
            anchor_y=st.just(12.0),
            k=st.sampled_from([4.0, 9.0]),
            mass=st.just(1.0),
            offset=st.just((1.0, 0.0)),
        ),
        st.builds(
            Teleport,
            tick=st.integers(0, 6),
            body_id=st.integers(0, 6),
            x=st.just(9.0),
            y=st.sampled_from([3.0, 4.0]),
        ),
        st.builds(
            SetIntegrator, tick=st.integers(0, 6), name=st.sampled_from(["explicit", "verlet"])
        ),
        st.builds(SetCannon, tick=st.integers(0, 6), enabled=st.booleans()),
        st.builds(Reset, tick=st.integers(0, 6)),
    ),
    max_size=12,
)


@settings(max_examples=60, deadline=None)
@given(orders=orders_at_ticks, data=st.data())
def test_any_arrival_order_gives_the_same_hash(orders: list[Order], data: st.DataObject) -> None:
    shuffled = data.draw(st.permutations(orders))
    assert run(orders, ticks=8).state_hash() == run(shuffled, ticks=8).state_hash()


def test_a_replay_is_identical_at_any_render_rate() -> None:
    """2 s at 60 Hz, drawn at 25 fps and at 125 fps: the same 120 ticks, the same state."""

    def play(frame_ms: int) -> World:
        scheduler = FixedStepScheduler(SchedulerSettings.at_hz(60))
        world = demo_world()
        for order in SCRIPT:
            world.submit(order)
        for _ in range(2000 // frame_ms):
            plan = scheduler.advance(frame_ms * 1_000_000)
            for _ in range(plan.steps):
                world.step(plan.dt_seconds)
            world.view(plan.alpha, "interpolate")
        return world

    slow, fast = play(40), play(8)
    assert slow.tick == fast.tick == 120
    assert slow.state_hash() == fast.state_hash()


def test_a_command_applies_at_the_start_of_its_tick_not_before() -> None:
    world = World()
    world.submit(Fire(tick=3, x=1.0, y=1.0, vx=1.0, vy=1.0))
    for _ in range(3):
        world.step(DT)
    assert world.projectile_count == 0
    world.step(DT)
    assert world.projectile_count == 1


def test_a_command_for_the_current_tick_is_accepted() -> None:
    world = World()
    world.step(DT)
    world.submit(Fire(tick=1, x=1.0, y=1.0, vx=1.0, vy=1.0))
    world.step(DT)
    assert world.projectile_count == 1


def test_a_command_for_a_past_tick_is_refused_and_nothing_changes() -> None:
    world = demo_world()
    for _ in range(5):
        world.step(DT)
    before = world.state_hash()
    with pytest.raises(
        ValueError,
        match=r"Fire for tick 4 comes too late: the world has run 5 ticks and the next is tick 5",
    ):
        world.submit(Fire(tick=4, x=1.0, y=1.0, vx=1.0, vy=1.0))
    assert world.state_hash() == before


BAD_COMMANDS: list[tuple[Callable[[], object], type[Exception], str]] = [
    (lambda: Fire(tick=0, x=1.0, y=1.0, vx=math.nan, vy=1.0), ValueError, "Fire.vx must be finite"),
    (lambda: Fire(tick=0, x=1.0, y=1.0, vx=1.0, vy=math.inf), ValueError, "Fire.vy must be finite"),
    (
        lambda: Fire(tick=-1, x=1.0, y=1.0, vx=1.0, vy=1.0),
        ValueError,
        "Fire.tick must be at least 0",
    ),
    (lambda: Fire(tick=1.0, x=1, y=1, vx=1, vy=1), TypeError, "Fire.tick must be an int"),  # type: ignore[arg-type]
    (lambda: Fire(tick=True, x=1, y=1, vx=1, vy=1), TypeError, "Fire.tick must be an int"),
    (lambda: Fire(tick=0, x="1", y=1, vx=1, vy=1), TypeError, "Fire.x must be a number"),  # type: ignore[arg-type]
    (
        lambda: Fire(tick=0, x=-1.0, y=1.0, vx=1.0, vy=1.0),
        ValueError,
        "outside the 32 x 18 m arena",
    ),
    (
        lambda: SpawnSpring(tick=0, anchor_x=5, anchor_y=5, k=4, mass=-1),
        ValueError,
        "SpawnSpring.mass must be greater than 0",
    ),
    (
        lambda: SpawnSpring(tick=0, anchor_x=5, anchor_y=5, k=0, mass=1),
        ValueError,
        "SpawnSpring.k must be greater than 0",
    ),
    (
        lambda: SpawnSpring(tick=0, anchor_x=5, anchor_y=5, k=-3, mass=1),
        ValueError,
        "SpawnSpring.k must be greater than 0",
    ),
    (
        lambda: SpawnSpring(tick=0, anchor_x=5, anchor_y=5, k=4, mass=1, damping=-0.1),
        ValueError,
        "SpawnSpring.damping must not be negative",
    ),
    (
        lambda: SpawnSpring(tick=0, anchor_x=5, anchor_y=5, k=4, mass=1, velocity=(math.nan, 0)),
        ValueError,
        r"SpawnSpring.velocity\[0\] must be finite",
    ),
    (
        lambda: SpawnSpring(tick=0, anchor_x=5, anchor_y=5, k=4, mass=1, offset=(1, 2, 3)),  # type: ignore[arg-type]
        TypeError,
        "SpawnSpring.offset must be a pair",
    ),
    (
        lambda: SpawnSpring(tick=0, anchor_x=5, anchor_y=5, k=4, mass=1, rest_length=6),
        ValueError,
        r"SpawnSpring rest point \(5, -1\) is outside",
    ),
    (
        lambda: Teleport(tick=0, body_id=-1, x=1, y=1),
        ValueError,
        "Teleport.body_id must be at least 0",
    ),
    (lambda: Teleport(tick=0, body_id=0, x=1, y=40), ValueError, r"Teleport destination \(1, 40\)"),
    (
        lambda: SetIntegrator(tick=0, name="rk4"),
        ValueError,
        "SetIntegrator.name must be one of explicit, semi-implicit, verlet",
    ),
    (lambda: SetCannon(tick=0, enabled="yes"), TypeError, "SetCannon.enabled must be a bool"),  # type: ignore[arg-type]
    (
        lambda: "fire!",
        TypeError,
        "an order must be one of Reset, SetIntegrator, SetCannon, Teleport",
    ),
]


@pytest.mark.parametrize(("make", "error", "message"), BAD_COMMANDS)
def test_a_bad_command_is_refused_clearly_and_nothing_changes(
    make: Callable[[], object], error: type[Exception], message: str
) -> None:
    world = demo_world()
    before = world.state_hash()
    with pytest.raises(error, match=message):
        world.submit(make())  # type: ignore[arg-type]
    assert world.state_hash() == before
    world.step(DT)
    untouched = demo_world()
    untouched.step(DT)
    assert world.state_hash() == untouched.state_hash()


@pytest.mark.parametrize(
    ("dt", "error", "message"),
    [
        (0.0, ValueError, "dt must be greater than 0"),
        (-DT, ValueError, "dt must be greater than 0"),
        (math.nan, ValueError, "dt must be finite"),
        (math.inf, ValueError, "dt must be finite"),
        ("0.016", TypeError, "dt must be a number"),
        (None, TypeError, "dt must be a number"),
        (True, TypeError, "dt must be a number"),
    ],
)
def test_a_bad_dt_is_refused_and_nothing_changes(
    dt: object, error: type[Exception], message: str
) -> None:
    world = demo_world()
    world.submit(Fire(tick=0, x=1.0, y=1.0, vx=1.0, vy=1.0))
    before = world.state_hash()
    with pytest.raises(error, match=message):
        world.step(dt)  # type: ignore[arg-type]
    assert (world.state_hash(), world.tick) == (before, 0)


def test_values_are_stored_as_floats_so_1_and_1_0_are_the_same_command() -> None:
    assert Fire(tick=0, x=1, y=2, vx=3, vy=4) == Fire(tick=0, x=1.0, y=2.0, vx=3.0, vy=4.0)
    assert repr(Fire(tick=0, x=1, y=2, vx=3, vy=4)) == repr(Fire(0, 1.0, 2.0, 3.0, 4.0))


def test_a_teleport_of_a_body_that_is_gone_does_nothing() -> None:
    world = World()
    world.submit(Teleport(tick=0, body_id=7, x=5.0, y=5.0))
    world.step(DT)
    assert world.body_count == 0


def test_a_reset_runs_first_so_a_shot_of_the_same_tick_survives_it() -> None:
    world = demo_world()
    world.submit(SetCannon(tick=0, enabled=False))
    world.step(DT)
    world.submit(Fire(tick=1, x=1.0, y=1.0, vx=1.0, vy=9.0))
    world.submit(Reset(tick=1))
    world.step(DT)
    assert (world.spring_count, world.projectile_count) == (4, 1)


def test_reset_restores_the_scene_and_keeps_tick_time_and_integrator() -> None:
    world = demo_world()
    world.submit(SetIntegrator(tick=0, name="explicit"))
    world.submit(SetCannon(tick=0, enabled=False))
    for _ in range(100):
        world.step(DT)
    world.submit(Reset(tick=100))
    world.step(DT)
    assert world.tick == 101
    assert world.integrator == "explicit"
    assert world.cannon_on  # the scene's switch is back on
    assert world.spring_count == 4


def test_an_id_is_never_reused_even_after_a_reset() -> None:
    world = demo_world()
    first = set(world.view().ids.tolist())
    world.submit(Reset(tick=0))
    world.step(DT)
    assert first.isdisjoint(world.view().ids.tolist())


def test_the_hash_sees_the_seed_the_integrator_and_the_queue() -> None:
    plain = World().state_hash()
    assert World(WorldSettings(seed=1)).state_hash() != plain
    assert World(WorldSettings(integrator="verlet")).state_hash() != plain
    queued = World()
    queued.submit(SetCannon(tick=9, enabled=True))
    assert queued.state_hash() != plain
