"""A match's lines in a recording (`--host`, `--join`): its header, and the peer's moves.

A match's recording says in its header which side the game was and the link's settings
(`"match": {"host": true, "input_delay": 0, "prediction_window": 8, "time_sync": "none"}`),
and each arrival of the peer's moves as `[run, jumps, dashes]` lists. Each value is checked
here; a bad one is a `ValueError` whose message the replay reader prints with its line.
"""

from __future__ import annotations

import json
from typing import Any

from game.network.peer import AvatarMove
from game.network.settings import TIME_SYNC_MODES, NetworkSettings

MATCH_KEYS = frozenset({"host", "input_delay", "prediction_window", "time_sync"})
MAX_MATCH_TICKS = 1000
"""The largest input delay or prediction window a header may hold."""
MAX_PRESSES = 255
"""The most jumps or dashes one tick's move may hold (what a datagram carries)."""


def _shown(value: object) -> str:
    text = json.dumps(value)
    return text if len(text) <= 60 else text[:57] + "..."


def read_match(match: dict[str, Any]) -> dict[str, Any]:
    """The header's `match` (its keys checked already), each value checked."""
    if not isinstance(match["host"], bool):
        raise ValueError(f"match.host must be true or false (got {_shown(match['host'])})")
    for key, least in (("input_delay", 0), ("prediction_window", 1)):
        value = match[key]
        if isinstance(value, bool) or not isinstance(value, int):
            value = None
        if value is None or not least <= value <= MAX_MATCH_TICKS:
            raise ValueError(
                f"match.{key} must be a whole number from {least} to {MAX_MATCH_TICKS} "
                f"(got {_shown(match[key])})"
            )
    if match["time_sync"] not in TIME_SYNC_MODES:
        raise ValueError(
            f"match.time_sync must be one of {', '.join(TIME_SYNC_MODES)} "
            f"(got {_shown(match['time_sync'])})"
        )
    return match


def match_settings(match: dict[str, Any]) -> NetworkSettings:
    """The rollback settings of a checked `match` header."""
    sync = match["time_sync"]
    return NetworkSettings(
        input_delay=match["input_delay"],
        prediction_window=match["prediction_window"],
        time_sync="wait" if sync == "wait" else "stretch" if sync == "stretch" else "none",
    )


def read_moves(moves: object) -> tuple[AvatarMove, ...]:
    """An arrival's `moves`: a non-empty list of `[run, jumps, dashes]`."""
    if not isinstance(moves, list) or not moves:
        raise ValueError(f"moves must be a list of [run, jumps, dashes] (got {_shown(moves)})")
    read = []
    for move in moves:
        if (
            not isinstance(move, list)
            or len(move) != 3
            or any(isinstance(n, bool) or not isinstance(n, int) for n in move)
            or move[0] not in (-1, 0, 1)
            or not (0 <= move[1] <= MAX_PRESSES and 0 <= move[2] <= MAX_PRESSES)
        ):
            raise ValueError(
                f"a move must be [run: -1, 0 or 1, jumps, dashes: 0 to {MAX_PRESSES}] "
                f"(got {_shown(move)})"
            )
        read.append(AvatarMove(*move))
    return tuple(read)
