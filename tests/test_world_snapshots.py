"""Snapshots: a world saved at a tick comes back exactly, and runs the same future from there."""

from __future__ import annotations

import copy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.world.avatar import AvatarInput
from game.world.orders import Fire, Order, Reset, SetCannon, SetIntegrator, Teleport
from game.world.settings import WorldSettings
from game.world.snapshots import FIRST_WIDTH, SnapshotRing
from game.world.world import World, demo_world

DT = 1 / 60


def run(world: World, ticks: int, ring: SnapshotRing | None = None) -> list[str]:
    """Step `ticks` ticks, saving before each; the hash after each."""
    hashes = []
    for _ in range(ticks):
        if ring is not None:
            ring.save(world)
        world.step(DT)
        hashes.append(world.state_hash())
    return hashes


def test_a_restored_tick_has_the_hash_it_had_and_runs_the_same_future() -> None:
    world, ring = demo_world(), SnapshotRing(100)
    run(world, 30, ring)
    ring.save(world)
    future = run(world, 40, ring)
    ring.restore(world, 30)
    assert world.tick == 30
    assert run(world, 40) == future


def test_restore_brings_back_the_tick_time_ids_avatar_cannon_rng_and_queue() -> None:
    world, ring = demo_world(), SnapshotRing(8)
    run(world, 3)
    world.submit(Fire(tick=5, x=2.0, y=2.0, vx=3.0, vy=4.0))
    before = (world.tick, world.time, world.body_count, world.avatar, world.cannon_on)
    hash_before = world.state_hash()
    ring.save(world)
    world.submit(SetCannon(tick=3, enabled=False))
    world.submit(AvatarInput(tick=3, run=1, jumps=1))
    run(world, 6)
    assert world.state_hash() != hash_before
    ring.restore(world, 3)
    assert (world.tick, world.time, world.body_count, world.avatar, world.cannon_on) == before
    assert world.state_hash() == hash_before


def test_a_tick_not_held_raises_and_leaves_the_world_untouched() -> None:
    world, ring = demo_world(), SnapshotRing(4)
    run(world, 10, ring)
    untouched = world.state_hash()
    with pytest.raises(ValueError, match=r"tick 5 is not in the snapshot ring \(it holds 6 to 9\)"):
        ring.restore(world, 5)
    assert world.state_hash() == untouched
    with pytest.raises(ValueError, match=r"it holds none"):
        SnapshotRing(4).restore(world, 0)
    assert world.state_hash() == untouched


def test_the_ring_keeps_the_last_ticks_in_order() -> None:
    world, ring = demo_world(), SnapshotRing(4)
    assert (len(ring), ring.oldest_tick, ring.newest_tick) == (0, None, None)
    run(world, 10, ring)
    assert (len(ring), ring.oldest_tick, ring.newest_tick) == (4, 6, 9)
    assert 6 in ring and 9 in ring and 5 not in ring and 10 not in ring


def test_saving_an_earlier_tick_forgets_the_old_future() -> None:
    world, ring = demo_world(), SnapshotRing(10)
    run(world, 8, ring)
    ring.restore(world, 4)
    assert (ring.oldest_tick, ring.newest_tick) == (0, 7)  # a restore forgets nothing
    ring.save(world)
    assert (len(ring), ring.oldest_tick, ring.newest_tick) == (5, 0, 4)


def test_the_slots_grow_when_a_save_holds_more_bodies_than_ever() -> None:
    world, ring = World(WorldSettings(capacity=4)), SnapshotRing(3)
    ring.save(world)  # tick 0: no bodies
    shots = FIRST_WIDTH + 6
    for index in range(shots):
        world.submit(Fire(tick=0, x=1.0 + index / 10, y=15.0, vx=1.0, vy=0.0))
    world.step(DT)
    ring.save(world)  # tick 1: 70 bodies
    assert (ring.width, world.body_count) == (2 * FIRST_WIDTH, shots)
    crowded = world.state_hash()
    ring.restore(world, 0)
    assert world.body_count == 0
    ring.restore(world, 1)
    assert world.state_hash() == crowded


def test_a_restore_into_a_smaller_world_grows_its_arrays() -> None:
    world, ring = World(WorldSettings(capacity=2)), SnapshotRing(2)
    for index in range(5):
        world.submit(Fire(tick=0, x=1.0 + index, y=15.0, vx=1.0, vy=0.0))
    world.step(DT)
    ring.save(world)
    fresh = World(WorldSettings(capacity=2))
    ring.restore(fresh, 1)
    assert fresh.state_hash() == world.state_hash()


def test_capacity_must_be_a_whole_number_of_ticks() -> None:
    with pytest.raises(ValueError, match="at least 1 tick"):
        SnapshotRing(0)


# -- the property: restore + the same stamped orders = the same hash, bit for bit --------------

ORDER_KINDS = st.sampled_from(["fire", "reset", "cannon", "integrator", "avatar", "teleport"])


@st.composite
def stamped_orders(draw: st.DrawFn) -> list[tuple[int, str, int]]:
    """(tick it is submitted at, kind, a number for its values), in submission order."""
    entries = draw(
        st.lists(st.tuples(st.integers(0, 59), ORDER_KINDS, st.integers(0, 1_000)), max_size=25)
    )
    return sorted(entries, key=lambda entry: entry[0])


def order_of(kind: str, tick: int, number: int) -> Order:
    """A valid order of `kind`, stamped for `tick` or a little later, from `number`."""
    later = tick + number % 3
    if kind == "fire":
        return Fire(tick=later, x=2.0 + number % 20, y=3.0, vx=number % 7, vy=5.0 + number % 9)
    if kind == "reset":
        return Reset(tick=later)
    if kind == "cannon":
        return SetCannon(tick=later, enabled=bool(number % 2))
    if kind == "integrator":
        return SetIntegrator(tick=later, name=("explicit", "semi-implicit", "verlet")[number % 3])
    if kind == "avatar":
        return AvatarInput(tick=later, run=number % 3 - 1, jumps=number % 2, dashes=number % 5 // 4)
    return Teleport(tick=later, body_id=number % 12, x=5.0, y=6.0, smear=bool(number % 2))


def play(
    world: World, orders: list[tuple[int, str, int]], start: int, ring: SnapshotRing | None
) -> list[str]:
    """Ticks `start` to 59: each tick saved (if a ring is given), then its orders submitted."""
    hashes = []
    for tick in range(start, 60):
        if ring is not None:
            ring.save(world)
        for at, kind, number in orders:
            if at == tick:
                world.submit(order_of(kind, tick, number))
        world.step(DT)
        hashes.append(world.state_hash())
    return hashes


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(
    orders=stamped_orders(),
    back_to=st.integers(0, 59),
    precision=st.sampled_from(["float32", "float64"]),
)
def test_restoring_and_replaying_the_same_orders_gives_the_same_hash(
    orders: list[tuple[int, str, int]], back_to: int, precision: str
) -> None:
    world = demo_world(WorldSettings(precision=precision))
    ring = SnapshotRing(64)
    first = play(world, orders, 0, ring)
    ring.restore(world, back_to)
    assert world.tick == back_to
    again = play(world, orders, back_to, None)
    assert again == first[back_to:]


def test_a_copied_ring_is_independent_and_restores_the_same_ticks() -> None:
    world, ring = demo_world(), SnapshotRing(8)
    run(world, 6, ring)
    twin_world, twin_ring = copy.deepcopy(world), copy.deepcopy(ring)
    run(world, 6, ring)  # the original ring moves on: ticks 4 to 11
    twin_ring.restore(twin_world, 2)
    ring.restore(world, 5)
    run(world, 3)
    assert (twin_ring.oldest_tick, twin_ring.newest_tick) == (0, 5)
    assert run(twin_world, 6) == run(demo_world(), 8)[2:]
