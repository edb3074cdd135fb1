"""Every long-running command, stopped at a named point by each of SIGINT, SIGTERM and SIGHUP.

The contract (`game.stopping`): the command exits 128 + the signal's number, prints one line
saying what it kept and no traceback, leaves no partial file (`.part`, a hidden temporary name)
and no final file that is not whole, and leaves no process behind: no worker, no ffmpeg. The
live `--capture` is stopped while it waits out a captured frame of a year (it must stop within a
slice of the wait: a wait in one piece would hang the test), and `capture` reads its file
through a pipe.

Each command runs with `TIMESTEP_LAB_STOP_AT=POINT` and the test waits for its `at POINT` line,
so the signal comes at the same moment of the command's work on any machine, and each case
states the exact line the stop prints there. The three signals of one case run side by side.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

from game.config.loading import load_config
from game.workshop.files.recording import header_record
from tests.capture_files import presents, write_long_presentmon_1x, write_presentmon_1x
from tests.commands import Command, children, in_group, wait_for_exit

pytestmark = pytest.mark.slow
"""Each test here runs whole commands in processes of their own."""

SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
RECORDING_AT_TICK_0 = "kept r.jsonl (to tick 0, signal, replayable)"
"""A run stopped at its first frame's tick boundary: the recording is finished, and replays."""


@dataclass(frozen=True)
class Case:
    command: str
    """What follows `python -m game`."""
    point: str
    """Where it is stopped (`game.stopping.POINTS`)."""
    kept: str = "nothing written"
    """How the stop's line goes on after "stopped by SIGNAL; "."""
    piped: str | None = None
    """A file of the folder handed to the command through a pipe, as its standard input."""

    @property
    def name(self) -> str:
        return self.command.split()[0]

    @property
    def id(self) -> str:
        return f"{self.name}@{self.point}" + ("|piped" if self.piped else "")


def a_long_recording(folder: Path) -> None:
    """A recording whose replay runs 40,000 ticks at 144 fps, 96,000 frames, within the limits
    (its hash is wrong: it never gets there)."""
    lines = [
        header_record(load_config(None, [])),
        {"final_tick": 40_000, "state_hash": "0" * 64, "ended": "end", "record_hash": "0" * 64},
    ]
    (folder / "long.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines))


CASES = (
    Case("simulate --seconds 600 --record r.jsonl --out D", "run", RECORDING_AT_TICK_0),
    Case("simulate --seconds 600 --record r.jsonl --out D", "output"),
    Case("compare --scenario steady_144 --seconds 300 --policies drop,backlog --out D", "run"),
    Case(
        "sweep --scenario spiral_map --vary load.step_cost_ms=1:30:1 --seconds 20 --workers 2 "
        "--out D",
        "workers",
    ),
    Case("clip --lesson 5 --seconds 14 --out c.mp4", "output"),
    Case("clip --lesson 5 --seconds 14 --out c.mp4", "window"),
    Case("handout --quick --out H", "workers"),
    Case(
        "judder --hz 60 --refresh 60 --interpolation off --conditioning raw --seconds 600", "rows"
    ),
    Case("replay long.jsonl", "run"),
    Case("schedule 16x200000", "rows"),
    Case("lessons --check --workers 2", "workers"),
    Case("play --record r.jsonl --frames 1000000", "window", RECORDING_AT_TICK_0),
    Case("play --record r.jsonl --frames 1000000", "output"),
    Case("capture big.csv --hz 30,60,120,144,240 --workers 2 --out D", "workers"),
    Case("capture /dev/stdin --hz 30,60 --workers 2 --out D", "workers", piped="big.csv"),
    Case("play --capture year.csv --frames 5", "frame"),
    Case(
        "capture caps --workers 1 --headroom-frames 0 --out D",
        "files",
        "kept the folders of 1 of 3 files, in D",
    ),
    Case(
        "capture caps --workers 2 --headroom-frames 0 --out D",
        "workers",
        "kept the folders of 0 of 3 files, in D",
    ),
    Case(
        "simulate --scenario rollback_spiral --seconds 100 --record r.jsonl",
        "run",
        RECORDING_AT_TICK_0,
    ),
)


def prepared(case: Case, folder: Path) -> Path:
    """The command's folder, with the input files it reads."""
    folder.mkdir()
    if case.name == "replay":
        a_long_recording(folder)
    if case.name == "capture":
        write_long_presentmon_1x(folder / "big.csv", frames=200_000)
    if "year.csv" in case.command:
        a_capture_with_a_frame_of_a_year(folder / "year.csv")
    if "caps" in case.command:  # a batch: three captures in a folder
        (folder / "caps").mkdir()
        for name in ("a", "b", "c"):
            write_presentmon_1x(folder / "caps" / f"{name}.csv", presents(["16.6667"] * 30))
    return folder


def a_capture_with_a_frame_of_a_year(path: Path) -> None:
    """Three frames: 16 ms, a year (a hostile file, or a laptop asleep), 16 ms. The game stopped
    while it waits out the year must stop within a slice of its wait, not at its end."""
    write_presentmon_1x(path, presents(["16", str(365 * 86_400 * 1000), "16"]))


def started(case: Case, folder: Path) -> Command:
    """The case's command in `folder`, its piped file (if any) coming through a pipe from `cat`
    (the command reads it to its end before its stop point)."""
    if case.piped is None:
        return Command(case.command, folder, stop_at=case.point)
    feeder = subprocess.Popen(["cat", str(folder / case.piped)], stdout=subprocess.PIPE)
    assert feeder.stdout is not None
    with feeder.stdout:
        return Command(case.command, folder, stop_at=case.point, stdin=feeder.stdout)


def leftovers(folder: Path) -> list[str]:
    """Partial or temporary files: a name ending in `.part`, or hidden."""
    return sorted(
        str(path.relative_to(folder))
        for path in folder.rglob("*")
        if path.name.endswith(".part") or path.name.startswith(".")
    )


@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_each_signal_stops_the_command_cleanly_at_its_point(case: Case, tmp_path: Path) -> None:
    runs = {
        number: (folder, started(case, folder))
        for number in SIGNALS
        for folder in [prepared(case, tmp_path / number.name)]
    }
    for _, command in runs.values():
        command.reaches(case.point)
    for number, (_, command) in runs.items():
        command.send(number)
    for number, (folder, command) in runs.items():
        code = command.ends()
        said = f"python -m game {case.name}: stopped by {number.name}; {case.kept}"
        assert (code, command.lines[-1]) == (128 + number, said), command.err
        assert [line for line in command.lines if "stopped by" in line] == [said]
        assert "Traceback" not in command.err
        assert leftovers(folder) == []
        assert in_group(command.pid) == []
        assert not (folder / "D" / "frames.csv").exists()
        assert not (folder / "c.mp4").exists()
        assert not (folder / "H" / "index.html").exists()
        assert not (folder / "D" / "batch.csv").exists()
        if case.point == "files":  # the one file finished has its folder, whole
            assert [path.name for path in (folder / "D").iterdir()] == ["a.csv"]
            assert sorted(path.name for path in (folder / "D" / "a.csv").iterdir()) == [
                "display.csv",
                "frames.csv",
            ]
        if case.kept == "nothing written":
            assert not (folder / "r.jsonl").exists()


@pytest.mark.parametrize("number", SIGNALS, ids=[number.name for number in SIGNALS])
@pytest.mark.parametrize("command", ["schedule 16x3", "simulate --seconds 1", "play --frames 3"])
def test_a_signal_during_the_imports_stops_the_command_as_it_starts(
    command: str, number: signal.Signals, tmp_path: Path
) -> None:
    run = Command(command, tmp_path, stop_at="imports")
    run.reaches("imports")
    run.send(number)
    name = command.split()[0]
    assert (run.ends(), run.lines) == (
        128 + number,
        ["at imports", f"python -m game {name}: stopped by {number.name}; nothing written"],
    )


@pytest.mark.parametrize("number", SIGNALS, ids=[number.name for number in SIGNALS])
def test_a_signal_after_the_work_is_done_leaves_the_outputs_whole_and_the_exit_code_its_own(
    number: signal.Signals, tmp_path: Path
) -> None:
    run = Command("simulate --seconds 1 --record r.jsonl --out D", tmp_path, stop_at="done")
    run.reaches("done")
    run.send(number)
    assert (run.ends(), run.lines) == (0, ["at done"])
    assert json.loads((tmp_path / "r.jsonl").read_text().splitlines()[-1])["ended"] == "end"
    assert (tmp_path / "D" / "frames.csv").exists()
    assert leftovers(tmp_path) == []


def test_a_command_that_fails_keeps_its_own_exit_code_when_stopped_after_it(
    tmp_path: Path,
) -> None:
    a_long_recording(tmp_path)
    (tmp_path / "short.jsonl").write_text(
        (tmp_path / "long.jsonl").read_text().replace('"final_tick": 40000', '"final_tick": 10')
    )
    run = Command("replay short.jsonl", tmp_path, stop_at="done")
    run.reaches("done")
    run.send(signal.SIGTERM)
    assert (run.ends(), run.lines) == (1, ["at done"])  # 1: the replay does not match


def test_with_no_stop_point_named_nothing_waits_and_nothing_is_printed(tmp_path: Path) -> None:
    run = Command("schedule 16x3", tmp_path, stop_at=None)
    assert (run.ends(), run.err) == (0, "")


def test_a_stop_point_that_does_not_exist_is_one_line_and_exit_2(tmp_path: Path) -> None:
    run = Command("schedule 16x3", tmp_path, stop_at="midway")
    assert (run.ends(), run.lines) == (
        2,
        [
            "error: TIMESTEP_LAB_STOP_AT='midway' names no stop point (one of: imports, "
            "output, workers, files, run, rows, window, frame, done)"
        ],
    )


SWEEP = next(case for case in CASES if case.name == "sweep")


def test_a_worker_that_dies_is_one_line_exit_1_and_the_others_are_stopped(tmp_path: Path) -> None:
    folder = prepared(SWEEP, tmp_path / "sweep")
    run = Command(SWEEP.command, folder, stop_at="workers")
    run.reaches("workers")
    os.kill(children(run.pid)[0], signal.SIGKILL)
    os.kill(run.pid, signal.SIGUSR1)  # go on from the point, without stopping
    assert (run.ends(), run.lines[-1]) == (
        1,
        "python -m game sweep: a worker process died before its job was done; the other "
        "workers were stopped, nothing written",
    )
    assert "Traceback" not in run.err
    assert in_group(run.pid) == []
    assert list((folder / "D").iterdir()) == []


def test_workers_stop_by_themselves_when_the_command_is_killed_outright(tmp_path: Path) -> None:
    folder = prepared(SWEEP, tmp_path / "sweep")
    run = Command(SWEEP.command, folder, stop_at="workers")
    run.reaches("workers")
    workers = children(run.pid)
    assert len(workers) == 2
    run.process.kill()
    run.ends()
    wait_for_exit(workers)
    assert [worker for worker in workers if worker in in_group(run.pid)] == []
