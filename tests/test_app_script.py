"""`--script FILE`: timed key presses read exactly; each bad line refused as `FILE:LINE: ...`."""

from pathlib import Path

import pygame
import pytest

from game.app.script import Press, load_script, parse_script
from game.errors import BadInput


def refusal(text: str) -> str:
    with pytest.raises(BadInput) as refused:
        parse_script(text, "demo.txt")
    (line,) = refused.value.lines
    return line


def test_a_script_is_read_into_timed_presses() -> None:
    text = "# ms  what\n500 space\n1000 shift+tab\n2500 click 16 9  # a click\n4000 q\n"
    assert parse_script(text, "demo.txt") == (
        Press(500_000_000, key=pygame.K_SPACE),
        Press(1_000_000_000, key=pygame.K_TAB, modifiers=("shift",)),
        Press(2_500_000_000, click=(16.0, 9.0)),
        Press(4_000_000_000, key=pygame.K_q),
    )


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("soon space", "demo.txt:1: the time must be milliseconds like 500 (got 'soon space')"),
        ("\u0665\u0660\u0660 space",
         "demo.txt:1: the time must be milliseconds like 500 (got '\u0665\u0660\u0660 space')"),
        ("500 space\n400 q", "demo.txt:2: times must not go backwards (got '400 q')"),
        ("500", "demo.txt:1: say what to press after the time (got '500')"),
        ("500 click 16", "demo.txt:1: a click needs x and y in metres (got '500 click 16')"),
        ("500 click 16 9 1",
         "demo.txt:1: a click needs exactly x and y in metres (got '500 click 16 9 1')"),
        ("500 click 33 9",
         "demo.txt:1: a click must be inside the 32 x 18 m arena (got '500 click 33 9')"),
        ("100 click " + "9" * 400 + " 9",
         "demo.txt:1: a click needs x and y in metres (got '100 click "
         + "9" * 47 + "'...)"),
        ("500 space q", "demo.txt:1: one key or combination per line, like shift+tab "
                        "(got '500 space q')"),
        ("500 alt+q", "demo.txt:1: unknown key 'alt+q' (got '500 alt+q')"),
    ],
)  # fmt: skip
def test_each_bad_line_is_one_line_naming_the_file_and_line(text: str, line: str) -> None:
    assert refusal(text) == line


def test_a_script_file_is_held_to_the_file_limits(tmp_path: Path) -> None:
    binary = tmp_path / "demo.txt"
    binary.write_bytes(b"500 \xff\n")
    with pytest.raises(BadInput) as not_text:
        load_script(binary)
    with pytest.raises(BadInput) as endless:
        load_script(Path("/dev/zero"))
    assert not_text.value.lines + endless.value.lines == (
        f"{binary}: not a script: not UTF-8 text",
        "/dev/zero: too large for a script (more than 1 MiB)",
    )
