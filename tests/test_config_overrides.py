"""Single settings from the command line: `scheduler.hz=30`, applied after the file."""

from fractions import Fraction
from pathlib import Path

import pytest

from game.config.loading import load_config
from game.config.overrides import Override, apply_overrides, parse_override
from game.config.problems import Problem
from game.errors import BadInput


def refused(path: Path | None, *overrides: str) -> tuple[str, ...]:
    with pytest.raises(BadInput) as problem:
        load_config(path, overrides)
    return problem.value.lines


@pytest.fixture
def workshop(tmp_path: Path) -> Path:
    path = tmp_path / "workshop.toml"
    path.write_text('[scheduler]\nhz = 30\npolicy = "clamp"\n[hud]\npresentation = true\n')
    return path


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("scheduler.hz=30", ("scheduler", "hz"), 30),
        ("scheduler.hz=59.94", ("scheduler", "hz"), 59.94),
        ('scheduler.policy="uncapped"', ("scheduler", "policy"), "uncapped"),
        ("scheduler.policy='uncapped'", ("scheduler", "policy"), "uncapped"),
        ("scheduler.policy=uncapped", ("scheduler", "policy"), "uncapped"),
        ("scheduler.time_scale=1/8", ("scheduler", "time_scale"), "1/8"),
        ("app.screenshot_dir=shots/today", ("app", "screenshot_dir"), "shots/today"),
        ("hud.graphs=false", ("hud", "graphs"), False),
        (" render.width = 800 ", ("render", "width"), 800),
        ("render={width = 800}", ("render",), {"width": 800}),
    ],
)
def test_an_override_is_a_dotted_key_and_a_toml_value(
    text: str, key: tuple[str, ...], value: object
) -> None:
    assert parse_override(text) == Override(key, value)


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        (
            "scheduler.hz",
            Problem((), "a setting is written KEY=VALUE, like scheduler.hz=30", "scheduler.hz"),
        ),
        ("=30", Problem((), "a setting is written KEY=VALUE, like scheduler.hz=30", "=30")),
        (
            "scheduler..hz=30",
            Problem((), "a setting is written KEY=VALUE, like scheduler.hz=30", "scheduler..hz=30"),
        ),
        ("scheduler.hz=", Problem(("scheduler", "hz"), "needs a value after =")),
        (
            'scheduler.policy="drop',
            Problem(
                ("scheduler", "policy"),
                "not a valid TOML value: Unterminated string (at end of document)",
                '"drop',
            ),
        ),
        (
            "hud.graphs=1\nx = 2",
            Problem(("hud", "graphs"), "must be a single TOML value", "1\nx = 2"),
        ),
    ],
)
def test_a_malformed_override_is_a_problem(text: str, problem: Problem) -> None:
    assert parse_override(text) == problem


def test_overrides_apply_over_the_defaults() -> None:
    config = load_config(
        None,
        [
            "scheduler.hz=30",
            "scheduler.policy=uncapped",
            "scheduler.time_scale=1/8",
            "hud.graphs=false",
        ],
    )
    assert config.scheduler.step_ns == Fraction(100_000_000, 3)
    assert config.scheduler.policy == "uncapped"
    assert config.scheduler.time_scale == Fraction(1, 8)
    assert config.hud.graphs is False


def test_overrides_apply_over_the_file_and_keep_its_other_settings(workshop: Path) -> None:
    config = load_config(workshop, ["scheduler.policy=backlog", "scheduler.max_frame_ms=40.5"])
    assert config.scheduler.hz == 30
    assert config.scheduler.policy == "backlog"
    assert config.scheduler.max_frame_ns == Fraction(40_500_000)
    assert config.hud.presentation is True


def test_the_last_override_of_a_key_wins() -> None:
    config = load_config(None, ["render.fps_cap=60", "render.fps_cap=0"])
    assert config.render.fps_cap == 0


def test_applying_overrides_leaves_the_file_data_untouched() -> None:
    data = {"scheduler": {"hz": 30}}
    merged, problems = apply_overrides(data, [Override(("scheduler", "hz"), 60)])
    assert merged == {"scheduler": {"hz": 60}}
    assert data == {"scheduler": {"hz": 30}}
    assert problems == []


def test_bad_overrides_are_reported_as_from_the_command_line(workshop: Path) -> None:
    assert refused(workshop, "scheduler.max_steps=0", "render.colour=red", "hud.graphs=yes") == (
        "command line: [scheduler.max_steps] must be at least 1 (got 0)",
        "command line: [render.colour] unknown setting (got 'red')",
        "command line: [hud.graphs] must be true or false (got 'yes')",
    )


def test_file_and_command_line_problems_are_told_apart(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text("[render]\nwidth = 10\n[hud]\ngraph_seconds = 0\n")
    assert refused(path, "hud.graph_seconds=60", "world.seed=-3", "oops") == (
        "command line: a setting is written KEY=VALUE, like scheduler.hz=30 (got 'oops')",
        f"{path}: [render.width] must be at least 320 (got 10)",
        "command line: [world.seed] must be at least 0 (got -3)",
        "command line: [hud.graph_seconds] must be at most 30 (got 60)",
    )


def test_a_cross_check_blames_the_command_line_when_it_set_either_key(workshop: Path) -> None:
    # The file's 30 Hz with a max frame from the command line...
    assert refused(workshop, "scheduler.max_frame_ms=20") == (
        "command line: [scheduler.max_frame_ms] must be at least one step, 33.334 ms at 30 Hz "
        "(got 20)",
    )
    # ...and the default max frame with a tick rate from the command line.
    assert refused(None, "scheduler.hz=2") == (
        "command line: [scheduler.max_frame_ms] must be at least one step, 500 ms at 2 Hz "
        "(got 250)",
    )


def test_a_cross_check_blames_the_file_when_the_file_set_both(tmp_path: Path) -> None:
    path = tmp_path / "slow.toml"
    path.write_text("[scheduler]\nhz = 2\nmax_frame_ms = 100\n")
    assert refused(path, "hud.graphs=false") == (
        f"{path}: [scheduler.max_frame_ms] must be at least one step, 500 ms at 2 Hz (got 100)",
    )


def test_an_override_inside_a_value_that_is_not_a_section_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "flat.toml"
    path.write_text("scheduler = 5\n")
    assert refused(path, "scheduler.hz=30") == (
        "command line: [scheduler.hz] cannot be set: scheduler is not a section (got 5)",
        f"{path}: [scheduler] must be a section (a [table]) (got 5)",
    )


def test_a_missing_file_is_reported_with_the_malformed_overrides(tmp_path: Path) -> None:
    missing = tmp_path / "missing.toml"
    assert refused(missing, "scheduler.hz", "scheduler.hz=0") == (
        f"{missing}: file not found",
        "command line: a setting is written KEY=VALUE, like scheduler.hz=30 (got 'scheduler.hz')",
    )
