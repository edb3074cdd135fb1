"""`Dispatcher`: each request the keyboard, the mouse or the window makes, carried out.

The loop reads requests (`game.app.input`) between frames and, during a long catch-up, between
ticks, and hands each one here. The app's own actions are carried out here: quit and Esc, the
rewatch, the rewind, the lesson menu, full screen, clicks and drags on an arena, the window
losing focus and getting it back. Every other action goes to the session (`LabSession.apply`), whose
rule decides whether it waits for the frame to finish. Three belong to a moment of the frame,
so they are only noted here and carried out when the loop calls for them: a stall (at the next
frame boundary), a screenshot (once the next picture is drawn) and the time of the rewatch and
of the rewind (as each frame begins).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pygame

from game.app.caption import MESSAGE_NS, StatusMessage
from game.app.input import Aim, AvatarKey, Drag, Focus, MenuKey, Request, Resize, RewindKey
from game.app.lesson_guide import LessonGuide
from game.app.picture import Picture
from game.app.screenshots import numbered_name, save_picture
from game.app.window import Window
from game.clock.wall import Clock
from game.session.controls import Act, Action, ControlsChange
from game.session.match_rules import refusal
from game.session.rewatch import Rewatch
from game.session.rewind import Rewind
from game.session.session import LabSession
from timestep_lab import NS_PER_MS, NS_PER_SECOND

MAX_STALL_NS = 2 * NS_PER_SECOND
"""Stalls asked for before the loop could carry them out add up to at most this much."""
DURING_REWATCH = frozenset({Act.REWATCH, Act.QUIT, Act.ESCAPE, Act.SCREENSHOT, Act.FULLSCREEN})
"""The keys that work while a rewatch plays; any other key waits for live play."""
DURING_REWIND = frozenset({Act.QUIT, Act.ESCAPE, Act.SCREENSHOT, Act.FULLSCREEN})
"""The keys that work while the rewind key is held; any other is ignored until its release."""


class Dispatcher:
    """Carries out requests: the app's own actions here, the rest by the session."""

    def __init__(
        self,
        session: LabSession,
        window: Window,
        clock: Clock,
        picture: Picture,
        lessons: LessonGuide,
        rewatch: Rewatch,
        message: StatusMessage,
        *,
        pause_on_focus_loss: bool,
        screenshot_dir: Path,
        since_start: Callable[[], int],
    ) -> None:
        self.session = session
        self.window = window
        self.clock = clock
        self.picture = picture
        self.lessons = lessons
        self.rewatch = rewatch
        self.rewind = Rewind(session)
        """Held, the rewind key runs time backwards: the session keeps snapshots for it."""
        self.message = message
        self.pause_on_focus_loss = pause_on_focus_loss
        self.screenshot_dir = screenshot_dir
        self.since_start = since_start
        """The session's wall time now: what an avatar key's edge is stamped with."""
        self.quitting = False
        self.stall_ns = 0
        """A real stall asked for, carried out at the next frame boundary."""
        self.screenshot_requested = False
        """F12 was pressed: the next picture drawn is saved."""
        self._auto_paused = False
        self._quit_asked_until = 0
        """Until then, a second Esc quits."""

    def carry_out(self, request: Request) -> None:
        if self.rewatch.playing and not isinstance(request, Action | Focus | Resize):
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
                self.session.inputs.edge(button, down, self.since_start())
            case RewindKey(down=down):
                if down and self.session.in_match:
                    self.say(refusal("rewind"))
                    return
                self.say_if(self.rewind.hold() if down else self.rewind.release())

    def perform(self, action: Action) -> None:
        """Carry out one action: the app's own (quit, stall, screen) or the session's. Safe at
        any moment, between frames or between two ticks of one."""
        act = action.act
        if self.rewatch.playing and act not in DURING_REWATCH:
            self.say("this is a rewatch: W to go back to live first")
            return
        if self.rewind.held and act not in DURING_REWIND:
            return  # the rewind's caption says so, every frame
        if act is Act.REWATCH:
            self._toggle_rewatch()
        elif act is Act.QUIT:
            self.quitting = True
        elif act is Act.ESCAPE:
            self._escape()
        elif act is Act.STALL:
            self.stall_ns = min(MAX_STALL_NS, self.stall_ns + action.number * NS_PER_MS)
        elif act is Act.SCREENSHOT:
            self.screenshot_requested = True
        elif act is Act.FULLSCREEN:
            self.window.toggle_fullscreen()
        else:
            if act is Act.LESSON_MENU:
                message = self.lessons.toggle_menu()
            elif act is Act.NEXT_LESSON_STEP:
                message = self.lessons.next_step(self.session)
            else:
                message = self.session.apply(action)
            self.say_if(message)

    def say(self, message: str) -> None:
        """Show `message` in the caption for a few seconds (`StatusMessage`)."""
        self.message.say(message, self.clock.now_ns())

    def say_if(self, message: str | None) -> None:
        if message:
            self.say(message)

    # -- at their moment in the frame --------------------------------------------------------------

    def carry_out_stall(self) -> None:
        """Really block, at the frame boundary: the stalled time is the next frame's elapsed
        time, planned under the controls in force now. Keys pressed during the stall are read
        once it ends (between that frame's ticks, or before the next frame)."""
        if self.stall_ns:
            stall, self.stall_ns = self.stall_ns, 0
            self.clock.block_ns(stall)
            self.say(f"stalled the loop for {stall // NS_PER_MS} ms")

    def save_requested_screenshot(self, frame: int) -> None:
        """F12 saves the next picture drawn: after the frame, or mid catch-up at the next
        redraw (so a screenshot of a spiral does not wait for the spiral to end)."""
        if not self.screenshot_requested:
            return
        self.screenshot_requested = False
        path = numbered_name(self.screenshot_dir, frame)
        try:
            self.say(f"screenshot saved: {self.save_screenshot(path)}")
        except (OSError, pygame.error) as problem:
            self.say(f"screenshot failed: {problem}")

    def save_screenshot(self, path: Path) -> Path:
        """The window's picture as a PNG at `path` (F12, and `--screenshot` on exit)."""
        self.picture.paint_pending()  # a clip paints a frame only when something looks
        return save_picture(self.window.surface, path)

    def let_time_pass(self, elapsed_ns: int) -> None:
        """Let a frame's time pass in the rewatch (at its end, say so) or in the rewind (the
        worlds go further back, between frames, before the frame begins)."""
        self.say_if(self.rewind.advance(elapsed_ns))
        if self.rewatch.playing:
            self.rewatch.advance(elapsed_ns, self.session)
            if not self.rewatch.playing:
                self.say("back to live")

    # -- the app's own actions ---------------------------------------------------------------------

    def _toggle_rewatch(self) -> None:
        """W: rewatch the last 2 s at 1/10 speed (the session paused meanwhile), or stop it."""
        if self.rewatch.playing:
            self.rewatch.stop(self.session)
            self.say("back to live")
            return
        if self.session.in_match:
            self.say(refusal("the rewatch's pause"))
            return
        message = self.rewatch.start(self.clock.now_ns(), self.session)
        if message:
            self.say(message)

    def _escape(self) -> None:
        """Esc closes what is open, the most recent first; with nothing open it asks once
        before quitting (a stray Esc in front of a room should not end the demo)."""
        now = self.clock.now_ns()
        if self.rewatch.playing:
            self._toggle_rewatch()
        elif self.session.wanted_controls.help:
            self.session.change(ControlsChange(help=False))
        elif now < self._quit_asked_until:
            self.quitting = True
        else:
            self._quit_asked_until = now + MESSAGE_NS
            self.say("press Esc again to quit (Q quits at once)")

    def _drag(self, start: tuple[int, int], end: tuple[int, int]) -> None:
        """A right-drag moves the body under `start` to `end`, by a tick-stamped teleport."""
        body = self.picture.body_at(self.session, start)
        target = self.picture.world_point(self.session, end)
        if body is not None and target is not None:
            self.say(self.session.teleport(body, *target))

    def _focus_lost(self) -> None:
        self.say_if(self.rewind.release())  # its key-up happens in another window
        if self.session.in_match:
            return  # a match goes on: the other player is still playing
        if self.pause_on_focus_loss and not self.session.wanted_controls.paused:
            self.session.change(ControlsChange(paused=True))  # also ends a catch-up
            self._auto_paused = True
            self.say("paused: the window lost focus")

    def _focus_back(self) -> None:
        if self._auto_paused:
            self._auto_paused = False
            self.session.change(ControlsChange(paused=False))
            self.say("resumed (the hidden time was not billed)")
