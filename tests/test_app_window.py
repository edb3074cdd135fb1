"""Without a screen, the game says so in one line and exits 2, instead of an SDL traceback or an
invisible window."""

import os
import subprocess
import sys

import pytest

from tests.commands import HANG_S


def run_game(**env_changes: str | None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    for name, value in env_changes.items():
        if value is None:
            env.pop(name, None)
        else:
            env[name] = value
    return subprocess.run(
        [sys.executable, "-m", "game", "--frames", "1"],
        capture_output=True, text=True, env=env, timeout=HANG_S, check=False,
    )  # fmt: skip


@pytest.mark.slow
@pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="DISPLAY is how Linux has a screen"
)
def test_no_display_at_all_is_one_line_and_exit_2() -> None:
    result = run_game(SDL_VIDEODRIVER=None)
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.splitlines() == [
        "error: no display available (neither DISPLAY nor WAYLAND_DISPLAY is set). Run the game "
        "on a desktop session, or under a virtual display with `xvfb-run -a make run`; the "
        "headless tools need no display: `python -m game schedule`, `python -m game lab`."
    ]


def test_a_chosen_driver_that_cannot_open_is_one_line_and_exit_2() -> None:
    result = run_game(SDL_VIDEODRIVER="x11")
    assert result.returncode == 2
    (line,) = result.stderr.splitlines()
    assert line.startswith("error: no display available (")
    assert "Traceback" not in result.stderr


def test_the_dummy_driver_chosen_on_purpose_runs() -> None:
    result = run_game(SDL_VIDEODRIVER="dummy")
    assert result.returncode == 0
    assert result.stdout.startswith("final tick ")
