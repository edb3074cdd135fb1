"""`python -m game replay FILE [--render-fps N]`: a recorded session, run again headless.

The record holds the world's settings, the tick rate and every tick-stamped order (see
`game.workshop.files.recording`). The replay rebuilds the session, runs it on a virtual clock at the
render rate asked for, submits each command when the world reaches its tick, and stops exactly at
the recorded final tick. Because the physics only ever sees fixed ticks and tick-stamped
commands, the state hash must come out the same at any render rate:

    $ python -m game replay session.replay --render-fps 30
    final tick 5400 state 3c21e5d1...
    matches the recording (replayed at 30 fps)

The lines are checked too: the final line holds a hash of every line above it, so a file edited
after it was recorded does not match even when the edit changes nothing the state hash covers.
Exit status 0 when both match, 1 when either does not, 2 when the file is refused, or when
replaying it at the rate asked for would take more than `MAX_REPLAY_FRAMES` frames.
"""

from __future__ import annotations

import argparse
import math
from fractions import Fraction
from pathlib import Path

from game import limits
from game.arguments import file_path
from game.clock.units import parse_decimal
from game.clock.virtual import VirtualClock
from game.config.exact import decimal_text
from game.errors import BadInput
from game.from_config import session_from
from game.knobs import MAX_RENDER_FPS
from game.session.rollback import Rollback, TooLate
from game.session.sides import MatchSides
from game.workshop.files.match_record import match_settings
from game.workshop.files.replay_file import Recording, read_recording
from game.workshop.files.timeline import LinkChange, Timeline
from game.workshop.runs.progress import every_frames, progress_bar
from game.workshop.runs.runner import run_headless
from timestep_lab import NS_PER_SECOND

HELP = "replay a recorded session headless and check it ends in the recorded state"
EXIT_MISMATCH = 1


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", type=file_path, metavar="FILE", help="a recording (JSON lines)")
    parser.add_argument(
        "--render-fps", default="144", help="the render rate to replay at (default 144)"
    )
    parser.add_argument(
        "--against",
        type=file_path,
        metavar="OTHER",
        help="compare a match's two recordings tick by tick: the first tick their confirmed "
        "worlds differ at (exit 1), or the last both confirm (exit 0)",
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


def refuse_resimulation(path: Path, recording: Recording, frames: int) -> None:
    """One line and exit 2 when a network session's replay may simulate more ticks than a
    run may, counting those its rollbacks may simulate again (`resimulated_at_most`; a match's
    and the live game's connections, every tick's window)."""
    links = [event.settings for event in recording.events if isinstance(event, LinkChange)]
    if recording.network is not None:
        window = recording.network.prediction_window
        again = recording.network.resimulated_at_most(recording.final_tick)
    elif recording.match is not None:  # any tick's move may prove a prediction wrong
        window = recording.match["prediction_window"]
        again = recording.final_tick * window
    elif any(links):  # the live game's connections: the widest window, for every tick
        window = max(link.prediction_window for link in links if link is not None)
        again = recording.final_tick * window
    else:
        return
    ticks = recording.final_tick + again
    if ticks > limits.MAX_RUN_TICKS:
        took = limits.duration_text(limits.estimated_s(ticks, frames))
        raise BadInput.error(
            f"replaying {path} may simulate up to {ticks:,} ticks (to tick "
            f"{recording.final_tick:,}, and {again:,} re-simulated: each tick may roll back its "
            f"last {window}, network.prediction_window), about {took} of CPU, more than "
            f"{limits.MAX_RUN_TICKS:,} (the limit)"
        )


def _against(path: Path, recording: Recording, other_path: Path) -> int:
    """`--against`: the two recordings of a match, their confirmed worlds compared."""
    from game.workshop.runs.against import confirmed_hashes, first_difference

    other = read_recording(other_path)
    for name, each in ((path, recording), (other_path, other)):
        refuse_resimulation(name, each, each.final_tick)  # at one frame a tick, as it runs
    first, both = first_difference(
        confirmed_hashes(recording, str(path)), confirmed_hashes(other, str(other_path))
    )
    if first is None:
        print(f"same to tick {both}")
        return 0
    print(f"first difference at tick {first}")
    return EXIT_MISMATCH


_ENDED = {
    "signal": "the recorded session was ended by a signal (Ctrl+C, a closed terminal or a kill)",
    "error": "the recorded session was ended by an error; it was recorded up to that moment",
}


def run(args: argparse.Namespace) -> int:
    fps = render_fps_from(args.render_fps)
    recording = read_recording(args.file)
    if args.against is not None:
        return _against(args.file, recording, args.against)
    frames = math.ceil(recording.simulated_ns() * fps / NS_PER_SECOND)
    if frames > limits.MAX_REPLAY_FRAMES:
        took = limits.duration_text(limits.estimated_s(recording.final_tick, frames))
        raise BadInput.error(
            f"replaying {args.file} at {decimal_text(fps)} fps takes about {frames:,} frames, "
            f"about {took} of CPU, more than {limits.MAX_REPLAY_FRAMES:,} (the limit): use a "
            "lower --render-fps"
        )
    refuse_resimulation(args.file, recording, frames)
    session = session_from(recording.config)
    world = session.lanes[0].world
    if recording.network is not None:
        session.connect(Rollback.from_recording(world, recording.network.settings()))
    elif recording.match is not None:  # a match's world, its peer's moves, our own orders
        world.add_joiner()
        settings = match_settings(recording.match)
        host = recording.match["host"]
        sides = MatchSides(host=host, input_delay=settings.input_delay, live=False)
        session.connect(Rollback.from_recording(world, settings, sides))
    try:
        with progress_bar(recording.final_tick, "ticks replayed") as done:
            told = every_frames(done)  # the bar at the frame's tick
            result = run_headless(
                session,
                VirtualClock(fps),
                Timeline(tick_events=recording.events),
                until_tick=recording.final_tick,
                sink=lambda frame: told(frame.number, frame.plan.tick),
                keep=0,  # a replay needs the end, not the frames: its memory does not grow
            )
    except TooLate as late:
        raise BadInput.error(f"{args.file}: {late}") from None
    print(f"final tick {result.tick} state {result.state_hash}")
    if recording.ended in _ENDED:
        print(_ENDED[recording.ended])
    same_state = result.state_hash == recording.state_hash
    same_lines = recording.lines_hash == recording.record_hash
    if same_state and same_lines:
        print(f"matches the recording (replayed at {decimal_text(fps)} fps)")
        return 0
    if not same_state:
        print(f"DOES NOT match the recording: it ended in state {recording.state_hash}")
    if not same_lines:
        print("DOES NOT match the recording: its lines were changed after it was recorded")
    return EXIT_MISMATCH
