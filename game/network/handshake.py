"""The handshake: two games agree they can play one match, and when it starts.

Rollback keeps two worlds the same only if both run the same code on the same numbers with the
same settings, so before the first tick the two games compare (`HELLO`, each sends its own):

- the protocol number (a game of another version does not understand our datagrams);
- a digest of the project's source (every `.py` file of `game/` and `timestep_lab/`), and the
  Python and numpy versions: the same code computing the same floats;
- a digest of the settings that must agree (`match_settings`: the tick rate, the world's
  settings with its seed, which decide the scene, the input delay, the prediction window and time
  sync), and the settings themselves, so that a mismatch can say what differs.

A difference is one line on both sides, naming it, and no match. Another operating system or
CPU architecture is allowed with a warning: floats may come out differently there (the C
library's trigonometry is not the same everywhere).

Then the start. The joiner measures round trips to the host (`PING`, `PONG`), estimates the
host's clock from the quickest one (its reading was taken half that trip after ours), and
proposes a start time on the host's clock `START_MARGIN_NS` ahead (`START`); the host
acknowledges it (`STARTED`). Each game waits for that moment on its own clock before its first
frame, so both start within the error of the estimate: half the quickest round trip, well
under a tick on one machine or a room's network.

The handshake is handed the app's clock reading (`now_ns`): it never reads a clock itself.
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import socket
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from game.errors import BadInput
from game.network import packets
from game.network.address import Address
from timestep_lab import NS_PER_MS

SOURCE_DIGEST = "TIMESTEP_LAB_SOURCE_DIGEST"
"""A test hook: when set, the source digest a game sends (a test plays a game whose code
differs without changing the code)."""
ANSWER_WITHIN_S = 10.0
"""How long a joiner waits for the host to answer before it gives up."""
RESEND_S = 0.1
"""How long to wait for an answer before sending a handshake datagram again."""
PINGS = 8
"""Round trips measured before the start is proposed."""
START_MARGIN_NS = 1500 * NS_PER_MS
"""How far ahead the start is proposed: time to open a window and draw its first picture."""

Now = Callable[[], int]


class Agreed(NamedTuple):
    """A match both games agreed to: the peer, when to start (our clock), the round trip."""

    peer: Address
    start_ns: int
    round_trip_ns: int
    warning: str | None
    """Another operating system or CPU architecture (floats may differ), or None."""


def source_digest() -> str:
    """The digest of every `.py` file of the game and the library, by path and contents."""
    hooked = os.environ.get(SOURCE_DIGEST)
    if hooked:
        return hooked
    root = Path(__file__).resolve().parents[2]
    digest = hashlib.blake2b(digest_size=16)
    for package in ("game", "timestep_lab"):
        for path in sorted((root / package).rglob("*.py")):
            digest.update(path.relative_to(root).as_posix().encode() + b"\0")
            digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


def our_facts(settings: Mapping[str, str]) -> dict[str, Any]:
    """What this game says of itself in its `HELLO`."""
    text = json.dumps(dict(settings), sort_keys=True)
    return {
        "protocol": packets.PROTOCOL,
        "source": source_digest(),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "system": platform.system(),
        "machine": platform.machine(),
        "settings_digest": hashlib.blake2b(text.encode(), digest_size=16).hexdigest(),
        "settings": dict(settings),
    }


def difference(ours: Mapping[str, Any], theirs: Mapping[str, Any]) -> str | None:
    """What differs that forbids a match, in words; None when nothing does."""
    for key, what in (("protocol", "protocol"), ("python", "Python"), ("numpy", "numpy")):
        if ours.get(key) != theirs.get(key):
            return f"{what} {_text(ours.get(key))} here, {_text(theirs.get(key))} there"
    if ours.get("source") != theirs.get("source"):
        return "the game's source differs (another version, or changed files)"
    if ours.get("settings_digest") != theirs.get("settings_digest"):
        mine, other = ours.get("settings", {}), theirs.get("settings", {})
        other = other if isinstance(other, dict) else {}
        names = sorted(set(mine) | set(other))
        differing = [
            f"{n} {_text(mine.get(n))} here, {_text(other.get(n))} there"
            for n in names
            if mine.get(n) != other.get(n)
        ]
        return "settings differ: " + ("; ".join(differing) or "their digests")
    return None


def platform_warning(ours: Mapping[str, Any], theirs: Mapping[str, Any]) -> str | None:
    here = f"{ours.get('system')} {ours.get('machine')}"
    there = f"{_text(theirs.get('system'))} {_text(theirs.get('machine'))}"
    if here == there.replace('"', ""):
        return None
    return f"warning: {here} here, {there} there: floats may differ, and the worlds with them"


def _text(value: object) -> str:
    text = value if isinstance(value, str) else json.dumps(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _refused(line: str) -> BadInput:
    return BadInput.error(f"no match: {line}")


def host(sock: socket.socket, facts: Mapping[str, Any], now_ns: Now) -> Agreed:
    """Wait for a joiner's `HELLO`, answer it, and serve its round trips until it proposes the
    start; refuse (`BadInput`, after answering, so the joiner refuses too) if the facts differ."""
    sock.settimeout(RESEND_S)
    peer: Address | None = None
    theirs: Mapping[str, Any] = {}
    while True:
        received = _receive(sock)
        if received is None:
            continue
        data, sender = received
        kind = packets.kind_of(data)
        if (other := packets.protocol_of(data)) is not None and peer in (None, sender):
            sock.sendto(packets.hello(dict(facts)), sender)  # a game that can name it too
            raise _refused(f"protocol {packets.PROTOCOL} here, {other} there")
        if kind == packets.HELLO and (peer is None or sender == peer):
            hello = packets.read_hello(data)
            if hello is None:
                continue
            peer, theirs = sender, hello
            sock.sendto(packets.hello(dict(facts)), peer)
            problem = difference(facts, theirs)
            if problem is not None:
                raise _refused(problem)
        elif sender != peer:
            continue  # a stranger, before or after the joiner: not ours to answer
        elif kind == packets.PING and (times := packets.read_times(data)) is not None:
            sock.sendto(packets.times(packets.PONG, times[0], now_ns()), peer)
        elif kind == packets.START and (times := packets.read_times(data)) is not None:
            for _ in range(3):  # a lost acknowledgement would leave the joiner asking
                sock.sendto(packets.times(packets.STARTED, times[0]), peer)
            return Agreed(peer, times[0], times[1], platform_warning(facts, theirs))


def join(sock: socket.socket, address: Address, facts: Mapping[str, Any], now_ns: Now) -> Agreed:
    """Say hello to the host until it answers, measure round trips, propose the start."""
    sock.settimeout(RESEND_S)
    theirs = _ask(sock, address, packets.hello(dict(facts)), packets.HELLO, None, now_ns)
    hello = packets.read_hello(theirs) or {}
    problem = difference(facts, hello)
    if problem is not None:
        raise _refused(problem)
    best: tuple[int, int] | None = None  # (round trip, host minus us)
    for _ in range(PINGS):
        sent = now_ns()
        pong = _ask(sock, address, packets.times(packets.PING, sent), packets.PONG, sent, now_ns)
        back = now_ns()
        times = packets.read_times(pong)
        assert times is not None
        trip = back - sent
        if best is None or trip < best[0]:
            best = (trip, times[1] - (sent + back) // 2)
    assert best is not None
    trip, offset = best
    start = now_ns() + START_MARGIN_NS
    proposal = packets.times(packets.START, start + offset, trip)
    _ask(sock, address, proposal, packets.STARTED, start + offset, now_ns)
    return Agreed(address, start, trip, platform_warning(facts, hello))


def _ask(
    sock: socket.socket,
    address: Address,
    message: bytes,
    answer: int,
    echo: int | None,
    now_ns: Now,
) -> bytes:
    """Send `message` every `RESEND_S` until the host answers with a datagram of kind `answer`
    (echoing `echo`, when given); refuse after `ANSWER_WITHIN_S` of silence."""
    deadline = now_ns() + int(ANSWER_WITHIN_S * 1e9)
    while now_ns() < deadline:
        sock.sendto(message, address)
        received = _receive(sock)
        while received is not None:
            data, sender = received
            if sender == address and packets.kind_of(data) == answer:
                times = packets.read_times(data) if echo is not None else None
                if echo is None or (times is not None and times[0] == echo):
                    return data
            elif sender == address and (other := packets.protocol_of(data)) is not None:
                raise _refused(f"protocol {packets.PROTOCOL} here, {other} there")
            received = _receive(sock)
    host_text = f"{address[0]}:{address[1]}"
    raise BadInput.error(
        f"--join {host_text}: no game answered within {ANSWER_WITHIN_S:g} s "
        "(is one hosting there, with --host? a firewall in the way?)"
    )


def _receive(sock: socket.socket) -> tuple[bytes, Address] | None:
    """One datagram, waiting at most the socket's timeout; None if none came."""
    try:
        data, sender = sock.recvfrom(packets.MAX_DATAGRAM + 1)
    except (TimeoutError, BlockingIOError, ConnectionError):
        return None
    return data, (str(sender[0]), int(sender[1]))
