"""Memory: the peak RSS of the longest headless run at 1000 fps (issue 12: under 300 MB).

`simulate` streams its frames (to stdout, to `frames.csv`, into the timeline's 20,000 points):
nothing holds them. Before that, a 1 h run (3.6 M frames, before issue 20's limits) took 2.36 GB;
the longest run a command may make now is `MAX_RUN_FRAMES`, 100 s at 1000 fps.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.harness import Section, verdict
from game.limits import MAX_RUN_FRAMES

ROOT = Path(__file__).resolve().parents[1]
TARGET_MB = 300
PEAK_RSS = (
    "import resource, subprocess, sys\n"
    "subprocess.run([sys.executable, '-m', 'game', 'simulate', *sys.argv[1:]], check=True,"
    " stdout=subprocess.DEVNULL)\n"
    "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
)


def peak_rss_mb(args: list[str]) -> tuple[float, float]:
    """Peak RSS (MB) of `simulate ARGS` in a fresh process tree, and its wall time (s)."""
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", PEAK_RSS, *args],
        check=True,
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    return int(done.stdout) / 1024, time.perf_counter() - start


def run(quick: bool) -> list[Section]:
    seconds = "15" if quick else str(MAX_RUN_FRAMES // 1000)
    section = Section(
        title="Memory: peak RSS of the longest headless run at 1000 fps",
        intro=(
            f"`python -m game simulate --seconds {seconds} --render-fps 1000 --out DIR` "
            "(frames.csv row by row, summary.json, the timeline figure), peak RSS read by "
            f"`resource.getrusage(RUSAGE_CHILDREN).ru_maxrss`. Target: < {TARGET_MB} MB."
        ),
        columns=["run", "frames", "peak RSS", "wall time", "target"],
    )
    base = ["--seconds", seconds, "--render-fps", "1000"]
    frames = f"{int(seconds) * 1000:,}"
    with tempfile.TemporaryDirectory() as out:
        peak, wall = peak_rss_mb([*base, "--out", out])
        section.add(
            "--out DIR", frames, f"{peak:.0f} MB", f"{wall:.0f} s", verdict(peak < TARGET_MB)
        )
    section.notes.append(
        "Before streaming (`RunResult.frames` held every frame), a 1 h run at 1000 fps took "
        "2.36 GB; streamed, it took 120 MB (issue 20), and it is now past the frame limit. "
        "`--out` adds matplotlib and the figure, drawn from at most 20,000 points."
    )
    return [section]
