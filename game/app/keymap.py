"""The keys: what every key does (`BINDINGS`), and the same said in words (`HELP_ROWS`).

A knob's keys are named in its row of the knob table (`game.knobs`: "t" turns the tick rate to
its next rung); here each name becomes pygame's key (`game.app.key_names`), and the keys that
do something rather than turn a knob are bound beside them (`ACTIONS`). `BINDINGS` drives the
game (`action_for`); `HELP_ROWS` is what the help overlay (F1) shows and the key table of
docs/keys.md repeats: first the knobs' rows, in the table's order, then the keys that act. The
tests keep them together: every bound key appears in the help, and docs/keys.md lists every help
row word for word. Keypad keys mirror their main keys.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import pygame

from game.app.key_names import key_and_modifiers
from game.knobs import KNOBS, Knob
from game.session.controls import Act, Action

SHIFT = pygame.KMOD_SHIFT
CTRL = pygame.KMOD_CTRL


@dataclass(frozen=True, slots=True)
class Binding:
    """A key (with the modifiers it needs) and the action it triggers."""

    key: int
    action: Action
    mods: int = 0
    """Modifiers that must be held (SHIFT or CTRL); 0 means neither may be held."""


ACTIONS: tuple[tuple[str, Action], ...] = (
    ("period", Action(Act.SINGLE_STEP)),
    ("s", Action(Act.STALL, number=200)),
    ("shift+s", Action(Act.STALL, number=2_000)),
    ("ctrl+s", Action(Act.STALL, number=50)),
    ("r", Action(Act.RESET)),
    ("k", Action(Act.TOGGLE_CANNON)),
    ("space", Action(Act.FIRE)),
    ("v", Action(Act.TOGGLE_SPLIT)),
    ("l", Action(Act.LESSON_MENU)),
    ("n", Action(Act.NEXT_LESSON_STEP)),
    ("w", Action(Act.REWATCH)),
    ("f11", Action(Act.FULLSCREEN)),
    ("f12", Action(Act.SCREENSHOT)),
    ("escape", Action(Act.ESCAPE)),
    ("q", Action(Act.QUIT)),
)
"""The keys that do something rather than turn a knob, by name."""


def knob_bindings(knobs: Iterable[Knob]) -> tuple[Binding, ...]:
    """Every key a knob's row names, bound to that knob's move."""
    return tuple(
        Binding(*_key(key.key, Action.turn(knob.path, key.move, key.number)))
        for knob in knobs
        for key in knob.keys
    )


def _key(name: str, action: Action) -> tuple[int, Action, int]:
    key, mods = key_and_modifiers(name)
    return key, action, mods


def _bindings() -> tuple[Binding, ...]:
    return (
        *knob_bindings(KNOBS),
        *(Binding(*_key(name, action)) for name, action in ACTIONS),
    )


BINDINGS = _bindings()

AVATAR_KEYS: dict[int, str] = {
    pygame.K_LEFT: "left",
    pygame.K_RIGHT: "right",
    pygame.K_UP: "jump",
    pygame.K_DOWN: "dash",
}
"""The avatar's buttons. Their edges, down and up, go to the session's input lab with their
wall time, whatever the modifiers: the input model decides what each tick sees of them."""

REWIND_KEY = pygame.K_BACKSPACE
"""Held, not pressed: its down and up edges start and end the rewind (`game.session.rewind`)."""

ACTION_ROWS: tuple[tuple[str, str], ...] = (
    (".", "single tick while paused"),
    ("S / Shift+S / Ctrl+S", "stall the loop for 200 ms / 2 s / 50 ms (really)"),
    ("R", "reset the scene (no smear)"),
    ("K", "cannon on / off (a tick-stamped order)"),
    ("Space / click", "fire (a click fires through the clicked point)"),
    ("right-drag", "teleport the body under the mouse (a tick-stamped order)"),
    ("V", "split screen: two worlds, same frames and inputs, each its own policy"),
    ("Left / Right, Up, Down", "avatar: run (hold), jump (tap), dash (tap)"),
    ("L / N", "guided lessons: open the menu / next step"),
    ("W", "rewatch: the last 2 s again at 1/10 speed (W again: back to live)"),
    ("Backspace (hold)", "rewind: run time backwards at 1x (last 600 ticks); release: go on"),
    ("F11", "fullscreen"),
    ("F12", "screenshot"),
    ("Esc", "close the help, the menu or a rewatch; else quit (asks once)"),
    ("Q", "quit at once"),
)
"""The keys that do something rather than turn a knob."""


def help_rows(knobs: Iterable[Knob]) -> tuple[tuple[str, str], ...]:
    """What the help overlay lists: the knobs' rows first, in the table's order, then the keys
    that act."""
    return (*(knob.help for knob in knobs if knob.help is not None), *ACTION_ROWS)


HELP_ROWS = help_rows(KNOBS)
"""What the help overlay lists: the knobs first, in the table's order, then the keys that act."""


def _modifiers(mods: int) -> int:
    """Reduce a modifier mask to the two the bindings care about."""
    held = 0
    if mods & SHIFT:
        held |= SHIFT
    if mods & CTRL:
        held |= CTRL
    return held


def action_for(key: int, mods: int) -> Action | None:
    """The action bound to `key` with these modifiers held, or None."""
    held = _modifiers(mods)
    for binding in BINDINGS:
        if binding.key == key and binding.mods == held:
            return binding.action
    # A modifier nobody asked for (Shift+P, say) falls back to the plain key.
    for binding in BINDINGS:
        if binding.key == key and binding.mods == 0 and held:
            return binding.action
    return None
