"""Where the game's own files are: the fonts, the default config, the lessons, the scenarios.

This module is the one place that knows. In a checkout they sit at the top of the repository,
beside `game/`: `assets/`, `configs/` and `docs/references.md`. An installed package has no
"beside": site-packages holds `game/` alone. So the build copies them into the package, under
`game/_data/` (`force-include` in pyproject.toml for the wheel, `timestep-lab.spec` for the
one-file bundle), and they are found there through `importlib.resources`, as any package finds
its data. A checkout has no `game/_data/`, so the files are found beside the package instead.

Every reader asks here for its path (`FONTS`, `LESSONS`, `SCENARIOS`...) and builds none itself.
"""

from __future__ import annotations

import sys
from importlib import resources
from pathlib import Path
from typing import NamedTuple

PACKAGED = "_data"
"""The folder of `game/` the build copies `assets/`, `configs/` and `docs/` into."""

SHIPPED = ("assets", "configs", "docs/references.md")
"""What the build copies, as paths of the repository; the same names under `game/_data/`."""


def _root() -> Path:
    """The folder holding `assets/`, `configs/` and `docs/`: packaged, else the checkout's."""
    packaged = resources.files("game") / PACKAGED
    if isinstance(packaged, Path) and packaged.is_dir():
        return packaged
    checkout = Path(__file__).resolve().parents[1]
    if (checkout / "configs").is_dir():
        return checkout
    # Neither: name the packaged place in the errors, where a reinstall would put the files.
    return Path(str(packaged))


ROOT = _root()
INSTALLED = ROOT.name == PACKAGED
"""True when the files come from an installed package (a wheel, the bundle), not a checkout."""
BUNDLED = bool(getattr(sys, "frozen", False))
"""True in the one-file bundle, whose files are unpacked into a temporary folder while it runs."""

ASSETS = ROOT / "assets"
FONTS = ASSETS / "fonts"
CONFIGS = ROOT / "configs"
DEFAULT_CONFIG = CONFIGS / "default.toml"
"""Every setting at its default, with its comment (written by `game.config.default_file`)."""
LESSONS = CONFIGS / "lessons"
SCENARIOS = CONFIGS / "scenarios"
CAPTURES = ASSETS / "captures"
"""The frame-time captures the lessons play (`capture = "hitch.csv"` in a step's settings)."""
REFERENCES = ROOT / "docs" / "references.md"
"""The reference articles' claims, with the commands that reproduce them (read by the handout)."""


class Licence(NamedTuple):
    """A licence that travels with the game: what it covers, and its file."""

    covers: str
    path: Path


LICENCES = (
    Licence("the DejaVu fonts", FONTS / "LICENSE-DejaVu.txt"),
    Licence("ffmpeg, from imageio-ffmpeg (GPL-3.0-or-later)", ASSETS / "licenses" / "ffmpeg.txt"),
    Licence("the GPL, version 3, that ffmpeg is under", ASSETS / "licenses" / "GPL-3.0.txt"),
    Licence("imageio-ffmpeg (BSD-2-Clause)", ASSETS / "licenses" / "imageio-ffmpeg-LICENSE.txt"),
)
