"""`python -m game` (or `python -m game play`): the game itself.

Settings come from `configs/default.toml`'s defaults, then `--config FILE`, then `--set KEY=VALUE`
for single settings. `--frames`, `--screenshot` and `--script` let a test or a workshop drive the
real loop and keep the picture.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from game.config.loading import load_config
from game.errors import BadInput
from game.from_config import session_from
from game.workshop.lessons import find_lesson
from game.workshop.recording import SessionRecorder

HELP = "play the game (the default when no command is given)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", type=Path, help="a TOML settings file (see configs/)")
    parser.add_argument(
        "--set", dest="overrides", action="append", default=[], metavar="KEY=VALUE",
        help="override one setting, e.g. --set scheduler.policy=uncapped (repeatable)",
    )  # fmt: skip
    parser.add_argument("--frames", type=int, help="quit after this many frames")
    parser.add_argument("--screenshot", type=Path, help="save the last frame as a PNG")
    parser.add_argument("--script", type=Path, help="timed key presses to play (see README)")
    parser.add_argument("--lesson", type=int, metavar="N", help="start guided lesson N (L: menu)")
    parser.add_argument(
        "--record", type=Path, metavar="FILE",
        help="record the tick-stamped inputs (replay with `python -m game replay FILE`)",
    )  # fmt: skip


def run(args: argparse.Namespace) -> int:
    # pygame and the loop are imported here, so the other commands never load them.
    from game.app.lesson_guide import LessonGuide
    from game.app.loop import GameLoop, LoopOptions
    from game.app.refresh import desktop_refresh
    from game.app.script import load_script
    from game.app.window import Window
    from game.clock.wall import WallClock

    if args.frames is not None and args.frames < 1:
        raise BadInput.error(f"--frames must be at least 1 (got {args.frames})")
    config = load_config(args.config, args.overrides)
    script = load_script(args.script) if args.script else ()
    lessons = LessonGuide()
    if args.lesson is not None:
        find_lesson(lessons.lessons(), args.lesson)  # a bad number or lesson file: exit 2 now
    window = Window(
        config.render.width, config.render.height,
        fullscreen=config.render.fullscreen, vsync=config.render.vsync,
    )  # fmt: skip
    # Opened only once the window is: a game that cannot start must not overwrite FILE.
    recorder = SessionRecorder(config, args.record) if args.record else None
    refresh = desktop_refresh()  # the snap unit, and the live judder meter's refresh grid
    session = session_from(
        config,
        on_command=recorder.on_command if recorder else None,
        on_tick_rate=recorder.tick_rate_changed if recorder else None,
        refresh_hz=refresh[0],
    )
    options = LoopOptions(
        frames=args.frames,
        screenshot=args.screenshot,
        script=script,
        pause_on_focus_loss=config.app.pause_on_focus_loss,
        screenshot_dir=Path(config.app.screenshot_dir),
        graph_seconds=float(config.hud.graph_seconds),
    )
    loop = GameLoop(session, window, WallClock(), options, lessons=lessons)
    if args.lesson is not None:
        lessons.start(args.lesson, session)
    code = loop.run()
    if recorder is not None:
        recorder.finish(session.lanes[0].world)
        print(f"recorded to {args.record}: replay with `python -m game replay {args.record}`")
    return code
