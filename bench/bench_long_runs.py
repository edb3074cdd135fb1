"""Long runs: work asked for runs, its time linear in its frames and ticks, its memory flat.

Issue 32: the limits guard against hostile input, not against work. Here the runs that the old
limits refused run to their end, each `python -m game ...` in a process of its own (`long_runs`):
an hour of `simulate` at the default 144 fps, the same hour at 1,000 fps, and the five input
models over 300 s at 144 fps. Then linearity: the cost per frame at 10^5 and at 10^6 frames
(they must differ by less than 20%) and the peak memory of each (it must not grow with the run).
Last, the throughput a refusal's estimate is made from (`TICKS_PER_CPU_S`, `FRAMES_PER_CPU_S`
in `game/limits.py`): a frame-heavy run and a tick-heavy run, solved for the cost of a frame and
of a tick. Baseline in the same run: the command's start-up (`schedule 16`), which every figure
here includes and the per-frame costs leave out.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from bench.harness import Section, verdict
from bench.long_runs import RunCost, run_cost
from game import limits

MODELS = "frame-edge,tick-poll,latched,counted,stamped"
LONG_RUNS = (
    ("an hour at 60 Hz, 144 fps (the default clock)", "simulate --seconds 3600"),
    ("an hour at 60 Hz, 1,000 fps", "simulate --seconds 3600 --render-fps 1000"),
    ("five input models, 300 s at 144 fps", f"simulate --seconds 300 --input-models {MODELS}"),
)
SHORTER, LONGER = (
    "simulate --seconds 100 --render-fps 1000",
    "simulate --seconds 1000 --render-fps 1000",
)
TICK_HEAVY = "simulate --seconds 120 --hz 1000 --render-fps 10 --policy uncapped"
"""120,000 ticks in 1,200 frames: a run whose cost is its ticks."""


def run(quick: bool) -> list[Section]:
    folder = Path(tempfile.mkdtemp(prefix="bench-long-runs-"))
    start_up = run_cost("schedule 16", folder)
    return [
        _long_runs(folder, start_up, quick),
        _linearity(folder, start_up, quick),
        _throughput(folder, start_up),
    ]


def _long_runs(folder: Path, start_up: RunCost, quick: bool) -> Section:
    section = Section(
        title="Long runs: what the old limits refused, run to the end",
        intro=(
            "Each command in a process of its own (`python -m bench --only long_runs`): CPU "
            "and wall time of that process, its peak memory (its own `ru_maxrss`), start-up "
            f"included ({start_up.cpu_s:.1f} s of CPU and {start_up.peak_mb:.0f} MB for "
            "`schedule 16`)."
        ),
        columns=["run", "command", "CPU", "wall", "peak memory"],
    )
    for name, command in LONG_RUNS[:1] if quick else LONG_RUNS:
        cost = run_cost(command, folder)
        section.add(
            name,
            f"`{command}`",
            f"{cost.cpu_s:.1f} s",
            f"{cost.wall_s:.1f} s",
            f"{cost.peak_mb:.0f} MB",
        )
    section.notes.append(
        f"Measured under a load average of {os.getloadavg()[0]:.1f} on the 2 cores: wall time "
        "is CPU time plus whatever the machine's other work took; read the CPU."
    )
    return section


def _linearity(folder: Path, start_up: RunCost, quick: bool) -> Section:
    section = Section(
        title="Long runs: cost per frame and memory at 10^5 and 10^6 frames",
        intro=(
            "The same run at 1,000 fps for 100 s and for 1,000 s (`--render-fps 1000`): CPU past "
            "the start-up per frame, and peak memory. Targets: the costs per frame within 20% "
            "of each other (time linear in the frames), the peak memory within 10% (flat)."
        ),
        columns=["frames", "command", "CPU", "per frame", "peak memory"],
    )
    costs = [run_cost(command, folder) for command in (SHORTER, SHORTER if quick else LONGER)]
    per_frame = [(cost.cpu_s - start_up.cpu_s) / cost.frames * 1e6 for cost in costs]
    for command, cost, us in zip((SHORTER, LONGER), costs, per_frame, strict=True):
        section.add(
            f"{cost.frames:,}",
            f"`{command}`",
            f"{cost.cpu_s:.1f} s",
            f"{us:.1f} us",
            f"{cost.peak_mb:.0f} MB",
        )
    spread = max(per_frame) / min(per_frame) - 1
    growth = costs[1].peak_mb / costs[0].peak_mb - 1
    section.notes.append(
        f"Cost per frame differs by {spread:.1%} ({verdict(spread < 0.20)}); peak memory by "
        f"{growth:+.1%} ({verdict(abs(growth) < 0.10)})."
    )
    return section


def _throughput(folder: Path, start_up: RunCost) -> Section:
    section = Section(
        title="Long runs: the throughput a refusal's estimate is made from",
        intro=(
            "A frame-heavy run (100,000 frames, 6,000 ticks) and a tick-heavy one (1,200 frames, "
            "120,000 ticks), CPU past the start-up, solved for the cost of one frame and of one "
            "tick; beside them the rates `game/limits.py` states (`FRAMES_PER_CPU_S`, "
            "`TICKS_PER_CPU_S`), from which a refusal says how long the run would take. "
            "Target: stated within 25% of measured."
        ),
        columns=["what", "measured", "stated in game/limits.py", "target"],
    )
    frame_heavy, tick_heavy = run_cost(SHORTER, folder), run_cost(TICK_HEAVY, folder)
    # cpu = frames x f + ticks x t, for both runs: two equations, two unknowns
    (f1, t1, c1), (f2, t2, c2) = (
        (run.frames, run.ticks, run.cpu_s - start_up.cpu_s) for run in (frame_heavy, tick_heavy)
    )
    determinant = f1 * t2 - f2 * t1
    per_frame = (c1 * t2 - c2 * t1) / determinant
    per_tick = (f1 * c2 - f2 * c1) / determinant
    for what, measured, stated in (
        ("frames a second of CPU", 1 / per_frame, limits.FRAMES_PER_CPU_S),
        ("ticks a second of CPU", 1 / per_tick, limits.TICKS_PER_CPU_S),
    ):
        section.add(
            what, f"{measured:,.0f}", f"{stated:,}", verdict(abs(stated / measured - 1) < 0.25)
        )
    return section
