"""A misspelt knob, read off a scenario's change, is a type error (`check.py`)."""

from fractions import Fraction

from game.workshop.files.timeline import SettingsChange

change = SettingsChange(Fraction(0), max_steps=3)
cap: int | None = change.max_steps
typo = change.max_stepz  # the typo
