"""The limits on what the game will read and on the work one run may ask for.

Every input is bounded before it is trusted: a file handed over by mistake (`/dev/zero`, a video)
or a value typed with one key held down must end in one clear line and exit status 2, not in a
machine that runs out of memory or a command that runs all night because of a typo. Each size
limit is far above anything the game writes. A limit on work guards against hostile input, not
against work: a run asked for explicitly (an hour, a day) runs, with a progress bar and a clean
stop, and its time is linear in the ticks and frames it runs, its memory flat. Only a request
beyond what any machine would finish is refused, in one line that says how long it would take
(`estimated_s`, from the throughput `make bench` measures here: BENCHMARKS.md, "Limits"). Each
limit is stated here, once, and in the documentation's table (docs/limits.md):

| limit | value |
|---|---|
| ticks | `MAX_RUN_TICKS` per run |
| frames | `MAX_RUN_FRAMES` per run, and per `replay` |
| a recording | none of its own: `replay` reads it a line at a time |
| runs in one `sweep` | `MAX_SWEEP_RUNS`, each cell built in its worker |
| `--vary` axes | `MAX_VARY_AXES` (the figures draw the first two: a map per value of the rest) |
| `world.cannon_period_ticks` | `MAX_CANNON_PERIOD_TICKS` |
| file sizes, nesting, digits, `schedule` frames, `judder` rows, clip pictures | below |
"""

from __future__ import annotations

from typing import Final

KIB: Final = 1024
MIB: Final = 1024 * KIB

MAX_TEXT_FILE_BYTES: Final = 1 * MIB
"""A config, scenario, lesson or script file. The shipped ones are a few KiB."""

MAX_RECORDING_LINE_BYTES: Final = 1 * MIB
"""One line of a recording (its header, an order, the final line). A recording has no size
limit of its own: `replay` reads it a line at a time, so whatever a run writes, it reads."""

MAX_NESTING: Final = 32
"""Tables and arrays inside one another in a TOML file (or dotted key parts). The game's own
files nest four deep; deeper input is refused before it reaches a parser that recurses."""

MAX_DIGITS: Final = 100
"""Digits in one number, in any file or argument. A 64-bit seed has 20."""

MAX_RUN_TICKS: Final = 10**8
"""Ticks one headless run may simulate (each of `simulate`'s input models, each of `compare`'s
policies, each cell of a `sweep`, a `replay`): 19 days at 60 Hz, some 2.5 hours of CPU here
(`TICKS_PER_CPU_S`). A run's memory does not grow with its ticks."""

MAX_RUN_FRAMES: Final = 10**8
"""Frames one headless run may take: seconds x render fps at the fastest rate the run reaches
(28 hours at 1000 fps). A frame is paid whether or not it runs a tick (`FRAMES_PER_CPU_S`)."""

MAX_RUN_SECONDS: Final = 365 * 86_400
"""The longest wall time a scenario's run, or a time in it, may name: a year, a guard against a
typo in the units. What a run may take is its ticks and frames above."""

MAX_REPLAY_FRAMES: Final = MAX_RUN_FRAMES
"""Frames a replay may take at the render rate asked for: as many as one `simulate` run."""

TICKS_PER_CPU_S: Final = 11_000
"""Ticks a headless run simulates in a second of CPU here, on top of its frames (the default
scene at 60 Hz; `make bench`, "Limits"): what a refusal's estimate of the time is made from."""

FRAMES_PER_CPU_S: Final = 14_000
"""Frames a headless run takes in a second of CPU here, on top of its ticks (with no output
but the summary; `make bench`, "Limits")."""

MAX_SWEEP_RUNS: Final = 10**6
"""Runs one `sweep` may ask for (cells x policies); each cell is built in its worker, so the
parent holds only the cells' settings, never their runs."""

MAX_VARY_AXES: Final = 4
"""Settings one `sweep` may vary at once. Its figures are maps of the first two, one map per
combination of the values of the others."""

MAX_CANNON_PERIOD_TICKS: Final = 10**7
"""The longest a cannon may wait between shots (`world.cannon_period_ticks`): 46 hours at 60 Hz.
A range of its own, not a run's length."""


def estimated_s(ticks: int, frames: int) -> float:
    """The CPU seconds a run of `ticks` ticks and `frames` frames takes here, roughly."""
    return ticks / TICKS_PER_CPU_S + frames / FRAMES_PER_CPU_S


def duration_text(seconds: float) -> str:
    """A duration for a refusal's estimate: "40 s", "12 min", "3.5 h", "21 days"."""
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 2 * 3600:
        return f"{seconds / 60:.0f} min"
    if seconds < 2 * 86400:
        return f"{seconds / 3600:.1f} h"
    return f"{seconds / 86400:,.0f} days"


MAX_SCHEDULE_FRAMES: Final = 200_000
"""Frames the `schedule` explainer accepts: a row each, 55 minutes of 60 fps. It runs no ticks,
but each row is worked out and printed exactly: at its slowest (`--conditioning godot`) 200,000
frames take about half a minute of CPU on the shared 2-core machine (BENCHMARKS.md, "Limits");
10,000,000 took seven minutes."""

MAX_JUDDER_ROWS: Final = 200
"""Rows one `judder` command may run (docs/display.md's table has 48, a few seconds each). Each
row's runs are held to `MAX_RUN_TICKS` and `MAX_RUN_FRAMES`, as any headless run."""

MAX_CAPTURE_BYTES: Final = 4 * 1024 * MIB
"""A PresentMon or MangoHud capture file. It is streamed, never read whole, so this only bounds
the time a read takes: PresentMon 2.x writes some 350 bytes a frame, so 4 GiB is over the row
limit's worth."""

MAX_CAPTURE_ROWS: Final = 10_000_000
"""Rows one capture may hold: 19 hours at 144 fps, and as many frames as `schedule` takes."""

MAX_CAPTURE_RUN_FRAMES: Final = 20_000_000
"""Frames one `capture` command may run open loop, all its runs together: the capture's frames x
tick rates x policies. A frame costs 0.1 us at 60 Hz and up to some 2 us where every frame owes
more ticks than the catch-up cap (10 kHz: each then goes through the policy's own rule), so the
limit keeps the worst case within 45 s of CPU: a million frames under six policies at three
rates (BENCHMARKS.md, "Capture")."""

MAX_HEADROOM_RUN_FRAMES: Final = 60_000
"""Frames the headroom's closed-loop runs may take, all together: `--headroom-frames` (at most
the capture's frames) x tick rates x policies, each bisected in some 14 runs through the
scheduler itself: the default 2,000 frames for six policies at five rates."""

MAX_CAPTURE_FILES: Final = 10_000
"""Files one `capture PATH...` batch may read: a lab's nights of captures, dozens a build. A
pattern or a folder that finds more (a whole disk) is refused before any file is read."""

MAX_CAPTURE_LINE_BYTES: Final = 64 * KIB
"""One line of a capture. PresentMon's widest rows, every telemetry column on, are under 2 KiB; a
longer line means the file is not a capture (`/dev/zero`, a video)."""

MAX_CAPFRAMEX_BYTES: Final = 24 * MIB
"""A CapFrameX session (JSON). The standard library cannot stream JSON, so this file is read
whole; its arrays of numbers are read with numpy, never as a Python object an entry
(`game.capture.session_json`). A real session's dozen columns and sensor data fit some 10 to 15
minutes at 144 fps (about 200 bytes a frame)."""

MAX_CAPFRAMEX_ROWS: Final = 1_000_000
"""Rows (entries of `MsBetweenPresents`) in one CapFrameX session's run. 24 MiB of a real
session holds some 120,000; arrays of bare digits could hold six million, whose frames alone (41
bytes each) would pass the 200 MB a capture may use. A million is the `capture` benchmark's
size (BENCHMARKS.md, "Capture": 160 MB at the command's peak); two million bare rows were read in
137 MB, and the command peaked at 236."""

MAX_SESSION_OUTLINE_BYTES: Final = 1 * MIB
"""A CapFrameX session besides its arrays of numbers (its info, the runs' keys, the sensors'
names: a few KiB), which Python's `json` makes objects of."""

MAX_PROBLEM_LINES: Final = 20
"""Problems printed for one refused input; the rest are counted in one more line."""

SMALLEST_WINDOW: Final = (320, 240)
"""The smallest window the game lays out (a config may not ask for less; a window resized below
it says so on screen; a clip may not be smaller)."""
LARGEST_WINDOW: Final = (7680, 4320)
"""The largest window a config may ask for."""
