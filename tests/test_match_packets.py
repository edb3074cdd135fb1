"""Nothing the network hands a match can crash or steer it (`game.network.packets`,
`UdpLink.take`): every datagram that is not one well-formed, new `INPUTS` of our protocol from
the peer is dropped and counted under its reason, and the world never sees it.

In-process: the link's receive path is handed the datagrams directly, as if the socket had read
them (no network time); and a peer that falls silent, or says goodbye, on frames of a fixed
length (no wall time).
"""

from __future__ import annotations

import random
import socket
import struct
from collections import Counter
from collections.abc import Iterator
from fractions import Fraction

import pytest

from game.config.loading import load_config
from game.from_config import session_from
from game.network import packets
from game.network.handshake import Agreed
from game.network.packets import Inputs
from game.network.peer import AvatarMove
from game.network.udp_link import UdpLink
from game.session.session import LabSession
from game.workshop.runs.match import Match

PEER = ("127.0.0.1", 40000)
STEP_NS = Fraction(50_000_000, 3)


@pytest.fixture
def link() -> Iterator[UdpLink]:
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.bind(("127.0.0.1", 0))
    made = UdpLink(sock, PEER, STEP_NS, 0)
    yield made
    made.close()


def datagram(seq: int, tick: int = 10, first: int = 5, count: int = 3, run: int = 1) -> bytes:
    moves = tuple(AvatarMove(run, seq % 2, 0) for _ in range(count))
    check = (-1, bytes(8))
    packet = Inputs(seq, tick, tick - 3, Fraction(1, 2), 1000, -1, 0, *check, first, moves)
    return packets.inputs(packet)


def test_a_well_formed_datagram_from_the_peer_is_its_inputs(link: UdpLink) -> None:
    packet = link.take(datagram(0), PEER, 5)
    assert packet is not None
    assert (packet.sent_tick, packet.first_tick, len(packet.inputs)) == (10, 5, 3)
    assert packet.inputs[1] == AvatarMove(1, 0, 0) and link.acked == 7


def bad_datagrams(rng: random.Random) -> Iterator[tuple[bytes, tuple[str, int], str]]:
    """10,000 datagrams none of which may reach the world, and the reason each is dropped."""
    good = datagram(0)
    head = good[:7]
    for number in range(10_000):
        kind = number % 8
        if kind == 0:
            yield datagram(number), ("127.0.0.1", 40001), packets.STRANGER
        elif kind == 1:
            yield rng.randbytes(rng.randrange(0, 7)), PEER, packets.SHORT
        elif kind == 2:
            yield b"XXXX" + rng.randbytes(rng.randrange(3, 200)), PEER, packets.GARBLED
        elif kind == 3:
            other = struct.pack("<4sHB", packets.MARK, packets.PROTOCOL + 1, packets.INPUTS)
            yield other + good[7:], PEER, packets.WRONG_VERSION
        elif kind == 4:
            size = rng.randrange(len(good) + 3 * 256 + 1, packets.MAX_DATAGRAM + 1)
            yield head + rng.randbytes(size - 7), PEER, packets.OVERSIZED
        elif kind == 5:
            yield datagram(rng.randrange(1, 4), run=rng.choice((-7, 2, 99))), PEER, packets.GARBLED
        elif kind == 6:
            far = datagram(rng.randrange(1, 4), first=10 + packets.MAX_INPUT_DELAY)
            yield far, PEER, packets.GARBLED
        else:
            yield datagram(0), PEER, packets.STALE  # the first one, again


def test_ten_thousand_bad_datagrams_are_each_dropped_and_counted_under_their_reason(
    link: UdpLink,
) -> None:
    assert link.take(datagram(0), PEER, 5) is not None
    expected: Counter[str] = Counter()
    for data, sender, reason in bad_datagrams(random.Random(7)):
        assert link.take(data, sender, 6) is None, reason
        expected[reason] += 1
    assert link.drops == expected
    assert sum(link.drops.values()) == 10_000
    assert (link.received, link.lost, link.acked) == (1, 0, 7)


def test_a_late_handshake_datagram_is_dropped_as_such(link: UdpLink) -> None:
    assert link.take(packets.times(packets.START, 5, 6), PEER, 1) is None
    assert link.drops == Counter({packets.HANDSHAKE: 1})


def test_sequence_numbers_never_received_are_lost(link: UdpLink) -> None:
    for seq in (0, 1, 4, 3, 9):
        assert link.take(datagram(seq), PEER, seq) is not None
    assert (link.received, link.lost) == (5, 5)  # 2, 5, 6, 7 and 8 never came


@pytest.fixture
def hosting() -> Iterator[tuple[LabSession, Match, socket.socket]]:
    """A session hosting a match whose peer is a socket of ours that never answers."""
    silent = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    silent.bind(("127.0.0.1", 0))
    peer = silent.getsockname()
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.bind(("127.0.0.1", 0))
    link = UdpLink(sock, (str(peer[0]), int(peer[1])), STEP_NS, 0)
    match = Match(Agreed(link.peer, 0, 0, None), link, host=True, until_tick=None)
    session = session_from(load_config(None, ()))
    match.connect(session)
    yield session, match, silent
    link.close()
    silent.close()


def test_a_peer_silent_for_3_s_is_lost_and_the_game_goes_on_alone(
    hosting: tuple[LabSession, Match, socket.socket],
) -> None:
    session, match, _ = hosting
    said = []
    for _ in range(180):  # 179 frames of 1/60 s are 2.98 s; the 180th ends past 3 s
        assert session.in_match
        session.play_frame(16_666_667)
        said.append(match.after_frame(session))
    assert said[:-1] == [None] * 179
    assert said[-1] == "peer lost: nothing heard for 3 s; the game goes on alone"
    assert session.rollback is None and not session.in_match
    tick = session.lanes[0].world.tick
    session.play_frame(16_666_667)
    assert session.lanes[0].world.tick > tick  # alone: no window to wait on any more


def test_a_goodbye_ends_the_match_at_once_and_ours_is_said_as_we_quit(
    hosting: tuple[LabSession, Match, socket.socket],
) -> None:
    session, match, silent = hosting
    session.play_frame(16_666_667)
    assert match.link.take(packets.goodbye(), match.link.peer, 1) is None
    assert match.after_frame(session) == "peer left: the game goes on alone"
    assert session.rollback is None
    match.ended = None  # as if it had not gone: our own Q now says goodbye to it
    match.end(session)
    silent.settimeout(60)  # waits on the datagrams, each sent already: not a speed guess
    received = [silent.recv(packets.MAX_DATAGRAM) for _ in range(4)]
    assert isinstance(packets.read_inputs(received[0]), Inputs)  # the one frame's inputs
    assert received[1:] == [packets.goodbye()] * 3
