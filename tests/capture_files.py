"""Capture files the tests write themselves, from each tool's published column list (no file
copied from anywhere): PresentMon 1.x, 2.x (seconds or QPC ticks) and `--v2_metrics`,
CapFrameX sessions, MangoHud logs, and the messy cases real captures hold.

Everything starts as whole nanoseconds in `Present`s; the writers turn them into the decimals
each tool writes (14 places for PresentMon's intervals and `TimeInSeconds`), so every value in a
file is exact and a test can state the nanoseconds it must read back. A `Present`'s `cells`
overrides what a writer would put in a column ("NA", "abc", "-1.8e15") for the messy cases.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import NamedTuple

NS_PER_MS = 1_000_000
NS_PER_S = 1_000_000_000
SWAPCHAIN = "0x0000021A3F2B5C80"
OTHER_SWAPCHAIN = "0x0000021A3F2B9E40"
START_NS = 2 * NS_PER_S
"""The first present's time: PresentMon's clock starts with it, not with the game's frames."""


@dataclass(frozen=True)
class Present:
    """One present of one swap chain, in whole ns, as a capture tool would have measured it."""

    time_ns: int
    interval_ns: int
    display_ns: int | None = None
    """When it reached the screen; None: never shown (`Dropped` 1, `NA` display columns)."""
    simulation_ns: int | None = None
    process: str = "game.exe"
    pid: int = 4712
    swapchain: str = SWAPCHAIN
    cells: dict[str, str] = field(default_factory=dict)
    """Raw text for named columns, written as is instead of the exact value."""
    ready_ns: int | None = None
    """When the GPU had drawn it; None: 1.5 ms after `time_ns` (the writers' constant)."""

    @property
    def after_present_ns(self) -> int:
        """How long after its present it was ready (`MsUntilRenderComplete`)."""
        return 1_500_000 if self.ready_ns is None else self.ready_ns - self.time_ns


def ns(ms_text: str) -> int:
    """Whole ns from a decimal of ms (`ns("16.6667")` is 16_666_700), exactly."""
    exact = Fraction(ms_text) * NS_PER_MS
    assert exact.denominator == 1, ms_text
    return exact.numerator


def presents(
    frames_ms: Sequence[str],
    *,
    until_displayed_ms: str = "3.5",
    hidden: Sequence[int] = (),
    start_ns: int = START_NS,
) -> list[Present]:
    """One present per interval (ms decimals), back to back from `start_ns`, each shown
    `until_displayed_ms` after it was presented, except the indices in `hidden`."""
    made: list[Present] = []
    time = start_ns
    for index, text in enumerate(frames_ms):
        time += ns(text)
        shown = None if index in hidden else time + ns(until_displayed_ms)
        made.append(Present(time, ns(text), shown, simulation_ns=ns(text)))
    return made


def ms_text(value_ns: int, places: int = 14) -> str:
    """ns as PresentMon writes milliseconds (`%.14lf`): 16_666_700 -> "16.66670000000000"."""
    sign = "-" if value_ns < 0 else ""
    whole, part = divmod(abs(value_ns), NS_PER_MS)
    return f"{sign}{whole}.{part:06d}{'0' * (places - 6)}"


def s_text(value_ns: int, places: int = 14) -> str:
    """ns as seconds with `places` decimals: 2_016_666_700 -> "2.01666670000000"."""
    whole, part = divmod(value_ns, NS_PER_S)
    return f"{whole}.{part:09d}{'0' * (places - 9)}"


def _display_changes(rows: Sequence[Present]) -> list[int | None]:
    """Each shown present's interval since the previous shown one of its swap chain."""
    last: dict[tuple[str, int, str], int] = {}
    changes: list[int | None] = []
    for row in rows:
        key = (row.process, row.pid, row.swapchain)
        if row.display_ns is None:
            changes.append(None)
            continue
        previous = last.get(key)
        changes.append(None if previous is None else row.display_ns - previous)
        last[key] = row.display_ns
    return changes


def _write(path: Path, header: Sequence[str], lines: list[list[str]], *, bom: bool,
           line_end: str, cut_last: int) -> Path:  # fmt: skip
    text = line_end.join(",".join(cells) for cells in [list(header), *lines]) + line_end
    if cut_last:
        text = text[: -len(line_end) - cut_last]
    path.write_bytes(("\ufeff" if bom else "").encode() + text.encode())
    return path


PRESENTMON_1X = [
    "Application",
    "ProcessID",
    "SwapChainAddress",
    "Runtime",
    "SyncInterval",
    "PresentFlags",
    "Dropped",
    "TimeInSeconds",
    "msInPresentAPI",
    "msBetweenPresents",
    "AllowsTearing",
    "PresentMode",
    "msUntilRenderComplete",
    "msUntilDisplayed",
    "msBetweenDisplayChange",
]
"""PresentMon 1.x's columns (display tracking on, GPU and input tracking off)."""


def write_presentmon_1x(
    path: Path, rows: Sequence[Present], *, line_end: str = "\r\n", cut_last: int = 0
) -> Path:
    """A PresentMon 1.x CSV of `rows`; `cut_last` cuts that many characters and the line end
    off the end of the file, as a capture stopped mid-write leaves it."""
    lines = []
    for row, change in zip(rows, _display_changes(rows), strict=True):
        shown = row.display_ns is not None
        values = {
            "Application": row.process,
            "ProcessID": str(row.pid),
            "SwapChainAddress": row.swapchain,
            "Runtime": "DXGI",
            "SyncInterval": "1",
            "PresentFlags": "0",
            "Dropped": "0" if shown else "1",
            "TimeInSeconds": s_text(row.time_ns),
            "msInPresentAPI": ms_text(120_000),
            "msBetweenPresents": ms_text(row.interval_ns),
            "AllowsTearing": "0",
            "PresentMode": "Hardware: Independent Flip",
            "msUntilRenderComplete": ms_text(row.after_present_ns),
            "msUntilDisplayed": ms_text(row.display_ns - row.time_ns if shown else 0),  # type: ignore[operator]
            "msBetweenDisplayChange": ms_text(change or 0),
        } | row.cells
        lines.append([values[name] for name in PRESENTMON_1X])
    return _write(path, PRESENTMON_1X, lines, bom=False, line_end=line_end, cut_last=cut_last)


PRESENTMON_2X = (
    "Application,ProcessID,SwapChainAddress,PresentRuntime,SyncInterval,PresentFlags,"
    "AllowsTearing,PresentMode,FrameType,{time},MsBetweenSimulationStart,MsBetweenPresents,"
    "MsBetweenDisplayChange,MsInPresentAPI,MsRenderPresentLatency,MsUntilDisplayed,{cpu},"
    "MsBetweenAppStart,MsCPUBusy,MsCPUWait,MsGPULatency,MsGPUTime,MsGPUBusy,MsGPUWait,"
    "MsAnimationError,AnimationTime,MsFlipDelay,MsAllInputToPhotonLatency,"
    "MsClickToPhotonLatency"
)
"""PresentMon 2.x's columns (console application, display, GPU and input tracking on)."""
TELEMETRY = ("GPUPower", "GPUTemperature", "GPUUtilization", "CPUUtilization", "CPUFrequency")
"""A few of the capture app's telemetry columns, which a reader must ignore."""
QPC_PER_S = 10_000_000
"""The performance counter's frequency on most Windows machines (not written in the file)."""


def write_presentmon_2x(
    path: Path,
    rows: Sequence[Present],
    *,
    time: str = "seconds",
    telemetry: bool = False,
    present_mode: str = "Hardware: Independent Flip",
    allows_tearing: str = "0",
    sync_interval: str = "1",
    line_end: str = "\r\n",
    cut_last: int = 0,
) -> Path:
    """A PresentMon 2.x CSV (with a byte-order mark, as it writes one); `time="qpc"` writes
    `TimeInQPC`/`CPUStartQPC` ticks instead of seconds (`--qpc_time`)."""
    qpc = time == "qpc"
    names = PRESENTMON_2X.format(
        time="TimeInQPC" if qpc else "TimeInSeconds",
        cpu="CPUStartQPC" if qpc else "CPUStartTime",
    ).split(",") + (list(TELEMETRY) if telemetry else [])
    lines = []
    for row, change in zip(rows, _display_changes(rows), strict=True):
        shown = row.display_ns is not None
        stamp = (
            str(row.time_ns * QPC_PER_S // NS_PER_S + 123_456_789) if qpc else s_text(row.time_ns)
        )
        values = {
            "Application": row.process,
            "ProcessID": str(row.pid),
            "SwapChainAddress": row.swapchain,
            "PresentRuntime": "DXGI",
            "SyncInterval": sync_interval,
            "PresentFlags": "0",
            "AllowsTearing": allows_tearing,
            "PresentMode": present_mode,
            "FrameType": "Application",
            "TimeInSeconds": stamp,
            "TimeInQPC": stamp,
            "MsBetweenSimulationStart": "NA"
            if row.simulation_ns is None
            else ms_text(row.simulation_ns, 4 + 2),
            "MsBetweenPresents": ms_text(row.interval_ns),
            "MsBetweenDisplayChange": "NA" if change is None else ms_text(change),
            "MsInPresentAPI": ms_text(120_000),
            "MsRenderPresentLatency": ms_text(row.after_present_ns),
            "MsUntilDisplayed": ms_text(row.display_ns - row.time_ns, 6) if shown else "NA",  # type: ignore[operator]
            "CPUStartTime": s_text(row.time_ns - row.interval_ns, 9),
            "CPUStartQPC": stamp,
            "MsBetweenAppStart": ms_text(row.interval_ns, 6),
            "MsCPUBusy": "2.500000",
            "MsCPUWait": "0.500000",
            "MsGPULatency": "0.800000",
            "MsGPUTime": "4.000000",
            "MsGPUBusy": "3.900000",
            "MsGPUWait": "0.100000",
            "MsAnimationError": "0.000000" if shown else "NA",
            "AnimationTime": s_text(row.time_ns, 9),
            "MsFlipDelay": "NA",
            "MsAllInputToPhotonLatency": "NA",
            "MsClickToPhotonLatency": "NA",
            "GPUPower": "187.5000",
            "GPUTemperature": "66.0000",
            "GPUUtilization": "97.0000",
            "CPUUtilization": "23.5000",
            "CPUFrequency": "4700.0000",
        } | row.cells
        lines.append([values[name] for name in names])
    return _write(path, names, lines, bom=True, line_end=line_end, cut_last=cut_last)


V2_METRICS = (
    "Application,ProcessID,SwapChainAddress,PresentRuntime,SyncInterval,PresentFlags,"
    "AllowsTearing,PresentMode,{cpu},FrameTime,CPUBusy,CPUWait,GPULatency,GPUTime,GPUBusy,"
    "GPUWait,DisplayLatency,DisplayedTime,AnimationError,ClickToPhotonLatency"
)
"""PresentMon's `--v2_metrics` columns (the 2.0-2.3 default)."""


def write_presentmon_v2_metrics(
    path: Path, rows: Sequence[Present], *, time: str = "seconds"
) -> Path:
    """A `--v2_metrics` CSV of `rows`: each row's CPU start is its present time less its
    interval, and its `FrameTime` that interval (so the next CPU start is this present's time);
    `DisplayedTime` is how long a shown frame stayed, to the next shown one of its swap chain
    (the last one shown: its interval)."""
    qpc = time == "qpc"
    names = V2_METRICS.format(cpu="CPUStartQPC" if qpc else "CPUStartTime").split(",")
    shown_for: dict[int, int] = {}
    last: dict[tuple[str, int, str], int] = {}
    for index, row in enumerate(rows):
        if row.display_ns is not None:
            key = (row.process, row.pid, row.swapchain)
            if key in last:
                shown_for[last[key]] = row.display_ns - rows[last[key]].display_ns  # type: ignore[operator]
            last[key] = index
    lines = []
    for index, row in enumerate(rows):
        start = row.time_ns - row.interval_ns
        shown = row.display_ns is not None
        values = {
            "Application": row.process,
            "ProcessID": str(row.pid),
            "SwapChainAddress": row.swapchain,
            "PresentRuntime": "DXGI",
            "SyncInterval": "1",
            "PresentFlags": "0",
            "AllowsTearing": "0",
            "PresentMode": "Hardware: Independent Flip",
            "CPUStartTime": s_text(start, 9),
            "CPUStartQPC": str(start * QPC_PER_S // NS_PER_S + 987_654_321),
            "FrameTime": ms_text(row.interval_ns, 6),
            "CPUBusy": "2.500000",
            "CPUWait": "0.500000",
            "GPULatency": "0.800000",
            "GPUTime": "4.000000",
            "GPUBusy": "3.900000",
            "GPUWait": "0.100000",
            "DisplayLatency": ms_text(row.display_ns - start, 6) if shown else "NA",  # type: ignore[operator]
            "DisplayedTime": ms_text(shown_for.get(index, row.interval_ns), 6) if shown else "NA",
            "AnimationError": "0.000000" if shown else "NA",
            "ClickToPhotonLatency": "NA",
        } | row.cells
        lines.append([values[name] for name in names])
    return _write(path, names, lines, bom=True, line_end="\r\n", cut_last=0)


def write_capframex(
    path: Path,
    runs: Sequence[Sequence[Present]],
    *,
    process: str = "game.exe",
    dropped_as: str = "bool",
) -> Path:
    """A CapFrameX session (`Info`, then `Runs`, each with its `CaptureData` arrays) holding
    each of `runs`; numbers are written as JSON numbers with PresentMon's decimals, `Dropped` as
    `true`/`false` (or 1/0 with `dropped_as="int"`)."""

    run_texts = []
    for rows in runs:
        changes = _display_changes(rows)
        arrays = {
            "TimeInSeconds": [s_text(row.time_ns) for row in rows],
            "MsBetweenPresents": [ms_text(row.interval_ns) for row in rows],
            "MsBetweenDisplayChange": [ms_text(change or 0) for change in changes],
            "MsUntilDisplayed": [
                ms_text(0 if row.display_ns is None else row.display_ns - row.time_ns)
                for row in rows
            ],
            "Dropped": [
                ("true" if row.display_ns is None else "false")
                if dropped_as == "bool"
                else ("1" if row.display_ns is None else "0")
                for row in rows
            ],
        }
        for index, row in enumerate(rows):
            for name, text in row.cells.items():
                arrays[name][index] = text
        body = ", ".join(f'"{name}": [{", ".join(values)}]' for name, values in arrays.items())
        head = '"Hash": "run", "PresentMonRuntime": "DXGI"'
        run_texts.append(f'{{{head}, "CaptureData": {{{body}}}, "SensorData": null}}')
    info = json.dumps(
        {
            "Id": "00000000-0000-0000-0000-000000000000",
            "GameName": "Game",
            "ProcessName": process,
            "Comment": "",
        }
    )
    path.write_text(f'{{"Hash": "session", "Info": {info}, "Runs": [{", ".join(run_texts)}]}}')
    return path


MANGOHUD_HEADER = (
    "fps,frametime,cpu_load,gpu_load,cpu_temp,gpu_temp,gpu_core_clock,gpu_mem_clock,"
    "gpu_vram_used,gpu_power,ram_used,swap_used,process_rss,elapsed"
)
"""MangoHud's frame-metrics columns (0.7)."""


def write_mangohud(
    path: Path,
    frametimes: Sequence[str],
    *,
    elapsed_ns: Sequence[int] | None = None,
    versioning: bool = False,
    fps: Sequence[str] | None = None,
    cut_last: int = 0,
) -> Path:
    """A MangoHud log: its system-info lines, the header, a row per frame time (as written,
    ms); `elapsed` is the running sum of the frame times from 0 unless `elapsed_ns` is given
    (a sampled log's)."""
    if elapsed_ns is None:
        sums, total = [], 0
        for text in frametimes:
            total += ns(text) if "." in text or text.isdigit() else 0  # "x" adds nothing
            sums.append(total)
        elapsed_ns = sums
    lines = []
    if versioning:
        lines += ["v1", "0.7.2", "---------------------SYSTEM INFO---------------------"]
    lines += [
        "os,cpu,gpu,ram,kernel,driver,cpuscheduler",
        "Debian GNU/Linux 12,AMD Ryzen 7 5800X,AMD Radeon RX 6800,32 GB,6.1.0,Mesa 22.3.6,",
    ]
    if versioning:
        lines.append("--------------------FRAME METRICS--------------------")
    lines.append(MANGOHUD_HEADER)
    for index, (text, elapsed) in enumerate(zip(frametimes, elapsed_ns, strict=True)):
        rate = fps[index] if fps is not None else "60.0002"
        lines.append(f"{rate},{text},23,97,61,66,2450,1000,5123,187,9120,0,1204,{elapsed}")
    text = "\n".join(lines) + "\n"
    if cut_last:
        text = text[: -1 - cut_last]
    path.write_text(text)
    return path


# -- captures with a display side, for the display model's tests ------------------------------


class DisplayedCapture(NamedTuple):
    """A written capture and the truth it was made from."""

    path: Path
    presents: list[Present]
    """Every row, in file order (`display_ns` None for a frame never shown)."""
    refresh_ns: Fraction | None
    """The refresh period the display times sit on (None: tearing, no grid)."""
    phase_ns: int
    """The first refresh's time, on the capture's clock (0 for tearing)."""


def _jittered(rng: random.Random, count: int, mean_ns: int, spread_ns: int) -> list[int]:
    """`count` present intervals around `mean_ns`, in whole 0.0001 ms (PresentMon 2.x's places)."""
    step = 100
    return [
        mean_ns + rng.randint(-spread_ns // step, spread_ns // step) * step for _ in range(count)
    ]


def write_composed_60hz_capture(
    path: Path, *, frames: int = 600, seed: int = 1, latch_ns: int = 1_000_000
) -> DisplayedCapture:
    """A PresentMon 2.x capture of a windowed game presenting near 120 fps ("Composed: Flip",
    sync interval 0) on a 60 Hz display: at each refresh the compositor shows the newest frame
    presented at least `latch_ns` before it, so about every other frame is never shown, and every
    display time lies on the 60 Hz grid (refresh j at phase + j x 1/60 s, rounded to the ns)."""
    rng = random.Random(seed)
    period = Fraction(NS_PER_S, 60)
    phase = START_NS + 4_321_000
    times: list[int] = []
    time = START_NS
    intervals = _jittered(rng, frames, 8_333_300, 1_500_000)
    for interval in intervals:
        time += interval
        times.append(time)
    shown_at: dict[int, int] = {}
    refresh = 0
    while True:
        vblank = phase + round(refresh * period)
        if vblank > times[-1] + latch_ns:
            break
        ready = [index for index, t in enumerate(times) if t + latch_ns <= vblank]
        if ready and ready[-1] not in shown_at:
            shown_at[ready[-1]] = vblank
        refresh += 1
    rows = [  # each drawn 0.5 ms after its present, before the compositor's latch
        Present(t, interval, shown_at.get(index), ready_ns=t + 500_000)
        for index, (t, interval) in enumerate(zip(times, intervals, strict=True))
    ]
    write_presentmon_2x(path, rows, present_mode="Composed: Flip", sync_interval="0")
    return DisplayedCapture(path, rows, period, phase)


def write_tearing_160fps_capture(
    path: Path, *, frames: int = 800, seed: int = 2
) -> DisplayedCapture:
    """A PresentMon 2.x capture of a full-screen game near 160 fps with tearing allowed
    ("Hardware: Independent Flip", sync interval 0, `AllowsTearing` 1): every frame is flipped
    to the screen at once, 0.2 to 0.6 ms after its present, on no refresh grid (each drawn 0.1 ms
    after its present)."""
    rng = random.Random(seed)
    rows: list[Present] = []
    time = START_NS
    for interval in _jittered(rng, frames, 6_250_000, 1_200_000):
        time += interval
        shown = time + rng.randint(2_000, 6_000) * 100
        rows.append(Present(time, interval, shown, ready_ns=time + 100_000))
    write_presentmon_2x(path, rows, allows_tearing="1", sync_interval="0")
    return DisplayedCapture(path, rows, None, 0)


def write_long_presentmon_1x(path: Path, *, frames: int, seed: int = 7) -> Path:
    """A long PresentMon 1.x capture, fast to write (for timing the reader): one game's frames of
    4 to 20 ms in whole 0.1 us, every tenth never shown."""
    rng = random.Random(seed)
    header = ",".join(PRESENTMON_1X)
    with path.open("w", newline="") as file:
        file.write(header + "\r\n")
        time = START_NS
        lines = []
        for index in range(frames):
            interval = rng.randrange(40_000, 200_000) * 100
            time += interval
            dropped = index % 10 == 9
            until = 0 if dropped else 2_500_000
            lines.append(
                f"game.exe,4712,{SWAPCHAIN},DXGI,1,0,{int(dropped)},{s_text(time)},"
                f"0.12000000000000,{ms_text(interval)},0,Hardware: Independent Flip,"
                f"1.50000000000000,{ms_text(until)},{ms_text(0 if dropped else interval)}\r\n"
            )
            if len(lines) == 10_000:
                file.write("".join(lines))
                lines.clear()
        file.write("".join(lines))
    return path
