"""Every long-running command, stopped mid-run by each of SIGINT, SIGTERM and SIGHUP.

The contract (`game.stopping`): the command exits 128 + the signal's number, prints one line
saying what it kept and no traceback, leaves no partial file (`.part`, a hidden temporary name)
and no final file that is not whole, and leaves no process behind: no worker, no ffmpeg.

Each command runs as `python -m game ...` in a session of its own (its process group is its
pid), as a terminal would run it: Ctrl+C and a closed terminal signal the whole group, `kill`
the command alone. The test waits until the command is mid-run (a partial file, its workers, its
first output, its CPU time past the start-up), then sends the signal. The three signals of one
command run side by side, to keep the matrix within a couple of seconds a case.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from game.config.loading import load_config
from game.workshop.files.recording import header_record
from tests.capture_files import write_long_presentmon_1x

ROOT = Path(__file__).resolve().parents[1]
SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
GROUP_SIGNALS = (signal.SIGINT, signal.SIGHUP)
"""What a terminal sends to every process of the command (Ctrl+C, hang-up); SIGTERM is `kill`."""
STARTED_CPU_S = 2.0
"""CPU time past which a command is at work (importing everything takes about 1.4 s)."""
WAIT_S = 90


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def processes() -> Iterator[tuple[int, list[str]]]:
    """Each process's id and the fields of its `/proc/PID/stat` after the name (state, parent
    id, group id...); one that ends while it is read is left out."""
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                yield int(entry.name), (entry / "stat").read_text().rpartition(")")[2].split()
            except OSError:
                continue


def children(pid: int) -> list[int]:
    """The processes whose parent is `pid`."""
    return [child for child, stat in processes() if int(stat[1]) == pid]


def in_group(group: int) -> list[int]:
    """The processes still alive in process group `group` (zombies are already gone)."""
    return [member for member, stat in processes() if int(stat[2]) == group and stat[0] != "Z"]


Started = Callable[[int, Path], bool]
"""(pid, the command's folder) -> whether it is mid-run."""


def file_appears(pattern: str) -> Started:
    return lambda pid, folder: any(folder.glob(pattern))


def has_workers(pid: int, folder: Path) -> bool:
    return len(children(pid)) >= 2


def busy(pid: int, folder: Path) -> bool:
    return cpu_seconds(pid) >= STARTED_CPU_S


@dataclass(frozen=True)
class Case:
    command: str
    """What follows `python -m game`."""
    started: Started
    kept: Callable[[Path, str], str] = lambda folder, signal_name: "nothing written"
    """How the stop's line goes on after "stopped by SIGNAL; ": what the command kept."""

    @property
    def name(self) -> str:
        return self.command.split()[0]


def a_long_recording(folder: Path) -> None:
    """A recording whose replay runs 40,000 ticks at 144 fps, 96,000 frames, within the limits
    (its hash is wrong: it never gets there)."""
    lines = [
        header_record(load_config(None, [])),
        {"final_tick": 40_000, "state_hash": "0" * 64, "ended": "end", "record_hash": "0" * 64},
    ]
    (folder / "long.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines))


def clips_kept(folder: Path, signal_name: str) -> str:
    """A handout stopped keeps the clips and the figures it had finished (each whole), says
    so, and writes no page."""
    clips = len(list((folder / "H" / "clips").glob("*.mp4")))
    figures = [path for path in (folder / "H" / "figures").rglob("*") if path.is_file()]
    assert not any(path.name.startswith(".") for path in figures)  # no temporary file is left
    if clips:
        return f"kept {clips} of "
    return f"kept {len(figures)} figure files in " if figures else "nothing written"


def recording_kept(folder: Path, signal_name: str) -> str:
    final = json.loads((folder / "r.jsonl").read_text().splitlines()[-1])
    assert final["ended"] == "signal"
    return f"kept r.jsonl (to tick {final['final_tick']}, signal, replayable)"


CASES = (
    Case(
        "simulate --seconds 600 --record r.jsonl --out D",
        file_appears("r.jsonl.part"),
        recording_kept,
    ),
    Case("compare --scenario steady_144 --seconds 300 --policies drop,backlog --out D", busy),
    Case(
        "sweep --scenario spiral_map --vary load.step_cost_ms=1:30:1 --seconds 20 --workers 2 "
        "--out D",
        has_workers,
    ),
    Case("clip --lesson 5 --seconds 14 --out c.mp4", file_appears("c.part*")),
    Case("handout --quick --out H", has_workers, clips_kept),
    Case("judder --hz 60 --refresh 60 --interpolation off --conditioning raw --seconds 600", busy),
    Case("replay long.jsonl", busy),
    Case("schedule 16x200000", busy),
    Case("lessons --check --workers 2", has_workers),
    Case("play --record r.jsonl --frames 1000000", file_appears("r.jsonl.part"), recording_kept),
    Case("capture big.csv --hz 30,60,120,144,240 --workers 2 --out D", busy),
    Case(
        "simulate --scenario rollback_spiral --seconds 120 --record r.jsonl", busy, recording_kept
    ),
)


def start(case: Case, folder: Path) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "SDL_VIDEODRIVER": "dummy"}
    return subprocess.Popen(
        [sys.executable, "-m", "game", *case.command.split()],
        cwd=folder, env=env, start_new_session=True, text=True,
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )  # fmt: skip


def wait_until_started(case: Case, process: subprocess.Popen[str], folder: Path) -> None:
    deadline = time.monotonic() + WAIT_S
    while not case.started(process.pid, folder):
        assert process.poll() is None, f"{case.name} ended before it started: {process.returncode}"
        assert time.monotonic() < deadline, f"{case.name} did not start in {WAIT_S} s"
        time.sleep(0.05)
    time.sleep(0.3)


def send(process: subprocess.Popen[str], number: signal.Signals) -> None:
    if number in GROUP_SIGNALS:
        os.killpg(process.pid, number)
    else:
        process.send_signal(number)


def leftovers(folder: Path) -> list[str]:
    """Partial or temporary files: a name ending in `.part`, or hidden."""
    return sorted(
        str(path.relative_to(folder))
        for path in folder.rglob("*")
        if path.name.endswith(".part") or path.name.startswith(".")
    )


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_each_signal_stops_the_command_cleanly(case: Case, tmp_path: Path) -> None:
    runs = {}
    for number in SIGNALS:
        folder = tmp_path / number.name
        folder.mkdir()
        if case.name == "replay":
            a_long_recording(folder)
        if case.name == "capture":
            write_long_presentmon_1x(folder / "big.csv", frames=200_000)
        runs[number] = (folder, start(case, folder))
    for number, (folder, process) in runs.items():
        wait_until_started(case, process, folder)
        send(process, number)
    for number, (folder, process) in runs.items():
        _, err = process.communicate(timeout=WAIT_S)
        lines = err.splitlines()
        said = f"python -m game {case.name}: stopped by {number.name}; "
        assert process.returncode == 128 + number, err
        assert lines[-1].startswith(said + case.kept(folder, number.name)), err
        assert [line for line in lines if "stopped by" in line] == lines[-1:]
        assert "Traceback" not in err
        assert leftovers(folder) == []
        assert in_group(process.pid) == []
        assert not (folder / "D" / "frames.csv").exists()
        assert not (folder / "c.mp4").exists()
        assert not (folder / "H" / "index.html").exists()


SWEEP = next(case for case in CASES if case.name == "sweep")


def test_a_worker_that_dies_is_one_line_exit_1_and_the_others_are_stopped(tmp_path: Path) -> None:
    process = start(SWEEP, tmp_path)
    wait_until_started(SWEEP, process, tmp_path)
    os.kill(children(process.pid)[0], signal.SIGKILL)
    _, err = process.communicate(timeout=WAIT_S)
    assert (process.returncode, err.splitlines()[-1]) == (
        1,
        "python -m game sweep: a worker process died before its job was done; the other "
        "workers were stopped, nothing written",
    )
    assert "Traceback" not in err
    assert in_group(process.pid) == []
    assert list((tmp_path / "D").iterdir()) == []


def test_workers_stop_by_themselves_when_the_command_is_killed_outright(tmp_path: Path) -> None:
    process = start(SWEEP, tmp_path)
    wait_until_started(SWEEP, process, tmp_path)
    workers = children(process.pid)
    process.kill()
    process.communicate(timeout=WAIT_S)
    deadline = time.monotonic() + 10
    while in_group(process.pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert [worker for worker in workers if worker in in_group(process.pid)] == []
