"""The avatar: what a tick's input does to it, in numbers a player can see."""

from game.world.avatar import AVATAR, AvatarInput
from game.world.world import World, demo_world


def peak(world: World, ticks: int, dt: float) -> float:
    top = 0.0
    for _ in range(ticks):
        world.step(dt)
        assert world.avatar is not None
        top = max(top, world.avatar.y)
    return top


def test_a_jump_reaches_its_height_and_a_doubled_one_about_twice_that() -> None:
    once, twice, lost = demo_world(), demo_world(), demo_world()
    once.submit(AvatarInput(tick=0, jumps=1))
    twice.submit(AvatarInput(tick=0, jumps=1))
    twice.submit(AvatarInput(tick=1, jumps=1))  # frame-edge: the same press on the next tick
    one, two = peak(once, 120, 1 / 120), peak(twice, 120, 1 / 120)
    assert abs(one - AVATAR.jump_height) < 0.15
    assert abs(two - 2 * AVATAR.jump_height) < 0.3
    assert peak(lost, 120, 1 / 120) == 0.0


def test_tapping_in_mid_air_does_not_climb() -> None:
    world = demo_world()
    world.submit(AvatarInput(tick=0, jumps=1))
    world.submit(AvatarInput(tick=20, jumps=1))  # 0.33 s after leaving the ground
    assert abs(peak(world, 120, 1 / 60) - AVATAR.jump_height) < 0.15


def test_a_dash_covers_its_distance_and_running_is_held_until_the_next_command() -> None:
    world = demo_world()
    assert world.avatar is not None
    start = world.avatar.x
    world.submit(AvatarInput(tick=0, run=1, dashes=1))
    world.submit(AvatarInput(tick=60, run=0))
    for _ in range(120):
        world.step(1 / 60)
    assert abs(world.avatar.x - (start + AVATAR.dash_distance + AVATAR.run_speed)) < 1e-9


def test_the_avatar_is_part_of_the_state_hash_and_comes_back_on_reset() -> None:
    moved, still = demo_world(), demo_world()
    moved.submit(AvatarInput(tick=0, run=1))
    moved.step(1 / 60)
    still.step(1 / 60)
    assert moved.state_hash() != still.state_hash()
