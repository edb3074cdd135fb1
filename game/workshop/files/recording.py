"""`SessionRecorder`: a played (or simulated) session, written down so it can be replayed.

The record is a JSON-lines file, one small JSON object per line, readable in any text editor:

    {"format": "timestep-lab-replay", "version": 2, "hz": "60", "world": {"integrator": ...}}
    {"tick": 212, "command": "fire", "x": 1.5, "y": 1.5, "vx": 9.3, "vy": 11.2, "spin": 4.0}
    {"tick": 300, "hz": "30"}
    {"tick": 511, "command": "reset"}
    {"tick": 530, "remote": 522, "inputs": "0011"}
    {"final_tick": 903, "state_hash": "5f0c...", "ended": "end", "record_hash": "9a41..."}

A network session (a scenario's `[network]`) adds its settings and seed to the header, and a
line for each arrival of remote inputs, at the tick it arrived at: a replay hands them back
right before that tick, and rollback does what it did (`game.session.rollback`). The live game
connects and disconnects its simulated peer while it runs (`game.session.netplay`): each
connection is a line at the tick it was made, `{"tick": 300, "network": {...}}`, with the same
settings a header holds (`"network": null`: disconnected), and its arrivals follow it.

A match against a real peer (`--host`, `--join`) adds `"match"` to the header (which side this
game was, and the link's settings), and its arrivals carry the peer's avatar moves, `[run,
jumps, dashes]` each: `{"tick": 530, "remote": 522, "moves": [[1, 0, 0], [1, 1, 0]]}`. Our
own moves are the avatar orders this game stamped (`avatar_input` for the host's avatar,
`joiner_input` for the joiner's).

The header holds what rebuilds the session: the world's settings (seed, gravity, precision,
integrator, cannon period) and the tick rate. Then come, as they happened, the orders
the session stamped for lane 0 and the tick-rate changes (a step's length is what the physics
integrates over, so a new rate is part of the record, pinned to its tick). The last line holds the
final tick and state hash that a replay must reproduce, how the session `ended` ("end": quit or
run to its end; "signal": Ctrl+C, a closed terminal, a kill; "error": a crash, recorded on the way
out), and the `record_hash`: a BLAKE2b digest of every line above it, each in canonical JSON
(`canonical_line`). The state hash covers only what the world still holds at the end, so an
order edited by hand whose effect a later reset erased would slip past it; the record hash
does not let any line change unnoticed.

Nothing else is needed: frame times, policies, time scale and stalls decide only *when* ticks
run, never what they compute, as long as every tick is a fixed step. (The `variable` policy is the
exception, by design: its steps are as long as the frames were, and a session that used it does
not replay to the same hash.)

Floats are written with Python's `repr`, the shortest text that reads back as the same double, so
an order comes back bit for bit. The file is written as `FILE.part`, a line at a time and
flushed, and renamed to `FILE` when the final line is written: `FILE` is always a whole
recording (an older one stays until the new one is complete), and a session killed outright
(`kill -9`, a power cut) still leaves every line up to that moment in `FILE.part`.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import os
from dataclasses import fields
from fractions import Fraction
from pathlib import Path
from typing import IO, Any

from game.config.exact import decimal_text
from game.config.model import GameConfig
from game.errors import BadInput
from game.network.peer import AvatarMove
from game.session.rollback import Arrival, Rollback
from game.stopping import stop_point, wrote
from game.workshop.files.network_section import NetworkSection
from game.workshop.files.output import discard, partial_path, reason, special_kind
from game.world.avatar import AvatarInput, JoinerInput
from game.world.orders import (
    Fire,
    Order,
    Reset,
    SetCannon,
    SetIntegrator,
    SpawnSpring,
    Teleport,
)
from game.world.world import World

FORMAT = "timestep-lab-replay"
VERSION = 2

ORDER_NAMES: dict[type[Order], str] = {
    Fire: "fire",
    SpawnSpring: "spawn_spring",
    Teleport: "teleport",
    Reset: "reset",
    SetIntegrator: "set_integrator",
    SetCannon: "set_cannon",
    AvatarInput: "avatar_input",
    JoinerInput: "joiner_input",
}
"""How each kind of order is named in a record."""


def header_record(
    config: GameConfig,
    network: NetworkSection | None = None,
    match: dict[str, object] | None = None,
) -> dict[str, Any]:
    """The first line: the format, the tick rate and the world's settings (and, for a network
    session, its `[network]` settings and seed: a recording without them reads as before)."""
    header = {
        "format": FORMAT,
        "version": VERSION,
        "hz": decimal_text(config.scheduler.hz),
        "world": config.world.model_dump(),
    }
    if network is not None:
        header["network"] = network_values(network)
    if match is not None:
        header["match"] = match
    return header


def network_values(network: NetworkSection) -> dict[str, Any]:
    """A `[network]`'s settings as a recording writes them (fractions as exact decimals)."""
    values = {name: getattr(network, name) for name in NetworkSection.model_fields}
    return {
        name: decimal_text(value) if isinstance(value, Fraction) else value
        for name, value in values.items()
    }


def arrival_record(arrival: Arrival) -> dict[str, Any]:
    """`{"tick": A, "remote": F, "inputs": "0110"}`: remote inputs for ticks F, F + 1, ...
    (1: the trigger on) that arrived when the world was at tick A."""
    if any(isinstance(value, AvatarMove) for value in arrival.inputs):
        moves = [list(value) for value in arrival.inputs if isinstance(value, AvatarMove)]
        return {"tick": arrival.tick, "remote": arrival.first, "moves": moves}
    bits = "".join("1" if trigger else "0" for trigger in arrival.inputs)
    return {"tick": arrival.tick, "remote": arrival.first, "inputs": bits}


def order_record(order: Order) -> dict[str, Any]:
    """`{"tick": N, "command": NAME, field: value, ...}`; pairs become two-item lists."""
    values = {
        field.name: _json_value(getattr(order, field.name))
        for field in fields(order)
        if field.name != "tick"
    }
    return {"tick": order.tick, "command": ORDER_NAMES[type(order)], **values}


def _json_value(value: object) -> object:
    return list(value) if isinstance(value, tuple) else value


def tick_rate_record(tick: int, hz: Fraction) -> dict[str, Any]:
    return {"tick": tick, "hz": decimal_text(hz)}


def final_record(world: World) -> dict[str, Any]:
    return {"final_tick": world.tick, "state_hash": world.state_hash()}


ENDINGS = ("end", "signal", "error")
"""How a recorded session can end: quit or run to its end, a signal, or an error."""


def canonical_line(record: dict[str, Any]) -> str:
    """A record as the record hash reads it: sorted keys, no spaces, ASCII (the same text from
    every writer, and from a reader that parsed the line back)."""
    return json.dumps(record, sort_keys=True, separators=(",", ":"))


def record_hasher() -> hashlib.blake2b:
    """The digest a record hash is made with (fed each canonical line and a newline)."""
    return hashlib.blake2b(digest_size=32)


class SessionRecorder:
    """Writes a session's record to `path` as it happens (to `path.part` until it is finished).

    Wire it into the session, which then reports every stamped order and tick-rate change:

        recorder = SessionRecorder(config, path)
        session = session_from(config, on_order=recorder.on_order,
                               on_tick_rate=recorder.tick_rate_changed)
        ...  # on exit, however it comes:
        recorder.finish(session.lanes[0].world, ended="end")

    The file is opened (and the header written) at once, so an unwritable path is refused before
    the session starts. A write that fails later stops the recording without stopping the game;
    `finish` then reports it. `abandon` drops a recording whose run was refused. Every problem is
    `BadInput` with one line.
    """

    def __init__(
        self,
        config: GameConfig,
        path: Path,
        network: NetworkSection | None = None,
        *,
        match: dict[str, object] | None = None,
    ) -> None:
        self.path = path
        self.partial = partial_path(path)
        self._last_tick = 0
        self._problem: str | None = None
        self._file: IO[str] | None = None
        self._hash = record_hasher()
        try:
            _refuse_special(path)
            discard(self.partial)  # left by a session killed outright: ours to replace
            self._file = self.partial.open("x", encoding="utf-8")
        except (OSError, ValueError) as problem:
            raise BadInput(f"{path}: cannot write the recording: {reason(problem)}") from None
        self._write(header_record(config, network, match))
        if self._problem is not None:
            raise BadInput(self._problem)
        try:
            stop_point("output")
        except BaseException:  # stopped here: no caller holds the recorder yet to abandon it
            self.abandon()
            raise

    def on_order(self, lane_index: int, order: Order) -> None:
        """`LabSession`'s `on_order` hook. Only lane 0's orders are kept: a replay rebuilds
        the main world (the split screen's second world gets the same inputs, in its own lane)."""
        if lane_index == 0:
            self._at(order.tick)
            self._write(order_record(order))

    def remote_arrived(self, arrival: Arrival) -> None:
        """Rollback's `on_arrival` hook: remote inputs, at the tick they arrived at."""
        self._at(arrival.tick)
        self._write(arrival_record(arrival))

    def link_changed(self, tick: int, rollback: Rollback | None) -> None:
        """`LabSession`'s `on_link` hook: the live game connected its simulated peer afresh at
        `tick` (None: disconnected); its arrivals are written from now on."""
        self._at(tick)
        network = None if rollback is None else network_values(NetworkSection.of(rollback.settings))
        self._write({"tick": tick, "network": network})
        if rollback is not None:
            rollback.on_arrival = self.remote_arrived

    def tick_rate_changed(self, tick: int, hz: Fraction) -> None:
        """The step is 1/`hz` from tick `tick` on (call it when the change is made)."""
        self._at(tick)
        self._write(tick_rate_record(tick, hz))

    def finish(self, world: World, ended: str = "end") -> None:
        """Write the final line (how the session `ended`: one of `ENDINGS`), close the file and
        give it its name. Finishing twice does nothing the second time."""
        if ended not in ENDINGS:
            raise ValueError(f"ended must be one of {', '.join(ENDINGS)} (got {ended!r})")
        if self._file is None and self._problem is None:
            return
        self._at(world.tick)
        final = final_record(world)
        self._write({**final, "ended": ended, "record_hash": self._hash.hexdigest()})
        self._close()
        if self._problem is None:
            try:
                _refuse_special(self.path)  # a device or a folder put there meanwhile
                os.replace(self.partial, self.path)
                wrote(f"{self.path} (to tick {world.tick}, {ended}, replayable)")
            except OSError as problem:
                self._fail(problem)
        if self._problem is not None:
            message, self._problem = self._problem, None
            raise BadInput(message)

    def abandon(self) -> None:
        """Close and remove the unfinished recording (its run was refused, or failed)."""
        self._close()
        discard(self.partial)
        self._problem = None

    def _at(self, tick: int) -> None:
        if tick < self._last_tick:
            raise ValueError(
                f"ticks must not go backwards in a record ({tick} after {self._last_tick})"
            )
        self._last_tick = tick

    def _write(self, record: dict[str, Any]) -> None:
        if self._file is None or self._problem is not None:
            return
        if "final_tick" not in record:
            self._hash.update(canonical_line(record).encode() + b"\n")
        try:
            self._file.write(json.dumps(record) + "\n")
            self._file.flush()
        except (OSError, ValueError) as problem:
            self._fail(problem)

    def _close(self) -> None:
        if self._file is not None:
            file, self._file = self._file, None
            try:
                file.close()
            except OSError as problem:
                self._fail(problem)

    def _fail(self, problem: OSError | ValueError) -> None:
        if self._problem is None:  # the first reason is the one
            self._problem = f"{self.path}: cannot write the recording: {reason(problem)}"
        if self._file is not None:
            file, self._file = self._file, None
            with contextlib.suppress(OSError):
                file.close()
        discard(self.partial)


def _refuse_special(path: Path) -> None:
    """`OSError` if `path` is a folder, a device, a FIFO or a socket: a recording replaces only
    an ordinary file."""
    kind = special_kind(path)
    if kind is not None:
        raise OSError(errno.EEXIST, f"is {kind}")
