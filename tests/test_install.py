"""Installed as a user installs it: the wheel, in a fresh virtual environment, run elsewhere
(`tests/installed.py` says how), so a file the sdist or the wheel forgot makes a command fail.
The `game` that runs can only be the wheel's (checked: `game.__file__`). Every command runs from
an empty folder with the dummy video and sound drivers.
"""

import subprocess
import sys
import tarfile
import textwrap
import zipfile
from collections.abc import Sequence
from pathlib import Path

import pytest

from tests.installed import NAME, Installed

pytestmark = pytest.mark.slow
"""Each test here runs whole commands in processes of their own."""

PACKAGED = [
    "assets/fonts/DejaVuSansMono.ttf",
    "assets/fonts/DejaVuSansMono-Bold.ttf",
    "assets/fonts/LICENSE-DejaVu.txt",
    "assets/licenses/ffmpeg.txt",
    "assets/licenses/GPL-3.0.txt",
    "configs/default.toml",
    "configs/lessons/09_jitter_and_snapping.toml",
    "configs/scenarios/spiral.toml",
    "docs/references.md",
]


def _ok(result: subprocess.CompletedProcess[str], command: Sequence[str]) -> None:
    assert result.returncode == 0, f"{' '.join(command)}: {result.stderr[-2000:]}"


def test_the_sdist_holds_the_assets_and_the_configs(built: tuple[Path, Path]) -> None:
    with tarfile.open(built[0]) as sdist:
        names = set(sdist.getnames())
    assert {f"{NAME}/{path}" for path in PACKAGED} <= names


def test_the_wheel_holds_them_inside_the_package_with_the_licences(
    built: tuple[Path, Path],
) -> None:
    with zipfile.ZipFile(built[1]) as wheel:
        names = set(wheel.namelist())
    assert {f"game/_data/{path}" for path in PACKAGED} <= names
    licences = {f"{NAME}.dist-info/licenses/assets/licenses/ffmpeg.txt",
                f"{NAME}.dist-info/licenses/assets/fonts/LICENSE-DejaVu.txt"}  # fmt: skip
    assert licences <= names


def test_the_installed_game_is_the_wheels(installed: Installed) -> None:
    found = installed.run("python", "-c", "import game; print(game.__file__)")
    _ok(found, ["python", "-c", "..."])
    assert Path(found.stdout.strip()).is_relative_to(installed.venv / "lib")
    version = installed.run("timestep-lab", "--version")
    _ok(version, ["timestep-lab", "--version"])
    data = installed.venv / "lib" / f"python{sys.version_info.major}.{sys.version_info.minor}"
    data = data / "site-packages" / "game" / "_data"
    assert version.stdout.splitlines()[1] == f"files: {data} (installed)"
    assert f"ffmpeg, from imageio-ffmpeg (GPL-3.0-or-later): {data}/assets/licenses/" in (
        version.stdout
    )


@pytest.mark.parametrize(
    "command",
    [
        ["--frames", "5"],
        ["--lesson", "9", "--frames", "5"],
        ["simulate", "--scenario", "spiral", "--seconds", "2"],
        ["scenarios"],
        # handout --quick: tests/test_handout.py runs the installed one and opens its page
    ],
    ids=" ".join,
)
def test_each_command_runs_from_an_empty_folder(installed: Installed, command: list[str]) -> None:
    _ok(installed.run("timestep-lab", *command), ["timestep-lab", *command])


def test_python_m_game_and_timestep_lab_are_the_same_program(installed: Installed) -> None:
    by_module = installed.run("python", "-m", "game", "scenarios")
    by_script = installed.run("timestep-lab", "scenarios")
    _ok(by_module, ["python", "-m", "game", "scenarios"])
    assert by_script.stdout == by_module.stdout
    assert "spiral" in by_module.stdout


def test_an_unknown_scenario_is_one_line_naming_the_packaged_ones(installed: Installed) -> None:
    done = installed.run("timestep-lab", "simulate", "--scenario", "nosuch")
    assert done.returncode == 2
    assert done.stderr.startswith(
        "error: --scenario nosuch: no such file, nor a scenario of that name (packaged: "
        "heartbeat_snap, heavy_jitter, "
    )
    assert len(done.stderr.splitlines()) == 1


def test_the_wheel_carries_the_library_typed(built: tuple[Path, Path]) -> None:
    with zipfile.ZipFile(built[1]) as wheel:
        names = set(wheel.namelist())
    assert {"timestep_lab/__init__.py", "timestep_lab/py.typed"} <= names


def test_the_library_imports_from_the_wheel_in_a_project_with_a_game_package_of_its_own(
    installed: Installed, tmp_path: Path
) -> None:
    project = tmp_path / "their_project"
    (project / "game").mkdir(parents=True)
    (project / "game" / "__init__.py").write_text('NAME = "theirs"\n')
    probe = textwrap.dedent(
        """
        import sys
        from timestep_lab import FixedStepScheduler, SchedulerSettings, hz_to_step_ns
        import game, timestep_lab
        scheduler = FixedStepScheduler(SchedulerSettings(step_ns=hz_to_step_ns(60)))
        plan = scheduler.advance(50_000_000)
        print(game.NAME, plan.steps, plan.remainder_ns, timestep_lab.__file__)
        print(sorted(m for m in sys.modules if m.split(".")[0] in ("numpy", "pygame")))
        """
    )
    done = subprocess.run(
        [str(installed.venv / "bin" / "python"), "-c", probe],
        cwd=project, env=installed.env, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    theirs, steps, remainder, library = done.stdout.splitlines()[0].split()
    assert (theirs, steps, remainder) == ("theirs", "3", "0")
    assert Path(library).is_relative_to(installed.venv)
    assert done.stdout.splitlines()[1] == "[]"
