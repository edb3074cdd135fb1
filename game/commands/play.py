"""`python -m game` (or `python -m game play`): the game itself.

Settings come from `configs/default.toml`'s defaults, then `--config FILE`, then `--set KEY=VALUE`
for single settings. `--frames`, `--screenshot` and `--script` let a test or a workshop drive the
real loop and keep the picture.

However the game ends (Q, the close button, Ctrl+C, a closed terminal, `kill`, a crash), a
`--record` file gets its final line and the final hash is printed; a signal ends the game at a
tick boundary, as Q does, so the recording replays (see `game.app.quit_signals`).
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING

from game.arguments import file_path, whole_number
from game.clock.wall import MeasuredClock, WallClock
from game.commands.options import add_lesson_dir, chosen_lessons
from game.config.loading import load_config
from game.config.model import GameConfig
from game.errors import BadInput
from game.from_config import controls_from, session_from
from game.session.session import LabSession
from game.stopping import Stopped
from game.workshop.files.frame_log import add_frame_log_argument, frame_log_file
from game.workshop.files.lessons import find_lesson
from game.workshop.files.output import Outputs, reason
from game.workshop.files.recording import SessionRecorder
from game.world.world import World

if TYPE_CHECKING:  # read only with --capture or a match: the game starts without them
    from game.capture.frame import Capture
    from game.workshop.runs.match import Match

INTERVAL_COLUMNS = ("presents", "display", "simulation")
"""`--column`'s choices (`game.capture.frame.IntervalColumn`)."""

HELP = "play the game (the default when no command is given)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", type=file_path, help="a TOML settings file (see configs/)")
    parser.add_argument(
        "--set",
        dest="overrides",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="override one setting, e.g. --set scheduler.policy=uncapped (repeatable)",
    )
    parser.add_argument("--frames", type=whole_number, help="quit after this many frames")
    parser.add_argument("--screenshot", type=file_path, help="save the last frame as a PNG")
    parser.add_argument(
        "--script", type=file_path, help="timed key presses to play (see docs/commands.md)"
    )
    parser.add_argument(
        "--lesson", type=whole_number, metavar="N", help="start guided lesson N (L: menu)"
    )
    add_lesson_dir(parser)
    parser.add_argument(
        "--record",
        type=file_path,
        metavar="FILE",
        help="record the tick-stamped inputs (replay with `python -m game replay FILE`)",
    )
    add_frame_log_argument(parser)
    add_capture_arguments(parser)
    add_match_arguments(parser)


def add_match_arguments(parser: argparse.ArgumentParser) -> None:
    """`--host`, `--join` and `--until-tick`: a match against a real peer
    (`game.workshop.runs.match`)."""
    parser.add_argument(
        "--host",
        metavar="[ADDR:]PORT",
        help="host a match on UDP PORT (127.0.0.1 unless ADDR is given: 0.0.0.0 for a room's "
        "network; port 0 picks a free one, printed)",
    )
    parser.add_argument("--join", metavar="HOST:PORT", help="join the match hosted there")
    parser.add_argument(
        "--until-tick",
        type=whole_number,
        metavar="T",
        help="in a match: stop once tick T is confirmed by both sides, and print its state",
    )


def add_capture_arguments(parser: argparse.ArgumentParser) -> None:
    """`--capture FILE` and how to read it: the game's frames last what a real game's did."""
    add = parser.add_argument
    add(
        "--capture",
        type=file_path,
        metavar="FILE",
        help="play a capture's frame times (PresentMon, CapFrameX, MangoHud, a --frame-log)",
    )
    add(
        "--process",
        metavar="NAME|PID",
        help="the capture's process (default: the one with most rows, not the compositor dwm.exe)",
    )
    add("--swapchain", metavar="ADDR", help="the capture's swap chain (default: its most rows)")
    add(
        "--allow-damaged",
        action="store_true",
        help="play a capture even when more than half its kept rows are damaged",
    )
    add(
        "--column",
        choices=INTERVAL_COLUMNS,
        default="presents",
        help="which interval is a frame: between presents (default), display changes, or "
        "simulation starts",
    )


def run(args: argparse.Namespace) -> int:
    """Play the game as `args` say; the exit code. Every file is checked before the window
    opens, and however the game ends the recording gets its final line (`_after_a_crash`)."""
    # pygame and the loop are imported here, so the other commands never load them.
    import pygame

    from game.app.lesson_guide import LessonGuide
    from game.app.lesson_time import SwitchedClock
    from game.app.loop import GameLoop
    from game.app.loop_options import LoopOptions
    from game.app.quit_signals import QuitOnSignals
    from game.app.refresh import desktop_refresh
    from game.app.script import load_script
    from game.app.window import Window

    _check_arguments(args)
    config = load_config(args.config, args.overrides)
    clock = _game_clock(args)  # the wall, or `--capture`'s frames paced on it
    script = load_script(args.script) if args.script else ()
    lessons = LessonGuide(chosen_lessons(args))
    if args.lesson is not None:
        find_lesson(lessons.lessons(), args.lesson)  # a bad number or lesson file: exit 2 now
    match = _agreed_match(args, config, clock)  # before any window opens or file is written
    window = Window(
        config.render.width,
        config.render.height,
        fullscreen=config.render.fullscreen,
        vsync=config.render.vsync,
    )
    # Opened only once the window is: a game that cannot start must not overwrite FILE.
    header = None if match is None else match.header(controls_from(config))
    recorder = SessionRecorder(config, args.record, match=header) if args.record else None
    try:
        refresh = desktop_refresh()  # the snap unit, and the live judder meter's refresh grid
        session = _recorded_session(config, recorder, refresh[0])
        if match is not None:
            match.connect(session, recorder.remote_arrived if recorder else None)
        options = LoopOptions.played(config, args.frames, args.screenshot, script)
        loop = GameLoop(session, window, clock, options, lessons=lessons, match=match)
        if args.lesson is not None:
            lessons.start(args.lesson, session)
    except BaseException:
        if recorder is not None:
            recorder.abandon()  # nothing was played: no recording
        raise
    with QuitOnSignals() as signals, frame_log_file(args.frame_log) as frame_log:
        if frame_log is not None and isinstance(loop.clock, SwitchedClock):
            loop.clock.on_frame = frame_log.frame  # each frame's length, whichever clock ran it
        try:
            code = loop.run()
        except BaseException as problem:
            interrupted = signals.received is not None or isinstance(problem, KeyboardInterrupt)
            _after_a_crash(recorder, session.lanes[0].world, interrupted, args.record)
            if isinstance(problem, OSError | pygame.error):
                raise BadInput.error(f"the game stopped: {_file_problem(problem)}") from None
            raise
    if match is not None:  # a headless match's confirmed state and counts, or why not
        code = match.end(session) or code
    return _ended(code, signals.number, recorder, session.lanes[0].world, args.record)


def _agreed_match(
    args: argparse.Namespace, config: GameConfig, clock: MeasuredClock
) -> Match | None:
    """`--host` or `--join`: the match both games agreed to (`game.workshop.runs.match`), or
    None."""
    from game.workshop.runs.match import Match, refuse_match_arguments

    refuse_match_arguments(args.host, args.join, args.until_tick, args.capture)
    if args.host is None and args.join is None:
        return None
    return Match.agree(
        config,
        controls_from(config),
        clock,
        host=args.host,
        join=args.join,
        until_tick=args.until_tick,
    )


def _ended(
    code: int, signal_number: int, recorder: SessionRecorder | None, world: World, path: Path
) -> int:
    """The recording's final line, then `code`; or, if a signal ended the game, `Stopped`,
    whose one line says what was kept (`game.stopping`)."""
    if not signal_number:
        _finish(recorder, world, "end", path)
        return code
    if recorder is not None:
        recorder.finish(world, "signal")
    raise Stopped(signal_number)


def _check_arguments(args: argparse.Namespace) -> None:
    """Refuse, before anything is read or opened, what can be told from the arguments alone."""
    if args.frames is not None and args.frames < 1:
        raise BadInput.error(f"--frames must be at least 1 (got {args.frames})")
    files = Outputs(
        [
            ("--config", args.config),
            ("--script", args.script),
            ("--lesson-dir", args.lesson_dir),
            ("--capture", args.capture),
        ]
    )
    files.file("--record", args.record)
    files.file("--screenshot", args.screenshot)  # not after an hour of play
    files.file("--frame-log", args.frame_log)
    for flag in ("--process", "--swapchain", "--allow-damaged"):
        if getattr(args, flag[2:].replace("-", "_")) not in (None, False) and args.capture is None:
            raise BadInput.error(f"{flag} needs --capture FILE")


def _game_clock(args: argparse.Namespace) -> MeasuredClock:
    """The wall clock, or `--capture`'s frames paced on it (`game.clock.captured`)."""
    from game.clock.captured import CapturedClock

    capture = _opened_capture(args)
    wall = WallClock()
    return wall if capture is None else CapturedClock.playing(wall, capture)


def _opened_capture(args: argparse.Namespace) -> Capture | None:
    """`--capture`'s file, opened and checked before the window opens (and said on stdout:
    which process and swap chain it plays, what it skipped, and, chosen by default, what else
    the file held; the names as printable text)."""
    if args.capture is None:
        return None
    from game.capture.damage import damage_line
    from game.capture.reading import open_capture
    from game.printable import printable
    from game.workshop.captures.report import candidates_text

    capture = open_capture(
        args.capture,
        process=args.process,
        swapchain=args.swapchain,
        column=args.column,
        allow_damaged=args.allow_damaged,
    )
    info = capture.info
    chain = f", swap chain {printable(info.swapchain)}" if info.swapchain else ""
    skipped = sum(info.skipped.values())
    damaged = damage_line(info)
    if damaged is not None:
        print(printable(damaged), flush=True)
    print(
        f"playing {printable(str(args.capture))} ({info.format} {info.layout}): "
        f"{info.frames:,} frames of {printable(info.process)}{chain}, by {info.column} interval; "
        f"{skipped:,} rows skipped",
        flush=True,
    )
    if info.chosen_by_default and info.candidates:
        print("  other processes: " + candidates_text(info), flush=True)
    return capture


def _recorded_session(
    config: GameConfig, recorder: SessionRecorder | None, refresh_hz: Fraction
) -> LabSession:
    """The session `config` describes; `recorder`, if any, hears its every stamped command and
    tick-rate change."""
    return session_from(
        config,
        on_order=recorder.on_order if recorder else None,
        on_tick_rate=recorder.tick_rate_changed if recorder else None,
        refresh_hz=refresh_hz,
        on_link=recorder.link_changed if recorder else None,
    )


def _after_a_crash(
    recorder: SessionRecorder | None, world: World, interrupted: bool, path: Path
) -> None:
    """A crash, a second ^C, a screenshot that cannot be written: the hash is printed and the
    recording still gets its final line, before the program stops."""
    with contextlib.suppress(OSError):  # a terminal that hung up
        print(f"final tick {world.tick} state {world.state_hash()}", flush=True)
    try:
        _finish(recorder, world, "signal" if interrupted else "error", path)
    except BadInput as unwritten:  # said, but the first problem is the one to stop on
        print(*unwritten.lines, sep="\n", file=sys.stderr)


def _finish(recorder: SessionRecorder | None, world: World, ended: str, path: Path) -> None:
    """Write the recording's final line and say where it is; `BadInput` if it cannot be."""
    if recorder is not None:
        recorder.finish(world, ended)
        print(f"recorded to {path}: replay with `python -m game replay {path}`", flush=True)


def _file_problem(problem: BaseException) -> str:
    """`shot.png: no space left on device`: the file, when the error names one, and why."""
    name = getattr(problem, "filename", None)
    return f"{name}: {reason(problem)}" if name else reason(problem)
