"""A misspelt control, read off a change of the controls, is a type error (`check.py`)."""

from fractions import Fraction

from game.session.controls import Controls, ControlsChange

change = ControlsChange(hz=Fraction(30))
rate: Fraction | None = change.hz
cap: int = Controls().max_steps
typo = change.hzz  # the typo
