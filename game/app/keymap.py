"""The keys: what every key does (`BINDINGS`), and the same said in words (`HELP_ROWS`).

`BINDINGS` drives the game (`action_for`); `HELP_ROWS` is what the help overlay (F1) shows and
the key table of docs/keys.md repeats: first the knobs' rows, read off the knob table
(`game.knobs`), then the keys that act. The tests keep them together: every bound key appears in
the help, and docs/keys.md lists every help row word for word. Keypad keys mirror their main
keys.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from game.knobs import KNOBS
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


def _bindings() -> tuple[Binding, ...]:
    rows: list[Binding] = [
        Binding(pygame.K_TAB, Action(Act.NEXT_POLICY)),
        Binding(pygame.K_TAB, Action(Act.PREVIOUS_POLICY), SHIFT),
        Binding(pygame.K_LEFTBRACKET, Action(Act.SLOWER)),
        Binding(pygame.K_RIGHTBRACKET, Action(Act.FASTER)),
        Binding(pygame.K_p, Action(Act.TOGGLE_PAUSE)),
        Binding(pygame.K_PERIOD, Action(Act.SINGLE_STEP)),
        Binding(pygame.K_s, Action(Act.STALL, number=200)),
        Binding(pygame.K_s, Action(Act.STALL, number=2_000), SHIFT),
        Binding(pygame.K_s, Action(Act.STALL, number=50), CTRL),
        Binding(pygame.K_c, Action(Act.MORE_COST)),
        Binding(pygame.K_c, Action(Act.LESS_COST), SHIFT),
        Binding(pygame.K_MINUS, Action(Act.FEWER_CATCH_UP)),
        Binding(pygame.K_KP_MINUS, Action(Act.FEWER_CATCH_UP)),
        Binding(pygame.K_EQUALS, Action(Act.MORE_CATCH_UP)),
        Binding(pygame.K_KP_PLUS, Action(Act.MORE_CATCH_UP)),
        Binding(pygame.K_i, Action(Act.CYCLE_INTERPOLATION)),
        Binding(pygame.K_a, Action(Act.CYCLE_ALPHA)),
        Binding(pygame.K_e, Action(Act.CYCLE_INTEGRATOR)),
        Binding(pygame.K_t, Action(Act.CYCLE_TICK_RATE)),
        Binding(pygame.K_f, Action(Act.CYCLE_FPS_CAP)),
        Binding(pygame.K_d, Action(Act.CYCLE_CLOCK)),
        Binding(pygame.K_u, Action(Act.CYCLE_CONDITIONING)),
        Binding(pygame.K_r, Action(Act.RESET)),
        Binding(pygame.K_k, Action(Act.TOGGLE_CANNON)),
        Binding(pygame.K_g, Action(Act.TOGGLE_GRAPHS)),
        Binding(pygame.K_o, Action(Act.TOGGLE_GHOST)),
        Binding(pygame.K_x, Action(Act.TOGGLE_MARKERS)),
        Binding(pygame.K_m, Action(Act.TOGGLE_TRAILS)),
        Binding(pygame.K_j, Action(Act.TOGGLE_SMEAR)),
        Binding(pygame.K_z, Action(Act.TOGGLE_PRESENTATION)),
        Binding(pygame.K_SPACE, Action(Act.FIRE)),
        Binding(pygame.K_v, Action(Act.TOGGLE_SPLIT)),
        Binding(pygame.K_SEMICOLON, Action(Act.TOGGLE_NETWORK)),
        Binding(pygame.K_QUOTE, Action(Act.MORE_LATENCY)),
        Binding(pygame.K_QUOTE, Action(Act.LESS_LATENCY), SHIFT),
        Binding(pygame.K_b, Action(Act.SWITCH_LANE)),
        Binding(pygame.K_y, Action(Act.NEXT_INPUT_MODEL)),
        Binding(pygame.K_l, Action(Act.LESSON_MENU)),
        Binding(pygame.K_n, Action(Act.NEXT_LESSON_STEP)),
        Binding(pygame.K_w, Action(Act.REWATCH)),
        Binding(pygame.K_F1, Action(Act.TOGGLE_HELP)),
        Binding(pygame.K_h, Action(Act.TOGGLE_HELP)),
        Binding(pygame.K_F11, Action(Act.FULLSCREEN)),
        Binding(pygame.K_F12, Action(Act.SCREENSHOT)),
        Binding(pygame.K_ESCAPE, Action(Act.ESCAPE)),
        Binding(pygame.K_q, Action(Act.QUIT)),
    ]
    digits = (pygame.K_1, pygame.K_2, pygame.K_3, pygame.K_4, pygame.K_5, pygame.K_6)
    keypad = (pygame.K_KP1, pygame.K_KP2, pygame.K_KP3, pygame.K_KP4, pygame.K_KP5, pygame.K_KP6)
    for number, (digit, pad) in enumerate(zip(digits, keypad, strict=True), start=1):
        rows.append(Binding(digit, Action(Act.SET_POLICY, number=number)))
        rows.append(Binding(pad, Action(Act.SET_POLICY, number=number)))
    return tuple(rows)


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

HELP_ROWS: tuple[tuple[str, str], ...] = (
    *(knob.keys for knob in KNOBS if knob.keys is not None),
    *ACTION_ROWS,
)
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
