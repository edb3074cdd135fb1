"""The limits on what the game will read and how much work one command may take.

Every input is bounded before it is trusted: a file handed over by mistake (`/dev/zero`, a video)
or a value typed with one key held down must end in one clear line and exit status 2, not in a
machine that runs out of memory or a run that lasts all night. Each size limit is far above
anything the game writes; each limit on work is what a command does in under a minute of CPU on a
2-core machine (`make bench` runs each command at its limits: BENCHMARKS.md, "Limits"). Each is
stated here, once, and in the documentation's table (docs/limits.md).
"""

from __future__ import annotations

from typing import Final

KIB: Final = 1024
MIB: Final = 1024 * KIB

MAX_TEXT_FILE_BYTES: Final = 1 * MIB
"""A config, scenario, lesson or script file. The shipped ones are a few KiB."""

MAX_RECORDING_BYTES: Final = 64 * MIB
"""A replay file. An hour of play with a shot every frame at 144 fps is about 55 MiB."""

MAX_NESTING: Final = 32
"""Tables and arrays inside one another in a TOML file (or dotted key parts). The game's own
files nest four deep; deeper input is refused before it reaches a parser that recurses."""

MAX_DIGITS: Final = 100
"""Digits in one number, in any file or argument. A 64-bit seed has 20."""

MAX_RUN_TICKS: Final = 60_000
"""Ticks one headless command may simulate, all its runs together (`simulate` with each of its
input models, `compare` under each policy, every cell of a `sweep`, `replay`): about 16 minutes
at 60 Hz. A tick costs about 0.15 ms of CPU here, so this and `MAX_RUN_FRAMES` together keep a
command, every output written, within 40 s of CPU on a 2-core machine: a minute with a third to
spare (BENCHMARKS.md, "Limits"). 10,000,000 took hours; 100,000, a minute with no margin."""

MAX_RUN_FRAMES: Final = 100_000
"""Frames one headless command may take, all its runs together: seconds x render fps, at the
fastest rate a run reaches (400 s at 250 fps, 100 s at 1000 fps). A frame costs about 0.2 ms
here, whether or not it runs a tick: a run at 1000 fps is paid per frame (150,000 took a minute
of CPU with every output)."""

MAX_REPLAY_FRAMES: Final = MAX_RUN_FRAMES
"""Frames a replay may take at the render rate asked for: as many as one `simulate` run."""

MAX_SCHEDULE_FRAMES: Final = 200_000
"""Frames the `schedule` explainer accepts: a row each, 55 minutes of 60 fps. It runs no ticks,
but each row is worked out and printed exactly: at its slowest (`--conditioning godot`) 200,000
frames take about half a minute of CPU on the shared 2-core machine (BENCHMARKS.md, "Limits");
10,000,000 took seven minutes."""

MAX_JUDDER_ROWS: Final = 200
"""Rows one `judder` command may run (docs/display.md's table has 48, a few seconds each). Its runs
together are held to `MAX_RUN_TICKS` and `MAX_RUN_FRAMES` too, as any headless command's."""

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
