"""Two games, one match, over UDP on 127.0.0.1 (`--host`, `--join`; `game.workshop.runs.match`).

Each test here runs two real processes that wait on each other over the network: they take
real network time (and the match itself, real play time: 600 ticks at 60 Hz are 10 s). Each
waits on the lines the games print, never on a sleep.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from game.cli import main
from tests.commands import Command

SCRIPT_HOST = "".join(f"{300 + 450 * n} {'up' if n % 3 else 'down'}\n" for n in range(22))
SCRIPT_JOINER = "".join(f"{500 + 380 * n} {'down' if n % 4 else 'up'}\n" for n in range(26))
"""Jumps and dashes on both sides through the match's 10 s: the peer's presses are never
predicted (a prediction holds the direction, with no presses), so each one rolls back."""
CONFIRMED = re.compile(r"^confirmed tick (\d+) state ([0-9a-f]{64})$", re.M)
COUNTS = re.compile(
    r"^rollbacks (\d+), re-simulated ticks (\d+), packets sent (\d+), lost (\d+), late (\d+)$",
    re.M,
)


def hosting(folder: Path, *args: str) -> tuple[Command, str]:
    """A host on a free port of 127.0.0.1, and the HOST:PORT it says it listens on."""
    host = Command(["--host", "0", *args], folder, stop_at=None)
    line = host.says("hosting on ")
    found = re.search(r"hosting on (127\.0\.0\.1:\d+):", line)
    assert found is not None, line
    return host, found.group(1)


@pytest.mark.slow
def test_two_games_confirm_tick_600_in_the_same_state_and_each_recording_replays_to_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Real network time: two processes play a 10 s match on 127.0.0.1, scripted on both
    sides; both exit 0 with the same confirmed line, each having rolled back; then each side's
    recording replays, in this process, to its final hash at 30 and at 240 fps, and the two
    recordings' confirmed worlds are the same at every tick (`replay --against`)."""
    (tmp_path / "host.txt").write_text(SCRIPT_HOST)
    (tmp_path / "joiner.txt").write_text(SCRIPT_JOINER)
    common = ["--until-tick", "600"]
    host, address = hosting(tmp_path, *common, "--script", "host.txt", "--record", "host.jsonl")
    joiner = Command(
        ["--join", address, *common, "--script", "joiner.txt", "--record", "joiner.jsonl"],
        tmp_path,
        stop_at=None,
    )
    assert (joiner.ends(), host.ends()) == (0, 0), host.err + joiner.err
    confirmed = [CONFIRMED.findall(side.out) for side in (host, joiner)]
    assert confirmed[0] == confirmed[1] and confirmed[0][0][0] == "600"
    for side in (host, joiner):
        counts = COUNTS.search(side.out)
        assert counts is not None, side.out
        rollbacks, resimulated, sent, _, _ = (int(n) for n in counts.groups())
        assert rollbacks > 0 and resimulated >= rollbacks and sent > 0
    state = confirmed[0][0][1]
    for name in ("host.jsonl", "joiner.jsonl"):
        for fps in ("30", "240"):
            assert main(["replay", str(tmp_path / name), "--render-fps", fps]) == 0
            assert f"final tick 600 state {state}" in capsys.readouterr().out
    host_file, joiner_file = str(tmp_path / "host.jsonl"), str(tmp_path / "joiner.jsonl")
    assert main(["replay", host_file, "--against", joiner_file]) == 0
    assert capsys.readouterr().out == "same to tick 600\n"


@pytest.mark.slow
@pytest.mark.parametrize(
    ("host_args", "joiner_env", "named"),
    [
        (["--set", "scheduler.hz=30"], {}, "settings differ: hz 30 here, 60 there"),
        (
            [],
            {"TIMESTEP_LAB_SOURCE_DIGEST": "0" * 32},
            "the game's source differs (another version, or changed files)",
        ),
    ],
    ids=["settings", "source"],
)
def test_a_mismatch_is_refused_on_both_sides_naming_what_differs(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    host_args: list[str],
    joiner_env: dict[str, str],
    named: str,
) -> None:
    """Real network time: a host and a joiner whose tick rates (or, through the test hook,
    sources) differ both exit 2 after the handshake, each with one line naming it."""
    host, address = hosting(tmp_path, *host_args)
    for name, value in joiner_env.items():
        monkeypatch.setenv(name, value)
    joiner = Command(["--join", address], tmp_path, stop_at=None)
    assert (joiner.ends(), host.ends()) == (2, 2)
    mirrored = named.replace("30 here, 60 there", "60 here, 30 there")
    assert host.lines[-1] == f"error: no match: {named}", host.err
    assert joiner.lines[-1] == f"error: no match: {mirrored}", joiner.err


DESYNC = re.compile(r"DESYNC at tick (\d+): the worlds differ; each goes on alone")


@pytest.mark.slow
def test_a_nudged_world_is_a_desync_both_sides_report_at_one_tick_and_replay_against_names(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Real network time: the host's world is nudged at tick 104 (the test hook); both games
    report the desync at the same tick, the first compared after it (every 15 ticks), end the
    match and exit 1; `replay --against` names the first tick the recordings' confirmed worlds
    differ at, no later than that."""
    monkeypatch.setenv("TIMESTEP_LAB_NUDGE_AT", "104")
    host, address = hosting(tmp_path, "--until-tick", "600", "--record", "host.jsonl")
    monkeypatch.delenv("TIMESTEP_LAB_NUDGE_AT")
    joiner = Command(
        ["--join", address, "--until-tick", "600", "--record", "joiner.jsonl"],
        tmp_path,
        stop_at=None,
    )
    assert (joiner.ends(), host.ends()) == (1, 1), host.err + joiner.err
    reported = [DESYNC.search(side.err) for side in (host, joiner)]
    assert reported[0] is not None and reported[1] is not None, host.err + joiner.err
    tick = int(reported[0].group(1))
    assert int(reported[1].group(1)) == tick and tick % 15 == 0
    host_file, joiner_file = str(tmp_path / "host.jsonl"), str(tmp_path / "joiner.jsonl")
    assert main(["replay", host_file, "--against", joiner_file]) == 1
    found = re.fullmatch(r"first difference at tick (\d+)\n", capsys.readouterr().out)
    assert found is not None and tick - 15 < int(found.group(1)) <= tick
