"""Argument types for the commands' flags: whole numbers and file paths, read strictly.

`argparse`'s `type=int` takes what Python's `int` takes: "٣" (an Arabic-Indic three), "1_000"
and " 5 ". A flag takes ASCII digits only, as the decimal numbers do (`game.clock.units`). A
path may not hold a NUL character, which no shell can pass but code can, and which the file
functions refuse with a `ValueError` far from the flag that caused it, nor be blank (`--out ""`
would write into the current folder).
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from game.clock.units import shown
from game.limits import MAX_DIGITS

_WHOLE = re.compile(rf"-?[0-9]{{1,{MAX_DIGITS}}}")


def whole_number(text: str) -> int:
    """An argparse type: "5" or "-1", in ASCII digits; argparse names the flag if not."""
    if not _WHOLE.fullmatch(text):
        raise argparse.ArgumentTypeError(f"must be a whole number like 5 (got {shown(text)})")
    return int(text)


def file_path(text: str) -> Path:
    """An argparse type: a path, refused if it is blank or holds a NUL character."""
    if not text.strip():
        raise argparse.ArgumentTypeError(f"needs a file or folder name (got {shown(text)})")
    if "\0" in text:
        raise argparse.ArgumentTypeError(f"a path cannot hold a NUL character (got {shown(text)})")
    return Path(text)
