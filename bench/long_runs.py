"""Running `python -m game` as a user would, and reading what a run cost: CPU, wall time and
peak memory of that process alone, with the frames and ticks its summary line states.

Shared by the long-run benchmarks (`bench_long_runs`, `bench_day_run`): each command runs in a
process of its own, so its peak memory is its own (`os.wait4` gives that child's `ru_maxrss`,
where `RUSAGE_CHILDREN` would give the largest of every child so far).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_COUNTS = re.compile(r"^frames (\d+), ticks (\d+),", re.MULTILINE)


@dataclass(frozen=True, slots=True)
class RunCost:
    """What one `python -m game` process cost, and the work its summary says it did."""

    cpu_s: float
    wall_s: float
    peak_mb: float
    frames: int
    """Frames of every run the command made, summed (0 when it printed no summary line)."""
    ticks: int


def run_cost(command: str, folder: Path) -> RunCost:
    """Run `python -m game COMMAND` to its end in `folder`; what it cost. The command's output
    is read for its `frames N, ticks M` lines (one per run: `--input-models` prints one per
    model)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "SDL_VIDEODRIVER": "dummy"}
    start = time.perf_counter()
    child = subprocess.Popen(
        [sys.executable, "-m", "game", *command.split()],
        cwd=folder,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    assert child.stdout is not None
    output = child.stdout.read()
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise RuntimeError(f"python -m game {command}: exit {child.returncode}")
    counts = [(int(f), int(t)) for f, t in _COUNTS.findall(output)]
    return RunCost(
        cpu_s=usage.ru_utime + usage.ru_stime,
        wall_s=wall,
        peak_mb=usage.ru_maxrss / 1024,  # KiB on Linux
        frames=sum(f for f, _ in counts),
        ticks=sum(t for _, t in counts),
    )
