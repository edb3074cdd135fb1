"""Every bad config file gets one exact line per problem: `FILE: [key] message (got VALUE)`."""

from pathlib import Path

import pytest

from game.config.loading import load_config
from game.errors import BadInput


def problems(path: Path, text: str) -> tuple[str, ...]:
    path.write_text(text, encoding="utf-8")
    with pytest.raises(BadInput) as refused:
        load_config(path)
    return refused.value.lines


@pytest.fixture
def bad(tmp_path: Path) -> Path:
    return tmp_path / "bad.toml"


@pytest.mark.parametrize(
    ("text", "line"),
    [
        # wrong type: strict, so nothing is guessed
        ('[scheduler]\nhz = "abc"', "[scheduler.hz] must be a number like 60 or 59.94 (got 'abc')"),
        ("[scheduler]\nhz = true", "[scheduler.hz] must be a number like 60 or 59.94 (got true)"),
        ('[render]\nfps_cap = "60"', "[render.fps_cap] must be a whole number (got '60')"),
        ('[hud]\ngraphs = "yes"', "[hud.graphs] must be true or false (got 'yes')"),
        ("[hud]\ngraphs = 1", "[hud.graphs] must be true or false (got 1)"),
        ("[render]\nwidth = 1280.0", "[render.width] must be a whole number (got 1280.0)"),
        ("[world]\ngravity = true", "[world.gravity] must be a number (got true)"),
        ("[app]\nscreenshot_dir = 5", "[app.screenshot_dir] must be text in quotes (got 5)"),
        ("scheduler = 60", "[scheduler] must be a section (a [table]) (got 60)"),
        # out of range
        ("[scheduler]\nmax_steps = 0", "[scheduler.max_steps] must be at least 1 (got 0)"),
        (
            "[scheduler]\nmax_steps = 10001",
            "[scheduler.max_steps] must be at most 10000 (got 10001)",
        ),
        ("[scheduler]\nhz = 0", "[scheduler.hz] must be at least 0.1 (got 0)"),
        ("[scheduler]\nhz = 10000.5", "[scheduler.hz] must be at most 10000 (got 10000.5)"),
        ('[scheduler]\ntime_scale = "0"', "[scheduler.time_scale] must be more than 0 (got '0')"),
        (
            '[scheduler]\ntime_scale = "65/1"',
            "[scheduler.time_scale] must be at most 64 (got '65/1')",
        ),
        (
            "[scheduler]\nmax_backlog_ms = -1",
            "[scheduler.max_backlog_ms] must be at least 0 (got -1)",
        ),
        (
            '[scheduler]\nmax_frame_ms = "-5"',
            "[scheduler.max_frame_ms] must be more than 0 (got '-5')",
        ),
        ("[load]\nstep_cost_ms = 40.001", "[load.step_cost_ms] must be at most 40 (got 40.001)"),
        ("[hud]\ngraph_seconds = 31", "[hud.graph_seconds] must be at most 30 (got 31)"),
        ("[render]\nheight = 100", "[render.height] must be at least 240 (got 100)"),
        ("[world]\ngravity = 100.5", "[world.gravity] must be at most 100 (got 100.5)"),
        ("[world]\nseed = -1", "[world.seed] must be at least 0 (got -1)"),
        ('[app]\nscreenshot_dir = ""', "[app.screenshot_dir] must not be empty (got '')"),
        # not a number at all
        (
            "[scheduler]\nmax_frame_ms = nan",
            "[scheduler.max_frame_ms] must be a finite number (got nan)",
        ),
        ("[world]\ngravity = inf", "[world.gravity] must be a finite number (got inf)"),
        (
            '[scheduler]\ntime_scale = "1/0"',
            "[scheduler.time_scale] must be a number like 1/8 or 0.5 (got '1/0')",
        ),
        (
            '[load]\nstep_cost_ms = "1e3"',
            "[load.step_cost_ms] must be a number like 16.7 (got '1e3')",
        ),
        # one of a few values
        (
            '[scheduler]\npolicy = "uncaped"',
            "[scheduler.policy] must be one of 'uncapped', 'clamp', 'drop', 'reset', 'backlog' or "
            "'variable' (got 'uncaped')",
        ),
        (
            '[scheduler]\nalpha = "right"',
            "[scheduler.alpha] must be 'correct' or 'naive' (got 'right')",
        ),
        (
            "[render]\nfps_cap = 55",
            "[render.fps_cap] must be one of 0, 30, 50, 60, 72, 75, 144, 165 or 240 (got 55)",
        ),
        ("[render]\nfps_cap = false", "[render.fps_cap] must be a whole number (got false)"),
        (
            '[world]\nintegrator = "rk4"',
            "[world.integrator] must be one of 'explicit', 'semi-implicit' or 'verlet' (got 'rk4')",
        ),
        # unknown keys and sections
        ('[render]\ncolour = "red"', "[render.colour] unknown setting (got 'red')"),
        ("[render]\nwidht = 800", "[render.widht] unknown setting, did you mean width? (got 800)"),
        ("fullscreen = true", "[fullscreen] unknown setting (got true)"),
        ("[audio]\nvolume = 3", "[audio] unknown section (got {volume = 3})"),
        (
            "[sheduler]\nhz = 30",
            "[sheduler] unknown section, did you mean scheduler? (got {hz = 30})",
        ),
        # checks across settings name the key they blame
        (
            "[scheduler]\nhz = 30\nmax_frame_ms = 20",
            "[scheduler.max_frame_ms] must be at least one step, 33.334 ms at 30 Hz (got 20)",
        ),
        (
            "[scheduler]\nhz = 0.1",
            "[scheduler.max_frame_ms] must be at least one step, 10000 ms at 0.1 Hz (got 250)",
        ),
    ],
)
def test_each_kind_of_bad_value_gives_one_exact_line(bad: Path, text: str, line: str) -> None:
    assert problems(bad, text + "\n") == (f"{bad}: {line}",)


def test_several_problems_give_several_lines(bad: Path) -> None:
    text = (
        '[scheduler]\nhz = "abc"\nmax_steps = 0\n[render]\ncolour = "red"\n[hud]\ngraphs = "yes"\n'
    )
    assert problems(bad, text) == (
        f"{bad}: [scheduler.hz] must be a number like 60 or 59.94 (got 'abc')",
        f"{bad}: [scheduler.max_steps] must be at least 1 (got 0)",
        f"{bad}: [render.colour] unknown setting (got 'red')",
        f"{bad}: [hud.graphs] must be true or false (got 'yes')",
    )


def test_a_missing_file_says_so(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere.toml"
    with pytest.raises(BadInput) as refused:
        load_config(missing)
    assert refused.value.lines == (f"{missing}: file not found",)


def test_a_directory_is_not_a_config_file(tmp_path: Path) -> None:
    with pytest.raises(BadInput) as refused:
        load_config(tmp_path)
    assert refused.value.lines == (f"{tmp_path}: is a directory, not a file",)


def test_a_toml_syntax_error_quotes_the_parser(bad: Path) -> None:
    assert problems(bad, "[scheduler\nhz = 30\n") == (
        f"{bad}: not valid TOML: Expected ']' at the end of a table declaration "
        "(at line 1, column 11)",
    )


def test_a_file_that_is_not_text_is_not_toml(bad: Path) -> None:
    bad.write_bytes(b"hz = '\xff'\n")
    with pytest.raises(BadInput) as refused:
        load_config(bad)
    assert refused.value.lines == (f"{bad}: not a TOML file: not UTF-8 text",)


def test_the_same_key_twice_is_a_toml_error(bad: Path) -> None:
    assert problems(bad, "[hud]\ngraphs = true\ngraphs = false\n") == (
        f"{bad}: not valid TOML: Cannot overwrite a value (at line 3, column 15)",
    )


def test_no_pydantic_wording_reaches_the_user(bad: Path) -> None:
    text = (
        '[scheduler]\nhz = []\npolicy = 3\nmax_steps = "5"\nalpha = 1\ntime_scale = {}\n'
        "[render]\nwidth = true\ninterpolation = false\nfps_cap = 1.5\n"
        "[world]\nprecision = 64\ngravity = -1\n"
        "[overlays]\nghost = 0\n"
        "[app]\nscreenshot_dir = []\n"
    )
    lines = problems(bad, text)
    assert len(lines) == 12
    for line in lines:
        assert line.startswith(f"{bad}: [")
        assert "Input should" not in line
        assert "http" not in line
        assert "error" not in line.lower()
