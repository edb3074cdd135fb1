"""A match on 127.0.0.1 that the network does not break: a stranger's flood of datagrams is
read, dropped and counted while the match plays on; a joiner killed mid-match is a lost peer
after 3 s (`game.workshop.runs.match`).

Each test runs real processes that wait on each other over the network: they take real
network time, and wait on the lines the games print.
"""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from game.network.packets import STRANGER
from tests.commands import ROOT, Command
from tests.stranger import PROC
from tests.test_match_udp import CONFIRMED, SCRIPT_HOST, SCRIPT_JOINER, hosting

DATAGRAMS = 10_000
MATCH_TICKS = 1_800
"""30 s at 60 Hz: the stranger's flood, 10 s at its quickest, ends well inside the match."""
STARTED = "match: playing from tick 0"


@pytest.mark.slow
@pytest.mark.skipif(not PROC.exists(), reason="the stranger reads the host's queue in /proc")
def test_a_stranger_s_10_000_datagrams_are_each_counted_and_the_match_plays_on(
    tmp_path: Path,
) -> None:
    """Real network time: while two processes play a 30 s match, a third sends the host 10,000
    datagrams of 0 to 65,507 bytes, at most 1,000 a second (`tests.stranger`). Both games
    confirm the same state; the host counts as from a stranger every datagram it read: all
    those sent, less any the kernel dropped before the host could read them.

    The stranger must be done before the match is: it needs 10 s, and on one core shared with
    a busy loop and both games it sent 7,444 in the 13 s the match once lasted (it waits for
    the host's frames to read its queue, and reads that queue itself before each datagram).
    So the match lasts 30 s, and the test says so plainly if the stranger was left behind."""
    (tmp_path / "host.txt").write_text(SCRIPT_HOST)
    (tmp_path / "joiner.txt").write_text(SCRIPT_JOINER)
    common = ["--until-tick", str(MATCH_TICKS)]
    host, address = hosting(tmp_path, *common, "--script", "host.txt")
    joiner = Command(["--join", address, *common, "--script", "joiner.txt"], tmp_path, stop_at=None)
    host.says("match: hosting")
    port = address.split(":")[1]
    stranger = subprocess.run(
        [sys.executable, "-m", "tests.stranger", "127.0.0.1", port, str(DATAGRAMS), "35"],
        cwd=ROOT, capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    assert (joiner.ends(), host.ends()) == (0, 0), host.err + joiner.err + stranger.stdout
    sent = re.fullmatch(r"sent (\d+), dropped by the kernel (\d+)\n", stranger.stdout)
    assert sent is not None, stranger.stdout + stranger.stderr
    read = int(sent.group(1)) - int(sent.group(2))
    assert f"dropped {read} ({STRANGER} {read})" in host.out.splitlines()
    assert int(sent.group(1)) == DATAGRAMS
    confirmed = [CONFIRMED.findall(side.out) for side in (host, joiner)]
    assert confirmed[0] == confirmed[1] and confirmed[0][0][0] == str(MATCH_TICKS)


LOST = "peer lost: nothing heard for 3 s; the game goes on alone"
FRAMES_S = 0.05
"""The joiner's last datagram left up to a frame or two before the kill (60 Hz), and the host
stamps a datagram with the time of the frame that reads it: so "peer lost" may come this much
sooner than 3 s after the kill."""


@pytest.mark.slow
def test_a_joiner_killed_mid_match_is_a_lost_peer_3_to_4_s_later(tmp_path: Path) -> None:
    """Real network time, and real time measured: the joiner is killed (SIGKILL: no goodbye)
    once both games play; the host says "peer lost" 3 s (less two frames) to 4 s after, goes on
    alone, and, its tick never confirmed, exits 1."""
    host, address = hosting(tmp_path, "--until-tick", "6000")
    joiner = Command(["--join", address], tmp_path, stop_at=None)
    joiner.says(STARTED)
    host.says(STARTED)
    killed = time.monotonic()
    joiner.send(signal.SIGKILL)
    line = host.says(LOST)
    lost_after = time.monotonic() - killed
    assert 3 - FRAMES_S <= lost_after <= 4, (lost_after, line)
    assert re.fullmatch(rf"at tick \d+: {LOST}", line)
    assert (joiner.ends(), host.ends()) == (-signal.SIGKILL, 1), host.err
    assert host.lines[-1] == "tick 6000 was never confirmed: peer lost"


@pytest.mark.slow
@pytest.mark.parametrize("stopped", ["joiner", "host"])
def test_sigterm_to_either_side_stops_it_cleanly_and_the_other_hears_it_left(
    tmp_path: Path, stopped: str
) -> None:
    """Real network time: once both games play, SIGTERM to one side ends it as every command
    ends (its one line, 128 + 15), and its goodbye makes the other say "peer left" at once."""
    host, address = hosting(tmp_path, "--until-tick", "6000")
    joiner = Command(["--join", address, "--until-tick", "6000"], tmp_path, stop_at=None)
    joiner.says(STARTED)
    host.says(STARTED)
    (gone, other) = (joiner, host) if stopped == "joiner" else (host, joiner)
    gone.send(signal.SIGTERM)
    assert re.fullmatch(r"at tick \d+: peer left: the game goes on alone", other.says("peer left"))
    assert gone.ends() == 128 + signal.SIGTERM
    assert "python -m game play: stopped by SIGTERM; nothing written" in gone.lines
    assert other.ends() == 1
    assert other.lines[-1] == "tick 6000 was never confirmed: peer left"
