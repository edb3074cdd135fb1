"""`python -m game replay FILE [--render-fps N]`: a recorded session, run again headless.

The record holds the world's settings, the tick rate and every tick-stamped command (see
`game.workshop.recording`). The replay rebuilds the session, runs it on a virtual clock at the
render rate asked for, submits each command when the world reaches its tick, and stops exactly at
the recorded final tick. Because the physics only ever sees fixed ticks and tick-stamped
commands, the state hash must come out the same at any render rate:

    $ python -m game replay session.replay --render-fps 30
    final tick 5400 state 3c21e5d1...
    matches the recording (replayed at 30 fps)

Exit status 0 when the hash matches, 1 when it does not, 2 when the file is refused.
"""

from __future__ import annotations

import argparse
from fractions import Fraction

from game.arguments import file_path
from game.clock.units import parse_decimal
from game.clock.virtual import VirtualClock
from game.config.exact import decimal_text
from game.errors import BadInput
from game.session.from_config import session_from
from game.workshop.replay_file import read_recording
from game.workshop.runner import run_headless
from game.workshop.scenario import MAX_RENDER_FPS
from game.workshop.timeline import Timeline

HELP = "replay a recorded session headless and check it ends in the recorded state"
EXIT_MISMATCH = 1


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", type=file_path, metavar="FILE", help="a recording (JSON lines)")
    parser.add_argument(
        "--render-fps", default="144", help="the render rate to replay at (default 144)"
    )


def render_fps_from(text: str) -> Fraction:
    try:
        fps = parse_decimal(text, what="--render-fps")
    except ValueError:
        raise BadInput.error(
            f"--render-fps must be a number like 144 or 59.94 (got {text!r})"
        ) from None
    if not 1 <= fps <= MAX_RENDER_FPS:
        raise BadInput.error(f"--render-fps must be from 1 to {MAX_RENDER_FPS} (got {text!r})")
    return fps


def run(args: argparse.Namespace) -> int:
    fps = render_fps_from(args.render_fps)
    recording = read_recording(args.file)
    session = session_from(recording.config)
    result = run_headless(
        session,
        VirtualClock(fps),
        Timeline(tick_events=recording.events),
        until_tick=recording.final_tick,
    )
    print(f"final tick {result.tick} state {result.state_hash}")
    if result.state_hash == recording.state_hash:
        print(f"matches the recording (replayed at {decimal_text(fps)} fps)")
        return 0
    print(f"DOES NOT match the recording: it ended in state {recording.state_hash}")
    return EXIT_MISMATCH
