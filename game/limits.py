"""The limits on what the game will read and how much work one command may take.

Every input is bounded before it is trusted: a file handed over by mistake (`/dev/zero`, a video)
or a value typed with one key held down must end in one clear line and exit status 2, not in a
machine that runs out of memory or a run that lasts all night. Each limit is far above anything
the game writes or a workshop needs, and each is stated here, once, and in the README's "Limits".
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

MAX_RUN_TICKS: Final = 10_000_000
"""Ticks one headless run (`simulate`, each policy of `compare`, `replay`) may simulate: about 46
hours at 60 Hz, and some minutes of work."""

MAX_REPLAY_FRAMES: Final = 3_600_000
"""Frames a replay may take at the render rate asked for: as many as the longest `simulate` run
(an hour at 1000 fps)."""

MAX_SCHEDULE_FRAMES: Final = 10_000_000
"""Frames the `schedule` explainer accepts (it runs no ticks, so it can afford more)."""

MAX_JUDDER_ROWS: Final = 200
"""Rows one `judder` command may run (the README's table has 48, a few seconds each)."""

MAX_CAPTURE_BYTES: Final = 4 * 1024 * MIB
"""A PresentMon or MangoHud capture file. It is streamed, never read whole, so this only bounds
the time a read takes: PresentMon 2.x writes some 350 bytes a frame, so 4 GiB is over the row
limit's worth."""

MAX_CAPTURE_ROWS: Final = 10_000_000
"""Rows one capture may hold: 19 hours at 144 fps, and as many frames as `schedule` takes."""

MAX_CAPTURE_LINE_BYTES: Final = 64 * KIB
"""One line of a capture. PresentMon's widest rows, every telemetry column on, are under 2 KiB; a
longer line means the file is not a capture (`/dev/zero`, a video)."""

MAX_CAPFRAMEX_BYTES: Final = 24 * MIB
"""A CapFrameX session (JSON). The standard library cannot stream JSON, so this file is read
whole, every number kept as its text: 23 MiB of session (300,000 frames of five columns) peaked
at 165 MB, under the 200 MB a capture may use. A real session's dozen columns and sensor data
fit some 10 to 15 minutes at 144 fps."""

MAX_PROBLEM_LINES: Final = 20
"""Problems printed for one refused input; the rest are counted in one more line."""

SMALLEST_WINDOW: Final = (320, 240)
"""The smallest window the game lays out (a config may not ask for less; a window resized below
it says so on screen; a clip may not be smaller)."""
LARGEST_WINDOW: Final = (7680, 4320)
"""The largest window a config may ask for."""
