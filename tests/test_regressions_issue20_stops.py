"""Issue 20's reproductions of this part, and the stop mechanism's own rules, as worked examples.

The signal matrix (every command under every stop signal) is `tests/test_signal_matrix.py`; the
counters' invariants are `tests/test_input_counts.py`.
"""

from __future__ import annotations

import os
import signal

import pytest

from game.cli import main
from game.limits import MAX_SCHEDULE_FRAMES
from game.stopping import STOPS, Stopped, clean_point, holding_stops, stops_cleanly, wrote


def test_reproduction_12_a_schedule_past_its_frame_limit_is_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["schedule", "16x10000000"]) == 2
    assert capsys.readouterr() == ("", "error: too many frames (more than 200,000)\n")
    assert MAX_SCHEDULE_FRAMES == 200_000


def test_a_signal_raises_stopped_where_the_program_is_and_the_old_handler_comes_back() -> None:
    before = signal.getsignal(signal.SIGTERM)
    with pytest.raises(Stopped) as stop, stops_cleanly():
        os.kill(os.getpid(), signal.SIGTERM)
        for _ in range(10_000_000):  # the handler runs between two bytecodes, long before this ends
            pass
    assert (stop.value.name, stop.value.exit_code) == ("SIGTERM", 143)
    assert signal.getsignal(signal.SIGTERM) == before


def test_while_stops_are_held_a_signal_waits_for_the_next_clean_point() -> None:
    reached = []
    with pytest.raises(Stopped) as stop, stops_cleanly(), holding_stops():
        os.kill(os.getpid(), signal.SIGINT)
        reached.append("after the signal")  # held: the code goes on
        clean_point()
        reached.append("after the clean point")
    assert reached == ["after the signal"]
    assert stop.value.exit_code == 130


def test_the_stop_line_names_what_was_kept_and_counts_the_rest() -> None:
    with stops_cleanly():
        assert Stopped(signal.SIGHUP).line("python -m game sweep") == (
            "python -m game sweep: stopped by SIGHUP; nothing written"
        )
        for name in ("a.csv", "b.json", "c.png", "d.svg", "e.png"):
            wrote(name)
        stop = Stopped(signal.SIGTERM)
        stop.kept.append("3 of 9 clips in H/clips (no page)")
        assert stop.line("python -m game compare") == (
            "python -m game compare: stopped by SIGTERM; kept a.csv, b.json, c.png, 3 more"
        )
    assert STOPS.holding == 0
