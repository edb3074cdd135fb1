"""`GameLoop`: the real-time loop, and the only owner of the wall clock.

One frame, in order:

    read events -> requests     (keys, clicks, drags, focus: each carried out by the
                                `Dispatcher`, the app's own actions there, the rest by the session)
    stall, if one was asked for (really block, like a GC pause: the time lands in this frame)
    measure the wall delta      (`_measure_frame`: the one place the frame's duration is read)
    frame = session.begin(delta)  (a rollback re-simulates here: each tick costs its CPU work)
    while frame.next_tick():    (the scheduler planned, the loop steps: one tick at a time,
        between ticks           each followed by the tick's CPU cost and, now and then, a look
                                at the keyboard and a redraw)
    frame.finish()              (unrun ticks go back to the scheduler; waiting changes are made)
    draw the view at alpha      (read-only, interpolated; then the HUD, saying the one `Readout`
                                `ReadoutBuilder` puts together for this picture)
    flip, then pace             (sleep, then spin, to the next frame's deadline)

While a long catch-up runs (the spiral of death), the loop still reads events every 100 ms of
stepping and redraws every 250 ms, so the player can switch the policy and get out: a change of
how time is handled stops the frame's remaining ticks (the session's rule), and is made once the
frame has finished.
"""

from __future__ import annotations

import pygame

from game.app.caption import StatusMessage
from game.app.dispatcher import Dispatcher
from game.app.input import InputReader
from game.app.lesson_guide import LessonGuide
from game.app.lesson_time import SwitchedClock, paced, with_clock_rows
from game.app.loop_options import LoopOptions
from game.app.pacer import FramePacer
from game.app.picture import Picture
from game.app.readout_builder import FrameSoFar, LoopFigures, ReadoutBuilder
from game.app.script import ScriptPlayer
from game.app.window import Window
from game.clock.wall import MeasuredClock
from game.session.frame import Frame
from game.session.readout import Readout
from game.session.rewatch import DrawnFrame, Rewatch
from game.session.session import LabSession
from game.stopping import stop_point
from game.workshop.runs.match import Match
from timestep_lab import NS_PER_MS, StepPlan

POLL_EVERY_NS = 100 * NS_PER_MS
"""While stepping, look at the event queue at least this often."""
REDRAW_EVERY_NS = 250 * NS_PER_MS
"""While stepping, redraw at least this often, so the window never looks frozen."""


class GameLoop:
    """Ties the wall clock, the session, the renderer and the HUD into a playable game."""

    def __init__(
        self,
        session: LabSession,
        window: Window,
        clock: MeasuredClock,
        options: LoopOptions | None = None,
        *,
        lessons: LessonGuide | None = None,
        match: Match | None = None,
    ) -> None:
        self.session = session
        self.match = match
        """A real peer's game (`--host`, `--join`): the first frame waits for the agreed start."""
        self.window = window
        self.options = options or LoopOptions()
        self.pacer = FramePacer(session.controls.fps_cap or None)
        self.picture = Picture(self.options.graph_seconds)
        self.hud = self.picture.hud
        self.lessons = lessons or LessonGuide()
        self.rewatch = Rewatch()
        message = StatusMessage()
        lesson_clock = self.options.lesson_clock
        self.clock = SwitchedClock(clock, session, self.lessons, message) if lesson_clock else clock
        self.dispatcher = Dispatcher(
            session,
            window,
            self.clock,
            self.picture,
            self.lessons,
            self.rewatch,
            message,
            pause_on_focus_loss=self.options.pause_on_focus_loss,
            screenshot_dir=self.options.screenshot_dir,
            since_start=self._since_start,
        )
        self._readouts = ReadoutBuilder(session, window, self.lessons, message, self.picture.judder)
        self.frames = 0
        self.last_plans: tuple[StepPlan, ...] = ()
        self._input = InputReader()
        self._script = ScriptPlayer(self.options.script)
        self._started_ns = self._last_ns = self.clock.start_frames()
        self._last_wait_ns = self._work_ns = self._frame_ns = 0
        self._last_poll = self._last_redraw = 0
        self._frame: Frame | None = None
        """The frame being stepped, while its ticks run."""

    # -- running ----------------------------------------------------------------------------------

    def run(self) -> int:
        """Run until quit (or `frames` frames); print the final tick and state hash."""
        self.warm_up()
        while self.run_frame():
            pass
        if self.options.screenshot is not None:
            self.dispatcher.save_screenshot(self.options.screenshot)
        if self.options.print_hash:
            world = self.session.lanes[0].world
            print(f"final tick {world.tick} state {world.state_hash()}", flush=True)
        return 0

    def warm_up(self) -> None:
        """Draw once before the clock starts: painting fonts is no long first frame then."""
        self._draw()
        pygame.display.flip()
        pygame.event.pump()
        stop_point("window")
        if self.match is not None:
            self.match.wait_for_start(self.clock)
        self._started_ns = self._last_ns = self.clock.start_frames()

    def run_frame(self) -> bool:
        """One frame, in the order of the module's docstring. False once the game should stop."""
        self._script.post_due(self._since_start(), self._to_pixels)
        self._read_events()
        if self.dispatcher.quitting:
            return False
        self.dispatcher.carry_out_stall()
        if (elapsed := self._measure_frame()) is None:  # the source has no frame left
            return False
        self.dispatcher.let_time_pass(elapsed)
        frame = self._frame = self.session.begin(elapsed)
        if frame.resimulated:  # a rollback ran ticks again in begin(): each costs a tick's work
            self.clock.busy_wait_ns(self.session.controls.step_cost_ns * frame.resimulated)
        while frame.next_tick():
            self._between_ticks(frame)
        self._frame = None
        self.last_plans = frame.finish()
        self._draw()
        pygame.display.flip()
        self.session.inputs.flipped(self._since_start())
        self.dispatcher.save_requested_screenshot(self.frames)
        self.frames += 1
        self._pace()
        if self.match is not None:
            self.dispatcher.say_if(self.match.after_frame(self.session))
            if self.match.over(self.session):
                return False
        if self.options.frames is not None and self.frames >= self.options.frames:
            return False
        return not self.dispatcher.quitting

    def _measure_frame(self) -> int | None:
        """The frame's elapsed time, the one place it is read (None: the source has ended)."""
        if (elapsed := self.clock.next_frame()) is None:
            return None
        now = self._last_ns = self._last_ns + elapsed
        self._frame_ns = elapsed
        self._work_ns = max(0, elapsed - self._last_wait_ns)
        self._last_poll = self._last_redraw = now
        return elapsed

    def _between_ticks(self, frame: Frame) -> None:
        """After each tick: spend its CPU cost; now and then read the keyboard and redraw.

        Events are read at least every 100 ms of stepping and the screen redrawn every 250 ms,
        so even a frame that owes thousands of ticks (the spiral) answers the keyboard.
        """
        self.rewatch.after_tick(frame, self.session.lanes)  # a catch-up's ticks, one by one
        cost = self.session.controls.step_cost_ns
        if cost:
            self.clock.busy_wait_ns(cost)  # the tick's real CPU work
        elif frame.ticks_run % 64:
            return  # cheap ticks: look at the clock less often
        now = self.clock.now_ns()
        if now - self._last_poll >= POLL_EVERY_NS:
            self._poll(frame)
        if now - self._last_redraw >= REDRAW_EVERY_NS or self.dispatcher.screenshot_requested:
            self._last_redraw = now
            self._draw(catching_up=True)
            pygame.display.flip()
            self.dispatcher.save_requested_screenshot(self.frames)
            self._poll(frame)  # a slow redraw (a huge window) delays no key

    def _poll(self, frame: Frame) -> None:
        self._last_poll = self.clock.now_ns()
        self._read_events()
        if self.dispatcher.quitting:
            frame.stop()

    def _pace(self) -> None:
        """Wait for the next frame's deadline, or for a capture's frame's end (`paced`)."""
        cap = self.session.controls.fps_cap or None  # F, a lesson or a script may change it
        self._last_wait_ns = paced(self.clock, self.pacer, cap)

    def _since_start(self) -> int:
        """The session's wall time: since the loop started (after the warm-up draw)."""
        return self.clock.now_ns() - self._started_ns

    def _read_events(self) -> None:
        """Each event in the queue, as a request, carried out by the dispatcher."""
        for event in pygame.event.get():
            request = self._input.read(event, menu_open=self.lessons.menu_open)
            if request is not None:
                self.dispatcher.carry_out(request)

    # -- drawing ----------------------------------------------------------------------------------

    def _draw(self, catching_up: bool = False) -> None:
        """The picture: the rewatch's while it plays, else the live worlds. A picture
        drawn after its frame's ticks is first seen by the live judder meter (its DISPLAY rows
        go in the readout), then kept for the rewatch."""
        surface, session = self.window.surface, self.session
        rewatched = self.rewatch.showing()
        if rewatched is not None:
            readout, histories = self._readouts.rewatched(self.rewatch), self.rewatch.histories()
            self.picture.draw(surface, session, readout, views=rewatched.views, histories=histories)
            return
        if not catching_up:
            self.picture.judder.drew(session)
        readout = self.readout(catching_up)
        views = self.picture.draw(surface, session, readout, catching_up=catching_up)
        if not catching_up:
            self.rewatch.keep(DrawnFrame.of(self._last_ns, views, readout, session))

    def readout(self, catching_up: bool = False) -> Readout:
        """What the HUD says now (`ReadoutBuilder`); mid catch-up, with the open frame's ticks."""
        now = self.clock.now_ns()
        ticks_run = self._frame.ticks_run if self._frame else 0
        in_frame = FrameSoFar(ticks_run, now - self._last_ns) if catching_up else None
        figures = LoopFigures(now, now - self._started_ns, self._frame_ns, self._work_ns, in_frame)
        return self._readouts.live(with_clock_rows(figures, self.clock))

    def _lane_rects(self) -> list[pygame.Rect]:
        """Where each lane's arena is, as laid out for the current readout."""
        layout = self.picture.layout(self.window.size, self.readout())
        return [pygame.Rect(a.x, a.y, a.w, a.h) for a in layout.arenas]

    def _to_pixels(self, x: float, y: float) -> tuple[int, int]:
        """Where a point in metres is on screen (for scripted clicks), in the first lane."""
        return self.picture.to_pixels(self.session, x, y, self._lane_rects()[0])
