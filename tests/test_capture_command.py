"""`python -m game capture`: its figures against an independent computation, and its contract.

The frames here come from `MemoryCapture` (`tests/capture_memory.py`), written as the decimal
milliseconds a capture tool writes; the tests of the files themselves are the readers'.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from fractions import Fraction
from math import floor
from pathlib import Path

import pytest

from game.cli import _commands, build_parser, main
from game.commands import capture as capture_command
from game.commands.options import parse_policies
from game.errors import BadInput
from tests.capture_memory import MemoryCapture
from timestep_lab import POLICIES

DECIMALS = [
    "16.6667",
    "7.1234567895",
    "7.1234567885",
    "33.4",
    "120.25",
    "6.9",
    "0.5",
    "250.0000001",
]
"""A game's intervals as a tool writes them; two round half to even beyond the nanosecond."""


def _ns(text: str) -> int:
    return round(Fraction(text) * 1_000_000)  # Fraction rounds half to even


def _frames(count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    return [rng.choice(DECIMALS) for _ in range(count)]


def reference_ticks(policy: str, elapsed: list[Fraction], hz: int) -> list[int]:
    """Ticks per frame from each policy's defining sentence, in `Fraction`s of a second."""
    h, cap, most, backlog_cap = Fraction(1, hz), 5, Fraction(1, 4), Fraction(1)
    carried, ticks = Fraction(0), []
    for seconds in elapsed:
        if policy == "variable":
            ticks.append(1)
            continue
        counted = min(seconds, most) if policy in ("clamp", "reset") else seconds
        whole = floor((carried + counted) / h)
        run = whole if policy in ("uncapped", "clamp") else min(whole, cap)
        carried = carried + counted - run * h
        if policy == "drop":
            carried -= (whole - run) * h
        elif policy == "reset" and carried > 2 * h:
            carried = Fraction(0)
        elif policy == "backlog":
            owed = whole - run
            carried -= (owed - min(owed, floor(backlog_cap / h))) * h
        ticks.append(run)
    return ticks


def _run(capture: MemoryCapture, capsys: pytest.CaptureFixture[str], *flags: str) -> str:
    """The command's output on an in-memory capture (`run_on`: the flags checked, the file
    open), on one process."""
    args = build_parser(_commands()).parse_args(["capture", "memory.csv", *flags])
    rates = capture_command.tick_rates(args)
    capture_command.run_on(capture, args, rates, parse_policies(args.policies), 1)
    return capsys.readouterr().out


def _json_lines(
    capture: MemoryCapture, capsys: pytest.CaptureFixture[str], *flags: str
) -> list[dict[str, object]]:
    return [json.loads(line) for line in _run(capture, capsys, "--json", *flags).splitlines()]


@pytest.mark.parametrize("hz", [60, 144])
def test_the_steps_per_frame_histograms_are_exact(
    hz: int, capsys: pytest.CaptureFixture[str]
) -> None:
    decimals = _frames(600, seed=hz)
    capture = MemoryCapture(tuple(_ns(text) for text in decimals))
    lines = _json_lines(capture, capsys, "--hz", str(hz), "--headroom-frames", "0")
    exact = [Fraction(text) / 1000 for text in decimals]
    assert [line["policy"] for line in lines] == list(POLICIES)
    for line in lines:
        reference = Counter(reference_ticks(str(line["policy"]), exact, hz))
        assert line["steps_per_frame"] == {str(k): v for k, v in sorted(reference.items())}
        assert line["ticks"] == sum(k * v for k, v in reference.items())


STEADY_WITH_A_HITCH = MemoryCapture(
    (10_000_000,) * 8 + (100_000_000,) + (10_000_000,) * 3,
    skipped=(("not displayed", 3), ("truncated line", 1)),
)
"""12 frames: 10 ms, a 100 ms hitch at row 10, 10 ms; 3 rows not displayed, a truncated line."""


def test_the_json_contract(capsys: pytest.CaptureFixture[str]) -> None:
    lines = _json_lines(
        STEADY_WITH_A_HITCH, capsys, "--hz", "60,120", "--policies", "drop,uncapped"
    )
    assert [(line["hz"], line["policy"]) for line in lines] == [
        (60, "drop"), (60, "uncapped"), (120, "drop"), (120, "uncapped")
    ]  # fmt: skip
    drop_60 = lines[0]
    assert drop_60 == {
        "policy": "drop",
        "hz": 60,
        "frames": 12,
        "ticks": 11,
        "steps_per_frame": {"0": 5, "1": 6, "5": 1},
        "dropped_ns": 16_666_667,
        "lag_ns": 26_666_667,
        "longest_catch_up": 5,
        "longest_catch_up_row": 10,
        "spiral": None,
        "lost_share": 0.238095238,
        "doubled_share": 0.476190476,
        "ledger_ok": True,
        "headroom_ns": drop_60["headroom_ns"],
        "headroom_frames": 12,
        "capture": {
            "format": "presentmon",
            "layout": "1.x",
            "process": "game.exe (4712)",
            "rows": 16,
            "frames": 12,
            "skipped": {"not displayed": 3, "truncated line": 1},
            "damaged": {"truncated line": 1},
            "candidates": [],
        },
    }
    assert isinstance(drop_60["headroom_ns"], int)


def test_the_shares_are_the_input_labs_formula_to_nine_places(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Under drop at 60 Hz (h = 50/3 ms): 10 ms frames run 0, 1, 0, 1, 1 ticks and again (the
    remainder comes back to 0 every 5 frames); the hitch, 100 ms with 40/3 carried, is due 6
    steps and runs 5 (one dropped). The frames that run no tick last 5 x 10 of the 210 ms, the
    one that runs more than one 100: lost 5/21, doubled 10/21."""
    text = _run(STEADY_WITH_A_HITCH, capsys, "--policies", "drop", "--headroom-frames", "0")
    assert "0.238095238  0.476190476" in text


def test_the_report_says_what_was_read_first(capsys: pytest.CaptureFixture[str]) -> None:
    text = _run(STEADY_WITH_A_HITCH, capsys, "--policies", "drop", "--headroom-frames", "0")
    assert text.splitlines()[:5] == [
        "damaged: 1 of the 16 rows of game.exe (4712) (6.2 %: truncated line 1); the figures "
        "below leave them out",
        "capture memory.csv: presentmon 1.x, process game.exe (4712), swap chain 0x1, "
        "chosen: most rows",
        "rows 16: frames 12, skipped 4 (not displayed 3, truncated line 1)",
        "each frame's time: the time between presents (--column presents)",
        "open loop: each frame lasts what the capture says, whatever the policy planned, so no "
        "spiral can start (spiral: none to judge)",
    ]
    assert (
        "hitch: a frame at least 2x the median frame (10.000 ms): 20.000 ms or longer; 1 here"
        in text
    )


@pytest.mark.parametrize(
    ("flags", "line"),
    [
        (["--policies", "drop,fast"],
         "error: --policies: unknown policy 'fast' (known: uncapped, clamp, drop, reset, backlog, "
         "variable)"),
        (["--hz", "sixty"], "error: --hz must be a number like 60 or 59.94 (got 'sixty')"),
        (["--hz", "60,,120"], "error: --hz must be tick rates separated by commas (got '60,,120')"),
        (["--hz", "60,60.0"], "error: --hz names a tick rate twice (got '60,60.0')"),
        (["--hz", "0"], "error: --hz must be at least 0.1 (got '0')"),
        (["--max-steps", "0"], "error: --max-steps must be at least 1 (got 0)"),
        (["--headroom-frames", "-1"], "error: --headroom-frames must be at least 0 (got -1)"),
    ],
)  # fmt: skip
def test_bad_flags_are_one_line_and_exit_2(
    flags: list[str], line: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["capture", "any.csv", *flags]) == 2
    captured = capsys.readouterr()
    assert (captured.out, captured.err) == ("", line + "\n")


def test_a_capture_without_frames_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    empty = MemoryCapture((), skipped=(("not displayed", 7),))
    with pytest.raises(BadInput) as refused:
        _run(empty, capsys)
    assert refused.value.lines == (
        "memory.csv: no frames to run (7 rows; skipped: not displayed 7)",
    )


@pytest.mark.slow
def test_out_writes_each_frames_row_time_and_ticks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    _run(STEADY_WITH_A_HITCH, capsys, "--policies", "drop,variable", "--out", str(out),
         "--headroom-frames", "0")  # fmt: skip
    rows = (out / "frames.csv").read_text(encoding="utf-8").splitlines()
    assert rows[0] == "row,time_ns,elapsed_ns,hitch,drop@60,variable@60"
    assert rows[1] == "2,10000000,10000000,0,0,1"
    assert rows[9] == "10,180000000,100000000,1,5,1"
    assert len(rows) == 13
    assert sorted(path.name for path in out.iterdir()) == [
        "capture_60hz.png", "capture_60hz.svg", "frames.csv"
    ]  # fmt: skip
