"""The shapes real public captures come in, written by the tests themselves (no file copied).

Each writer makes a file of one shape that the readers once misread, from the tools' published
column lists and the shapes described in issue 29: OCAT's system-information columns filled on
the first row only, CapFrameX's CSV export with its `//Key=Value` lines, a PresentMon 1.5 file
where the compositor has more rows than the game, and a composed capture whose frames reach
the screen by when the GPU finished them.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

from tests.capture_files import (
    NS_PER_S,
    START_NS,
    DisplayedCapture,
    Present,
    ms_text,
    presents,
    s_text,
    write_presentmon_1x,
)

OCAT_COLUMNS = [
    "Application",
    "ProcessID",
    "SwapChainAddress",
    "Runtime",
    "SyncInterval",
    "PresentFlags",
    "AllowsTearing",
    "PresentMode",
    "WasBatched",
    "DwmNotified",
    "Dropped",
    "TimeInSeconds",
    "MsBetweenPresents",
    "MsBetweenDisplayChange",
    "MsInPresentAPI",
    "MsUntilRenderComplete",
    "MsUntilDisplayed",
]
"""The PresentMon columns OCAT and CapFrameX's CSV export write (1.x, with `WasBatched` and
`DwmNotified`)."""
SYSTEM_INFO = [
    "Motherboard",
    "OS",
    "Processor",
    "System RAM",
    "Base Driver Version",
    "Driver Package",
    "GPU #",
    "GPU",
    "GPU Core Clock (MHz)",
    "GPU Memory Clock (MHz)",
    "GPU Memory (MB)",
    "Comment",
]
"""OCAT's 12 columns of system information, after the PresentMon ones."""
SYSTEM_VALUES = [
    '"Board Maker Z390 (MS-7B17)"',
    '"Windows 10 Pro 1809 (OS Build 17763)"',
    "CPU @ 3.60GHz",
    "32 GB DDR4 3200 MT/s",
    "41891",
    "r418_77",
    "1",
    "GPU 2080",
    "1350",
    "-",
    "11264",
    "Test",
]


def _ocat_cells(rows: Sequence[Present]) -> list[list[str]]:
    """Each row's cells in `OCAT_COLUMNS` (1.x's rules: `Dropped` 1 for a frame never shown)."""
    lines = []
    last_shown: int | None = None
    for row in rows:
        shown = row.display_ns is not None
        display = row.time_ns if row.display_ns is None else row.display_ns
        change = 0 if not shown or last_shown is None else display - last_shown
        if shown:
            last_shown = display
        values = {
            "Application": row.process,
            "ProcessID": str(row.pid),
            "SwapChainAddress": row.swapchain,
            "Runtime": "DXGI",
            "SyncInterval": "0",
            "PresentFlags": "0",
            "AllowsTearing": "1",
            "PresentMode": "Hardware Composed: Independent Flip",
            "WasBatched": "0",
            "DwmNotified": "0",
            "Dropped": "0" if shown else "1",
            "TimeInSeconds": s_text(row.time_ns, 6),
            "MsBetweenPresents": ms_text(row.interval_ns, 6),
            "MsBetweenDisplayChange": ms_text(change, 6),
            "MsInPresentAPI": "0.192",
            "MsUntilRenderComplete": ms_text(row.after_present_ns, 6),
            "MsUntilDisplayed": ms_text(display - row.time_ns, 6),
        } | row.cells
        lines.append([values[name] for name in OCAT_COLUMNS])
    return lines


def write_ocat(path: Path, rows: Sequence[Present]) -> Path:
    """An OCAT capture: the PresentMon columns and 12 of system information, filled on the first
    data row only (two of its cells quoted); every other row ends after `MsUntilDisplayed`."""
    cells = _ocat_cells(rows)
    cells[0] = cells[0] + SYSTEM_VALUES
    lines = [",".join(OCAT_COLUMNS + SYSTEM_INFO), *(",".join(line) for line in cells)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


CAPFRAMEX_INFO = (
    ("GameName", "re2.exe"),
    ("ProcessName", "Resident Evil 2"),
    ("Processor", "Intel(R) Core(TM) CPU @ 3.60GHz"),
    ("GPU", "GPU 2080 Ti"),
    ("Base Driver Version", "bla"),
    ("Comment", "first"),
    ("Comment", "Test"),
)
"""What a CapFrameX CSV export says of its capture (a repeated key keeps its last value)."""


def write_capframex_csv(
    path: Path, rows: Sequence[Present], info: Sequence[tuple[str, str]] = CAPFRAMEX_INFO
) -> Path:
    """CapFrameX's CSV export (2019-2020): a `//Key=Value` line per item of `info`, then the
    PresentMon header and rows (Windows line ends)."""
    head = [f"//{key}={value}" for key, value in info]
    lines = [*head, ",".join(OCAT_COLUMNS), *(",".join(cells) for cells in _ocat_cells(rows))]
    path.write_text("\r\n".join(lines) + "\r\n", encoding="utf-8")
    return path


FIVE_PROCESSES = (
    ("dwm.exe", 1520, 9),
    ("GRB.exe", 13456, 8),
    ("firefox.exe", 7084, 4),
    ("AMD Ryzen Master.exe", 16864, 2),
    ("devenv.exe", 11852, 1),
)
"""(process, id, rows) of the five-process capture, the compositor with the most rows."""


def write_five_processes(path: Path) -> Path:
    """A PresentMon 1.5 capture of five processes interleaved, the desktop compositor `DWM.exe`
    (any case) with more rows than the game; the game has a second swap chain of 3 rows, fewer
    than its first (`0x...1`, 5 rows)."""
    made: list[Present] = []
    for index, (name, pid, count) in enumerate(FIVE_PROCESSES):
        process = "DWM.exe" if name == "dwm.exe" else name
        chain = f"0x00000000000000{index + 1:02X}"
        for row in presents(["7"] * count, start_ns=START_NS + index * 1_000):
            made.append(replace(row, process=process, pid=pid, swapchain=chain))
    game = [row for row in made if row.process == "GRB.exe"]
    for row in game[5:]:
        made[made.index(row)] = replace(row, swapchain="0x00000000000000F0")
    return write_presentmon_1x(path, sorted(made, key=lambda row: row.time_ns))


def write_ready_composed_capture(
    path: Path, *, frames: int = 1_200, seed: int = 29, latch_ns: int = 1_000_000
) -> DisplayedCapture:
    """A PresentMon 1.x capture of a game near 120 fps composed on a 60 Hz display ("Composed:
    Copy with GPU GDI"), whose GPU finishes each frame 2 to 12 ms (seeded, in 0.001 ms) after
    its present, and never before the frame before it (a GPU draws them in turn). At each
    refresh the compositor shows the newest frame the GPU had finished at least `latch_ns`
    before it: the frames shown are decided by the ready times, not by the presents."""
    rng = random.Random(seed)
    period = Fraction(NS_PER_S, 60)
    phase = START_NS + 4_321_000
    rows: list[Present] = []
    time = START_NS
    ready = 0
    for _ in range(frames):
        interval = 8_333_000 + rng.randint(-1_500, 1_500) * 1_000
        time += interval
        ready = max(time + rng.randint(2_000, 12_000) * 1_000, ready)
        rows.append(Present(time, interval, ready_ns=ready))
    shown_at: dict[int, int] = {}
    done = -1  # the newest frame finished before the refresh, its latch included
    last = rows[-1].time_ns + rows[-1].after_present_ns
    for refresh in range(int((last - phase) / period) + 1):
        vblank = phase + round(refresh * period)
        while (
            done + 1 < len(rows)
            and rows[done + 1].after_present_ns + rows[done + 1].time_ns + latch_ns <= vblank
        ):
            done += 1
        if done >= 0 and done not in shown_at:
            shown_at[done] = vblank
    rows = [replace(row, display_ns=shown_at.get(index)) for index, row in enumerate(rows)]
    write_presentmon_1x(path, rows)
    return DisplayedCapture(path, rows, period, phase)
