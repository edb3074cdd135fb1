"""The knob table (`game.knobs`) is the one place a knob is declared: everything that lists
knobs agrees with it, and the shipped `configs/default.toml` is written from it."""

from dataclasses import fields
from fractions import Fraction
from pathlib import Path

import pytest

from game.app.keymap import ACTION_ROWS, HELP_ROWS
from game.config.default_file import REGENERATE, default_file_text, main, stale
from game.config.loading import DEFAULT_CONFIG_FILE
from game.config.model import GameConfig
from game.from_config import controls_from
from game.knobs import CONTROL_KNOBS, KNOBS, PICTURE_ONLY, Scope, Where, knobs_where
from game.session.controls import DRAWING_ONLY, Controls, ControlsChange
from game.workshop.files.lessons import StepSettings
from game.workshop.files.scenario import ChangeEntry, ClockSection
from game.workshop.files.timeline import SettingsChange
from timestep_lab import AlphaMode


def test_the_shipped_default_file_is_the_one_the_table_writes() -> None:
    assert not stale(), f"{DEFAULT_CONFIG_FILE} is stale: run `{REGENERATE}`"


def test_a_stale_default_file_is_found(tmp_path: Path) -> None:
    path = tmp_path / "default.toml"
    path.write_text(default_file_text().replace("hz = 60", "hz = 30"), encoding="utf-8")
    assert stale(path)
    path.write_text(default_file_text(), encoding="utf-8")
    assert not stale(path)


def test_the_check_names_the_command_that_regenerates_the_file(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert REGENERATE == "python -m game.config.default_file --write"
    assert main([]) == 0
    assert main(["--wrong"]) == 2
    usage = "usage: python -m game.config.default_file [--check | --write]"
    assert usage in capsys.readouterr().err


def test_the_default_file_writes_each_kind_of_value_as_a_config_file_reads_it() -> None:
    text = default_file_text()
    for line in ("hz = 60", 'time_scale = "1"', "jitter_fix = 0.5", "gravity = 9.81",
                 'policy = "drop"', "graphs = true", "fullscreen = false"):  # fmt: skip
        assert f"\n{line}\n" in text


def test_every_config_key_is_a_knob_and_every_config_knob_a_key() -> None:
    config_keys = {
        f"{section}.{key}"
        for section, model in GameConfig.model_fields.items()
        for key in model.annotation.model_fields  # type: ignore[union-attr]
    }
    assert config_keys == {knob.path for knob in knobs_where(Where.CONFIG)}


def test_every_knob_of_a_file_can_be_set_on_the_command_line_and_none_else() -> None:
    assert [k.path for k in KNOBS if (Where.CONFIG in k.where) != (Where.SET in k.where)] == []


def test_the_controls_are_the_live_knobs_with_their_defaults() -> None:
    assert set(CONTROL_KNOBS) == {item.name for item in fields(Controls)}
    defaults = Controls()
    for name, knob in CONTROL_KNOBS.items():
        assert getattr(defaults, name) == knob.control_value(knob.default), name
    assert controls_from(GameConfig()) == Controls()


def test_a_config_turns_every_live_knob_it_holds() -> None:
    config = GameConfig.model_validate(
        {
            "scheduler": {"hz": 30, "policy": "uncapped", "alpha": "naive", "conditioning": "snap"},
            "render": {"fps_cap": 60, "interpolation": "off"},
            "input": {"model": "latched"},
        }
    )
    controls = controls_from(config)
    assert controls.hz == Fraction(30)
    assert controls.policies == ("uncapped",)
    assert controls.alpha_mode is AlphaMode.NAIVE
    assert controls.conditioning == ("snap", "snap")
    assert controls.input_models == ("latched", "frame-edge")
    assert (controls.fps_cap, controls.interpolation) == (60, "off")


def test_the_picture_only_controls_are_the_knobs_scoped_to_the_picture() -> None:
    assert DRAWING_ONLY == PICTURE_ONLY == {
        "focus_lane", "interpolation", "fps_cap", "graphs", "help", "presentation", "ghost",
        "tick_markers", "trails", "smear_teleports", "refresh_hz", "lesson_jitter_ms",
    }  # fmt: skip
    assert ControlsChange(graphs=False, ghost=True).drawing_only
    assert not ControlsChange(graphs=False, hz=Fraction(30)).drawing_only


def test_a_change_names_only_controls_and_reads_like_the_record_it_replaced() -> None:
    change = ControlsChange(hz=Fraction(30), paused=None)
    assert change.turned() == {"hz": Fraction(30)}
    assert (change.hz, change.paused) == (Fraction(30), None)
    assert change == ControlsChange(hz=Fraction(30))
    assert repr(change) == "ControlsChange(hz=Fraction(30, 1))"
    with pytest.raises(TypeError, match="not a control: vsync"):
        ControlsChange(vsync=True)


def test_a_scenario_change_takes_exactly_the_knobs_marked_for_changes() -> None:
    names = [name for name in ChangeEntry.model_fields if name != "at"]
    assert names == [knob.short for knob in knobs_where(Where.CHANGE)]
    assert set(names) == {
        "policy", "hz", "max_steps", "time_scale", "step_cost_ms", "render_fps",
        "render_cost_ms", "paused", "conditioning",
    }  # fmt: skip
    assert list(ClockSection.model_fields) == [k.key for k in KNOBS if k.section == "clock"]


def test_a_scenario_change_turns_the_controls_as_the_knob_rows_say() -> None:
    change = SettingsChange(Fraction(0), policy="uncapped", conditioning="snap", render_fps=30)
    assert change.controls() == ControlsChange(policies=("uncapped",), conditioning=("snap",) * 2)
    assert change.render_fps == 30 and change.max_steps is None
    with pytest.raises(TypeError, match="not a knob a scenario change may turn: gravity"):
        SettingsChange(Fraction(0), gravity=1.0)


def test_a_lesson_step_takes_every_knob_marked_for_lessons() -> None:
    lesson_knobs = {knob.short for knob in knobs_where(Where.LESSON)}
    assert lesson_knobs <= set(StepSettings.model_fields)
    assert set(StepSettings.model_fields) - lesson_knobs == {
        "second_policy", "split", "second_conditioning", "second_input_model", "capture",
    }  # fmt: skip


def test_the_help_lists_every_knob_with_a_key_then_the_actions() -> None:
    keyed = [knob.help for knob in KNOBS if knob.help is not None]
    assert list(HELP_ROWS) == [*keyed, *ACTION_ROWS]
    assert all(Where.KEY in knob.where for knob in KNOBS if knob.keys)
    assert [k.path for k in KNOBS if Where.KEY in k.where and not k.keys] == []
    unlisted = [k.path for k in KNOBS if Where.KEY in k.where and k.help is None]
    assert unlisted == [  # on the O / X / M row, and on the network's row
        "overlays.tick_markers", "overlays.trails", "network.latency_ms",
    ]  # fmt: skip


def test_a_per_lane_knob_says_how_one_value_reaches_both_lanes() -> None:
    per_lane = {knob.path: knob.control_value(knob.default) for knob in KNOBS
                if knob.scope is Scope.LANE}  # fmt: skip
    assert per_lane == {
        "scheduler.policy": ("drop",),
        "scheduler.conditioning": ("raw", "raw"),
        "input.model": ("frame-edge", "latched"),
    }


def test_the_files_written_from_the_table_are_as_the_table_says() -> None:
    from game.config import default_file
    from game.knobs import generate

    assert generate.stale() == []  # else: make generate
    assert not default_file.stale()
