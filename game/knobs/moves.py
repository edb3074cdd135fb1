"""How a key moves a knob: along its ladder, round its cycle, or over its switch.

A knob's row names its keys and what each does (`Press`, `Move`); this is the one place those
moves are made, on the setting's value, so that every key of every knob, and any knob added to
the table, moves the same way:

    UP / DOWN          the next rung up or down a rising ladder, stopping at the ends. A value
                       between two rungs (a 3 ms step cost from a config) moves to its
                       neighbour; a whole-number knob with no ladder moves by one, within range.
    NEXT / PREVIOUS    the next or the previous rung, round the ends. A value that is not on
                       the ladder (59.94 Hz from a config) moves to the first rung above (or
                       below) it, or round to the first one.
    FLIP               a switch's other position.
    PICK               rung number N, from 1 (the policy's number keys).
"""

from __future__ import annotations

from typing import Any

from game.knobs.knob import Knob, Move


def moved(knob: Knob, value: Any, move: Move, number: int = 0) -> Any:
    """The value `knob` takes when a key makes `move` from `value` (`number`: PICK's rung)."""
    if move is Move.FLIP:
        return not value
    if move is Move.PICK:
        if not 1 <= number <= len(knob.ladder):
            raise ValueError(f"{knob.path}: the rung must be 1-{len(knob.ladder)} (got {number})")
        return knob.ladder[number - 1]
    if not knob.ladder:
        return _counted(knob, value, up=move in (Move.UP, Move.NEXT))
    if move in (Move.UP, Move.DOWN):
        return _along(knob.ladder, value, up=move is Move.UP)
    return _round(knob.ladder, value, forward=move is Move.NEXT)


def _counted(knob: Knob, value: int, up: bool) -> int:
    """One more or one less, within the knob's range."""
    bounds = knob.range
    if bounds is None or bounds.at_least is None or bounds.at_most is None:
        raise ValueError(f"{knob.path}: a knob a key counts needs a ladder or a closed range")
    return max(int(bounds.at_least), min(int(bounds.at_most), value + (1 if up else -1)))


def _along(ladder: tuple[Any, ...], current: Any, up: bool) -> Any:
    """The next rung above (or below) `current` on a rising ladder, stopping at the ends."""
    if up:
        return next((rung for rung in ladder if rung > current), ladder[-1])
    return next((rung for rung in reversed(ladder) if rung < current), ladder[0])


def _round(ladder: tuple[Any, ...], current: Any, forward: bool) -> Any:
    """The rung after (or before) `current`, round the ends."""
    step = 1 if forward else -1
    if current in ladder:
        return ladder[(ladder.index(current) + step) % len(ladder)]
    if isinstance(current, str):
        return ladder[0]  # a name the ladder does not have
    ranked = sorted(ladder)
    if forward:
        return next((rung for rung in ranked if rung > current), ranked[0])
    return next((rung for rung in reversed(ranked) if rung < current), ranked[-1])
