"""Snapshot figures: a `SnapshotRing.save` of the game's world beside a `copy.deepcopy` of it.

The game saves the world before every tick (the rewind), so a save must cost a small part of a
tick. Baseline, measured in the same run on the same world: `copy.deepcopy(world)`, the obvious
way to keep a state. The world is the default scene 5 s in (the cannon's projectiles in flight),
in both precisions; a restore of the tick just saved is timed too.
"""

from __future__ import annotations

import copy
from functools import partial

from bench.harness import Section, median_ns_per_call, us, verdict
from game.world.settings import WorldSettings
from game.world.snapshots import SnapshotRing
from game.world.world import World, demo_world

TARGET_RATIO = 20
"""A save costs at most 1/20 of a deepcopy."""
RING_TICKS = 600
WARM_UP_TICKS = 300
DT = 1 / 60


def running_world(precision: str) -> World:
    """The default scene after 5 s at 60 Hz: what the game holds when W is pressed."""
    world = demo_world(WorldSettings(precision=precision))
    for _ in range(WARM_UP_TICKS):
        world.step(DT)
    return world


def save_cost(quick: bool) -> Section:
    number, repeat = (200, 9) if quick else (1_000, 41)
    copy_number = 20 if quick else 100
    section = Section(
        title="Snapshots: `SnapshotRing.save` vs `copy.deepcopy` of the world",
        intro=(
            f"Median time of one save into a {RING_TICKS}-tick ring ({repeat} batches of "
            f"{number}), of one `copy.deepcopy(world)` ({repeat} batches of {copy_number}) and "
            "of one restore, on the default scene after 5 s at 60 Hz. Target: a save costs at "
            f"most 1/{TARGET_RATIO} of a deepcopy. `python -m bench --only snapshots`."
        ),
        columns=["world", "bodies", "save", "deepcopy", "ratio", "restore", "target"],
    )
    for precision in ("float64", "float32"):
        world = running_world(precision)
        ring = SnapshotRing(RING_TICKS)
        save_ns = median_ns_per_call(partial(ring.save, world), number=number, repeat=repeat)
        deep_ns = median_ns_per_call(
            partial(copy.deepcopy, world), number=copy_number, repeat=repeat
        )
        restore = partial(ring.restore, world, world.tick)
        restore_ns = median_ns_per_call(restore, number=number, repeat=repeat)
        ratio = deep_ns / save_ns
        section.add(
            precision,
            world.body_count,
            us(save_ns),
            us(deep_ns),
            f"1/{ratio:.0f}",
            us(restore_ns),
            verdict(ratio >= TARGET_RATIO),
        )
    section.notes.append(
        "A save is one numpy copy per dtype block of the world's columns (three in float64, "
        "four in float32: `BodyArrays.blocks`) into views made once per slot, and the world's "
        "few plain values; the random generator's state (a dict of two 128-bit integers) is "
        "most of what is left. Saved every tick, at 60 Hz it is well under 1% of a frame."
    )
    return section


def run(quick: bool) -> list[Section]:
    return [save_cost(quick)]
