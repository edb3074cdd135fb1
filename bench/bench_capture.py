"""Capture: a million-row PresentMon capture through all six policies (issue 18: < 10 s on 2
cores, peak memory < 200 MB), beside reading the file alone; and a batch of 100 captures of
100,000 rows (issue 33: < 60 s on 2 cores with `--headroom-frames 0`), beside one command a file.

The file is written here in PresentMon's 1.x layout: a 144 fps game (frames of 5.5 to 8.5 ms)
with a hitch of 120 ms every 500 frames. Reading alone is `open_capture` reading the file into
its frames' columns (the command's one read), in this process; the command is
`python -m game capture FILE --json` in a fresh process (the headroom included), its peak RSS
read by `resource.getrusage(RUSAGE_CHILDREN).ru_maxrss`.
"""

from __future__ import annotations

import random
import shutil
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
BATCH_FILES = 100
BATCH_ROWS = 100_000
BATCH_TARGET_S = 60.0
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
    return [one_capture(quick), batch(quick)]


def one_capture(quick: bool) -> Section:
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
    return section


def batch(quick: bool) -> Section:
    """`capture FOLDER` on 100 files, with and without the headroom, beside the single-file
    command's time for one of them (the way before a batch: one command a file)."""
    repeat = 1 if quick else 3
    section = Section(
        title="Capture batch: 100 captures of 100,000 rows",
        intro=(
            f"`python -m game capture FOLDER --json --workers 2` on {BATCH_FILES} PresentMon 1.x "
            f"files of {BATCH_ROWS:,} rows each (copies of one file, written as above: all six "
            "policies at 60 Hz, one job a file), with `--headroom-frames 0` and with the "
            "headroom (the heaviest 2,000 frames of each file), beside the baseline: "
            "`python -m game capture FILE --json --headroom-frames 0` on one of the files, in a "
            f"fresh process, times {BATCH_FILES} (one command a file, as before the batch); median "
            f"of {repeat}. Target: < {BATCH_TARGET_S:.0f} s with `--headroom-frames 0`."
        ),
        columns=["run", "median wall time", "per file", "x one command a file", "target"],
    )
    with tempfile.TemporaryDirectory() as folder:
        night = Path(folder) / "night"
        night.mkdir()
        first = night / "capture_000.csv"
        write_capture(first, BATCH_ROWS)
        for index in range(1, BATCH_FILES):
            shutil.copyfile(first, night / f"capture_{index:03d}.csv")
        single, bare, whole = [], [], []
        for _ in range(repeat):
            single.append(command(first, "--headroom-frames", "0")[0])
            bare.append(command(night, "--headroom-frames", "0", "--workers", "2")[0])
            whole.append(command(night, "--workers", "2")[0])
    one_s, bare_s, whole_s = (statistics.median(x) for x in (single, bare, whole))
    baseline = one_s * BATCH_FILES
    section.add(f"baseline: one command a file (1 x {BATCH_FILES})", f"{baseline:.1f} s",
                f"{one_s:.2f} s", "1.00x", "")  # fmt: skip
    section.add("capture FOLDER --headroom-frames 0", f"{bare_s:.1f} s",
                f"{bare_s / BATCH_FILES:.3f} s", f"{bare_s / baseline:.2f}x",
                verdict(bare_s < BATCH_TARGET_S))  # fmt: skip
    section.add("capture FOLDER (the headroom on 2,000 frames)", f"{whole_s:.1f} s",
                f"{whole_s / BATCH_FILES:.3f} s", f"{whole_s / baseline:.2f}x", "")  # fmt: skip
    section.notes.append(
        f"The headroom's cost: {(whole_s - bare_s) / BATCH_FILES:.3f} s a file on 2 workers "
        "(its bisection's closed-loop runs, six policies x some 14 runs of 2,000 frames each, "
        "one file's in its own worker). The batch pays the interpreter's start and the imports "
        "once, not once a file, and keeps both cores busy with whole files."
    )
    return section
