"""Config values end up exact: milliseconds, rates and ratios become Fractions, never floats."""

from fractions import Fraction
from pathlib import Path

import pytest
from pydantic import ValidationError

from game.config.loading import load_config
from game.config.model import GameConfig, SchedulerSection
from timestep_lab import AlphaMode, SchedulerSettings


def config_from(tmp_path: Path, text: str) -> GameConfig:
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    return load_config(path)


def test_a_toml_float_of_milliseconds_counts_as_the_decimal_written(tmp_path: Path) -> None:
    config = config_from(tmp_path, "[scheduler]\nmax_frame_ms = 16.7\n")
    assert config.scheduler.max_frame_ms == Fraction(167, 10)
    assert config.scheduler.max_frame_ns == Fraction(16_700_000)


def test_milliseconds_may_be_an_int_a_decimal_string_or_a_float(tmp_path: Path) -> None:
    config = config_from(
        tmp_path,
        '[scheduler]\nmax_frame_ms = 100\nmax_backlog_ms = "33.333"\n[load]\nstep_cost_ms = 0.1\n',
    )
    assert config.scheduler.max_frame_ns == Fraction(100_000_000)
    assert config.scheduler.max_backlog_ns == Fraction(33_333_000)
    assert config.load.step_cost_ms == Fraction(1, 10)


def test_a_decimal_tick_rate_gives_an_exact_step(tmp_path: Path) -> None:
    config = config_from(tmp_path, '[scheduler]\nhz = "59.94"\n')
    assert config.scheduler.hz == Fraction(5994, 100)
    assert config.scheduler.step_ns == Fraction(100_000_000_000, 5994)
    assert config_from(tmp_path, "[scheduler]\nhz = 59.94\n") == config


@pytest.mark.parametrize(
    ("written", "scale"),
    [('"1/8"', Fraction(1, 8)), ('"0.125"', Fraction(1, 8)), ("0.125", Fraction(1, 8)), ("4", 4)],
)
def test_a_time_scale_is_a_ratio_a_decimal_or_an_int(
    tmp_path: Path, written: str, scale: Fraction
) -> None:
    config = config_from(tmp_path, f"[scheduler]\ntime_scale = {written}\n")
    assert config.scheduler.time_scale == scale
    assert isinstance(config.scheduler.time_scale, Fraction)


def test_the_scheduler_section_builds_the_scheduler_settings(tmp_path: Path) -> None:
    config = config_from(
        tmp_path,
        '[scheduler]\nhz = 50\npolicy = "backlog"\nmax_steps = 4\nmax_frame_ms = 200\n'
        'max_backlog_ms = 500\ntime_scale = "1/2"\nalpha = "naive"\noverload_frames = 10\n',
    )
    assert config.scheduler.settings() == SchedulerSettings(
        step_ns=Fraction(20_000_000),
        policy="backlog",
        max_steps=4,
        max_frame_ns=Fraction(200_000_000),
        max_backlog_ns=Fraction(500_000_000),
        time_scale=Fraction(1, 2),
        alpha_mode=AlphaMode.NAIVE,
        overload_frames=10,
    )


@pytest.mark.parametrize(
    "scheduler",
    [
        "hz = 0.1\nmax_frame_ms = 10000",
        "hz = 10000\nmax_frame_ms = 0.1",
        "max_frame_ms = 3600000\nmax_backlog_ms = 3600000",
        'max_backlog_ms = 0\ntime_scale = "64"\nmax_steps = 10000\noverload_frames = 1000',
        'time_scale = "1/1000000"\nmax_steps = 1\noverload_frames = 1',
    ],
)
def test_the_extremes_a_file_may_ask_for_still_build_scheduler_settings(
    tmp_path: Path, scheduler: str
) -> None:
    config = config_from(tmp_path, f"[scheduler]\n{scheduler}\n")
    assert isinstance(config.scheduler.settings(), SchedulerSettings)


def test_a_max_frame_of_exactly_one_step_is_allowed(tmp_path: Path) -> None:
    config = config_from(tmp_path, "[scheduler]\nhz = 40\nmax_frame_ms = 25\n")
    assert config.scheduler.max_frame_ns == config.scheduler.step_ns == Fraction(25_000_000)


def test_gravity_is_a_float_and_takes_an_int(tmp_path: Path) -> None:
    config = config_from(tmp_path, "[world]\ngravity = 0\n")
    assert config.world.gravity == 0.0
    assert isinstance(config.world.gravity, float)


def test_code_may_build_a_section_from_exact_values() -> None:
    section = SchedulerSection(hz=Fraction(30), max_frame_ms=Fraction(100, 3), policy="reset")
    assert section.step_ns == section.max_frame_ns == Fraction(100_000_000, 3)


def test_a_config_is_frozen() -> None:
    config = GameConfig()
    with pytest.raises(ValidationError):
        config.scheduler.hz = Fraction(30)
    assert config.scheduler.hz == 60


def test_equal_configs_are_equal_and_hash_alike(tmp_path: Path) -> None:
    written = config_from(tmp_path, "[render]\nfps_cap = 0\n[overlays]\nghost = true\n")
    reordered = config_from(tmp_path, "[overlays]\nghost = true\n[render]\nfps_cap = 0\n")
    assert written == reordered
    assert len({written, reordered, GameConfig()}) == 2
