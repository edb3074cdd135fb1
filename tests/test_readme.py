"""The README tells the truth: every key, command and game flag it should list, it lists."""

import argparse
from pathlib import Path

from game import limits
from game.app.keymap import HELP_ROWS
from game.cli import _commands, build_parser
from game.file_reading import size_text
from game.workshop.clips import files as clips

README = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")


def test_every_key_row_of_the_help_is_in_the_readme() -> None:
    for keys, description in HELP_ROWS:
        assert f"| {keys} | {description} |" in README


def test_every_command_is_in_the_readme() -> None:
    for name in _commands():
        assert f"python -m game {name}" in README or name == "play"
    assert "python -m game [play]" in README


def test_every_flag_of_the_game_is_in_the_readme() -> None:
    parser = build_parser(_commands())
    (subcommands,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    play = subcommands.choices["play"]
    flags = [opt for action in play._actions for opt in action.option_strings if opt != "-h"]
    for flag in flags:
        if flag != "--help":
            assert flag in README, flag


def test_the_two_set_up_commands_come_first() -> None:
    assert README.index("make run") < README.index("## ")
    assert README.index("make test") < README.index("## ")


def test_the_limits_table_states_the_limits_the_code_enforces() -> None:
    table = README[README.index("### Limits") : README.index("## Lessons and scenarios")]
    rows = [row for row in table.splitlines() if row.startswith("| ") and "| what |" not in row]
    stated = [row.rsplit("|", 2)[1].strip() for row in rows]  # the last column
    assert stated == [
        size_text(limits.MAX_TEXT_FILE_BYTES),
        size_text(limits.MAX_RECORDING_BYTES),
        str(limits.MAX_NESTING),
        str(limits.MAX_DIGITS),
        f"{limits.MAX_RUN_TICKS:,}",
        f"{limits.MAX_RUN_FRAMES:,}",
        f"{limits.MAX_REPLAY_FRAMES:,}",
        f"{limits.MAX_SCHEDULE_FRAMES:,}",
        str(limits.MAX_JUDDER_ROWS),
        f"{clips.MAX_PICTURES:,}",
        str(clips.MAX_MEGAPIXELS),
        str(limits.MAX_PROBLEM_LINES),
        size_text(limits.MAX_CAPTURE_BYTES),
        f"{limits.MAX_CAPTURE_ROWS:,}",
        f"{limits.MAX_CAPTURE_RUN_FRAMES:,}",
        f"{limits.MAX_HEADROOM_RUN_FRAMES:,}",
        size_text(limits.MAX_CAPTURE_LINE_BYTES),
        size_text(limits.MAX_CAPFRAMEX_BYTES),
        f"{limits.MAX_CAPFRAMEX_ROWS:,}",
        size_text(limits.MAX_SESSION_OUTLINE_BYTES),
    ]
