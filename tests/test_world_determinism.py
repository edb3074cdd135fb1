"""A world can be cloned for the split screen: the copy is independent and runs the same."""

from game.world.world import demo_world


def test_a_clone_is_independent_and_runs_the_same_future() -> None:
    original = demo_world()
    for _ in range(20):
        original.step(1 / 60)
    twin = original.clone()
    assert twin.state_hash() == original.state_hash()
    for _ in range(50):
        original.step(1 / 60)
        twin.step(1 / 60)
    assert twin.state_hash() == original.state_hash()
    twin.step(1 / 60)
    assert twin.state_hash() != original.state_hash()
    assert original.tick == 70
