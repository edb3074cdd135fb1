"""The simulated link and the remote peer: seeded draws, packets on exact times, time sync."""

from __future__ import annotations

import itertools
import json
from fractions import Fraction
from pathlib import Path

import pytest

from game.cli import main
from game.config.loading import load_config
from game.from_config import session_from
from game.knobs import Move
from game.network.draws import Draws
from game.network.peer import Heard, RemotePeer, Told
from game.network.settings import NetworkSettings
from game.network.time_sync import TimeSync
from game.session.controls import Action
from game.workshop.files.recording import SessionRecorder
from tests.helpers import recorded_run, replayed_at
from timestep_lab import NS_PER_MS, hz_to_step_ns

H_NS = hz_to_step_ns(60)
LATENCY_NS = 100 * NS_PER_MS


def still(at: Fraction) -> Heard:
    """What the remote hears of a peer that never ran a tick nor confirmed an input."""
    return Heard(0, -1, Fraction(0))


def test_a_packet_leaves_as_the_remote_runs_a_tick_and_arrives_one_latency_later() -> None:
    settings = NetworkSettings(latency_ns=LATENCY_NS, input_delay=2, flips_per_s=Fraction(0))
    peer = RemotePeer(settings, H_NS, first=True)
    peer.run_until(3 * H_NS, still)
    assert peer.tick == 3  # ticks 0, 1, 2 ran at h, 2h and 3h
    assert peer.arrivals(LATENCY_NS + H_NS - 1) == []
    first, second = peer.arrivals(LATENCY_NS + 2 * H_NS)
    assert first.arrives_ns == 116_666_666  # h + 100 ms, floored to a whole ns
    assert (first.sent_tick, first.first_tick, first.inputs) == (0, 0, (True, True, True))
    assert (second.first_tick, second.inputs) == (0, (True, True, True, True))


def test_a_remote_that_joined_late_ticks_that_much_later_and_says_where_it_stands() -> None:
    late = 100 * NS_PER_MS
    settings = NetworkSettings(latency_ns=LATENCY_NS, remote_late_ns=late, flips_per_s=Fraction(0))
    peer = RemotePeer(settings, H_NS, first=False)
    peer.run_until(late + 3 * H_NS - 1, still)
    assert peer.tick == 2  # its ticks 0 and 1 ran at late + h and late + 2h
    assert peer.told(late + H_NS - 1) is None  # before its first frame
    assert peer.told(late + H_NS) == Told(0, Fraction(-6))  # 0 - 0 - 100 ms / h ticks behind
    peer.run_until(late + 3 * H_NS, still)
    assert peer.told(late + 3 * H_NS) == Told(2, Fraction(-5))  # -6, -5, -4 averaged


def test_a_packet_carries_every_input_not_confirmed_as_the_remote_heard_it() -> None:
    settings = NetworkSettings(latency_ns=LATENCY_NS, flips_per_s=Fraction(0))
    peer = RemotePeer(settings, H_NS, first=False)
    peer.run_until(5 * H_NS, lambda at: Heard(3, 2, Fraction(0)))
    packets = peer.arrivals(10**12)
    assert [(packet.sent_tick, packet.first_tick, packet.inputs) for packet in packets] == [
        (0, 3, ()),
        (1, 3, ()),
        (2, 3, ()),
        (3, 3, (False,)),
        (4, 3, (False, False)),
    ]


def test_a_remote_player_flipping_every_tick_alternates_the_trigger() -> None:
    settings = NetworkSettings(latency_ns=0, flips_per_s=Fraction(60))
    peer = RemotePeer(settings, H_NS, first=False)
    peer.run_until(4 * H_NS, still)
    assert [peer.input_for(tick) for tick in range(4)] == [True, False, True, False]


def test_loss_and_jitter_are_seeded_and_exact() -> None:
    settings = NetworkSettings(
        latency_ns=LATENCY_NS, jitter_ns=20 * NS_PER_MS, loss=Fraction(1, 2), seed=3
    )
    runs = []
    for _ in range(2):
        peer = RemotePeer(settings, H_NS, first=False)
        peer.run_until(600 * H_NS, still)
        arrived = peer.arrivals(10**12)
        runs.append([(packet.sent_tick, packet.arrives_ns) for packet in arrived])
        assert peer.sent == 600
        assert peer.lost + len(arrived) == 600
        assert 250 < peer.lost < 350
        for packet in arrived:
            sent_at = (packet.sent_tick + 1) * H_NS
            assert sent_at + LATENCY_NS - 1 < packet.arrives_ns <= sent_at + 120 * NS_PER_MS
    assert runs[0] == runs[1]


def test_a_link_that_loses_everything_delivers_nothing() -> None:
    peer = RemotePeer(NetworkSettings(loss=Fraction(1)), H_NS, first=False)
    peer.run_until(60 * H_NS, still)
    assert (peer.sent, peer.lost, peer.arrivals(10**12)) == (60, 60, [])


def test_draws_answer_certainties_without_drawing_and_streams_are_apart() -> None:
    draws = Draws(seed=5, stream=1)
    assert draws.chance(Fraction(0)) is False
    assert draws.chance(Fraction(1)) is True
    assert draws.up_to(0) == 0
    assert [Draws(5, 1).up_to(9) for _ in range(3)] == [Draws(5, 1).up_to(9)] * 3
    assert [Draws(5, 1).up_to(10**6) for _ in range(1)] != [Draws(5, 2).up_to(10**6)]


def ahead(sync: TimeSync, lead: int, frames: int = 40) -> TimeSync:
    for _ in range(frames):
        sync.saw(Fraction(lead))
    return sync


def test_wait_is_half_the_gap_from_3_frames_to_9_as_ggpo_s() -> None:
    assert ahead(TimeSync("wait"), 8).wait_frames(Fraction(-8)) == 8
    assert ahead(TimeSync("wait"), 2).wait_frames(Fraction(-2)) == 0  # 2 frames: not worth it
    assert ahead(TimeSync("wait"), 3).wait_frames(Fraction(-2)) == 3  # 2.5 rounds to 3
    assert ahead(TimeSync("wait"), 20).wait_frames(Fraction(-20)) == 9
    assert ahead(TimeSync("wait"), 8, frames=39).wait_frames(Fraction(-8)) == 0
    assert ahead(TimeSync("none"), 8).wait_frames(Fraction(-8)) == 0


def test_after_a_wait_the_average_starts_afresh() -> None:
    sync = ahead(TimeSync("wait"), 8)
    assert sync.wait_frames(Fraction(-8)) == 8
    assert sync.average == 0
    assert sync.wait_frames(Fraction(-8)) == 0


def test_stretch_makes_a_tick_a_tenth_longer_while_a_whole_tick_ahead() -> None:
    """Ahead as GGRS's `average_frame_advantage` says: the two averages met in the middle."""
    assert ahead(TimeSync("stretch"), 1, frames=1).step_factor(Fraction(-1)) == Fraction(11, 10)
    assert ahead(TimeSync("stretch"), 2, frames=1).step_factor(Fraction(0)) == Fraction(11, 10)
    assert ahead(TimeSync("stretch"), 1, frames=1).step_factor(Fraction(0)) == 1  # half a tick
    assert ahead(TimeSync("stretch"), 0, frames=1).step_factor(Fraction(-1)) == 1
    assert ahead(TimeSync("wait"), 5, frames=1).step_factor(Fraction(-5)) == 1


def test_a_lead_that_flickers_between_0_and_1_is_not_a_tick_ahead() -> None:
    """Frames that do not fall on the other peer's ticks see 0, 1, 0, 1...: on average half."""
    sync = TimeSync("stretch")
    for lead in [0, 1] * 20:
        sync.saw(Fraction(lead))
    assert sync.average == Fraction(1, 2)
    assert sync.step_factor(Fraction(-1, 2)) == 1


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ("loss = 1.5", "network.loss"),
        ('time_sync = "sleep"', "network.time_sync"),
        ("prediction_window = 0", "network.prediction_window"),
        ("latency_ms = -1", "network.latency_ms"),
    ],
)
def test_a_bad_network_section_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], line: str, said: str
) -> None:
    scenario = tmp_path / "bad.toml"
    scenario.write_text(f"seconds = 1\n[network]\n{line}\n", encoding="utf-8")
    assert main(["simulate", "--scenario", str(scenario)]) == 2
    error = capsys.readouterr().err.strip()
    assert len(error.splitlines()) == 1
    assert said in error


def test_a_recorded_network_session_replays_to_its_hash_at_30_and_240_fps(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "net.replay"
    lines = recorded_run(
        tmp_path / "net.toml",
        "seconds = 10\n[clock]\nrender_fps = 60\n[network]\nlatency_ms = 100\n"
        'jitter_ms = 20\nloss = 0.05\ninput_delay = 2\ntime_sync = "stretch"\nseed = 7\n'
        "remote_flips_per_s = 6\n",
        record,
    )
    assert '"network": {"latency_ms": "100", "jitter_ms": "20", "loss": "0.05"' in lines[0]
    assert sum('"remote":' in line for line in lines) > 100
    assert replayed_at(record, ("30", "240")) == [
        "matches the recording (replayed at 30 fps)",
        "matches the recording (replayed at 240 fps)",
    ]


def test_a_remote_input_moved_later_than_the_snapshots_reach_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "net.replay"
    lines = recorded_run(
        tmp_path / "net.toml",
        "seconds = 4\n[clock]\nrender_fps = 60\n[network]\nlatency_ms = 50\n"
        "remote_flips_per_s = 6\nseed = 2\n",
        record,
    )
    remote = [index for index, line in enumerate(lines) if '"remote":' in line]
    moved = next(
        index
        for before, index in itertools.pairwise(remote)
        if json.loads(lines[index])["inputs"][0] != json.loads(lines[before])["inputs"][-1]
    )
    late = json.loads(lines.pop(moved))
    late["tick"] = json.loads(lines[-1])["final_tick"]
    lines.insert(len(lines) - 1, json.dumps(late))
    record.write_text("\n".join(lines) + "\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["replay", str(record)]) == 2
    error = capsys.readouterr().err.strip()
    assert len(error.splitlines()) == 1
    assert f"a remote input for tick {late['remote']} arrived at tick" in error
    assert "further back than the prediction window keeps snapshots" in error


def test_a_recording_live_game_connects_no_simulated_peer(tmp_path: Path) -> None:
    """While the live game records (`--record`), the network key connects no simulated peer:
    replays of one turned on and off mid-session did not all end on the recorded hash (the frame
    protocol's state machine found them), so the recording stays one that replays exactly."""
    config = load_config(None, ())
    recorder = SessionRecorder(config, tmp_path / "live.jsonl")
    session = session_from(
        config,
        on_order=recorder.on_order,
        on_tick_rate=recorder.tick_rate_changed,
        on_link=recorder.link_changed,
    )
    session.apply(Action.turn("network.enabled", Move.FLIP))
    session.play_frame(16_666_667)
    assert (session.controls.network, session.rollback) == (True, None)
