"""`--seconds` shorter than a scenario runs the scenario's first seconds.

A stall, change or input that starts at or after the end is left out; a stall that starts before
the end and would last past it is cut at the run's end (no frame ends while the machine is
stopped, so the run's frames end where that stall starts). One line on stderr says what was left
out, and `simulate --json` adds `"left_out"` to its summary. Stalls given on the command line
(`--stall`) are the user's own: one that outlasts the run is refused, not cut.
"""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from game.cli import main
from game.workshop.files.scenario import LeftOut
from game.workshop.files.scenario_loading import Flag, scenario_from

SHORTENED = {
    "seconds": 10,
    "stalls": [{"at": 1, "ms": 100}, {"at": 4.5, "ms": 1000}, {"at": 8, "ms": 100}],
    "changes": [{"at": 2, "policy": "uncapped"}, {"at": 6, "policy": "clamp"}],
    "inputs": [{"sim_second": 3, "action": "fire"}, {"sim_second": 7, "action": "fire"}],
}
"""Ten seconds with a stall from 4.5 s to 5.5 s: asked for its first 5 s, that stall straddles the
end."""


def first(seconds: str, *flags: Flag) -> tuple[Fraction, LeftOut, int, int, int]:
    scenario = scenario_from(SHORTENED, None, [Flag("--seconds", ("seconds",), seconds), *flags])
    return (
        scenario.seconds,
        scenario.left_out,
        len(scenario.stalls),
        len(scenario.changes),
        len(scenario.inputs),
    )


def test_what_starts_at_or_after_the_end_is_left_out() -> None:
    assert first("4") == (Fraction(4), LeftOut(2, 1, 1, Fraction(4)), 1, 1, 1)


def test_a_stall_that_would_last_past_the_end_ends_the_run_where_it_starts() -> None:
    assert first("5") == (Fraction(9, 2), LeftOut(2, 1, 1, Fraction(5), Fraction(9, 2)), 1, 1, 1)
    assert first("5")[1].line() == (
        "the scenario's first 5 s: left out 2 stalls, 1 change, 1 input (a stall from 4.5 s "
        "lasts past the end: no frame ends while it holds, so the run's frames end at 4.5 s)"
    )


def test_the_whole_scenario_leaves_nothing_out() -> None:
    seconds, left_out, *kept = first("10")
    assert (seconds, kept, bool(left_out)) == (Fraction(10), [3, 2, 2], False)


def test_without_seconds_nothing_is_cut() -> None:
    scenario = scenario_from(SHORTENED, None)
    assert (scenario.seconds, bool(scenario.left_out)) == (Fraction(10), False)


def test_the_first_minute_of_ten_minutes_runs_and_says_what_it_left_out(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["simulate", "--scenario", "ten_minutes", "--seconds", "60", "--json"]) == 0
    captured = capsys.readouterr()
    summary = json.loads(captured.out.splitlines()[-1])["summary"]
    assert (summary["ticks"], summary["left_out"]) == (
        3599,
        {"stalls": 9, "changes": 0, "inputs": 0},
    )
    assert captured.err.splitlines()[-1] == (
        "the scenario's first 60 s: left out 9 stalls, 0 changes, 0 inputs"
    )


def test_a_stall_given_beside_seconds_is_refused_not_cut(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["simulate", "--seconds", "10", "--stall", "9:2000"]) == 2
    assert capsys.readouterr().err.strip() == (
        "error: --stall 9:2000: ends at 11 s, not before the run's 10 s: a stall must end "
        "before the run does"
    )
