"""`python -m game clip`: the real game filmed into a GIF or an MP4, with no window.

    python -m game clip --lesson 4 --step 1 --script demo.txt --seconds 6 --out stall.mp4
    python -m game clip --scenario single_stall --seconds 4 --out s.gif
    python -m game clip --lesson 7 --step 1 --demo --out taps.mp4

The picture is the game's own (loop, pacer, renderer, HUD) on the dummy video driver, and time is
a `ManualClock` that only the game moves (see `game.app.filming`): a clip is the same, picture for
picture, on every run and every machine, and takes as long to make as rendering takes, not as
long as it lasts. What plays: a lesson step (`--lesson N [--step K]`), a scenario's settings,
changes, stalls and inputs (`--scenario NAME|FILE`), and timed key presses (`--script FILE`, alone
or during a lesson step or scenario). `--lesson-dir DIR` films your own lessons instead of the
packaged ones. `--demo` plays a lesson step's own demo (its keys at their seconds, for as long as
it lasts): the run `lessons --check` measures, filmed.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import TypeVar

from game.arguments import file_path
from game.commands.options import add_lesson_dir, chosen_lessons
from game.config.loading import load_config
from game.config.model import GameConfig
from game.errors import BadInput
from game.printable import printable
from game.workshop.claims.record import DemoRun
from game.workshop.clips.cues import ScenarioCues
from game.workshop.clips.files import ClipSink, ClipSpec, clip_spec, open_sink
from game.workshop.files.frame_log import FrameLog, add_frame_log_argument, frame_log_file
from game.workshop.files.lessons import Lesson, find_lesson, load_lessons
from game.workshop.files.output import Named, Outputs, written_whole
from game.workshop.files.scenario import Scenario
from game.workshop.files.scenario_loading import add_scenario_choice, chosen_scenario, load_scenario

Made = TypeVar("Made")

HELP = "film the game (a lesson step, a scenario or a script) into a GIF or MP4, no window"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add = parser.add_argument
    add("--lesson", type=int, metavar="N", help="film guided lesson N")
    add("--step", type=int, metavar="K", help="from step K of the lesson (default 1)")
    add_lesson_dir(parser)
    add_scenario_choice(parser)
    add(
        "--script",
        type=Path,
        metavar="FILE",
        help="timed key presses to play (see docs/commands.md)",
    )
    add("--demo", action="store_true", help="play the lesson step's demo, for as long as it lasts")
    add("--seconds", metavar="S", help="how long, in seconds of game time (not with --demo)")
    add("--out", type=file_path, required=True, metavar="FILE", help="FILE.gif or FILE.mp4")
    add("--fps", type=int, default=30, help="pictures per second (default 30)")
    add("--size", default="1280x720", metavar="WxH", help="window size (default 1280x720)")
    add_frame_log_argument(parser)


def lesson_and_step(
    lesson: int, step: int | None, lessons: tuple[Lesson, ...] | None = None
) -> tuple[int, int]:
    """(lesson, step), both checked against the lesson files."""
    chosen = find_lesson(lessons if lessons is not None else load_lessons(), lesson)
    count = len(chosen.steps)
    if step is not None and not 1 <= step <= count:
        raise BadInput.error(f"--step {step}: lesson {lesson} has steps 1 to {count}")
    return lesson, step or 1


def check_sources(args: argparse.Namespace) -> None:
    if args.step is not None and args.lesson is None:
        raise BadInput.error("--step needs --lesson")
    if args.lesson is None and args.scenario is None and args.script is None:
        raise BadInput.error("say what to film: --lesson N, --scenario NAME|FILE or --script FILE")
    if args.lesson is not None and args.scenario is not None:
        raise BadInput.error("film a lesson or a scenario, not both")
    if args.demo and (args.lesson is None or args.script is not None):
        raise BadInput.error("--demo needs --lesson, and plays the step's own keys (no --script)")
    if args.demo and args.seconds is not None:
        raise BadInput.error("--demo lasts as long as the step's demo: leave out --seconds")
    if args.seconds is None and not args.demo:
        raise BadInput.error("say how long: --seconds S (or --demo, with --lesson)")


UNFILMED = ("network", "display")
"""A scenario's sections a clip cannot film: the game's loop plays no simulated peer and shows
its frames on the real window's display, not on the virtual one a `[display]` describes."""


def refuse_unfilmed(scenario: Scenario, name: object) -> None:
    """One line and exit 2 for a scenario with a section a clip would leave out without a word:
    a clip of `rollback_wait` would show no rollback."""
    for section in UNFILMED:
        if getattr(scenario, section) is not None:
            raise BadInput.error(
                f"--scenario {printable(str(name))}: its [{section}] section cannot be filmed (the "
                f"game's loop has no {_WHY[section]}): run it with simulate, or film a scenario "
                "without it"
            )


_WHY = {"network": "simulated peer", "display": "virtual display"}


def demo_seconds(lesson: Lesson, step: int, fps: int) -> str:
    """A demo's clip length: its last picture is taken as the demo ends."""
    demo = lesson.steps[step - 1].demo
    if demo is None:
        raise BadInput.error(f"--demo: lesson {lesson.number} step {step} has no demo")
    return str(demo.seconds + Fraction(1, fps))


def clip_inputs(args: argparse.Namespace) -> list[Named]:
    """What a clip's run reads: its `--out` must be none of them."""
    lesson_dir = ("--lesson-dir", args.lesson_dir)
    return [("--scenario", chosen_scenario(args)), ("--script", args.script), lesson_dir]


def run(args: argparse.Namespace) -> int:
    check_sources(args)
    outputs = Outputs(clip_inputs(args))  # neither may be an input, nor the other
    outputs.file("--out", args.out)
    outputs.file("--frame-log", args.frame_log)
    if args.demo:
        return _run_demo(args)
    spec = clip_spec(args.out, args.size, args.fps, args.seconds, clip_inputs(args))
    lessons = chosen_lessons(args)
    lesson = lesson_and_step(args.lesson, args.step, lessons) if args.lesson is not None else None
    cues = None
    scenario_file = chosen_scenario(args)
    if scenario_file is not None:
        scenario = load_scenario(scenario_file)
        refuse_unfilmed(scenario, args.scenario)
        cues = ScenarioCues(scenario, scenario_file)
    if cues is not None:
        config = cues.config(spec.width, spec.height)
    else:
        config = load_config(None, [f"render.width={spec.width}", f"render.height={spec.height}"])
    with frame_log_file(args.frame_log) as frame_log:
        taken = make_clip(
            spec,
            config,
            lesson=lesson,
            script=args.script,
            cues=cues,
            lessons=lessons,
            frame_log=frame_log,
        )
    _say_frame_log(args)
    print(
        f"wrote {spec.out}: {taken} pictures, {spec.width}x{spec.height}, "
        f"{taken / spec.fps:g} s of game time at {spec.fps} fps"
    )
    return 0


def _run_demo(args: argparse.Namespace) -> int:
    lessons = chosen_lessons(args)
    number, step = lesson_and_step(args.lesson, args.step, lessons)
    lesson = find_lesson(lessons if lessons is not None else load_lessons(), number)
    seconds = demo_seconds(lesson, step, args.fps)
    spec = clip_spec(args.out, args.size, args.fps, seconds, clip_inputs(args))
    with frame_log_file(args.frame_log) as frame_log:
        played = film_demo(lesson, step, spec)
        if frame_log is not None:
            for frame in played.frames:
                frame_log.frame(frame.plans[0].elapsed_ns)
    _say_frame_log(args)
    print(
        f"wrote {spec.out}: {played.pictures} pictures, {spec.width}x{spec.height}, the demo of "
        f"lesson {number} step {step} ({played.pictures / spec.fps:g} s at {spec.fps} fps)"
    )
    return 0


def film_demo(lesson: Lesson, step: int, spec: ClipSpec, *, bar: bool | None = None) -> DemoRun:
    """Film step `step`'s demo into `spec.out` (`game.app.demo`); returns what was played, so
    its claims can be measured from the very run the clip shows."""
    # The dummy driver must be chosen before pygame starts: a clip needs no screen.
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    from game.app.demo import play_demo

    config = load_config(None, [f"render.width={spec.width}", f"render.height={spec.height}"])
    return _filming(
        spec,
        bar,
        lambda sink, tell: play_demo(
            lesson, step, config=config, spec=spec, sink=sink, progress=tell
        ),
    )


def make_clip(
    spec: ClipSpec,
    config: GameConfig,
    *,
    lesson: tuple[int, int] | None = None,
    script: Path | None = None,
    cues: ScenarioCues | None = None,
    bar: bool | None = None,
    lessons: tuple[Lesson, ...] | None = None,
    frame_log: FrameLog | None = None,
) -> int:
    """Film the game into `spec.out`, with a progress bar on a terminal (`bar` forces it on or
    off); returns the pictures taken. Nothing is left under the name if it fails. `frame_log`
    hears the length of every frame the clip ran to its end."""
    # The dummy driver must be chosen before pygame starts: a clip needs no screen.
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    from game.app.filming import Take, film
    from game.app.loop import GameLoop
    from game.app.script import load_script

    take = Take(
        config, lesson, load_script(script) if script is not None else (), cues, lessons=lessons
    )
    watch = None
    if frame_log is not None:
        log = frame_log

        def watch(loop: GameLoop) -> None:
            log.frame(loop.last_plans[0].elapsed_ns)

    filmed = _filming(spec, bar, lambda sink, tell: film(take, spec, sink, tell, watch=watch))
    return filmed.taken


def _say_frame_log(args: argparse.Namespace) -> None:
    if args.frame_log is not None:
        print(f"wrote {args.frame_log}: the clip's frames as a PresentMon 1.x capture")


def _filming(
    spec: ClipSpec, bar: bool | None, shoot: Callable[[ClipSink, Callable[[int], None]], Made]
) -> Made:
    """Run `shoot` into the clip's sink with a progress bar on a terminal (`bar` forces it on or
    off), then encode; the clip gets its name only when whole (`written_whole`), and nothing is
    left under any name if it fails."""
    from rich.progress import Progress

    show = sys.stderr.isatty() if bar is None else bar
    with written_whole(spec.out, "--out", keep_suffix=True) as partial:  # ffmpeg reads .mp4
        sink = open_sink(spec, partial)
        try:
            with Progress(transient=True, disable=not show) as progress:
                task = progress.add_task(f"filming {spec.out.name}", total=spec.frame_count)
                made = shoot(sink, lambda done: progress.update(task, completed=done))
                progress.update(task, description=f"encoding {spec.out.name}")
                sink.close()
        except BaseException:
            sink.discard()  # the encoder let go of; the file itself goes with `written_whole`
            raise
    return made
