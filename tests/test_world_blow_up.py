"""An unstable integrator's blow-up is an event with a tick, not a numpy warning."""

from __future__ import annotations

import json
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from game.hud.stats import _run_state
from game.world.orders import SpawnSpring
from game.world.scene import Scene
from game.world.settings import WorldSettings
from game.world.world import World
from tests.commands import HANG_S
from tests.test_hud_stats import lane

STIFF = SpawnSpring(tick=0, anchor_x=16.0, anchor_y=16.0, k=64.0, mass=1.0, offset=(0.0, -3.0))


def blow_up() -> World:
    """Explicit Euler on a k = 64 spring at 10 Hz grows x1.28 a tick: past 1e308 by tick ~2,900."""
    world = World(WorldSettings(integrator="explicit"), scene=Scene(springs=(STIFF,)))
    for _ in range(4_000):
        world.step(0.1)
    return world


def test_the_world_records_the_first_non_finite_tick_without_a_warning() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # any RuntimeWarning fails the test
        world = blow_up()
        world.view(0.5, "interpolate")
    assert world.non_finite_tick is not None and 2_000 < world.non_finite_tick < 4_000
    assert World(WorldSettings(), scene=Scene(springs=(STIFF,))).non_finite_tick is None


@pytest.mark.slow
def test_simulate_reports_the_blow_up_in_json_and_words(tmp_path: Path) -> None:
    scenario = tmp_path / "blow_up.toml"
    scenario.write_text('seconds = 400\n[scheduler]\nhz = 10\n[world]\nintegrator = "explicit"\n')
    command = [sys.executable, "-W", "error::RuntimeWarning", "-m", "game", "simulate",
               "--scenario", str(scenario), "--render-fps", "30"]  # fmt: skip
    done = subprocess.run([*command, "--json"], capture_output=True, text=True, timeout=HANG_S)
    assert done.returncode == 0 and done.stderr == ""
    summary = json.loads(done.stdout.splitlines()[-1])["summary"]
    assert isinstance(summary["non_finite_tick"], int) and summary["non_finite_tick"] > 2_000
    words = subprocess.run(command, capture_output=True, text=True, timeout=HANG_S).stdout
    assert f"the simulation blew up at tick {summary['non_finite_tick']}:" in words


def test_the_hud_says_the_lane_blew_up() -> None:
    assert _run_state(lane(non_finite_tick=2851)).text == "BLEW UP at tick 2,851"
    assert _run_state(lane()).text == "running"
