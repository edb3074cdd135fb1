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

from game.arguments import file_path, whole_number
from game.commands.clip import add_lesson_dir, chosen_lessons
from game.config.loading import load_config
from game.config.model import GameConfig
from game.errors import BadInput
from game.from_config import session_from
from game.session.session import LabSession
from game.stopping import Stopped
from game.workshop.files.lessons import find_lesson
from game.workshop.files.output import Outputs, reason
from game.workshop.files.recording import SessionRecorder
from game.world.world import World

HELP = "play the game (the default when no command is given)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", type=file_path, help="a TOML settings file (see configs/)")
    parser.add_argument(
        "--set", dest="overrides", action="append", default=[], metavar="KEY=VALUE",
        help="override one setting, e.g. --set scheduler.policy=uncapped (repeatable)",
    )  # fmt: skip
    parser.add_argument("--frames", type=whole_number, help="quit after this many frames")
    parser.add_argument("--screenshot", type=file_path, help="save the last frame as a PNG")
    parser.add_argument("--script", type=file_path, help="timed key presses to play (see README)")
    parser.add_argument(
        "--lesson", type=whole_number, metavar="N", help="start guided lesson N (L: menu)"
    )
    add_lesson_dir(parser)
    parser.add_argument(
        "--record", type=file_path, metavar="FILE",
        help="record the tick-stamped inputs (replay with `python -m game replay FILE`)",
    )  # fmt: skip


def run(args: argparse.Namespace) -> int:
    """Play the game as `args` say; the exit code. Every file is checked before the window
    opens, and however the game ends the recording gets its final line (`_after_a_crash`)."""
    # pygame and the loop are imported here, so the other commands never load them.
    import pygame

    from game.app.lesson_guide import LessonGuide
    from game.app.loop import GameLoop, LoopOptions
    from game.app.quit_signals import QuitOnSignals
    from game.app.refresh import desktop_refresh
    from game.app.script import load_script
    from game.app.window import Window
    from game.clock.wall import WallClock

    _check_arguments(args)
    config = load_config(args.config, args.overrides)
    script = load_script(args.script) if args.script else ()
    lessons = LessonGuide(chosen_lessons(args))
    if args.lesson is not None:
        find_lesson(lessons.lessons(), args.lesson)  # a bad number or lesson file: exit 2 now
    window = Window(
        config.render.width, config.render.height,
        fullscreen=config.render.fullscreen, vsync=config.render.vsync,
    )  # fmt: skip
    # Opened only once the window is: a game that cannot start must not overwrite FILE.
    recorder = SessionRecorder(config, args.record) if args.record else None
    refresh = desktop_refresh()  # the snap unit, and the live judder meter's refresh grid
    try:
        session = _recorded_session(config, recorder, refresh[0])
        options = LoopOptions(
            frames=args.frames,
            screenshot=args.screenshot,
            script=script,
            pause_on_focus_loss=config.app.pause_on_focus_loss,
            screenshot_dir=Path(config.app.screenshot_dir),
            graph_seconds=float(config.hud.graph_seconds),
            lesson_clock=True,
        )
        loop = GameLoop(session, window, WallClock(), options, lessons=lessons)
        if args.lesson is not None:
            lessons.start(args.lesson, session)
    except BaseException:
        if recorder is not None:
            recorder.abandon()  # nothing was played: no recording
        raise
    with QuitOnSignals() as signals:
        try:
            code = loop.run()
        except BaseException as problem:
            interrupted = signals.received is not None or isinstance(problem, KeyboardInterrupt)
            _after_a_crash(recorder, session.lanes[0].world, interrupted, args.record)
            if isinstance(problem, OSError | pygame.error):
                raise BadInput.error(f"the game stopped: {_file_problem(problem)}") from None
            raise
    return _ended(code, signals.number, recorder, session.lanes[0].world, args.record)


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
        [("--config", args.config), ("--script", args.script), ("--lesson-dir", args.lesson_dir)]
    )
    files.file("--record", args.record)
    files.file("--screenshot", args.screenshot)  # not after an hour of play


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
