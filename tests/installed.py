"""The game as a user installs it: the wheel, built from the sdist, in a fresh virtual environment.

`python -m build` makes the sdist and then the wheel from the sdist, so a file the sdist forgot
is missing from the wheel too. The wheel is installed with pip (`--no-deps`) into a new virtual
environment in a temporary folder, outside the checkout; its dependencies are borrowed from the
project's own environment by one `.pth` line, written after the install, so nothing is
downloaded and the `game` that runs can only be the wheel's. The fixtures (`built`,
`installed`) are in `tests/conftest.py`: the install tests and the handout's browser test share
one install.
"""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
from importlib import metadata
from pathlib import Path

from tests.commands import HANG_S, ROOT

NAME = f"timestep_lab-{metadata.version('timestep-lab')}"


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
            timeout=HANG_S,
        )


def build(out: Path) -> tuple[Path, Path]:
    """(the sdist, the wheel built from it), written into `out`."""
    subprocess.run(
        [sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out), str(ROOT)],
        check=True,
        capture_output=True,
    )
    return out / f"{NAME}.tar.gz", out / f"{NAME}-py3-none-any.whl"


def install(wheel: Path, place: Path) -> Installed:
    """`wheel` in a new virtual environment under `place`, and an empty folder there."""
    venv = place / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"), "install",
         "--quiet", "--no-deps", "--no-index", str(wheel)],
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
