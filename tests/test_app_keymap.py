"""The key table: what each key does, and that the help says so."""

import pygame
import pytest

from game.app.keymap import BINDINGS, HELP_ROWS, action_for
from game.knobs import Move
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
        (pygame.K_TAB, 0, Action.turn("scheduler.policy", Move.NEXT)),
        (pygame.K_TAB, pygame.KMOD_LSHIFT, Action.turn("scheduler.policy", Move.PREVIOUS)),
        (pygame.K_3, 0, Action.turn("scheduler.policy", Move.PICK, 3)),
        (pygame.K_KP5, 0, Action.turn("scheduler.policy", Move.PICK, 5)),
        (pygame.K_s, 0, Action(Act.STALL, number=200)),
        (pygame.K_s, pygame.KMOD_RSHIFT, Action(Act.STALL, number=2_000)),
        (pygame.K_s, pygame.KMOD_LCTRL, Action(Act.STALL, number=50)),
        (pygame.K_c, pygame.KMOD_SHIFT, Action.turn("load.step_cost_ms", Move.DOWN)),
        (
            pygame.K_p,
            pygame.KMOD_SHIFT,
            Action.turn("live.paused", Move.FLIP),
        ),  # no Shift+P: plain P
        (pygame.K_F12, 0, Action(Act.SCREENSHOT)),
        (pygame.K_y, 0, Action.turn("input.model", Move.NEXT)),
        (pygame.K_w, 0, Action(Act.REWATCH)),
        (pygame.K_u, 0, Action.turn("scheduler.conditioning", Move.NEXT)),
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
