"""`python -m game ...` in a process of its own, stopped at a named point (`game.stopping`).

A test that stops a command mid-run waits for the line `at POINT` the command writes when it
reaches the point; it never guesses from CPU time, files appearing or child processes, which
would hold only on a machine as fast as the one the guess was made on.
"""

from __future__ import annotations

import os
import selectors
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO

ROOT = Path(__file__).resolve().parents[1]
HANG_S = 600
"""Not a speed assumption: only how long a test waits for a line before calling the command
hung (a command that reaches its point, or ends, on the slowest machine takes seconds)."""
GROUP_SIGNALS = (signal.SIGINT, signal.SIGHUP)
"""What a terminal sends to every process of the command (Ctrl+C, hang-up); SIGTERM is `kill`."""


class Command:
    """One run of `python -m game ARGS` in `folder`, in a session of its own (its process group
    is its pid), as a terminal runs it; stderr is read here as it comes, stdout kept for `out`;
    `stdin`, when given, is its standard input (a pipe's reading end, say)."""

    def __init__(
        self,
        args: str | list[str],
        folder: Path,
        *,
        stop_at: str | None,
        stdin: IO[bytes] | None = None,
    ) -> None:
        self.args = args.split() if isinstance(args, str) else args
        env = {**os.environ, "PYTHONPATH": str(ROOT), "SDL_VIDEODRIVER": "dummy"}
        env.pop("TIMESTEP_LAB_STOP_AT", None)
        if stop_at is not None:
            env["TIMESTEP_LAB_STOP_AT"] = stop_at
        self._out = tempfile.TemporaryFile()  # noqa: SIM115 (it lives as long as the command)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "game", *self.args],
            cwd=folder,
            env=env,
            start_new_session=True,
            stdin=stdin,
            stdout=self._out,
            stderr=subprocess.PIPE,
        )
        self.said = b""

    @property
    def pid(self) -> int:
        return self.process.pid

    def reaches(self, point: str) -> None:
        """Read stderr until the command says `at POINT` (fails if it ends first)."""
        self.says(f"at {point}\n")

    def says(self, text: str) -> str:
        """Read stderr until the command has said `text`; the line that holds it (fails if
        the command ends first)."""
        assert self.process.stderr is not None
        wanted = text.encode()
        fd = self.process.stderr.fileno()
        with selectors.DefaultSelector() as selector:
            selector.register(fd, selectors.EVENT_READ)
            while wanted not in self.said:
                assert selector.select(HANG_S), f"{self.args[0]} hung before {text!r}: {self.err}"
                chunk = os.read(fd, 65_536)
                assert chunk, f"{self.args[0]} ended before {text!r}: {self.err}"
                self.said += chunk
        start = self.said.rfind(b"\n", 0, self.said.index(wanted)) + 1
        return self.said[start:].split(b"\n", 1)[0].decode(errors="replace")

    def send(self, number: signal.Signals) -> None:
        """The signal as it comes: to the whole group from a terminal, to the command alone
        from `kill`."""
        if number in GROUP_SIGNALS:
            os.killpg(self.pid, number)
        else:
            self.process.send_signal(number)

    def ends(self) -> int:
        """Wait for the end; the exit code (stderr is then all in `err`)."""
        _, rest = self.process.communicate(timeout=HANG_S)
        self.said += rest
        return self.process.returncode

    @property
    def out(self) -> str:
        """What the command printed on stdout (call once it has ended)."""
        self._out.seek(0)
        return self._out.read().decode(errors="replace")

    @property
    def err(self) -> str:
        return self.said.decode(errors="replace")

    @property
    def lines(self) -> list[str]:
        return self.err.splitlines()


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


def wait_for_exit(pids: list[int]) -> None:
    """Until each process has ended: the kernel says so on a pidfd (an event, not a poll)."""
    for pid in pids:
        try:
            pidfd = os.pidfd_open(pid)
        except ProcessLookupError:
            continue
        try:
            with selectors.DefaultSelector() as selector:
                selector.register(pidfd, selectors.EVENT_READ)
                assert selector.select(HANG_S), f"process {pid} did not end"
        finally:
            os.close(pidfd)
