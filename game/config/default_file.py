"""`configs/default.toml`, written from the knob table: every setting, at its default, commented.

The file is what a user copies to start their own config, so it is shipped, but nobody edits it
by hand: each setting's value and comment come from its row in `game.knobs`, and a test fails
when the file on disk is not what this module writes. After changing the table:

    python -m game.config.default_file --write

`--check` (the default) exits 1 when the file is stale, with that command in the message.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path

from game.config.exact import decimal_text
from game.config.loading import DEFAULT_CONFIG_FILE
from game.knobs import KNOBS, Knob, Where, config_sections, knobs_of

REGENERATE = "python -m game.config.default_file --write"

HEADER = """\
# Timestep Lab: every setting, at its default.
#
# Copy this file, change what you like, and run `python -m game --config YOUR_FILE`; keys you
# leave out keep these values. One setting can also be changed on the command line:
# `python -m game --set scheduler.hz=30 --set scheduler.policy=uncapped`.
#
# Times are exact. Write a number of milliseconds as 250, 16.7 or "16.7": all three mean the
# decimal you typed, never a rounded binary float.
"""


def toml_value(knob: Knob) -> str:
    """The default as a config file writes it: a ratio quoted ("1"), a decimal bare (0.5)."""
    value = knob.default
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Fraction):
        text = decimal_text(value)
        return f'"{text}"' if knob.range is not None and knob.range.ratios else text
    if isinstance(value, str):
        return f'"{value}"'
    return repr(value)


def default_file_text(knobs: Sequence[Knob] = KNOBS) -> str:
    """The whole file, as it should be on disk, for the table `knobs`."""
    lines = [HEADER]
    for section in config_sections(knobs):
        lines.append(f"\n[{section}]\n")
        for knob in knobs_of(section, knobs):
            if Where.CONFIG not in knob.where:
                continue
            lines.extend(f"# {line}\n" for line in knob.comment.splitlines())
            lines.append(f"{knob.key} = {toml_value(knob)}\n")
    return "".join(lines)


def stale(path: Path = DEFAULT_CONFIG_FILE) -> bool:
    """True when the file on disk is not what the table says."""
    return not path.exists() or path.read_text(encoding="utf-8") != default_file_text()


def main(argv: list[str]) -> int:
    if argv == ["--write"]:
        DEFAULT_CONFIG_FILE.write_text(default_file_text(), encoding="utf-8")
        print(f"wrote {DEFAULT_CONFIG_FILE}")
        return 0
    if argv not in ([], ["--check"]):
        print("usage: python -m game.config.default_file [--check | --write]", file=sys.stderr)
        return 2
    if stale():
        print(f"{DEFAULT_CONFIG_FILE} is stale: run `{REGENERATE}`", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
