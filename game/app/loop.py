"""`GameLoop`: the real-time loop, and the only owner of the wall clock.

One frame, in order:

    read events -> requests     (keys become actions and changes; clicks, drags, focus)
    stall, if one was asked for (really block, like a GC pause: the time lands in this frame)
    measure the wall delta      (the one place the frame's duration is read: `next_frame`)
    frame = session.begin(delta)
    while frame.next_tick():    (the scheduler planned, the loop steps: one tick at a time,
        between ticks           each followed by the tick's CPU cost and, now and then, a look
                                at the keyboard and a redraw)
    frame.finish()              (unrun ticks go back to the scheduler; waiting changes are made)
    draw the view at alpha      (read-only, interpolated; then the HUD)
    flip, then pace             (sleep, then spin, to the next frame's deadline)

While a long catch-up runs (the spiral of death), the loop still reads events every 100 ms of
stepping and redraws every 250 ms, so the player can switch the policy and get out: a change of
how time is handled stops the frame's remaining ticks (the session's rule), and is made once the
frame has finished.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pygame

from game.app.caption import caption_for
from game.app.input import Aim, AvatarKey, Drag, Focus, InputReader, MenuKey, Request, Resize
from game.app.lesson_guide import LessonGuide
from game.app.pacer import FramePacer
from game.app.picture import Picture
from game.app.screenshots import numbered_name, save_picture
from game.app.script import Press, ScriptPlayer
from game.app.window import Window
from game.clock.units import NS_PER_MS, NS_PER_SECOND
from game.clock.wall import MeasuredClock
from game.scheduler.plan import StepPlan
from game.session.controls import Act, Action, ControlsChange
from game.session.frame import Frame
from game.session.instant_replay import DrawnFrame, InstantReplay
from game.session.readout import Readout
from game.session.session import LabSession

POLL_EVERY_NS = 100 * NS_PER_MS
"""While stepping, look at the event queue at least this often."""
REDRAW_EVERY_NS = 250 * NS_PER_MS
"""While stepping, redraw at least this often, so the window never looks frozen."""
MESSAGE_NS = 3 * NS_PER_SECOND
MAX_STALL_NS = 2 * NS_PER_SECOND
"""Stalls asked for before the loop could carry them out add up to at most this much."""


@dataclass(frozen=True, slots=True)
class LoopOptions:
    """How this run of the loop should behave, beyond the game's settings."""

    frames: int | None = None
    """Quit after this many frames (tests, screenshots, workshops)."""
    screenshot: Path | None = None
    """Save the last frame here on exit."""
    script: tuple[Press, ...] = ()
    pause_on_focus_loss: bool = True
    screenshot_dir: Path = Path("screenshots")
    graph_seconds: float = 5.0
    print_hash: bool = True
    """Print `final tick T state HASH` on exit (what `replay` prints too)."""


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
    ) -> None:
        self.session = session
        self.window = window
        self.clock = clock
        self.options = options or LoopOptions()
        self.pacer = FramePacer(session.controls.fps_cap or None)
        self.picture = Picture(self.options.graph_seconds)
        self.hud = self.picture.hud
        self.frames = 0
        self.quitting = False
        self._input = InputReader()
        self.lessons = lessons or LessonGuide()
        self._script = ScriptPlayer(self.options.script)
        self._started_ns = self._last_ns = clock.start_frames()
        self._last_wait_ns = 0
        self._work_ns = 0
        self._frame_ns = 0
        self._auto_paused = False
        self._message = ""
        self._message_until = 0
        self._stall_ns = 0
        """A real stall asked for, carried out at the next frame boundary."""
        self._quit_asked_until = 0
        """Until then, a second Esc quits."""
        self._frame: Frame | None = None
        """The frame being stepped, while its ticks run."""
        self._last_poll = 0
        self._last_redraw = 0
        self._screenshot_requested = False
        self.last_plans: tuple[StepPlan, ...] = ()
        self.replay = InstantReplay()

    # -- running ----------------------------------------------------------------------------------

    def run(self) -> int:
        """Run until quit (or `frames` frames); print the final tick and state hash."""
        self.warm_up()
        while self.run_frame():
            pass
        if self.options.screenshot is not None:
            self.save_screenshot(self.options.screenshot)
        if self.options.print_hash:
            world = self.session.lanes[0].world
            print(f"final tick {world.tick} state {world.state_hash()}", flush=True)
        return 0

    def warm_up(self) -> None:
        """Draw once before the clock starts: fonts and sprites are painted on first use, and
        that one-off cost should not arrive as a long first frame (and dropped time)."""
        self._draw()
        pygame.display.flip()
        pygame.event.pump()
        self._started_ns = self._last_ns = self.clock.start_frames()

    def run_frame(self) -> bool:
        """One frame. Returns False once the game should stop."""
        self._script.post_due(self.clock.now_ns() - self._started_ns, self._to_pixels)
        self._read_events()
        if self.quitting:
            return False
        self._carry_out_stall()
        if (elapsed := self.clock.next_frame()) is None:  # the source has no frame left
            return False
        now = self._last_ns = self._last_ns + elapsed
        self._frame_ns = elapsed
        self._work_ns = max(0, elapsed - self._last_wait_ns)
        self._last_poll = self._last_redraw = now
        self._advance_replay(elapsed)
        frame = self._frame = self.session.begin(elapsed)
        while frame.next_tick():
            self._between_ticks(frame)
        self._frame = None
        self.last_plans = frame.finish()
        self._draw()
        pygame.display.flip()
        self.session.inputs.flipped(self.clock.now_ns() - self._started_ns)
        self._save_requested_screenshot()
        self.frames += 1
        cap = self.session.controls.fps_cap or None
        if self.pacer.cap_fps != cap:  # F, a lesson or a script changed the render-rate cap
            self.pacer.set_cap(cap)
        self._last_wait_ns = self.pacer.wait(self.clock)
        if self.options.frames is not None and self.frames >= self.options.frames:
            return False
        return not self.quitting

    def _between_ticks(self, frame: Frame) -> None:
        """After each tick: spend its CPU cost; now and then read the keyboard and redraw.

        Events are read at least every 100 ms of stepping and the screen redrawn every 250 ms,
        so even a frame that owes thousands of ticks (the spiral) answers the keyboard.
        """
        cost = self.session.controls.step_cost_ns
        if cost:
            self.clock.busy_wait_ns(cost)  # the tick's real CPU work
        elif frame.ticks_run % 64:
            return  # cheap ticks: look at the clock less often
        now = self.clock.now_ns()
        if now - self._last_poll >= POLL_EVERY_NS:
            self._poll(frame)
        if now - self._last_redraw >= REDRAW_EVERY_NS or self._screenshot_requested:
            self._last_redraw = now
            self._draw(catching_up=True)
            pygame.display.flip()
            self._save_requested_screenshot()
            self._poll(frame)  # a slow redraw (a huge window) delays no key

    def _poll(self, frame: Frame) -> None:
        self._last_poll = self.clock.now_ns()
        self._read_events()
        if self.quitting:
            frame.stop()

    # -- events and actions -----------------------------------------------------------------------

    def _read_events(self) -> None:
        for event in pygame.event.get():
            request = self._input.read(event, menu_open=self.lessons.menu_open)
            if request is not None:
                self._carry_out(request)

    def _advance_replay(self, elapsed_ns: int) -> None:
        if self.replay.playing:
            self.replay.advance(elapsed_ns, self.session)
            if not self.replay.playing:
                self._say("back to live")

    def _carry_out(self, request: Request) -> None:
        if self.replay.playing and not isinstance(request, Action | Focus | Resize):
            return  # no aiming or dragging at a film
        match request:
            case Action():
                self.perform(request)
            case MenuKey(key=key):
                self.lessons.key_in_menu(key, self.session)
            case Aim(pixel=pixel):
                target = self.picture.world_point(self.session, pixel)
                if target is not None:
                    self.perform(Action(Act.FIRE, x=target[0], y=target[1]))
            case Drag(start=start, end=end):
                self._drag(start, end)
            case Focus(gained=gained):
                if gained:
                    self._focus_back()
                else:
                    self._focus_lost()
            case Resize(width=width, height=height):
                self.window.resized(width, height)
            case AvatarKey(button=button, down=down):
                # The edge carries the time it was read, in the session's wall time.
                self.session.inputs.edge(button, down, self.clock.now_ns() - self._started_ns)

    def perform(self, action: Action) -> None:
        """Carry out one action: the app's own (quit, stall, screen) or the session's. Safe at
        any moment, between frames or between two ticks of one."""
        act = action.act
        if self.replay.playing and act not in _DURING_REPLAY:
            self._say("this is a replay: W to go back to live first")
            return
        if act is Act.INSTANT_REPLAY:
            self._toggle_replay()
        elif act is Act.QUIT:
            self.quitting = True
        elif act is Act.ESCAPE:
            self._escape()
        elif act is Act.STALL:
            self._stall_ns = min(MAX_STALL_NS, self._stall_ns + action.number * NS_PER_MS)
        elif act is Act.SCREENSHOT:
            self._screenshot_requested = True
        elif act is Act.FULLSCREEN:
            self.window.toggle_fullscreen()
        else:
            if act is Act.LESSON_MENU:
                message = self.lessons.toggle_menu()
            elif act is Act.NEXT_LESSON_STEP:
                message = self.lessons.next_step(self.session)
            else:
                message = self.session.apply(action)
            if message:
                self._say(message)

    def _toggle_replay(self) -> None:
        """W: replay the last 2 s at 1/10 speed (the session paused meanwhile), or stop it."""
        if self.replay.playing:
            self.replay.stop(self.session)
            self._say("back to live")
            return
        message = self.replay.start(self.clock.now_ns(), self.session)
        if message:
            self._say(message)

    def _escape(self) -> None:
        """Esc closes what is open, the most recent first; with nothing open it asks once
        before quitting (a stray Esc in front of a room should not end the demo)."""
        now = self.clock.now_ns()
        if self.replay.playing:
            self._toggle_replay()
        elif self.session.wanted_controls.help:
            self.session.change(ControlsChange(help=False))
        elif now < self._quit_asked_until:
            self.quitting = True
        else:
            self._quit_asked_until = now + MESSAGE_NS
            self._say("press Esc again to quit (Q quits at once)")

    def _carry_out_stall(self) -> None:
        """Really block, at the frame boundary: the stalled time is the next frame's elapsed
        time, planned under the controls in force now. Keys pressed during the stall are read
        once it ends (between that frame's ticks, or before the next frame)."""
        if self._stall_ns:
            stall, self._stall_ns = self._stall_ns, 0
            self.clock.block_ns(stall)
            self._say(f"stalled the loop for {stall // NS_PER_MS} ms")

    def _drag(self, start: tuple[int, int], end: tuple[int, int]) -> None:
        """A right-drag moves the body under `start` to `end`, by a tick-stamped teleport."""
        body = self.picture.body_at(self.session, start)
        target = self.picture.world_point(self.session, end)
        if body is not None and target is not None:
            self._say(self.session.teleport(body, *target))

    def _focus_lost(self) -> None:
        if self.options.pause_on_focus_loss and not self.session.wanted_controls.paused:
            self.session.change(ControlsChange(paused=True))  # also ends a catch-up
            self._auto_paused = True
            self._say("paused: the window lost focus")

    def _focus_back(self) -> None:
        if self._auto_paused:
            self._auto_paused = False
            self.session.change(ControlsChange(paused=False))
            self._say("resumed (the hidden time was not billed)")

    def _say(self, message: str) -> None:
        self._message = message
        self._message_until = self.clock.now_ns() + MESSAGE_NS

    # -- drawing ----------------------------------------------------------------------------------

    def _draw(self, catching_up: bool = False) -> None:
        replayed = self.replay.showing()
        if replayed is not None:
            readout = self.replay.readout() or self.readout()
            self.picture.draw(
                self.window.surface, self.session, readout, views=replayed.frame.views
            )
            return
        readout = self.readout(catching_up)
        views = self.picture.draw(
            self.window.surface, self.session, readout, catching_up=catching_up
        )
        if not catching_up:
            self.replay.keep(DrawnFrame(self._last_ns, views, readout))

    def _lane_rects(self) -> list[pygame.Rect]:
        """Where each lane's arena is, as laid out for the current readout."""
        layout = self.picture.layout(self.window.size, self.readout())
        return [pygame.Rect(a.x, a.y, a.w, a.h) for a in layout.arenas]

    def readout(self, catching_up: bool = False) -> Readout:
        controls = self.session.controls
        history = self.session.lanes[0].history.window(1.0)
        span = float(history.wall_s[-1] - history.wall_s[0]) if len(history) > 1 else 0.0
        fps = (len(history) - 1) / span if span > 0 else 0.0
        now = self.clock.now_ns()
        caption = caption_for(
            self.lessons.caption(),
            catching_up_ticks=(self._frame.ticks_run if self._frame else 0)
            if catching_up
            else None,
            message=self._message if now < self._message_until else "",
            since_start_ns=now - self._started_ns,
        )
        return Readout(
            lanes=self.session.lane_readouts(
                in_frame_ns=self.clock.now_ns() - self._last_ns if catching_up else 0
            ),
            fps=fps,
            frame_ms=self._frame_ns / NS_PER_MS,
            work_ms=self._work_ns / NS_PER_MS,
            frame_budget_ms=1000 / controls.fps_cap if controls.fps_cap else 0.0,
            render_cap=str(controls.fps_cap) if controls.fps_cap else "uncapped",
            vsync=self.window.vsync_active,
            step_cost_ms=float(controls.step_cost_ms),
            interpolation=controls.interpolation,
            presentation=controls.presentation,
            show_graphs=controls.graphs,
            show_help=controls.help,
            caption=caption,
            menu=self.lessons.menu(),
            books_since=self.session.books_since,
        )

    # -- screenshots ------------------------------------------------------------------------------

    def save_screenshot(self, path: Path) -> Path:
        return save_picture(self.window.surface, path)

    def _save_requested_screenshot(self) -> None:
        """F12 saves the next picture drawn: after the frame, or mid catch-up at the next
        redraw (so a screenshot of a spiral does not wait for the spiral to end)."""
        if not self._screenshot_requested:
            return
        self._screenshot_requested = False
        path = numbered_name(self.options.screenshot_dir, self.frames)
        try:
            self._say(f"screenshot saved: {self.save_screenshot(path)}")
        except (OSError, pygame.error) as problem:
            self._say(f"screenshot failed: {problem}")

    def _to_pixels(self, x: float, y: float) -> tuple[int, int]:
        """Where a point in metres is on screen (for scripted clicks), in the first lane."""
        return self.picture.to_pixels(self.session, x, y, self._lane_rects()[0])


_DURING_REPLAY = frozenset(
    {Act.INSTANT_REPLAY, Act.QUIT, Act.ESCAPE, Act.SCREENSHOT, Act.FULLSCREEN}
)
"""The keys that work while a replay plays; any other key waits for live play."""
