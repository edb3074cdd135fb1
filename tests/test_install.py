"""Installed as a user installs it: the wheel, in a fresh virtual environment, run elsewhere.

`python -m build` makes the sdist and then the wheel from the sdist, so a file the sdist forgot
is missing from the wheel too and the commands below fail. The wheel is installed with pip
(`--no-deps`) into a new virtual environment in a temporary folder, outside the checkout; its
dependencies are borrowed from the project's own environment by one `.pth` line, written after
the install, so nothing is downloaded and the `game` that runs can only be the wheel's (checked:
`game.__file__`). Every command runs from an empty folder with the dummy video and sound drivers.
"""

import os
import subprocess
import sys
import sysconfig
import tarfile
import zipfile
from collections.abc import Sequence
from importlib import metadata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NAME = f"timestep_lab-{metadata.version('timestep-lab')}"
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


class Installed:
    """A fresh virtual environment holding the wheel, and an empty folder to run it from."""

    def __init__(self, venv: Path, here: Path) -> None:
        self.venv = venv
        self.here = here
        self.env = {
            key: value
            for key, value in os.environ.items()
            if key not in ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME")
        }
        outside = [p for p in self.env["PATH"].split(os.pathsep) if not p.startswith(str(ROOT))]
        self.env["PATH"] = os.pathsep.join([str(venv / "bin"), *outside])
        self.env |= {"SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}

    def run(self, program: str, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(self.venv / "bin" / program), *args],
            cwd=self.here,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=600,
        )


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(the sdist, the wheel built from it)."""
    out = tmp_path_factory.mktemp("dist")
    subprocess.run(
        [sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out), str(ROOT)],
        check=True,
        capture_output=True,
    )
    return out / f"{NAME}.tar.gz", out / f"{NAME}-py3-none-any.whl"


@pytest.fixture(scope="module")
def installed(built: tuple[Path, Path], tmp_path_factory: pytest.TempPathFactory) -> Installed:
    place = tmp_path_factory.mktemp("user")
    venv = place / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"), "install",
         "--quiet", "--no-deps", "--no-index", str(built[1])],
        check=True,
    )  # fmt: skip
    site = venv / "lib" / f"python{sys.version_info.major}.{sys.version_info.minor}"
    # After the install, so pip never sees the project's own (editable) install through it.
    (site / "site-packages" / "borrowed.pth").write_text(
        sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8"
    )
    here = place / "empty"
    here.mkdir()
    return Installed(venv, here)


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
        ["handout", "--quick", "--out", "handout"],
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
