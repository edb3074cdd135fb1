"""`output_directory`: where `--out DIR` writes, made ready before any work starts; and the
`--theme` of the figures written there.

A long run that ends with "cannot write" has wasted the audience's minute; an unusable
directory is refused first, in one line.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from game.errors import BadInput


def output_directory(path: Path) -> Path:
    """Create `path` (and its parents) if needed; `BadInput` if it cannot be a directory."""
    if path.exists() and not path.is_dir():
        raise BadInput.error(f"--out {path}: exists and is not a directory")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as problem:
        raise BadInput.error(
            f"--out {path}: cannot create it: {problem.strerror or problem}"
        ) from None
    return path


THEME_NAMES = ("light", "dark")
"""The figures' themes (`game.workshop.plotting` holds their colours): light for a screen or
a bright room, dark for a projector in a dark one."""


def add_theme_argument(parser: argparse.ArgumentParser) -> None:
    """`--theme light|dark`, for the commands that draw figures."""
    parser.add_argument(
        "--theme",
        choices=THEME_NAMES,
        default="light",
        help="figure colours: light (default) or dark, for a projector in a dark room",
    )
