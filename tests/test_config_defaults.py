"""The shipped `configs/default.toml` is the model's defaults, complete and commented."""

import tomllib
from fractions import Fraction

from pydantic import BaseModel

from game.config.loading import DEFAULT_CONFIG_FILE, load_config
from game.config.model import GameConfig
from timestep_lab import AlphaMode, SchedulerSettings


def keys_of_model(model_type: type[BaseModel], prefix: str = "") -> set[str]:
    keys: set[str] = set()
    for name, field in model_type.model_fields.items():
        annotation = field.annotation
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            keys |= keys_of_model(annotation, f"{prefix}{name}.")
        else:
            keys.add(prefix + name)
    return keys


def keys_of_table(table: dict[str, object], prefix: str = "") -> set[str]:
    keys: set[str] = set()
    for name, value in table.items():
        if isinstance(value, dict):
            keys |= keys_of_table(value, f"{prefix}{name}.")
        else:
            keys.add(prefix + name)
    return keys


def test_the_shipped_file_loads_to_exactly_the_model_defaults() -> None:
    assert load_config(DEFAULT_CONFIG_FILE) == GameConfig()


def test_no_file_and_no_overrides_give_the_defaults() -> None:
    assert load_config(None) == GameConfig()


def test_the_shipped_file_holds_every_setting_and_nothing_else() -> None:
    shipped = tomllib.loads(DEFAULT_CONFIG_FILE.read_text(encoding="utf-8"))
    assert keys_of_table(shipped) == keys_of_model(GameConfig)
    assert len(keys_of_model(GameConfig)) == 37


def test_every_setting_in_the_shipped_file_follows_a_comment() -> None:
    lines = DEFAULT_CONFIG_FILE.read_text(encoding="utf-8").splitlines()
    uncommented = []
    for number, line in enumerate(lines):
        is_setting = "=" in line and not line.startswith("#")
        # A run of settings may share one comment (width and height do).
        above = number - 1
        while above >= 0 and "=" in lines[above] and not lines[above].startswith("#"):
            above -= 1
        if is_setting and not lines[above].startswith("#"):
            uncommented.append(line)
    assert uncommented == []


def test_every_setting_of_the_model_is_documented() -> None:
    undocumented = [
        f"{section}.{name}"
        for section, field in GameConfig.model_fields.items()
        for name, setting in field.annotation.model_fields.items()  # type: ignore[union-attr]
        if not setting.description
    ]
    assert undocumented == []


def test_the_default_scheduler_settings_step_exactly_sixty_times_a_second() -> None:
    settings = GameConfig().scheduler.settings()
    assert settings == SchedulerSettings(
        step_ns=Fraction(50_000_000, 3),
        policy="drop",
        max_steps=5,
        max_frame_ns=Fraction(250_000_000),
        max_backlog_ns=Fraction(1_000_000_000),
        time_scale=Fraction(1),
        alpha_mode=AlphaMode.CORRECT,
        overload_frames=3,
    )
    assert settings.step_ns == Fraction(50_000_000, 3)


def test_the_default_values_of_every_section() -> None:
    config = GameConfig()
    assert config.render.model_dump() == {
        "width": 1280,
        "height": 720,
        "fullscreen": False,
        "vsync": False,
        "fps_cap": 144,
        "interpolation": "interpolate",
    }
    assert config.world.model_dump() == {
        "integrator": "semi-implicit",
        "gravity": 9.81,
        "seed": 1,
        "cannon_period_ticks": 45,
        "precision": "float64",
    }
    assert config.load.step_cost_ms == 0
    assert config.hud.model_dump() == {
        "graphs": True,
        "help": False,
        "presentation": False,
        "graph_seconds": 5,
    }
    assert config.overlays.model_dump() == {"ghost": False, "tick_markers": False, "trails": False}
    assert config.app.model_dump() == {
        "pause_on_focus_loss": True,
        "screenshot_dir": "screenshots",
    }
