"""A day of game time: 24 hours at 60 Hz and 60 fps through `simulate`, under 200 MB.

Opt-in (`python -m bench --only day-run`, left out of `make bench`: it takes some ten minutes of
CPU). Issue 32: a run asked for runs however long, with its memory flat; this is the longest a
workshop would ask for, 5,184,000 frames and as many ticks, in one process whose peak memory is
measured. Baseline in the same run: the first hour of the same run, whose cost times 24 is what
a run linear in its frames would take.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from bench.harness import Section, verdict
from bench.long_runs import run_cost

DAY = "simulate --seconds 86400 --hz 60 --render-fps 60"
HOUR = "simulate --seconds 3600 --hz 60 --render-fps 60"
TARGET_MB = 200


def run(quick: bool) -> list[Section]:
    folder = Path(tempfile.mkdtemp(prefix="bench-day-run-"))
    hour = run_cost(HOUR, folder)
    day = run_cost(HOUR if quick else DAY, folder)
    section = Section(
        title="Day run: 24 hours of game time at 60 Hz and 60 fps",
        intro=(
            f"`{DAY}` in a process of its own (`python -m bench --only day-run`, not part of "
            "`make bench`), beside its first hour. Target: peak memory under "
            f"{TARGET_MB} MB."
        ),
        columns=["run", "frames", "ticks", "CPU", "wall", "peak memory", "target"],
    )
    for name, command, cost in (("the first hour", HOUR, hour), ("the day", DAY, day)):
        section.add(
            f"{name}: `{command}`",
            f"{cost.frames:,}",
            f"{cost.ticks:,}",
            f"{cost.cpu_s:.0f} s",
            f"{cost.wall_s:.0f} s",
            f"{cost.peak_mb:.0f} MB",
            verdict(cost.peak_mb < TARGET_MB),
        )
    section.notes.append(
        f"The day took {day.cpu_s / hour.cpu_s:.1f} times the hour's CPU (24 would be linear), "
        f"under a load average of {os.getloadavg()[0]:.1f} on the 2 cores."
    )
    return [section]
