"""The knob table drives everything a knob has: a made-up row, added to a copy of the table, is
found in every place the game reads knobs from.

The row is a live knob of `[hud]` with a ladder, two keys, a help row and a flag. Each place is
built from the copy as the game builds it from the real table: the key bindings and the help,
the key's move along the ladder, the config model (a config file's `[hud]` and `--set`), the
shipped `configs/default.toml`, the scenario commands' flags, and the typed fields the type
checker reads. So adding a real knob is its row, its effect and its test (and `make generate`).
"""

from __future__ import annotations

import argparse

import pygame
import pytest
from pydantic import ValidationError

from game.app.keymap import Binding, help_rows, knob_bindings
from game.config.default_file import default_file_text
from game.config.knob_fields import with_section
from game.config.model import HudSection
from game.config.overrides import Override, apply_overrides, parse_override
from game.knobs import FILE, KNOBS, Knob, KnobKey, Move, Range, Where
from game.knobs.generate import generated_text, knob_types_text
from game.knobs.moves import moved
from game.session.controls import Action
from game.workshop.files.scenario_loading import add_scenario_arguments, scenario_flags

SPARKLE = Knob(
    "hud.sparkle", 3, "Sparkles drawn per tick.", "Sparkles drawn per tick (0 to 9).",
    range=Range(9, at_least=0), ladder=(0, 3, 6, 9), where=FILE | Where.KEY, control="sparkle",
    keys=(KnobKey("shift+k", Move.UP), KnobKey("ctrl+k", Move.DOWN)),
    help=("Shift+K / Ctrl+K", "sparkles: more / fewer"),
    flag=("--sparkle", "sparkles drawn per tick (default 3)"),
)  # fmt: skip
TABLE = (*KNOBS, SPARKLE)


def test_its_keys_are_bound_and_its_help_row_is_listed() -> None:
    assert knob_bindings(TABLE)[-2:] == (
        Binding(pygame.K_k, Action.turn("hud.sparkle", Move.UP), pygame.KMOD_SHIFT),
        Binding(pygame.K_k, Action.turn("hud.sparkle", Move.DOWN), pygame.KMOD_CTRL),
    )
    assert ("Shift+K / Ctrl+K", "sparkles: more / fewer") in help_rows(TABLE)
    assert ("Shift+K / Ctrl+K", "sparkles: more / fewer") not in help_rows(KNOBS)


def test_its_keys_move_it_along_its_ladder() -> None:
    assert [moved(SPARKLE, value, Move.UP) for value in (0, 3, 4, 9)] == [3, 6, 6, 9]
    assert [moved(SPARKLE, value, Move.DOWN) for value in (0, 3, 4, 9)] == [0, 0, 3, 6]


def test_a_config_file_and_set_take_it_within_its_range() -> None:
    hud = with_section("hud", TABLE)(HudSection)
    assert hud().sparkle == 3  # type: ignore[attr-defined]
    (override,) = [parse_override("hud.sparkle=6")]
    assert isinstance(override, Override)
    merged, problems = apply_overrides({}, [override])
    assert (problems, hud.model_validate(merged["hud"]).sparkle) == ([], 6)  # type: ignore[attr-defined]
    with pytest.raises(ValidationError, match="less than or equal to 9"):
        hud.model_validate({"sparkle": 10})
    with pytest.raises(ValidationError, match="Extra inputs are not permitted"):
        HudSection.model_validate({"sparkle": 6})  # the real table has no such knob


def test_the_shipped_default_file_holds_it_with_its_comment() -> None:
    text = default_file_text(TABLE)
    assert "# Sparkles drawn per tick (0 to 9).\nsparkle = 3\n" in text
    assert text.index("sparkle = 3") > text.index("[hud]")
    assert "sparkle" not in default_file_text(KNOBS)


def test_the_scenario_commands_take_its_flag() -> None:
    parser = argparse.ArgumentParser()
    add_scenario_arguments(parser, knobs=TABLE)
    assert parser.parse_args(["--sparkle", "6"]).sparkle == 6
    assert ("--sparkle", ("hud", "sparkle")) in scenario_flags(TABLE)


def test_its_field_is_typed_for_the_type_checker_and_in_the_controls() -> None:
    assert "        sparkle: int = 3\n" in knob_types_text(TABLE)
    generated = generated_text(TABLE)
    assert "    sparkle: int = 3\n" in generated
    assert "    def sparkle(self) -> int | None:\n" in generated
