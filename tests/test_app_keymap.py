"""The key table: what each key does, and that the help says so."""

import pygame
import pytest

from game.app.keymap import BINDINGS, HELP_ROWS, action_for
from game.session.controls import Act, Action

KEYPAD = {
    pygame.K_KP1, pygame.K_KP2, pygame.K_KP3, pygame.K_KP4, pygame.K_KP5, pygame.K_KP6,
    pygame.K_KP_MINUS, pygame.K_KP_PLUS,
}  # fmt: skip
NAMES = {pygame.K_ESCAPE: "Esc", pygame.K_SPACE: "Space", pygame.K_TAB: "Tab"}


def help_mentions(label: str) -> bool:
    """True if a help row's keys name `label` as a key of its own (not inside another word)."""
    for keys, _ in HELP_ROWS:
        tokens = keys.replace("/", " ").replace(",", " ").replace("+", " ").split()
        if label in tokens or (label.isdigit() and "1-6" in tokens):
            return True
    return False


def test_every_bound_key_is_in_the_help() -> None:
    for binding in BINDINGS:
        if binding.key in KEYPAD:
            continue  # the keypad mirrors the main keys
        label = NAMES.get(binding.key, pygame.key.name(binding.key).upper())
        assert help_mentions(label), label


@pytest.mark.parametrize(
    ("key", "mods", "action"),
    [
        (pygame.K_TAB, 0, Action(Act.NEXT_POLICY)),
        (pygame.K_TAB, pygame.KMOD_LSHIFT, Action(Act.PREVIOUS_POLICY)),
        (pygame.K_3, 0, Action(Act.SET_POLICY, number=3)),
        (pygame.K_KP5, 0, Action(Act.SET_POLICY, number=5)),
        (pygame.K_s, 0, Action(Act.STALL, number=200)),
        (pygame.K_s, pygame.KMOD_RSHIFT, Action(Act.STALL, number=2_000)),
        (pygame.K_s, pygame.KMOD_LCTRL, Action(Act.STALL, number=50)),
        (pygame.K_c, pygame.KMOD_SHIFT, Action(Act.LESS_COST)),
        (pygame.K_p, pygame.KMOD_SHIFT, Action(Act.TOGGLE_PAUSE)),  # no Shift+P: plain P
        (pygame.K_F12, 0, Action(Act.SCREENSHOT)),
        (pygame.K_y, 0, Action(Act.NEXT_INPUT_MODEL)),
        (pygame.K_w, 0, Action(Act.REWATCH)),
        (pygame.K_u, 0, Action(Act.CYCLE_CONDITIONING)),
    ],
)
def test_keys_and_modifiers_map_to_actions(key: int, mods: int, action: Action | None) -> None:
    assert action_for(key, mods) == action


def test_the_avatar_keys_are_in_the_help_and_bound_to_nothing_else() -> None:
    from game.app.keymap import AVATAR_KEYS

    assert set(AVATAR_KEYS.values()) == {"left", "right", "jump", "dash"}
    for key in AVATAR_KEYS:
        assert action_for(key, 0) is None
        assert help_mentions(pygame.key.name(key).capitalize())
