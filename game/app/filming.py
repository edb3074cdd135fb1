"""Filming the real game: the `GameLoop` on a `ManualClock`, a picture every 1/fps s of its time.

A clip must be the game itself (the same loop, pacer, renderer and HUD), identical run to run,
and made without a screen. So the loop runs on the dummy video driver with a `ManualClock`, whose
time moves only when the loop spends it (the pacer's sleeps, the ticks' CPU cost, a stall, the
frame's drawing): nothing is measured, everything is counted, and a 10 s clip covers exactly
10 s of game time however long it takes to render.

The camera sits on the clock. Whenever time is about to pass, the window holds the last picture
the loop drew, and it stays on screen until the clock moves again (the loop never draws while
the clock moves). So every picture instant inside that stretch of time sees that picture: a
2 s stall films as 2 s of a frozen screen, a long catch-up as its redraws every 250 ms, exactly
as a screen recorder would have seen them.

The camera films fewer frames than the game draws (a lesson runs at 144 fps, its clip is 30), so
a frame is painted only if it is filmed. Which frames are is known too late: frame k is filmed
if a picture instant passes before frame k + 1 is drawn, and by then the game has moved on (the
next frame's ticks run while frame k is on screen; the camera may film it in their middle, as
in a stall or a catch-up). So every frame is *drawn* as it comes, everything a frame must do
whether or not anyone looks (its views, the trails' dots, the graphs' bars: `Picture.draw`),
and kept as a `FrameToPaint` holding values of all its painting reads; the camera paints it
just before its first shot of it (`FilmingClock.develop`), and the next frame drawn drops it if
it was never filmed. The clip is the same, byte for byte, as one painted every frame
(`tests/test_filming_on_demand.py`); about two frames in three are never painted.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass

import pygame

from game.app.captures import lesson_capture
from game.app.lesson_guide import LessonGuide
from game.app.loop import GameLoop
from game.app.loop_options import LoopOptions
from game.app.script import Press
from game.app.window import Window
from game.clock.captured import CapturedClock
from game.clock.manual import ManualClock
from game.clock.virtual import FrameJitter
from game.config.model import GameConfig
from game.from_config import session_from
from game.session.controls import Action
from game.session.frame import Frame
from game.session.session import LabSession
from game.workshop.clips.cues import DRAWING_NS, ScenarioCues
from game.workshop.clips.files import ClipSink, ClipSpec, Pixels
from game.workshop.files.lessons import Lesson, find_lesson

Progress = Callable[[int], None]
"""Told how many pictures have been taken so far."""
Watch = Callable[[GameLoop], None]
"""Shown the loop after each frame it ran (a lesson demo writes its frames down)."""


class FilmingClock(ManualClock):
    """A `ManualClock` with a camera: before its hands move from t to t + ns, every picture
    instant in [t, t + ns) is shot with what is on the window now."""

    def __init__(self, spec: ClipSpec, shoot: Callable[[int], None]) -> None:
        super().__init__()
        self.spec = spec
        self._shoot = shoot
        self._origin: int | None = None
        self._pictures = spec.frame_count  # asked before every move of the hands: once here
        self.taken = 0
        self.develop: Callable[[], None] | None = None
        """Makes the window show the last frame drawn, before a shot (`Picture.paint_pending`)."""

    def start(self) -> None:
        """Picture 0 is taken at this instant."""
        self._origin = self.now_ns()

    def since_start_ns(self) -> int:
        return self.now_ns() - (self._origin or 0)

    @property
    def done(self) -> bool:
        return self.taken >= self._pictures

    def _about_to_pass(self, ns: int) -> None:
        if self._origin is None or ns <= 0:
            return
        end = self.now_ns() + ns - self._origin
        count = 0
        while (
            self.taken + count < self._pictures and self.spec.instant_ns(self.taken + count) < end
        ):
            count += 1
        if count:
            if self.develop is not None:
                self.develop()
            self._shoot(count)
            self.taken += count

    def move_on(self, ns: int) -> None:
        self._about_to_pass(ns)
        super().move_on(ns)

    def sleep_ns(self, ns: int) -> None:
        self._about_to_pass(ns)
        super().sleep_ns(ns)

    def busy_wait_ns(self, ns: int) -> None:
        self._about_to_pass(ns)
        super().busy_wait_ns(ns)

    def block_ns(self, ns: int) -> None:
        self._about_to_pass(ns)
        super().block_ns(ns)


class ScenarioLoop(GameLoop):
    """The game loop with a scenario's cues: inputs right before their tick (between two ticks
    of a frame if need be), as `game.workshop.runs.runner` applies them."""

    def __init__(
        self,
        session: LabSession,
        window: Window,
        clock: FilmingClock,
        options: LoopOptions,
        *,
        lessons: LessonGuide,
        cues: ScenarioCues,
    ) -> None:
        super().__init__(session, window, clock, options, lessons=lessons)
        self.cues = cues

    def cue_inputs(self) -> None:
        for item in self.cues.inputs_due(self.session.lanes[0].world.tick):
            if isinstance(item, Action):
                self.session.apply(item)
            else:
                self.session.change(item)

    def _between_ticks(self, frame: Frame) -> None:
        self.cue_inputs()
        super()._between_ticks(frame)


@dataclass(frozen=True, slots=True)
class Take:
    """What to film: the settings, and what drives the game (a lesson step, a script, cues)."""

    config: GameConfig
    lesson: tuple[int, int] | None = None
    """(lesson number, 1-based step)."""
    script: tuple[Press, ...] = ()
    cues: ScenarioCues | None = None
    drawing_jitter_ns: int = 0
    """Without cues, each frame's drawing costs `DRAWING_NS` and up to this much more, drawn
    from a seeded generator: the measured frame times wobble as a real machine's do."""
    lessons: tuple[Lesson, ...] | None = None
    """Where that lesson is found: the shipped lessons if None."""


@dataclass(frozen=True, slots=True)
class Filmed:
    taken: int
    """Pictures taken: `spec.frame_count`, or fewer if the game quit first (a script's Q)."""
    session: LabSession
    """The session as the clip left it (its books, its worlds)."""


def film(
    take: Take,
    spec: ClipSpec,
    sink: ClipSink,
    progress: Progress | None = None,
    watch: Watch | None = None,
    *,
    paint_every_frame: bool = False,
) -> Filmed:
    """Run the game and send its pictures to `sink`, one every 1/fps s of the game's time;
    `watch` sees the loop after every frame but the last (which the clip's end may cut).
    `paint_every_frame` paints the frames no picture shows as well, as the game does (the
    tests compare the two)."""
    window = Window(spec.width, spec.height, fullscreen=False, vsync=False)
    clock = FilmingClock(spec, lambda count: _shoot(window, sink, count, clock, progress))
    options = LoopOptions(
        script=take.script,
        pause_on_focus_loss=False,
        graph_seconds=float(take.config.hud.graph_seconds),
        print_hash=False,
    )
    session = session_from(take.config)
    lessons = LessonGuide(take.lessons)
    capture = _step_capture(take, lessons, clock)
    loop: GameLoop
    if take.cues is not None:
        loop = ScenarioLoop(session, window, clock, options, lessons=lessons, cues=take.cues)
    else:
        loop = GameLoop(session, window, capture or clock, options, lessons=lessons)
    loop.picture.on_demand = not paint_every_frame
    clock.develop = loop.picture.paint_pending
    if take.lesson is not None:
        number, step = take.lesson
        lessons.start(number, session)
        for _ in range(step - 1):
            lessons.next_step(session)
    pygame.event.clear()
    loop.warm_up()
    clock.start()
    jitter = FrameJitter(take.drawing_jitter_ns, seed=0)
    while not clock.done:
        _frame_boundary(loop, clock, take.cues, jitter)
        if not loop.run_frame():
            break
        if watch is not None:
            watch(loop)
    return Filmed(clock.taken, session)


def _step_capture(take: Take, lessons: LessonGuide, clock: FilmingClock) -> CapturedClock | None:
    """The filmed lesson step's capture (`capture` in its settings), on the filming clock: its
    frames last what the capture's did, exactly, and the camera films them at that pace."""
    if take.lesson is None:
        return None
    number, step = take.lesson
    name = find_lesson(lessons.lessons(), number).steps[step - 1].settings.capture
    return None if name is None else lesson_capture(clock, name)


def _frame_boundary(
    loop: GameLoop, clock: FilmingClock, cues: ScenarioCues | None, jitter: FrameJitter
) -> None:
    """Between two frames: the frame's drawing costs its time; a scenario's changes and stalls
    whose moment has come are carried out."""
    clock.move_on(DRAWING_NS + jitter.draw_ns() if cues is None else cues.frame_work_ns())
    if cues is None or not isinstance(loop, ScenarioLoop):
        return
    since_start = clock.since_start_ns()
    for change in cues.changes_due(since_start):
        loop.session.change(change)
    stall = cues.stall_due_ns(since_start)
    if stall:
        clock.block_ns(stall)
    loop.cue_inputs()


LAYOUTS: dict[tuple[int, int, int], Pixels] = {(16, 8, 0): "BGRX", (0, 8, 16): "RGBX"}
"""The bytes of a 32-bit pixel in memory, by the bit shifts of its red, green and blue (on a
little-endian machine: red shifted by 16 bits is the third byte)."""


def own_pixels(surface: pygame.Surface) -> Pixels | None:
    """How `surface` lays out its bytes, if a sink takes them as they are: 4 bytes a pixel,
    rows without padding, red, green and blue in one of the orders of `LAYOUTS`."""
    if surface.get_bytesize() != 4 or surface.get_pitch() != 4 * surface.get_width():
        return None
    if sys.byteorder != "little":
        return None
    red, green, blue, _ = surface.get_shifts()
    return LAYOUTS.get((red, green, blue))


def picture_of(surface: pygame.Surface) -> tuple[bytes, Pixels]:
    """The window's picture for a sink: its own bytes when it has a layout a sink takes (a copy
    of memory), or converted to RGBX (10 times the cost) when it has not."""
    pixels = own_pixels(surface)
    if pixels is not None:
        return surface.get_buffer().raw, pixels
    return pygame.image.tobytes(surface, "RGBX"), "RGBX"


def _shoot(
    window: Window, sink: ClipSink, count: int, clock: FilmingClock, progress: Progress | None
) -> None:
    sink.add(*picture_of(window.surface), count)
    if progress is not None:
        progress(clock.taken + count)
    if clock.taken + count >= clock.spec.frame_count:
        # The clip is complete: a long catch-up still running stops at its next look at the
        # keyboard (every 100 ms of stepping) instead of running to its end unseen.
        pygame.event.post(pygame.event.Event(pygame.QUIT))
