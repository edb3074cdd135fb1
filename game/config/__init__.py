"""The game's configuration: TOML files read into one strict, frozen, exact `GameConfig`.

- `model`: `GameConfig` and its sections; the defaults (repeated in `configs/default.toml`).
- `loading`: `load_config(path, overrides)`: defaults, then a file, then `KEY=VALUE` overrides.
- `overrides`: reading `scheduler.hz=30` from the command line.
- `toml_files`: `read_toml` and `load_toml_model`, shared by every TOML file the game reads.
- `toml_limits`: nesting and digits held to `game.limits` before and after parsing.
- `problems`: pydantic's errors as `FILE: [dotted.key] message (got VALUE)` lines.
- `exact`: exact `Fraction`s from the numbers a person types (60, "59.94", 16.7, "1/8").
- `choices`: settings that take one of a few values.
"""
