"""`LessonGuide`: the guided lessons inside the game (L opens the menu, N moves on).

The lessons themselves are data (`configs/lessons/*.toml`, read by `game.workshop.files.lessons`);
this is the small piece of the app that shows the menu, starts a lesson, turns the controls to
each step's own (`LessonRun.controls`: the lesson's baseline and its steps' settings, never what
was on before), starts the counters a step compares afresh, hands the loop the caption to show,
and gives free play back as it was once the lesson ends.
"""

from __future__ import annotations

import pygame

from game.errors import BadInput
from game.session.controls import Act, Action, Controls, ControlsChange
from game.session.match_rules import refusal, refused_controls
from game.session.readout import ListOverlay
from game.session.session import LabSession
from game.workshop.files.lessons import Lesson, LessonRun, find_lesson, load_lessons

_DIGITS: dict[int, int] = {getattr(pygame, f"K_{n % 10}"): n for n in range(1, 11)}
_DIGITS |= {getattr(pygame, f"K_KP{n % 10}"): n for n in range(1, 11)}
"""The menu's keys: 1 to 9 start lessons 1 to 9, and 0 (after 9 on the keyboard) lesson 10."""


def menu_key(number: int) -> int:
    """The key that starts lesson `number` from the menu (`KeyError` past lesson 10)."""
    return next(key for key, lesson in _DIGITS.items() if lesson == number)


def _key_name(number: int) -> str:
    return str(number) if number < 10 else f"{number} (0)"


class LessonGuide:
    """The lesson menu and the lesson being played, if any."""

    def __init__(self, lessons: tuple[Lesson, ...] | None = None) -> None:
        self._lessons = lessons
        self.menu_open = False
        self.run: LessonRun | None = None
        self.free_play: Controls | None = None
        """The controls as they were when the lesson started: what its end gives back."""

    def lessons(self) -> tuple[Lesson, ...]:
        """The shipped lessons, read on first use (a broken file is reported, not fatal)."""
        if self._lessons is None:
            self._lessons = load_lessons()
        return self._lessons

    def toggle_menu(self) -> str | None:
        """Open or close the menu; returns a message if the lessons cannot be read."""
        if self.menu_open:
            self.menu_open = False
            return None
        try:
            self.lessons()
        except BadInput as problem:
            return problem.lines[0]
        self.menu_open = True
        return None

    def menu(self) -> ListOverlay | None:
        if not self.menu_open or self._lessons is None:
            return None
        rows = tuple((_key_name(lesson.number), lesson.title) for lesson in self._lessons)
        return ListOverlay("LESSONS", rows, "press a number to start (0: 10), L or Esc to close")

    def key_in_menu(self, key: int, session: LabSession) -> bool:
        """While the menu is open it takes the keys: a number starts that lesson, L or Esc
        close it. Returns True if the key was the menu's."""
        if not self.menu_open:
            return False
        if key in (pygame.K_ESCAPE, pygame.K_l):
            self.menu_open = False
        elif key in _DIGITS:
            number = _DIGITS[key]
            if any(lesson.number == number for lesson in self.lessons()):
                self.start(number, session)
        return True

    def start(self, number: int, session: LabSession) -> None:
        """Start lesson `number` at its first step (BadInput if there is no such lesson)."""
        run = LessonRun(find_lesson(self.lessons(), number))
        if self.run is None:  # from free play (a lesson chosen during one keeps the first's)
            self.free_play = session.wanted_controls
        self.run = run
        self.menu_open = False
        self._enter_step(session)

    def next_step(self, session: LabSession) -> str | None:
        if self.run is None:
            return "no lesson running: press L for the lessons"
        following = self.run.advanced()
        if following is None:
            finished = self.run.lesson.title
            self.run = None
            self._back_to_free_play(session)
            return f"lesson complete: {finished}. L for another one"
        self.run = following
        return self._enter_step(session)

    def caption(self) -> str:
        return self.run.caption() if self.run is not None else ""

    def watch(self) -> tuple[str, ...]:
        """The HUD rows the step showing talks about (none outside a lesson)."""
        return self.run.current.watch if self.run is not None else ()

    def _back_to_free_play(self, session: LabSession) -> None:
        """The controls as they were before the lesson (the step cost, the policy, the pause)."""
        if self.free_play is not None:
            session.change(ControlsChange.between(session.wanted_controls, self.free_play))
            self.free_play = None

    def _enter_step(self, session: LabSession) -> str | None:
        """Turn the controls to the step's; in a match, refuse (and say why) a step that
        would change one world only."""
        assert self.run is not None
        step = self.run.current
        wanted = session.wanted_controls
        if session.in_match:  # a step that changes one world only: the session refuses it
            refused = refused_controls(wanted, self.run.controls(wanted))
            if refused is None and (step.reset or step.fire):
                refused = refusal("this lesson step's reset or shot")
            if refused is not None:
                return refused
        session.change(ControlsChange.between(wanted, self.run.controls(wanted)))
        session.restart_input_counts()  # the taps a step counts are that step's alone
        if step.reset_books:
            session.restart_books("step start")
        if step.reset:
            session.apply(Action(Act.RESET))
        if step.fire:
            session.apply(Action(Act.FIRE))
        return None
