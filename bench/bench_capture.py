"""Capture: a million-row PresentMon capture through all six policies (issue 18: < 10 s on 2
cores, peak memory < 200 MB), beside reading the file alone.

The file is written here in PresentMon's 1.x layout: a 144 fps game (frames of 5.5 to 8.5 ms)
with a hitch of 120 ms every 500 frames. Reading alone is `open_capture` reading the file into
its frames' columns (the command's one read), in this process; the command is
`python -m game capture FILE --json` in a fresh process (the headroom included), its peak RSS
read by `resource.getrusage(RUSAGE_CHILDREN).ru_maxrss`.
"""

from __future__ import annotations

import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.harness import Section, verdict

ROOT = Path(__file__).resolve().parents[1]
TARGET_S = 10.0
TARGET_MB = 200
HEADER = (
    "Application,ProcessID,SwapChainAddress,Runtime,SyncInterval,PresentFlags,AllowsTearing,"
    "PresentMode,Dropped,TimeInSeconds,MsBetweenPresents,MsBetweenDisplayChange,MsInPresentAPI,"
    "MsUntilRenderComplete,MsUntilDisplayed"
)
TIMED = (
    "import resource, subprocess, sys, time\n"
    "start = time.perf_counter()\n"
    "subprocess.run([sys.executable, '-m', 'game', 'capture', *sys.argv[1:]], check=True,"
    " stdout=subprocess.DEVNULL)\n"
    "print(time.perf_counter() - start, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
)


def write_capture(path: Path, rows: int) -> None:
    """A PresentMon 1.x file of `rows` frames of one game (see the module)."""
    rng = random.Random(18)
    seconds = 0.0
    with path.open("w", encoding="ascii", newline="") as file:
        file.write(HEADER + "\n")
        for index in range(rows):
            ms = 120.0 if index % 500 == 499 else rng.uniform(5.5, 8.5)
            seconds += ms / 1000
            file.write(
                f"game.exe,4712,0x1F2E3D4C,DXGI,0,0,1,Hardware: Independent Flip,0,"
                f"{seconds:.7f},{ms:.4f},{ms:.4f},0.1200,0.9000,{ms + 4:.4f}\n"
            )


def read_alone(path: Path) -> float:
    """Seconds to read `path` into its frames' columns, as the command does, nothing else."""
    from game.capture.reading import read_capture_once

    start = time.perf_counter()
    frames = read_capture_once(path)
    assert frames > 0
    return time.perf_counter() - start


def policies_alone(path: Path, headroom_frames: int) -> float:
    """Seconds for all six policies at 60 Hz on the frames already read into arrays (the
    analysis without the reader), the headroom's runs on two worker processes."""
    from game.capture.reading import open_capture
    from game.workshop.captures.analysis import Analysis, analyse
    from game.workshop.captures.frame_times import read_frame_times
    from timestep_lab import POLICIES, SchedulerSettings

    times = read_frame_times(open_capture(path))
    asked = Analysis([SchedulerSettings.at_hz(60)], list(POLICIES), headroom_frames, workers=2)
    start = time.perf_counter()
    analyse(times, asked)
    return time.perf_counter() - start


def command(path: Path, *flags: str) -> tuple[float, float]:
    """(wall s, peak RSS MB) of `python -m game capture FILE FLAGS` in a fresh process."""
    done = subprocess.run(
        [sys.executable, "-c", TIMED, str(path), *flags],
        check=True, capture_output=True, text=True, cwd=ROOT,
    )  # fmt: skip
    wall, peak_kb = done.stdout.split()
    return float(wall), int(peak_kb) / 1024


def run(quick: bool) -> list[Section]:
    rows = 100_000 if quick else 1_000_000
    repeat = 1 if quick else 3
    section = Section(
        title="Capture: a million-row capture through all six policies",
        intro=(
            f"`python -m game capture FILE --json` on a PresentMon 1.x file of {rows:,} rows "
            "(all six policies at 60 Hz, open loop, and the headroom on the heaviest 2,000 "
            "frames), beside reading the file alone (`open_capture(FILE)`, the one read into "
            "the frames' columns, in this process), and the analysis alone on the frames once "
            "read (`analyse` in this "
            f"process, the headroom on 2 workers); median of {repeat}, the runs taking turns. "
            f"Target: < {TARGET_S:.0f} s and "
            f"< {TARGET_MB} MB."
        ),
        columns=["run", "median wall time", "x reading alone", "peak RSS", "target"],
    )
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "capture.csv"
        write_capture(path, rows)
        reading, whole, bare, peaks = [], [], [], []
        for _ in range(repeat):
            reading.append(read_alone(path))
            wall, peak = command(path)
            whole.append(wall)
            peaks.append(peak)
            bare.append(command(path, "--headroom-frames", "0")[0])
        alone = statistics.median(policies_alone(path, 2_000) for _ in range(repeat))
        open_only = statistics.median(policies_alone(path, 0) for _ in range(repeat))
    read_s, whole_s, bare_s = (statistics.median(x) for x in (reading, whole, bare))
    peak_mb = max(peaks)
    section.add("reading alone", f"{read_s:.2f} s", "1.00x", "", "")
    section.add(
        "capture --json", f"{whole_s:.2f} s", f"{whole_s / read_s:.2f}x", f"{peak_mb:.0f} MB",
        verdict(whole_s < TARGET_S and peak_mb < TARGET_MB),
    )  # fmt: skip
    section.add("capture --json --headroom-frames 0", f"{bare_s:.2f} s", f"{bare_s / read_s:.2f}x",
                "", "")  # fmt: skip
    section.add("the six policies alone, from the arrays, with the headroom", f"{alone:.2f} s",
                f"{alone / read_s:.2f}x", "", "")  # fmt: skip
    section.add("the six policies alone, open loop only", f"{open_only:.2f} s",
                f"{open_only / read_s:.2f}x", "", "")  # fmt: skip
    section.notes.append(
        "Where the time goes: the reader's one pass over the file (`open_capture`: each chunk "
        "of 1 MiB cut into cells and its numbers read with numpy, every swap chain's rows "
        "counted, the frames of the chains the options leave in the running written down as "
        "columns, `game/capture/frame_columns.py`, and the chain chosen from the counts at the "
        "end); then the analysis on those columns, numpy work: the stretches "
        "of plain frames at once, the frames after each hitch one by one through the policy's "
        "`allot` (`game/workshop/captures/open_loop.py`), the headroom's closed-loop runs on "
        "two workers while the open-loop runs are made (on a shared machine, the longest "
        "part: its workers share the two cores with everything else); then the display side "
        "(the refresh grid's exact least squares, the model in each present mode, the judder "
        "meter). Every run's ledger is checked on every frame, in whole grains."
    )
    return [section]
