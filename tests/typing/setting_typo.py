"""A misspelt setting is a type error: `make lint` checks that mypy reports this file's marked
line, and only it (`tests/typing/check.py`). The fields come from the knob table; without their
generated types (`game.knobs.generate`), any attribute would pass."""

from game.config.model import GameConfig

config = GameConfig()
cap: int = config.scheduler.max_steps
typo = config.scheduler.max_stepz  # the typo
