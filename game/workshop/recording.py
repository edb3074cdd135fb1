"""`SessionRecorder`: a played (or simulated) session, written down so it can be replayed.

The record is a JSON-lines file, one small JSON object per line, readable in any text editor:

    {"format": "timestep-lab-replay", "version": 1, "hz": "60", "world": {"integrator": ...}}
    {"tick": 212, "command": "fire", "x": 1.5, "y": 1.5, "vx": 9.3, "vy": 11.2, "spin": 4.0}
    {"tick": 300, "hz": "30"}
    {"tick": 511, "command": "reset"}
    {"final_tick": 903, "state_hash": "5f0c..."}

The header holds what rebuilds the session: the world's settings (seed, gravity, precision,
integrator, cannon period) and the tick rate. Then come, in the order they happened, the commands
the session stamped for lane 0 and the tick-rate changes (a step's length is what the physics
integrates over, so a new rate is part of the record, pinned to its tick). The last line holds the
final tick and state hash that a replay must reproduce.

Nothing else is needed: frame times, policies, time scale and stalls decide only *when* ticks
run, never what they compute, as long as every tick is a fixed step. (The `variable` policy is the
exception, by design: its steps are as long as the frames were, and a session that used it does
not replay to the same hash.)

Floats are written with Python's `repr`, the shortest text that reads back as the same double, so
a command comes back bit for bit. The file is written as the session goes, a line at a time and
flushed, so a crash leaves everything up to the crash on disk (without its final line, which a
replay then reports as a truncated file).
"""

from __future__ import annotations

import contextlib
import json
from dataclasses import fields
from fractions import Fraction
from pathlib import Path
from typing import IO, Any

from game.config.exact import decimal_text
from game.config.model import GameConfig
from game.errors import BadInput
from game.world.avatar import AvatarInput
from game.world.commands import (
    Command,
    Fire,
    Reset,
    SetCannon,
    SetIntegrator,
    SpawnSpring,
    Teleport,
)
from game.world.world import World

FORMAT = "timestep-lab-replay"
VERSION = 1

COMMAND_NAMES: dict[type[Command], str] = {
    Fire: "fire",
    SpawnSpring: "spawn_spring",
    Teleport: "teleport",
    Reset: "reset",
    SetIntegrator: "set_integrator",
    SetCannon: "set_cannon",
    AvatarInput: "avatar_input",
}
"""How each kind of command is named in a record."""


def header_record(config: GameConfig) -> dict[str, Any]:
    """The first line: the format, the tick rate and the world's settings."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "hz": decimal_text(config.scheduler.hz),
        "world": config.world.model_dump(),
    }


def command_record(command: Command) -> dict[str, Any]:
    """`{"tick": N, "command": NAME, field: value, ...}`; pairs become two-item lists."""
    values = {
        field.name: _json_value(getattr(command, field.name))
        for field in fields(command)
        if field.name != "tick"
    }
    return {"tick": command.tick, "command": COMMAND_NAMES[type(command)], **values}


def _json_value(value: object) -> object:
    return list(value) if isinstance(value, tuple) else value


def tick_rate_record(tick: int, hz: Fraction) -> dict[str, Any]:
    return {"tick": tick, "hz": decimal_text(hz)}


def final_record(world: World) -> dict[str, Any]:
    return {"final_tick": world.tick, "state_hash": world.state_hash()}


class SessionRecorder:
    """Writes a session's record to `path` as it happens.

    Wire it into the session, which then reports every stamped command and tick-rate change:

        recorder = SessionRecorder(config, path)
        session = session_from(config, on_command=recorder.on_command,
                               on_tick_rate=recorder.tick_rate_changed)
        ...  # on exit:
        recorder.finish(session.lanes[0].world)

    The file is opened (and the header written) at once, so an unwritable path is refused before
    the session starts. A write that fails later stops the recording without stopping the game;
    `finish` then reports it. Every problem is `BadInput` with one line.
    """

    def __init__(self, config: GameConfig, path: Path) -> None:
        self.path = path
        self._last_tick = 0
        self._problem: str | None = None
        self._file: IO[str] | None = None
        try:
            self._file = path.open("w", encoding="utf-8")
        except OSError as problem:
            raise BadInput(f"{path}: cannot write the recording: {_reason(problem)}") from None
        self._write(header_record(config))
        if self._problem is not None:
            raise BadInput(self._problem)

    def on_command(self, lane: int, command: Command) -> None:
        """`LabSession`'s `on_command` hook. Only lane 0's commands are kept: a replay rebuilds
        the main world (the split screen's second world gets the same inputs, in its own lane)."""
        if lane == 0:
            self._at(command.tick)
            self._write(command_record(command))

    def tick_rate_changed(self, tick: int, hz: Fraction) -> None:
        """The step is 1/`hz` from tick `tick` on (call it when the change is made)."""
        self._at(tick)
        self._write(tick_rate_record(tick, hz))

    def finish(self, world: World) -> None:
        """Write the final tick and state hash, and close the file."""
        self._at(world.tick)
        self._write(final_record(world))
        if self._file is not None:
            try:
                self._file.close()
            except OSError as problem:
                self._fail(problem)
            self._file = None
        if self._problem is not None:
            raise BadInput(self._problem)

    def _at(self, tick: int) -> None:
        if tick < self._last_tick:
            raise ValueError(
                f"ticks must not go backwards in a record ({tick} after {self._last_tick})"
            )
        self._last_tick = tick

    def _write(self, record: dict[str, Any]) -> None:
        if self._file is None or self._problem is not None:
            return
        try:
            self._file.write(json.dumps(record) + "\n")
            self._file.flush()
        except OSError as problem:
            self._fail(problem)

    def _fail(self, problem: OSError) -> None:
        self._problem = f"{self.path}: cannot write the recording: {_reason(problem)}"
        if self._file is not None:
            with contextlib.suppress(OSError):  # already failing: the first reason is the one
                self._file.close()
            self._file = None


def _reason(problem: OSError) -> str:
    return (problem.strerror or str(problem)).lower()
