"""Record and replay: a session written as JSON lines comes back to the same state hash at any
render rate; a damaged record is refused with one `FILE:LINE: message` line and exit 2."""

import errno
import hashlib
import io
import json
from fractions import Fraction
from pathlib import Path

import pytest

from game.cli import main
from game.config.model import GameConfig
from game.errors import BadInput
from game.workshop.files.recording import SessionRecorder, canonical_line, order_record
from game.workshop.files.replay_file import read_recording
from game.workshop.files.scenario_loading import load_scenario
from game.workshop.files.timeline import RecordedOrder, TickRateChange
from game.workshop.runs.simulation import run_scenario, scenario_config
from game.world.orders import (
    Fire,
    Order,
    Reset,
    SetCannon,
    SetIntegrator,
    SpawnSpring,
    Teleport,
)
from game.world.settings import WorldSettings
from game.world.world import World

LIVE = """
seconds = 6
[clock]
render_fps = 144
render_cost_ms = 1
[[stalls]]
at = 1
ms = 50
[[changes]]
at = 2
hz = 120
[[changes]]
at = 4
hz = 30
[[inputs]]
sim_second = 0.5
action = "fire"
x = 20
y = 6
[[inputs]]
sim_second = 1
action = "integrator"
integrator = "verlet"
[[inputs]]
sim_second = 2.2
action = "reset"
[[inputs]]
sim_second = 2.5
action = "fire"
"""


@pytest.fixture
def recorded(tmp_path: Path) -> tuple[Path, str, int]:
    """A session played headless at 144 fps with inputs and two tick-rate changes, recorded."""
    scenario_file = tmp_path / "live.toml"
    scenario_file.write_text(LIVE)
    scenario = load_scenario(scenario_file)
    path = tmp_path / "live.replay"
    live = run_scenario(scenario, recorder=SessionRecorder(scenario_config(scenario), path))
    return path, live.state_hash, live.tick


def test_the_record_holds_the_settings_the_commands_and_the_tick_rates(
    recorded: tuple[Path, str, int],
) -> None:
    path, state, tick = recorded
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert lines[0] == {
        "format": "timestep-lab-replay",
        "version": 2,
        "hz": "60",
        "world": {"integrator": "semi-implicit", "gravity": 9.81, "seed": 1,
                  "cannon_period_ticks": 45, "precision": "float64"},
    }  # fmt: skip
    kinds = [(line["tick"], line.get("command") or f"hz {line['hz']}") for line in lines[1:-1]]
    assert [kind for _, kind in kinds] == [
        "fire", "set_integrator", "hz 120", "reset", "fire", "hz 30",
    ]  # fmt: skip
    assert [tick for tick, _ in kinds] == sorted(tick for tick, _ in kinds)
    above = "".join(canonical_line(line) + "\n" for line in lines[:-1]).encode()
    assert lines[-1] == {
        "final_tick": tick,
        "state_hash": state,
        "ended": "end",
        "record_hash": hashlib.blake2b(above, digest_size=32).hexdigest(),
    }
    assert not path.with_name("live.replay.part").exists()


@pytest.mark.parametrize("fps", ["30", "144", "240", "59.94"])
def test_a_replay_at_any_render_rate_ends_in_the_recorded_state(
    recorded: tuple[Path, str, int], fps: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path, state, tick = recorded
    assert main(["replay", str(path), "--render-fps", fps]) == 0
    assert capsys.readouterr().out.splitlines() == [
        f"final tick {tick} state {state}",
        f"matches the recording (replayed at {fps} fps)",
    ]


def test_a_replay_that_ends_elsewhere_says_so_and_exits_1(
    recorded: tuple[Path, str, int], capsys: pytest.CaptureFixture[str]
) -> None:
    path, state, tick = recorded
    other = "0" * 64
    path.write_text(path.read_text().replace(state, other))
    assert main(["replay", str(path)]) == 1
    assert capsys.readouterr().out.splitlines() == [
        f"final tick {tick} state {state}",
        f"DOES NOT match the recording: it ended in state {other}",
    ]


def test_every_kind_of_command_comes_back_bit_for_bit(tmp_path: Path) -> None:
    commands: list[Order] = [
        Fire(tick=3, x=1.5, y=0.1 + 0.2, vx=-1e-300, vy=12.345678901234567, spin=4.0),
        SpawnSpring(tick=3, anchor_x=10.0, anchor_y=17.0, k=16.0, mass=1.0, damping=0.8,
                    rest_length=5.04, offset=(0.0, -2.52), velocity=(1 / 3, 0.0), spin=1.5),
        Teleport(tick=4, body_id=7, x=3.0, y=2.0),
        Reset(tick=5),
        SetIntegrator(tick=5, name="verlet"),
        SetCannon(tick=6, enabled=False),
    ]  # fmt: skip
    path = tmp_path / "all.replay"
    recorder = SessionRecorder(GameConfig(), path)
    for command in commands:
        recorder.on_order(0, command)
    recorder.on_order(1, Reset(tick=6))  # the split screen's second lane is not recorded
    recorder.tick_rate_changed(6, Fraction(5994, 100))
    path.write_text(recorder.partial.read_text() + END)
    recording = read_recording(path)
    assert recording.events == (
        *(RecordedOrder(command) for command in commands),
        TickRateChange(6, Fraction(5994, 100)),
    )
    fire = recording.events[0]
    assert isinstance(fire, RecordedOrder) and isinstance(fire.order, Fire)
    assert fire.order.y.hex() == (0.1 + 0.2).hex()
    assert order_record(commands[2]) == {"tick": 4, "command": "teleport", "body_id": 7,
                                           "x": 3.0, "y": 2.0, "smear": False}  # fmt: skip


def test_the_recorder_refuses_ticks_that_go_backwards(tmp_path: Path) -> None:
    recorder = SessionRecorder(GameConfig(), tmp_path / "r.replay")
    recorder.on_order(0, Reset(tick=10))
    with pytest.raises(ValueError, match=r"ticks must not go backwards in a record \(9 after 10\)"):
        recorder.on_order(0, Reset(tick=9))


def test_an_unwritable_recording_is_one_clear_line(tmp_path: Path) -> None:
    missing = tmp_path / "no" / "such" / "dir.replay"
    with pytest.raises(BadInput) as refused:
        SessionRecorder(GameConfig(), missing)
    with pytest.raises(BadInput) as folder:
        SessionRecorder(GameConfig(), tmp_path)
    assert refused.value.lines + folder.value.lines == (
        f"{missing}: cannot write the recording: no such file or directory",
        f"{tmp_path}: cannot write the recording: is a directory",
    )


class FullDisk(io.StringIO):
    def write(self, text: str) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")


def test_a_recording_that_fails_halfway_leaves_nothing_and_says_why_at_the_end(
    tmp_path: Path,
) -> None:
    path = tmp_path / "r.replay"
    recorder = SessionRecorder(GameConfig(), path)
    recorder._file = FullDisk()  # the disk fills up after the header
    recorder.on_order(0, Reset(tick=0))  # the session goes on
    with pytest.raises(BadInput) as full:
        recorder.finish(World(WorldSettings()))
    assert full.value.lines == (f"{path}: cannot write the recording: no space left on device",)
    assert list(tmp_path.iterdir()) == []


def test_a_recording_is_written_beside_its_file_and_renamed_when_finished(tmp_path: Path) -> None:
    path = tmp_path / "r.replay"
    path.write_text("an older recording\n")
    recorder = SessionRecorder(GameConfig(), path)
    assert path.read_text() == "an older recording\n"  # until the new one is whole
    assert recorder.partial == tmp_path / "r.replay.part"
    assert json.loads(recorder.partial.read_text())["format"] == "timestep-lab-replay"
    recorder.finish(World(WorldSettings()), ended="signal")
    assert sorted(tmp_path.iterdir()) == [path]
    assert json.loads(path.read_text().splitlines()[-1])["ended"] == "signal"


def test_an_abandoned_recording_leaves_nothing(tmp_path: Path) -> None:
    recorder = SessionRecorder(GameConfig(), tmp_path / "r.replay")
    recorder.abandon()
    assert list(tmp_path.iterdir()) == []


HEADER = json.dumps({
    "format": "timestep-lab-replay", "version": 2, "hz": "60",
    "world": {"integrator": "semi-implicit", "gravity": 9.81, "seed": 1,
              "cannon_period_ticks": 45, "precision": "float64"},
})  # fmt: skip
END = json.dumps(
    {"final_tick": 10, "state_hash": "a" * 64, "ended": "end", "record_hash": "b" * 64}
)


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("", "1: the file is empty: a replay starts with its header"),
        (f'{{"tick": 3, "command": "reset"}}\n{END}',
         '1: not a Timestep Lab replay: the first line must be its header '
         '{"format": "timestep-lab-replay", ...}'),
        (HEADER.replace('"version": 2', '"version": 1') + f"\n{END}",
         "1: replay format version 1 is not supported (this game reads version 2)"),
        (HEADER.replace('"version": 2', '"version": 2.0') + f"\n{END}",
         "1: replay format version 2.0 is not supported (this game reads version 2)"),
        (HEADER.replace('"version": 2', '"version": true') + f"\n{END}",
         "1: replay format version true is not supported (this game reads version 2)"),
        (HEADER.replace('"hz": "60"', '"hz": 60') + f"\n{END}",
         '1: hz must be a tick rate in quotes, like "60" (got 60)'),
        (HEADER.replace('"seed": 1', '"seed": -1') + f"\n{END}",
         "1: [world.seed] must be at least 0 (got -1)"),
        (f'{HEADER}\n{{"tick": 3, "command": "reset"\n{END}',
         "2: not valid JSON: Expecting ',' delimiter (column 31)"),
        (f'{HEADER}\n{{"tick": 3, "comm', "2: not valid JSON: Unterminated string starting at "
         "(column 13)"),
        (f'{HEADER}\n{{"tick": 3, "command": "jump"}}\n{END}',
         '2: unknown command "jump" (known: fire, spawn_spring, teleport, reset, '
         "set_integrator, set_cannon, avatar_input)"),
        (f'{HEADER}\n{{"tick": 3, "command": "fire", "x": 1.5, "y": 1.5, "vx": "fast", '
         f'"vy": 1.0, "spin": 0.0}}\n{END}',
         "2: bad fire: Fire.vx must be a number, not str (got 'fast')"),
        (f'{HEADER}\n{{"tick": 3, "command": "fire", "x": NaN, "y": 1.5, "vx": 1.0, "vy": 1.0, '
         f'"spin": 0.0}}\n{END}', "2: not valid JSON: NaN is not a number in JSON"),
        (f'{HEADER}\n{{"tick": 3, "command": "fire", "x": 1.5}}\n{END}',
         "2: a fire line is missing spin, vx, vy, y"),
        (f'{HEADER}\n{{"tick": 3, "command": "reset", "when": 1}}\n{END}',
         "2: a reset line has unknown keys: when"),
        (f'{HEADER}\n{{"tick": 3.0, "command": "reset"}}\n{END}',
         "2: tick must be a whole number (got 3.0)"),
        (f'{HEADER}\n{{"tick": 5, "command": "reset"}}\n{{"tick": 3, "command": "reset"}}\n{END}',
         "3: tick 3 comes after tick 5: ticks must not go backwards"),
        (f'{HEADER}\n{{"tick": 3, "hz": "0"}}\n{END}', '2: hz must be from 0.1 to 10000 (got "0")'),
        (f'{HEADER}\n{{"tick": 3, "command": "fire", "x": 99.0, "y": 1.5, "vx": 1.0, "vy": 1.0, '
         f'"spin": 0.0}}\n{END}',
         "2: bad fire: its launch point (99, 1.5) is outside the 32 x 18 m arena"),
        (f'{HEADER}\n{{"tick": 3, "command": "reset"}}\n',
         "2: the file ends without its final line: it was cut short"),
        (f'{HEADER}\n{END}\n{{"tick": 11, "command": "reset"}}',
         "3: nothing may follow the final line"),
        (f'{HEADER}\n' + END.replace('"a', '"xyz", "x": "a'),
         "2: the final line has unknown keys: x"),
        (f'{HEADER}\n' + END.replace('a' * 64, "xyz"),
         '2: state_hash must be 64 hex digits (got "xyz")'),
        (f'{HEADER}\n' + END.replace('b' * 64, "xyz"),
         '2: record_hash must be 64 hex digits (got "xyz")'),
        (f'{HEADER}\n' + END.replace('"end"', '"crash"'),
         '2: ended must be one of end, signal, error (got "crash")'),
        (f'{HEADER}\n' + END.replace('"final_tick": 10', '"final_tick": 100000001'),
         "2: final_tick must be from 0 to 100,000,000, the limit (got 100000001)"),
        (f'{HEADER}\n{{"final_tick": 10, "state_hash": "{"a" * 64}"}}',
         "2: the final line is missing ended, record_hash"),
        (f'{HEADER}\n[1, 2]\n{END}', "2: each line must be a JSON object {...} (got [1, 2])"),
        (f'{HEADER}\n{{"tick": 3, "tick": 4, "command": "reset"}}\n{END}',
         "2: the key 'tick' appears twice"),
    ],
)  # fmt: skip
def test_a_damaged_replay_file_is_one_line_and_exit_2(
    tmp_path: Path, text: str, line: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.replay"
    path.write_text(text)
    assert main(["replay", str(path)]) == 2
    captured = capsys.readouterr()
    assert (captured.out, captured.err) == ("", f"{path}:{line}\n")


def test_a_replay_file_that_is_not_text_or_not_there_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    binary = tmp_path / "pickle.replay"
    binary.write_bytes(b"\x80\x04\x95\x00\xff")
    assert main(["replay", str(binary)]) == 2
    assert main(["replay", str(tmp_path / "gone.replay")]) == 2
    assert capsys.readouterr().err.splitlines() == [
        f"{binary}:1: not a replay file: not UTF-8 text",
        f"{tmp_path / 'gone.replay'}: file not found",
    ]


@pytest.mark.parametrize(
    ("fps", "line"),
    [
        ("0", "error: --render-fps must be from 1 to 1000 (got '0')"),
        ("fast", "error: --render-fps must be a number like 144 or 59.94 (got 'fast')"),
    ],
)
def test_a_bad_render_rate_is_refused_before_the_file_is_read(
    fps: str, line: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["replay", "whatever.replay", "--render-fps", fps]) == 2
    assert capsys.readouterr().err == line + "\n"


def test_a_replay_whose_lines_were_edited_does_not_match_even_in_the_same_state(
    recorded: tuple[Path, str, int], capsys: pytest.CaptureFixture[str]
) -> None:
    path, state, tick = recorded
    lines = path.read_text().splitlines()
    fire = json.loads(lines[1])
    assert fire["command"] == "fire"  # a shot that the reset at 2.2 s takes out of the world
    lines[1] = json.dumps({**fire, "vy": fire["vy"] + 80})
    path.write_text("\n".join(lines) + "\n")
    assert main(["replay", str(path)]) == 1
    assert capsys.readouterr().out.splitlines() == [
        f"final tick {tick} state {state}",
        "DOES NOT match the recording: its lines were changed after it was recorded",
    ]


def test_a_session_ended_by_a_signal_replays_and_says_so(
    recorded: tuple[Path, str, int], capsys: pytest.CaptureFixture[str]
) -> None:
    path, state, tick = recorded
    path.write_text(path.read_text().replace('"ended": "end"', '"ended": "signal"'))
    assert main(["replay", str(path), "--render-fps", "60"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        f"final tick {tick} state {state}",
        "the recorded session was ended by a signal (Ctrl+C, a closed terminal or a kill)",
        "matches the recording (replayed at 60 fps)",
    ]


@pytest.mark.usefixtures("small_limits")  # a frame limit of 1,000
def test_a_replay_longer_than_the_frame_limit_is_refused_before_it_runs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "long.replay"
    tick_rate = json.dumps({"tick": 30_000, "hz": "120"})  # 500 s at 60 Hz, then 120 Hz
    path.write_text(
        f"{HEADER}\n{tick_rate}\n" + END.replace('"final_tick": 10', '"final_tick": 36000')
    )
    assert main(["replay", str(path), "--render-fps", "360"]) == 2  # 550 s at 360 fps
    assert capsys.readouterr().err == (
        f"error: replaying {path} at 360 fps takes about 198,000 frames, about 3 min of CPU, "
        "more than 1,000 (the limit): use a lower --render-fps\n"
    )


def test_a_partial_recording_is_refused_as_one_still_being_written_or_killed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    recorder = SessionRecorder(GameConfig(), tmp_path / "live.replay")
    recorder.on_order(0, Reset(tick=4))  # the game is killed here: no final line
    assert main(["replay", str(recorder.partial)]) == 2
    assert capsys.readouterr().err == (
        f"{recorder.partial}:2: the file ends without its final line: it was cut short (the game "
        "writing it is still running, or was killed)\n"
    )
