"""Issue 12's reproductions, one test each: every one is one line on stderr and exit 2 (or 1 for a
replay that does not match), or a correct full result. Nothing here may print a traceback."""

from __future__ import annotations

import pytest

from game.cli import main


def refused(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    """The one line `python -m game ARGS` prints on stderr, having printed nothing else."""
    assert main(list(args)) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert len(captured.err.splitlines()) == 1, captured.err
    return captured.err.strip()


# -- the schedule explainer and numbers on the command line ---------------------------------------


def test_schedule_31536000001_is_refused_before_any_row(capsys: pytest.CaptureFixture[str]) -> None:
    assert refused(capsys, "schedule", "16", "31536000001") == (
        "error: bad frame '31536000001': a frame lasts at most a year (31,536,000,000 ms)"
    )


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["--hz", "٣", "16"],
         "error: --hz must be a non-negative decimal number like 16.667 (got '٣')"),
        (["16.7x٣"], "error: bad frame '16.7x٣': frame (ms) must be a non-negative decimal "
                     "number like 16.667 (got '16.7x٣')"),
        (["--max-steps", "٣", "16"],
         "error: argument --max-steps: must be a whole number like 5 (got '٣')"),
    ],
)  # fmt: skip
def test_non_ascii_digits_are_not_numbers(
    capsys: pytest.CaptureFixture[str], args: list[str], line: str
) -> None:
    assert refused(capsys, "schedule", *args) == line


def test_0x10_is_not_ten_frames_of_0_ms(capsys: pytest.CaptureFixture[str]) -> None:
    assert refused(capsys, "schedule", "0x10") == (
        "error: bad frame '0x10': 10 frames of 0 ms; a repeated frame must last more than 0 ms "
        "(frame times are decimal ms, never hex)"
    )


def test_resume_without_pause_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert refused(capsys, "schedule", "16", "resume", "16") == (
        "error: bad frame 'resume': nothing is paused"
    )
