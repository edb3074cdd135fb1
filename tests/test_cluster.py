"""`--cluster ADDRESS` (issue 33, part 3): the jobs on a Dask distributed scheduler give the same
bytes as the local pool; a worker of another build is refused in one line naming it; a scheduler
that does not answer, or no Dask installed, is one line and exit 2.

A scheduler (`dask scheduler`) and two workers (`dask worker --nworkers 2`) are started here on
127.0.0.1, the scheduler on port 0; the test waits for the scheduler's line naming its address
and for the workers to register (events, not durations), and stops them at the end by their own
process group.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import game.cluster
from game.cli import main
from tests.capture_files import write_long_presentmon_1x
from tests.commands import HANG_S, ROOT, Command, in_group
from tests.test_capture_batch import a_night

pytest.importorskip("distributed")
pytestmark = pytest.mark.slow
"""A cluster takes seconds to start."""

DASK = Path(sys.executable).with_name("dask")
SWEEP = [
    "sweep", "--scenario", "spiral_map", "--vary", "load.step_cost_ms=2,8",
    "--vary", "scheduler.max_steps=1,5", "--seconds", "1",
]  # fmt: skip


def _started(args: list[str]) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen(
        [str(DASK), *args], env=env, start_new_session=True, text=True,
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )  # fmt: skip


def _stop(process: subprocess.Popen[str]) -> None:
    os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(HANG_S)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    """A scheduler's address, with two workers registered."""
    from distributed import Client

    scheduler = _started(["scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard"])
    assert scheduler.stderr is not None
    address = None
    for line in scheduler.stderr:  # its log, a line at a time, until it says where it listens
        found = re.search(r"Scheduler at:\s+(tcp://127\.0\.0\.1:\d+)", line)
        if found:
            address = found.group(1)
            break
    assert address is not None
    scheduler.stderr.close()  # the rest of its log is not read (nor left to fill a pipe)
    workers = _started(
        ["worker", address, "--nworkers", "2", "--nthreads", "1", "--no-dashboard",
         "--host", "127.0.0.1"]
    )  # fmt: skip
    assert workers.stderr is not None
    workers.stderr.close()
    try:
        with Client(address, timeout=f"{HANG_S}s") as client:  # type: ignore[no-untyped-call]
            client.wait_for_workers(2, timeout=HANG_S)
        yield address
    finally:
        _stop(workers)
        _stop(scheduler)


def _sweep(
    tmp_path: Path, name: str, capsys: pytest.CaptureFixture[str], *flags: str
) -> tuple[int, str, bytes]:
    out = tmp_path / name
    code = main([*SWEEP, "--out", str(out), *flags])
    printed = capsys.readouterr().out.replace(str(out), "OUT")
    return code, printed, (out / "sweep.csv").read_bytes()


def test_a_sweep_on_the_cluster_gives_the_local_pools_bytes(
    cluster: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    local = _sweep(tmp_path, "local", capsys, "--workers", "2")
    remote = _sweep(tmp_path, "remote", capsys, "--cluster", cluster)
    assert local[0] == remote[0] == 0
    assert remote == local


def test_a_worker_of_another_build_is_refused_in_one_line_naming_it(
    cluster: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(game.cluster, "digest", lambda: "0123456789abcdef")  # the client's
    assert main([*SWEEP, "--out", str(tmp_path / "o"), "--cluster", cluster]) == 2
    err = capsys.readouterr().err.splitlines()[-1]
    assert re.fullmatch(
        r"error: --cluster: worker tcp://127\.0\.0\.1:\d+ runs another build of the project, "
        r"Python or numpy \(digest [0-9a-f]{16}, the client's 0123456789abcdef\): install the "
        r"same on every machine",
        err,
    ), err
    assert not (tmp_path / "o" / "sweep.csv").exists()


def test_a_scheduler_that_does_not_answer_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(game.cluster, "CONNECT_TIMEOUT_S", 1)
    nobody = "tcp://127.0.0.1:1"
    assert main([*SWEEP, "--out", str(tmp_path / "o"), "--cluster", nobody]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err[-1].startswith(f"error: --cluster {nobody}: no scheduler answered within 1 s (")
    assert not any("distributed" in line for line in err)


def test_without_dask_cluster_says_how_to_install_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # an import of it fails
    assert main([*SWEEP, "--out", str(tmp_path / "o"), "--cluster", "tcp://127.0.0.1:1"]) == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        'error: --cluster needs Dask: pip install "timestep-lab[cluster]"'
    )


def test_nothing_imports_dask_without_cluster() -> None:
    modules = ["game.cli", "game.jobs", "game.commands.sweep", "game.commands.capture_batch"]
    code = (
        f"import importlib, sys\nfor name in {modules!r}: importlib.import_module(name)\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('dask', 'distributed')))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    )
    assert done.stdout == "[]\n"


def test_a_capture_batch_on_the_cluster_gives_the_local_pools_bytes(
    cluster: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    night = a_night(tmp_path / "night")
    (night / "broken.csv").write_text("not a capture\n")
    seen = []
    for name, flags in (("local", ["--workers", "2"]), ("remote", ["--cluster", cluster])):
        out = tmp_path / name
        argv = ["capture", str(night), "--hz", "60,120", "--json", "--out", str(out), *flags]
        code = main(argv)
        printed = capsys.readouterr()
        folders = {
            path.relative_to(out).as_posix(): path.read_bytes()
            for path in sorted(out.rglob("*"))
            if path.is_file()
        }
        seen.append((code, printed.out, printed.err, folders))
    assert seen[0][0] == 1  # the broken file
    assert seen[1] == seen[0]
    assert "b__deep__z.json/frames.csv" in seen[0][3]


def some_captures(folder: Path, count: int = 4) -> Path:
    """`count` captures of 10,000 frames in `folder/caps`: jobs long enough to be in flight."""
    (folder / "caps").mkdir(parents=True)
    for index in range(count):
        write_long_presentmon_1x(folder / "caps" / f"c{index}.csv", frames=10_000, seed=index)
    return folder


BATCH = ["capture", "caps", "--headroom-frames", "0", "--json"]


def test_a_stop_mid_batch_cancels_the_clusters_jobs_and_keeps_the_finished_folder(
    cluster: str, tmp_path: Path
) -> None:
    folder = some_captures(tmp_path)
    command = Command([*BATCH, "--out", "D", "--cluster", cluster], folder, stop_at="files")
    command.reaches("files")
    command.send(signal.SIGTERM)
    assert command.ends() == 143, command.err
    assert command.lines[-1] == (
        "python -m game capture: stopped by SIGTERM; kept the folders of 1 of 4 files, in D"
    )
    assert "Traceback" not in command.err
    assert in_group(command.pid) == []
    kept = sorted(path.name for path in (folder / "D").iterdir())
    assert len(kept) == 1 and not (folder / "D" / "batch.csv").exists()
    assert sorted(path.name for path in (folder / "D" / kept[0]).iterdir()) == [
        "display.csv",
        "frames.csv",
    ]


def test_a_worker_lost_mid_batch_has_its_jobs_run_elsewhere_and_the_bytes_are_the_same(
    cluster: str, tmp_path: Path
) -> None:
    from distributed import Client

    folder = some_captures(tmp_path)
    local = Command([*BATCH, "--workers", "2"], folder, stop_at=None)
    assert local.ends() == 0
    command = Command([*BATCH, "--cluster", cluster], folder, stop_at="files")
    command.reaches("files")
    with Client(cluster, timeout=f"{HANG_S}s") as client:  # type: ignore[no-untyped-call]
        pids: dict[str, int] = client.run(os.getpid)
        os.kill(sorted(pids.values())[0], signal.SIGKILL)  # its nanny starts another
        command.send(signal.SIGUSR1)  # go on
        assert command.ends() == 0, command.err
        client.wait_for_workers(2, timeout=HANG_S)  # the cluster whole again, for the others
    assert command.out == local.out
    assert len(command.out.splitlines()) == 4 * 6 + 6  # a line per file and policy, the totals
