"""The link conditioner (`game.network.conditioner`): a match's datagrams held for the latency
plus a seeded jitter, or lost, so a room's fast network plays like a slow one; and a match
played through it on 127.0.0.1.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from game.config.model import GameConfig
from game.network.conditioner import LinkConditioner
from game.workshop.runs.match import conditioner
from tests.commands import Command
from tests.test_match_udp import CONFIRMED, COUNTS, SCRIPT_HOST, SCRIPT_JOINER, hosting

MS = 1_000_000


def sent_through(link: LinkConditioner, count: int) -> list[tuple[int, bytes]]:
    """`count` datagrams, one a millisecond, each as (the ms it went, what it was)."""
    went = []
    for ms in range(count + 2_000):
        if ms < count:
            link.hold(ms * MS, ms.to_bytes(4, "big"))
        went += [(ms, datagram) for datagram in link.due(ms * MS)]
    return went


def test_each_datagram_goes_after_the_latency_plus_at_most_the_jitter() -> None:
    went = sent_through(LinkConditioner(100 * MS, 20 * MS, Fraction(0), seed=7, host=True), 1_000)
    delays = [ms - int.from_bytes(datagram, "big") for ms, datagram in went]
    assert len(went) == 1_000 and min(delays) >= 100 and max(delays) <= 120
    assert set(range(101, 121)) <= set(delays)  # drawn in ns: each goes at the next whole ms
    assert [ms for ms, _ in went] == sorted(ms for ms, _ in went)  # in the order they fall due


def test_the_lost_share_is_near_the_loss_and_the_same_in_every_run() -> None:
    runs = [
        sent_through(LinkConditioner(0, 20 * MS, Fraction(1, 20), seed=7, host=True), 10_000)
        for _ in range(2)
    ]
    assert runs[0] == runs[1]
    assert 9_400 <= len(runs[0]) <= 9_600  # 5% of 10,000 lost, give or take
    joiner = sent_through(LinkConditioner(0, 20 * MS, Fraction(1, 20), seed=7, host=False), 10_000)
    assert joiner != runs[0]  # each side draws its own


def test_without_latency_jitter_or_loss_a_match_has_no_conditioner() -> None:
    plain = GameConfig.model_validate({"network": {"latency_ms": 0}})
    assert conditioner(plain, host=True) is None
    dialled = GameConfig.model_validate({"network": {"jitter_ms": 20, "loss": "0.05"}})
    made = conditioner(dialled, host=False)
    assert made is not None
    assert (made.latency_ns, made.jitter_ns, made.loss) == (100 * MS, 20 * MS, Fraction(1, 20))


def test_the_conditioner_refuses_a_link_that_cannot_be() -> None:
    with pytest.raises(ValueError, match="no such link"):
        LinkConditioner(0, 0, Fraction(3, 2), seed=0, host=True)


CONDITIONED = ["--set", "network.latency_ms=100", "--set", "network.jitter_ms=20"]


@pytest.mark.slow
def test_a_match_at_100_ms_20_ms_jitter_and_5_percent_loss_confirms_the_same_state(
    tmp_path: Path,
) -> None:
    """Real network time: two processes play a 10 s match on 127.0.0.1, each side's conditioner
    holding what it sends 100 to 120 ms and losing 5% of it; both exit 0 with the same confirmed
    line, no desync, having rolled back and lost datagrams."""
    (tmp_path / "host.txt").write_text(SCRIPT_HOST)
    (tmp_path / "joiner.txt").write_text(SCRIPT_JOINER)
    common = ["--until-tick", "600", *CONDITIONED, "--set", "network.loss=0.05"]
    host, address = hosting(tmp_path, *common, "--script", "host.txt")
    joiner = Command(["--join", address, *common, "--script", "joiner.txt"], tmp_path, stop_at=None)
    assert (joiner.ends(), host.ends()) == (0, 0), host.err + joiner.err
    confirmed = [CONFIRMED.findall(side.out) for side in (host, joiner)]
    assert confirmed[0] == confirmed[1] and confirmed[0][0][0] == "600"
    for side in (host, joiner):
        assert "DESYNC" not in side.err
        counts = COUNTS.search(side.out)
        assert counts is not None, side.out
        rollbacks, _, sent, lost, _ = (int(n) for n in counts.groups())
        assert rollbacks > 0 and sent > 0 and lost > 0


def test_at_the_end_every_datagram_held_goes_at_once_in_the_order_they_fall_due() -> None:
    links = [LinkConditioner(100 * MS, 20 * MS, Fraction(0), seed=7, host=True) for _ in "ab"]
    for link in links:
        for ms in range(10):
            link.hold(ms * MS, bytes([ms]))
    held = links[0].all_held()
    assert held == links[1].due(10_000 * MS)  # as the frames would have sent them
    assert held != sorted(held)  # the jitter reordered them
    assert sorted(held) == [bytes([ms]) for ms in range(10)] and links[0].holding == 0
