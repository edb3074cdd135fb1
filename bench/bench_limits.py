"""Limits: every command at the largest input its limits allow, and how long that takes.

Issue 20: every input within the stated limits (`game/limits.py`, docs/limits.md) must
finish in under a minute on a 2-core machine, or the limit is lowered to what does. Each command
runs here as `python -m game ...`, in a process of its own (its CPU time is the children's
`getrusage`, start-up included); a run too long to time whole is timed at a fraction of its
limit and projected to the limit linearly (the work of each is a loop over frames, ticks, rows
or pictures). The verdict reads the projected CPU time: wall time on this shared machine is
several times the CPU time whenever other jobs run.

Issue 32 made the headless runs' limits guards against typos, not against work: they are far
beyond a minute, and `bench_long_runs` measures long runs instead.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from bench.harness import Section, verdict
from game.limits import MAX_SCHEDULE_FRAMES
from game.workshop.clips.files import MAX_MEGAPIXELS, MAX_PICTURES

ROOT = Path(__file__).resolve().parents[1]
TARGET_S = 40.0
"""A minute of CPU with a third to spare (issue 20: under a minute on a 2-core machine)."""


@dataclass(frozen=True, slots=True)
class AtLimit:
    """A command, the input at its limit, and the share of it timed here."""

    limit: str
    """The largest input allowed, in words."""
    command: str
    """What runs after `python -m game`, in a scratch folder."""
    share: float
    """The timed run's work over the limit's (1: the limit itself)."""
    cores: int = 1
    """The processes it keeps busy at once: `handout` films on every core, so on two cores it
    takes half its CPU time, and its verdict reads that half."""


AT_THE_LIMITS = (
    AtLimit(
        f"{MAX_MEGAPIXELS} megapixels at 1280x720",
        "clip --scenario steady_144 --seconds 14.4 --out clip.mp4",
        1,
    ),
    AtLimit(
        f"{MAX_MEGAPIXELS} megapixels at 4K",
        "clip --scenario steady_144 --seconds 1.6 --size 3840x2160 --out clip4k.mp4",
        1,
    ),
    AtLimit(
        f"{MAX_PICTURES:,} pictures",
        "clip --scenario steady_144 --seconds 10 --fps 120 --size 320x240 --out small.mp4",
        1,
    ),
    AtLimit("every lesson (no input)", "lessons --check", 1),
    AtLimit("every lesson's clips (no input)", "handout --out page", 1, cores=2),
    AtLimit("the input table (no input)", "inputs --table", 1),
    AtLimit("the article's experiments (no input)", "lab --plot lab", 1),
)
"""Every command with a limit on its work but `schedule`, at its limits, whole. The headless
runs (`simulate`, `compare`, `sweep`, `replay`, `judder`) are limited per run, far beyond a
minute, against typos rather than work: `bench_long_runs` measures them."""


HISTORY = (
    "The limits were, and are (issue 20: under a minute of CPU, with a third to spare): "
    "`schedule` 10,000,000 frames (about 7 minutes) -> 200,000; a headless run 10,000,000 "
    "ticks per run (about 5,100 s projected) -> 100,000 ticks for the whole command, all "
    "its runs together (`compare`'s policies, `simulate`'s input models, `sweep`'s cells), "
    "and a new limit of 150,000 frames, since a run at 1000 fps is paid per frame whether "
    "or not it ticks; then, since a command at both at once with every output took a minute "
    "with no margin (`compare` 60.1 s, `simulate` 58.9 s), 100,000 -> 60,000 ticks and "
    "150,000 -> 100,000 frames, and the figures' held lines (time dropped so far, owed) "
    "drawn as stairs only where they change (matplotlib walked each of 150,000 stairs in "
    "Python); `replay` 3,600,000 frames (about 750 s) -> 150,000 -> 100,000; `judder` 200 "
    "rows of up to 600 s (about 2,300 s) -> 200 rows, its runs together held to the "
    "headless limits (16.9 s for the judder table's 48 rows); `clip` 600 s at any size and rate "
    "(about 1,100 s at 1280x720 and 30 fps, hours at 4K and 120 fps) -> 1,200 pictures and "
    "400 megapixels (pictures x width x height: 14.4 s of 1280x720 at 30 fps, 48 pictures "
    "of 4K), and x264's `veryfast` preset (half the encoding CPU of `medium`, the same file "
    "size). `lessons --check`, `handout`, `inputs --table` and `lab` take no input that "
    "makes them longer. `handout` took 209 s of CPU: its 36 clips are now filmed at "
    "960x540, the width the page shows them at (1280x720 before, shrunk by the browser), "
    "and encoded at `veryfast`; then the page's other parts (the references' commands with "
    "`lab`, its figures, `compare` on two scenarios) run in the clips' worker pool beside "
    "the clips, not after them on one core, `lab`'s figures reuse the spring runs its table "
    "made instead of running them again (`lab --plot` 26 -> 20 s), and the MP4 sink takes "
    "RGBX pictures (pygame packs RGB at a third of the speed; ffmpeg makes the same file): "
    "165 -> 150 s of CPU and 270 -> 158 s of wall under a load of 4 to 7, every clip and "
    "figure the same byte for byte. Then the handout's clips paint only the frames their "
    "camera films (every frame is still drawn: its views, trails and graph bars; 3,071 of "
    "10,406 frames painted, the clips the same byte for byte), hand the window's own BGRX "
    "bytes to ffmpeg (0.13 ms a picture where pygame's RGBX conversion took 1.4 ms), read "
    "the lessons and paint the sprites once per worker, and encode with x264's "
    "`subme=1:rc-lookahead=5` (18% less of ffmpeg's CPU, the same 5.4 MB); its figures are "
    "PNG only: 129 -> 93 s of CPU, 66 -> 48 s of wall on two cores. Still over the aim, "
    "under the minute: `simulate` at both limits with every output (each frame's "
    "`frames.csv` row, timeline point and bucket are worked out from exact `Fraction`s, a "
    "third of its time), and `handout` (47 s of CPU a core). Issue 32 then turned the "
    "headless runs' limits from a minute of work into guards against typos (10^8 ticks and "
    "10^8 frames per run, each about two hours of CPU): work asked for runs, with a progress "
    "bar, and 'Long runs' measures it."
)
"""What the limits were, what they are, and what was made cheaper (the note under the table)."""


def cases(quick: bool) -> list[AtLimit]:
    """Each command at the largest input its limits allow (`quick`: a tenth of the schedule).

    The others (`AT_THE_LIMITS`) are whole: their limits are what a minute allows.
    """
    frames = MAX_SCHEDULE_FRAMES // (10 if quick else 1)
    share = frames / MAX_SCHEDULE_FRAMES
    return [
        AtLimit(f"{MAX_SCHEDULE_FRAMES:,} frames", f"schedule 16x{frames}", share),
        AtLimit(f"{MAX_SCHEDULE_FRAMES:,} frames, JSON", f"schedule --json 16x{frames}", share),
        AtLimit(
            f"{MAX_SCHEDULE_FRAMES:,} frames, godot conditioning",
            f"schedule --conditioning godot 16x{frames}",
            share,
        ),
        *AT_THE_LIMITS,
    ]


def _children_cpu_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(command: str, folder: Path) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of `python -m game COMMAND` run to its end in `folder`."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "SDL_VIDEODRIVER": "dummy"}
    cpu = _children_cpu_s()
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "game", *command.split()],
        cwd=folder, env=env, check=True, stdout=subprocess.DEVNULL,
    )  # fmt: skip
    return _children_cpu_s() - cpu, time.perf_counter() - start


def run(quick: bool) -> list[Section]:
    folder = Path(tempfile.mkdtemp(prefix="bench-limits-"))
    start_up, _ = timed("schedule 16", folder)  # importing everything: not part of the work
    section = Section(
        title="Limits: each command at its limits",
        intro=(
            "Each command at the largest input `game/limits.py` allows (`python -m bench --only "
            f"limits`): the run timed (CPU time of the process and wall time, start-up "
            f"included), then its work (CPU past the start-up, {start_up:.1f} s here) projected "
            "to the limit by its share. Target: under "
            f"{TARGET_S:.0f} s of CPU at the limit (a core's share of it for a command that "
            "keeps both busy): a minute with a third to spare."
        ),
        columns=[
            "command",
            "at its limit",
            "timed",
            "CPU",
            "wall",
            "share of the limit",
            "CPU at the limit",
            "target",
        ],
    )
    for case in cases(quick):
        cpu, wall = timed(case.command, folder)
        projected = start_up + max(0.0, cpu - start_up) / case.share
        section.add(
            f"`{case.command.split()[0]}`",
            case.limit,
            f"`{case.command}`",
            f"{cpu:.1f} s",
            f"{wall:.1f} s",
            f"{case.share:.2%}" if case.share < 1 else "all",
            f"{projected:,.0f} s"
            + (f" ({projected / case.cores:,.0f} s a core)" if case.cores > 1 else ""),
            verdict(projected / case.cores < TARGET_S),
        )
    load = os.getloadavg()[0]
    section.notes += [
        f"Measured under a load average of {load:.1f} on the 2 cores. Every command above runs "
        "its whole input at the limit (`schedule` a tenth of it with `--quick`).",
        HISTORY,
    ]
    return [section]
