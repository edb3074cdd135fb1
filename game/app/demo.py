"""A lesson step's demo, played by the real game on the lesson clock, its frames written down.

A caption's claim ("judder about 130 %", "three taps in four lost") must hold on any laptop, so
the demo does not run on the wall clock: it runs on the clip's clock (`game.app.filming`), which
only the game moves. Each frame lasts what the step's frame-rate cap says, each tick's step cost
is counted rather than burned, a stall is counted as the time it lasts, and the demo's keys go
through the real event queue and key map at their second of game time. So the frames, and every
figure measured from them, are the same on every machine, and the handout's clip of a step
(filmed by the same run) shows exactly what the check measured.

The run is filmed either way: into a clip for the handout, or into `NO_PICTURES` for the check
(a small window and a few pictures a second, thrown away), so that both end at the same instant.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from game.app.filming import Progress, Take, film
from game.app.key_names import KEY_CODES
from game.app.loop import GameLoop
from game.app.script import Press
from game.config.loading import load_config
from game.config.model import GameConfig
from game.session.drawn import drawn_time_ns
from game.workshop.claims.record import DemoFrame, DemoRun
from game.workshop.clips.files import ClipSink, ClipSpec, NoPictures
from game.workshop.files.lessons import Demo, Lesson
from timestep_lab import NS_PER_MS, NS_PER_SECOND, round_ns

CHECK_SIZE = (320, 240)
"""The window a check runs in: the smallest, since nothing looks at it (the size changes
only the pixels, never the time: drawing a frame costs the same on the lesson clock)."""
CHECK_FPS = 5


class DemoRecorder:
    """Shown the loop after each frame: writes the frame down as a `DemoFrame`."""

    def __init__(self) -> None:
        self.frames: list[DemoFrame] = []
        self._wall_ns = 0

    def __call__(self, loop: GameLoop) -> None:
        plans = loop.last_plans
        if not plans:
            return
        self._wall_ns += plans[0].elapsed_ns
        session = loop.session
        interpolation = session.controls.interpolation
        self.frames.append(
            DemoFrame(
                wall_ns=self._wall_ns,
                plans=plans,
                drawn_ns=tuple(round_ns(drawn_time_ns(plan, interpolation)) for plan in plans),
                inputs=tuple(lane.counts for lane in session.inputs.lanes),
                rollback=None if session.rollback is None else session.rollback.last_frame,
            )
        )


def demo_presses(demo: Demo) -> tuple[Press, ...]:
    """The demo's keys as a script's presses, at whole ns of game time."""
    presses = []
    for key in demo.keys:
        *modifiers, name = key.key.split("+")
        at_ns = round_ns(key.at_s * NS_PER_SECOND)
        presses.append(Press(at_ns, key=KEY_CODES[name], modifiers=tuple(modifiers)))
    return tuple(presses)


def demo_spec(demo: Demo, out: Path, size: tuple[int, int], fps: int) -> ClipSpec:
    """The clip of a whole demo: its last picture is taken as the demo ends, at any fps."""
    width, height = size
    return ClipSpec(out, width, height, fps, demo.seconds + Fraction(1, fps))


def play_demo(
    lesson: Lesson,
    number: int,
    *,
    config: GameConfig | None = None,
    spec: ClipSpec | None = None,
    sink: ClipSink | None = None,
    progress: Progress | None = None,
) -> DemoRun:
    """Start step `number` (1-based) of `lesson`, play its demo, and return its frames; filmed
    into `sink` by `spec` if given (`demo_spec`), else into nothing."""
    demo = lesson.steps[number - 1].demo
    if demo is None:
        raise ValueError(f"lesson {lesson.number} step {number} has no demo")
    if spec is None or sink is None:
        spec, sink = demo_spec(demo, Path("check.mp4"), CHECK_SIZE, CHECK_FPS), NoPictures()
    if config is None:
        size = [f"render.width={spec.width}", f"render.height={spec.height}"]
        config = load_config(None, size)
    jitter_ns = round_ns(demo.jitter_ms * NS_PER_MS)
    take = Take(
        config,
        (lesson.number, number),
        demo_presses(demo),
        lessons=(lesson,),
        drawing_jitter_ns=jitter_ns,
    )
    recorder = DemoRecorder()
    filmed = film(take, spec, sink, progress, watch=recorder)
    return DemoRun(tuple(recorder.frames), filmed.taken)
