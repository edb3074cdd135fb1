"""The datagrams two games of a match exchange: laid out byte by byte, read back strictly.

Every datagram starts with the same seven bytes: `TSLm` (the game's mark), the protocol number
(two bytes) and its kind (one byte). All numbers are little-endian. The kinds:

- `HELLO`: the handshake's facts (`game.network.handshake`), as UTF-8 JSON.
- `PING` (the joiner's clock), `PONG` (that clock echoed, and the host's): a round trip, from which
  the joiner estimates the host's clock.
- `START` and `STARTED`: the start time, on the host's clock, proposed and acknowledged.
- `GOODBYE`: the sender quits (Q): the other game plays on alone at once.
- `INPUTS`: the match itself. A sequence number; the sender's tick, the last tick of ours it has
  confirmed (our acknowledgement: we stop sending inputs up to it), its averaged lead over us
  in thousandths of a tick; its clock when sent, the last clock of ours it heard and how long
  it held it (a round trip without synchronized clocks); the last tick whose confirmed state
  hash it knows, and that hash's first 8 bytes (a desync check); then its inputs for ticks `first`,
  `first + 1`, ...: every one we have not acknowledged, three bytes each (run, jumps, dashes).

Nothing read is trusted: `read_inputs` says why a datagram is not one well-formed `INPUTS` of
our protocol (`DROPPED`), and the link counts each reason.
"""

from __future__ import annotations

import json
import struct
from fractions import Fraction
from typing import Any, NamedTuple

from game.network.peer import AvatarMove

MARK = b"TSLm"
PROTOCOL = 1
"""The protocol number: two games speak to each other only when theirs are the same."""
HELLO, PING, PONG, START, STARTED, INPUTS, GOODBYE = range(1, 8)

_HEAD = struct.Struct("<4sHB")
_TIMES = struct.Struct("<qq")
_INPUTS = struct.Struct("<Iiiiqqqi8sih")
_MOVE = struct.Struct("<bBB")
MAX_DATAGRAM = 65_507
"""The most a UDP datagram over IPv4 can carry."""
MAX_SENT_MOVES = 256
"""The most inputs one datagram carries (the oldest a peer has not acknowledged): a link that
left more than this many unacknowledged has broken, as GGPO's would."""
MAX_INPUT_DELAY = 1000
"""The furthest ahead of its tick a peer may send an input (its input delay, at most)."""

STRANGER = "from a stranger"
SHORT = "short"
OVERSIZED = "oversized"
GARBLED = "garbled"
WRONG_VERSION = "wrong version"
HANDSHAKE = "late handshake"
STALE = "stale"
DROPPED = (STRANGER, SHORT, OVERSIZED, GARBLED, WRONG_VERSION, HANDSHAKE, STALE)
"""Why a datagram the match's socket reads is dropped, each counted (`UdpLink.drops`)."""
MAX_PRESSES = 255
"""The most jumps or dashes of one tick a datagram can carry."""


class Inputs(NamedTuple):
    """An `INPUTS` datagram's contents."""

    seq: int
    tick: int
    confirmed: int
    lead: Fraction
    sent_ns: int
    echo_ns: int
    held_ns: int
    check_tick: int
    """The last tick whose confirmed state hash the sender knows (-1: none yet)..."""
    check: bytes
    """... and the hash's first 8 bytes: the receiver compares it with its own."""
    first: int
    moves: tuple[AvatarMove, ...]


def _head(kind: int) -> bytes:
    return _HEAD.pack(MARK, PROTOCOL, kind)


def hello(facts: dict[str, Any]) -> bytes:
    return _head(HELLO) + json.dumps(facts, sort_keys=True).encode()


def goodbye() -> bytes:
    return _head(GOODBYE)


def times(kind: int, first: int, second: int = 0) -> bytes:
    """A `PING`, `PONG`, `START` or `STARTED`: two clock readings (or one, and 0)."""
    return _head(kind) + _TIMES.pack(first, second)


def inputs(packet: Inputs) -> bytes:
    lead = round(packet.lead * 1000)
    lead = max(-(2**31), min(2**31 - 1, lead))
    head = _INPUTS.pack(
        packet.seq,
        packet.tick,
        packet.confirmed,
        lead,
        packet.sent_ns,
        packet.echo_ns,
        packet.held_ns,
        packet.check_tick,
        packet.check,
        packet.first,
        len(packet.moves),
    )
    body = b"".join(_MOVE.pack(*_clamped(move)) for move in packet.moves)
    return _head(INPUTS) + head + body


def _clamped(move: AvatarMove) -> AvatarMove:
    return AvatarMove(move.run, min(move.jumps, MAX_PRESSES), min(move.dashes, MAX_PRESSES))


def kind_of(data: bytes) -> int | None:
    """The datagram's kind, or None: not ours, or another protocol's."""
    if len(data) < _HEAD.size:
        return None
    mark, protocol, kind = _HEAD.unpack_from(data)
    if mark != MARK or protocol != PROTOCOL or not HELLO <= kind <= GOODBYE:
        return None
    return int(kind)


def protocol_of(data: bytes) -> int | None:
    """Another protocol's number, when `data` is a game's datagram of another protocol."""
    if len(data) < _HEAD.size:
        return None
    mark, protocol, _ = _HEAD.unpack_from(data)
    return int(protocol) if mark == MARK and protocol != PROTOCOL else None


def read_hello(data: bytes) -> dict[str, Any] | None:
    try:
        facts = json.loads(data[_HEAD.size :].decode())
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None
    return facts if isinstance(facts, dict) else None


def read_times(data: bytes) -> tuple[int, int] | None:
    if len(data) != _HEAD.size + _TIMES.size:
        return None
    first, second = _TIMES.unpack_from(data, _HEAD.size)
    return int(first), int(second)


def read_inputs(data: bytes) -> Inputs | str:
    """An `INPUTS` datagram, or why it is dropped (`DROPPED`): too short for what it says,
    longer than any game sends, of another protocol or another kind (a handshake's, late),
    or garbled: a length that does not add up, a tick before 0, inputs for ticks its sender
    cannot have read yet, a run direction that is not -1, 0 or 1."""
    start = _HEAD.size + _INPUTS.size
    if len(data) < _HEAD.size:
        return SHORT
    mark, protocol, kind = _HEAD.unpack_from(data)
    if mark != MARK:
        return GARBLED
    if protocol != PROTOCOL:
        return WRONG_VERSION
    if kind != INPUTS:
        return HANDSHAKE if HELLO <= kind < INPUTS else GARBLED  # a goodbye is read before
    if len(data) < start:
        return SHORT
    if len(data) > start + MAX_SENT_MOVES * _MOVE.size:
        return OVERSIZED
    seq, tick, confirmed, lead, sent, echo, held, check_tick, check, first, count = (
        _INPUTS.unpack_from(data, _HEAD.size)
    )
    if not 0 <= count <= MAX_SENT_MOVES:
        return GARBLED
    if len(data) != start + count * _MOVE.size:
        return SHORT if len(data) < start + count * _MOVE.size else GARBLED
    if min(tick, first, confirmed + 1, sent + 1, echo + 1, held, check_tick + 1) < 0:
        return GARBLED
    if first + count - 1 > tick + MAX_INPUT_DELAY:
        return GARBLED  # inputs for ticks further ahead than any input delay reads them
    moves = []
    for offset in range(start, len(data), _MOVE.size):
        run, jumps, dashes = _MOVE.unpack_from(data, offset)
        if run not in (-1, 0, 1):
            return GARBLED
        moves.append(AvatarMove(run, jumps, dashes))
    lead_ticks = Fraction(lead, 1000)
    return Inputs(
        seq, tick, confirmed, lead_ticks, sent, echo, held, check_tick, check, first, tuple(moves)
    )
