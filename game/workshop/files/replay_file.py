"""`read_recording`: a replay file read back, or one `FILE:LINE: message` saying why not.

The file is JSON text and nothing else: it is parsed with `json`, never unpickled or evaluated,
and every value is checked before anything runs. A file that was cut short, edited by hand or
written by something else is refused with the line at fault:

    session.replay:1: replay format version 1 is not supported (this game reads version 2)
    session.replay:4: unknown command "jump" (known: fire, spawn_spring, teleport, ...)
    session.replay:5: bad fire: Fire.vx must be a number, not str (got 'fast')
    session.replay:7: tick 80 comes after tick 120: ticks must not go backwards
    session.replay:9: the file ends without its final line: it was cut short

Every line before the final one is also hashed as the recorder hashed it (`canonical_line`), so
`replay` can tell a file whose lines were changed from the one that was recorded.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, fields
from fractions import Fraction
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from game import limits
from game.clock.units import parse_ratio
from game.config.exact import decimal_text
from game.config.model import GameConfig, SchedulerSection, WorldSection
from game.config.problems import NOTHING, dotted, problems_in, render
from game.errors import BadInput
from game.file_reading import read_lines
from game.from_config import world_settings_from
from game.knobs import MAX_HZ, MIN_HZ
from game.limits import MAX_DIGITS, MAX_RECORDING_LINE_BYTES
from game.session.rollback import Arrival
from game.workshop.files.match_record import MATCH_KEYS, read_match, read_moves
from game.workshop.files.network_section import NetworkSection
from game.workshop.files.recording import (
    ENDINGS,
    FORMAT,
    ORDER_NAMES,
    VERSION,
    canonical_line,
    record_hasher,
)
from game.workshop.files.timeline import (
    LinkChange,
    RecordedOrder,
    RemoteArrival,
    TickRateChange,
)
from game.world.orders import Order
from game.world.settings import WorldSettings
from timestep_lab import hz_to_step_ns

_KINDS: dict[str, type[Order]] = {name: kind for kind, name in ORDER_NAMES.items()}
_MATCH_ONLY = ("joiner_input",)
"""Orders only a match's recording may hold (its world alone has the joiner's avatar)."""


@dataclass(frozen=True, slots=True)
class Recording:
    """A replay file's contents, checked: how to rebuild the session, and what must happen."""

    config: GameConfig
    """The recorded world settings and tick rate (with the `uncapped` policy: a replay drops
    nothing)."""
    events: tuple[RecordedOrder | TickRateChange | RemoteArrival | LinkChange, ...]
    final_tick: int
    state_hash: str
    ended: str
    """How the session ended: one of `ENDINGS`."""
    record_hash: str
    """The hash of the lines as the recorder wrote them (from the final line)."""
    lines_hash: str
    """The hash of the lines as they are now: equal to `record_hash` unless they were changed."""
    network: NetworkSection | None = None
    """A network session's `[network]` settings (None: a session without a remote peer)."""
    match: dict[str, Any] | None = None
    """A match's header: which side this game was, the link's settings (None: no match)."""

    def simulated_ns(self) -> Fraction:
        """The simulated time from tick 0 to the final tick, each stretch at its tick rate."""
        total, tick, hz = Fraction(0), 0, self.config.scheduler.hz
        for event in self.events:
            if isinstance(event, TickRateChange):
                total += (event.tick - tick) * hz_to_step_ns(hz)
                tick, hz = event.tick, event.hz
        return total + (self.final_tick - tick) * hz_to_step_ns(hz)


class _Refusal(Exception):
    """One problem on one line; turned into `BadInput` with the file's name."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def read_recording(path: Path) -> Recording:
    """Read and check the replay file at `path`; `BadInput` at the first problem."""
    lines = read_lines(path, "a replay file", line_limit=MAX_RECORDING_LINE_BYTES)
    return _Reader(path).read(lines)


class _Reader:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.line = 0

    def read(self, text: Iterable[str]) -> Recording:
        lines = _numbered(text)
        try:
            self.line, first = next(lines, (1, None))
            if first is None:
                raise _Refusal("the file is empty: a replay starts with its header")
            header = _object(first)
            config = _header(header)
            network = _network(header)
            match = _match(header)
            lines_hash = record_hasher()
            lines_hash.update(canonical_line(header).encode() + b"\n")
            arena = world_settings_from(config)
            events: list[RecordedOrder | TickRateChange | RemoteArrival | LinkChange] = []
            connected = network is not None
            last_tick = 0
            for self.line, raw in lines:
                record = _object(raw)
                if "final_tick" in record:
                    final = _final(record, last_tick)
                    after = next(lines, None)
                    if after is not None:
                        self.line = after[0]
                        raise _Refusal("nothing may follow the final line")
                    hashed = lines_hash.hexdigest()
                    return Recording(config, tuple(events), *final, hashed, network, match)
                lines_hash.update(canonical_line(record).encode() + b"\n")
                if "network" in record:
                    link = _link_change(record, last_tick)
                    connected = connected or link.settings is not None
                    event: RecordedOrder | TickRateChange | RemoteArrival | LinkChange = link
                elif "remote" in record:
                    event = _arrival(record, connected, match, last_tick)
                else:
                    event = _event(record, arena, last_tick, match is not None)
                last_tick = event.tick
                events.append(event)
            partial = self.path.suffix == ".part"
            raise _Refusal(
                "the file ends without its final line: it was cut short"
                + (" (the game writing it is still running, or was killed)" if partial else "")
            )
        except _Refusal as refusal:
            raise BadInput(f"{self.path}:{self.line}: {refusal.message}") from None


def _numbered(lines: Iterable[str]) -> Iterator[tuple[int, str]]:
    """The non-blank lines with their 1-based numbers."""
    for number, line in enumerate(lines, start=1):
        if line.strip():
            yield number, line


def _object(line: str) -> dict[str, Any]:
    try:
        value = json.loads(
            line,
            parse_int=_whole_number,
            parse_constant=_no_constant,
            object_pairs_hook=_no_duplicates,
        )
    except json.JSONDecodeError as problem:
        raise _Refusal(f"not valid JSON: {problem.msg} (column {problem.colno})") from None
    except RecursionError:
        raise _Refusal("not valid JSON: nested too deeply") from None
    if not isinstance(value, dict):
        raise _Refusal(f"each line must be a JSON object {{...}} (got {_shown(value)})")
    return value


def _whole_number(text: str) -> int:
    """A JSON integer, read only when it has at most `MAX_DIGITS` digits: a 5,001-digit
    `final_tick` is one line here, not Python's advice about its own digit limit."""
    digits = len(text.lstrip("-"))
    if digits > MAX_DIGITS:
        raise _Refusal(f"a number has {digits:,} digits; at most {MAX_DIGITS} are read")
    return int(text)


def _no_constant(name: str) -> object:
    raise _Refusal(f"not valid JSON: {name} is not a number in JSON")


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    record: dict[str, Any] = {}
    for key, value in pairs:
        if key in record:
            raise _Refusal(f"the key {key!r} appears twice")
        record[key] = value
    return record


def _header(record: dict[str, Any]) -> GameConfig:
    if record.get("format") != FORMAT:
        raise _Refusal(
            f"not a Timestep Lab replay: the first line must be its header "
            f'{{"format": "{FORMAT}", ...}}'
        )
    optional = {"network", "match"} & record.keys()
    _keys(record, {"format", "version", "hz", "world"} | optional, "the header")
    version = record["version"]
    if type(version) is not int or version != VERSION:  # not 2.0, not true
        raise _Refusal(
            f"replay format version {_shown(version)} is not supported "
            f"(this game reads version {VERSION})"
        )
    hz = _hz(record["hz"])
    try:
        world = WorldSection.model_validate(record["world"])
    except ValidationError as error:
        problem = problems_in(error, WorldSection)[0]
        got = "" if problem.got is NOTHING else f" (got {_shown(problem.got)})"
        raise _Refusal(f"[{dotted(('world', *problem.key))}] {problem.message}{got}") from None
    # The replay runs uncapped, with room for the longest step: no tick is ever dropped.
    scheduler = SchedulerSection(hz=hz, policy="uncapped", max_frame_ms=Fraction(10_000))
    return GameConfig(scheduler=scheduler, world=world)


def _network(record: dict[str, Any]) -> NetworkSection | None:
    """The header's `network` settings, checked as a scenario's `[network]` is."""
    if "network" not in record:
        return None
    try:
        return NetworkSection.model_validate(record["network"])
    except ValidationError as error:
        problem = problems_in(error, NetworkSection)[0]
        got = "" if problem.got is NOTHING else f" (got {_shown(problem.got)})"
        raise _Refusal(f"[{dotted(('network', *problem.key))}] {problem.message}{got}") from None


def _match(record: dict[str, Any]) -> dict[str, Any] | None:
    """The header's `match`: which side, and the link's settings (`match_record`)."""
    if "match" not in record:
        return None
    match = record["match"]
    if not isinstance(match, dict):
        raise _Refusal(f"match must be an object {{...}} (got {_shown(match)})")
    _keys(match, set(MATCH_KEYS), "the header's match")
    try:
        return read_match(match)
    except ValueError as problem:
        raise _Refusal(str(problem)) from None


def _moves(record: dict[str, Any], last_tick: int) -> RemoteArrival:
    """`{"tick": A, "remote": F, "moves": [[run, jumps, dashes], ...]}`, in a match's."""
    _keys(record, {"tick", "remote", "moves"}, "a remote-move line")
    tick = _tick(record, "tick", last_tick)
    first = _tick(record, "remote", 0)
    try:
        return RemoteArrival(Arrival(tick, first, read_moves(record["moves"])))
    except ValueError as problem:
        raise _Refusal(str(problem)) from None


def _link_change(record: dict[str, Any], last_tick: int) -> LinkChange:
    """`{"tick": N, "network": {...}}`: the live game's peer connected afresh (null: gone)."""
    _keys(record, {"tick", "network"}, "a connection line")
    tick = _tick(record, "tick", last_tick)
    network = None if record["network"] is None else _network(record)
    return LinkChange(tick, None if network is None else network.settings())


def _arrival(
    record: dict[str, Any],
    connected: bool,
    match: dict[str, Any] | None,
    last_tick: int,
) -> RemoteArrival:
    """`{"tick": A, "remote": F, "inputs": "0110"}`, in a network session's recording (or a
    match's moves)."""
    if match is not None:
        return _moves(record, last_tick)
    if not connected:
        raise _Refusal("remote inputs need a header with the network settings")
    _keys(record, {"tick", "remote", "inputs"}, "a remote-input line")
    tick = _tick(record, "tick", last_tick)
    first = _tick(record, "remote", 0)
    bits = record["inputs"]
    if not isinstance(bits, str) or not bits or bits.strip("01"):
        raise _Refusal(f"inputs must be a string of 0s and 1s (got {_shown(bits)})")
    return RemoteArrival(Arrival(tick, first, tuple(bit == "1" for bit in bits)))


def _hz(value: object) -> Fraction:
    if not isinstance(value, str):
        raise _Refusal(f'hz must be a tick rate in quotes, like "60" (got {_shown(value)})')
    try:
        hz = parse_ratio(value, what="hz")
    except ValueError:
        raise _Refusal(
            f'hz must be a tick rate like "60" or "59.94" (got {_shown(value)})'
        ) from None
    if not MIN_HZ <= hz <= MAX_HZ:
        raise _Refusal(
            f"hz must be from {decimal_text(MIN_HZ)} to {decimal_text(MAX_HZ)} "
            f"(got {_shown(value)})"
        )
    return hz


def _tick(record: dict[str, Any], key: str, last_tick: int) -> int:
    tick = record.get(key)
    if isinstance(tick, bool) or not isinstance(tick, int):
        raise _Refusal(f"{key} must be a whole number (got {_shown(tick)})")
    if not 0 <= tick <= limits.MAX_RUN_TICKS:
        raise _Refusal(f"{key} must be from 0 to {limits.MAX_RUN_TICKS:,}, the limit (got {tick})")
    if tick < last_tick:
        raise _Refusal(f"tick {tick} comes after tick {last_tick}: ticks must not go backwards")
    return tick


def _event(
    record: dict[str, Any], arena: WorldSettings, last_tick: int, match: bool
) -> RecordedOrder | TickRateChange:
    if "hz" in record:
        _keys(record, {"tick", "hz"}, "a tick-rate line")
        return TickRateChange(_tick(record, "tick", last_tick), _hz(record["hz"]))
    if "command" not in record:
        raise _Refusal(
            'a line must be a command {"tick": N, "command": ...}, a tick rate '
            '{"tick": N, "hz": ...} or the final line {"final_tick": N, ...}'
        )
    name = record["command"]
    kinds = [kind for kind in _KINDS if match or kind not in _MATCH_ONLY]
    kind = _KINDS.get(name) if isinstance(name, str) and name in kinds else None
    if kind is None:
        raise _Refusal(f"unknown command {_shown(name)} (known: {', '.join(kinds)})")
    names = {field.name for field in fields(kind)}
    _keys(record, names | {"command"}, f"a {name} line")
    tick = _tick(record, "tick", last_tick)
    values = {key: value for key, value in record.items() if key not in ("tick", "command")}
    try:
        command = kind(tick=tick, **values)
    except (TypeError, ValueError) as problem:
        raise _Refusal(f"bad {name}: {problem}") from None
    for what, x, y in command.points():
        if not arena.contains(x, y):
            raise _Refusal(
                f"bad {name}: its {what} ({x:g}, {y:g}) is outside the "
                f"{arena.arena_width:g} x {arena.arena_height:g} m arena"
            )
    return RecordedOrder(command)


def _final(record: dict[str, Any], last_tick: int) -> tuple[int, str, str, str]:
    _keys(record, {"final_tick", "state_hash", "ended", "record_hash"}, "the final line")
    tick = _tick(record, "final_tick", last_tick)
    ended = record["ended"]
    if ended not in ENDINGS:
        raise _Refusal(f"ended must be one of {', '.join(ENDINGS)} (got {_shown(ended)})")
    return tick, _digest(record, "state_hash"), ended, _digest(record, "record_hash")


def _digest(record: dict[str, Any], key: str) -> str:
    value = record[key]
    if not isinstance(value, str) or len(value) != 64 or value.strip("0123456789abcdef"):
        raise _Refusal(f"{key} must be 64 hex digits (got {_shown(value)})")
    return value


def _keys(record: dict[str, Any], expected: set[str], what: str) -> None:
    missing = sorted(expected - record.keys())
    if missing:
        raise _Refusal(f"{what} is missing {', '.join(missing)}")
    unknown = sorted(record.keys() - expected)
    if unknown:
        raise _Refusal(f"{what} has unknown keys: {', '.join(unknown)}")


def _shown(value: object) -> str:
    """A value as JSON would write it, cut short."""
    try:
        text = json.dumps(value)
    except (TypeError, ValueError):
        text = render(value)
    return text if len(text) <= 60 else text[:57] + "..."
