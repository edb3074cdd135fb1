"""`ReadoutBuilder`: the HUD's `Readout` for one picture, put together in one place.

The HUD draws a `Readout` (`game.session.readout`) and decides nothing. What it says comes from
four places: the session (each lane's figures), the loop (fps, the frame's time and work, the
render cap, vsync), the lessons and the loop's status (the caption, the menu), and the live
judder meter (the DISPLAY rows). They meet here, once for each picture the loop draws. While
the rewatch plays, the HUD is the one kept with the picture, as the rewatch captions it.
"""

from __future__ import annotations

from typing import NamedTuple

from game.app.caption import StatusMessage, caption_for
from game.app.judder_watch import JudderWatch
from game.app.lesson_guide import LessonGuide
from game.app.window import Window
from game.session.readout import Readout
from game.session.rewatch import Rewatch
from game.session.session import LabSession
from timestep_lab import NS_PER_MS


class LoopFigures(NamedTuple):
    """What the loop measured on its clock, for one readout."""

    now_ns: int
    since_start_ns: int
    frame_ns: int
    """The last frame's wall time."""
    work_ns: int
    """The last frame's work: everything but the pacer's wait."""
    catching_up: FrameSoFar | None = None
    """Set while a frame is still running its ticks (a redraw in the middle of a catch-up)."""
    clock: str = ""
    """Which clock runs the frames, as the clock row says it ("" with no switch)."""
    capture: str = ""
    """The capture playing and where in it, as the capture row says it ("" with none)."""


class FrameSoFar(NamedTuple):
    """A frame still running its ticks, as far as it has got."""

    ticks_run: int
    in_frame_ns: int
    """The wall time the frame has taken so far: the lanes' lag grows by it."""


class ReadoutBuilder:
    """Builds each picture's `Readout` from the session, the loop's figures, the lessons, the
    loop's status message and the live judder meter."""

    def __init__(
        self,
        session: LabSession,
        window: Window,
        lessons: LessonGuide,
        message: StatusMessage,
        judder: JudderWatch,
    ) -> None:
        self.session = session
        self.window = window
        self.lessons = lessons
        self.message = message
        self.judder = judder

    def live(self, figures: LoopFigures) -> Readout:
        """The readout of the game as it is now."""
        session = self.session
        controls = session.controls
        history = session.lanes[0].history.window(1.0)
        span = float(history.wall_s[-1] - history.wall_s[0]) if len(history) > 1 else 0.0
        catching_up = figures.catching_up
        lesson_caption = self.lessons.caption()
        cap = None if figures.capture else controls.fps_cap  # a capture's frames set the pace
        caption = caption_for(
            lesson_caption,
            catching_up_ticks=None if catching_up is None else catching_up.ticks_run,
            message=self.message.at(figures.now_ns),
            since_start_ns=figures.since_start_ns,
        )
        return Readout(
            lanes=session.lane_readouts(0 if catching_up is None else catching_up.in_frame_ns),
            fps=(len(history) - 1) / span if span > 0 else 0.0,
            frame_ms=figures.frame_ns / NS_PER_MS,
            work_ms=figures.work_ns / NS_PER_MS,
            frame_budget_ms=1000 / cap if cap else 0.0,
            render_cap=str(controls.fps_cap) if controls.fps_cap else "uncapped",
            vsync=self.window.vsync_active,
            step_cost_ms=float(controls.step_cost_ms),
            interpolation=controls.interpolation,
            presentation=controls.presentation,
            show_graphs=controls.graphs,
            show_help=controls.help,
            caption=caption,
            lasting_caption=lesson_caption,
            menu=self.lessons.menu(),
            books_since=session.books_since,
            display=self.judder.readout,
            clock=figures.clock,
            capture=figures.capture,
            network=None if session.rollback is None else session.rollback.readout(),
            watch=self.lessons.watch(),
        )

    def rewatched(self, rewatch: Rewatch) -> Readout:
        """While W plays: the readout kept with the picture showing, captioned as a rewatch,
        its DISPLAY rows included: every row says what it said at that instant, as the graphs
        do (`Rewatch.histories`)."""
        kept = rewatch.readout()
        if kept is None:
            raise ValueError("no rewatch is playing")
        return kept
