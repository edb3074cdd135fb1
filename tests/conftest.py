"""Test set-up: no test ever opens a real window or a sound device unless it says so, and no test
depends on how fast the machine is.

The dummy drivers are set here, before anything imports pygame; the one real-window test starts
its own process under Xvfb with its own environment.
"""

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from game import limits
from tests.installed import Installed, build, install

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

settings.register_profile(
    "any machine", deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("any machine")
"""No property test has a deadline or a health check on its speed: hypothesis's defaults (200 ms
an example, data drawn "too slowly") fail a test on a machine slower or busier than the one it
was written on, and speed is `make bench`'s to measure."""


@pytest.fixture(scope="session")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(the sdist, the wheel built from it): `tests/installed.py`."""
    return build(tmp_path_factory.mktemp("dist"))


@pytest.fixture(scope="session")
def installed(built: tuple[Path, Path], tmp_path_factory: pytest.TempPathFactory) -> Installed:
    """The wheel in a fresh virtual environment, and an empty folder to run it from."""
    return install(built[1], tmp_path_factory.mktemp("user"))


SMALL_RUN_LIMITS = (
    ("MAX_RUN_TICKS", 60_000), ("MAX_RUN_FRAMES", 1_000), ("MAX_REPLAY_FRAMES", 1_000),
    ("TICKS_PER_CPU_S", 10_000), ("FRAMES_PER_CPU_S", 1_000), ("MAX_SWEEP_RUNS", 10),
)  # fmt: skip
"""The run limits patched down, and the throughput set to round figures: a refusal is reached
with small input and its estimate is exact. The real limits are hours of work away, which a test
must not start by mistake: a test of a refusal patches them down with `small_limits`."""


@pytest.fixture
def small_limits(monkeypatch: pytest.MonkeyPatch) -> None:
    """`SMALL_RUN_LIMITS` in force for one test (`game.limits` is read at each call)."""
    for name, value in SMALL_RUN_LIMITS:
        monkeypatch.setattr(limits, name, value)
