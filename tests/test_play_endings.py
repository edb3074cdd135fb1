"""However the game ends (Q, a signal, a crash, a file it cannot write), the recording gets its
final line, the final hash is printed, and `replay` accepts the recording and matches it."""

from __future__ import annotations

import json
import os
import signal
from pathlib import Path

import pytest

from game.app.dispatcher import Dispatcher
from game.app.loop import GameLoop
from game.cli import main
from tests.commands import Command

ROOT = Path(__file__).resolve().parents[1]


def final_line(record: Path) -> dict[str, object]:
    line: dict[str, object] = json.loads(record.read_text().splitlines()[-1])
    return line


def replays(record: Path, capsys: pytest.CaptureFixture[str]) -> list[str]:
    capsys.readouterr()
    assert main(["replay", str(record), "--render-fps", "60"]) == 0
    return capsys.readouterr().out.splitlines()


def signal_at_frame(frame: int, number: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """The game's loop sends `number` to this process as frame `frame` begins: a moment of the
    game's own, the same on any machine (the signal then ends the game at a tick boundary)."""
    run_frame = GameLoop.run_frame

    def signalling(loop: GameLoop) -> bool:
        if loop.frames == frame:
            os.kill(os.getpid(), number)
        return run_frame(loop)

    monkeypatch.setattr(GameLoop, "run_frame", signalling)


@pytest.mark.parametrize(("number", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_signal_ends_the_game_at_a_tick_and_the_recording_replays(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    number: int,
    code: int,
) -> None:
    record = tmp_path / "session.replay"
    script = tmp_path / "fire.txt"
    script.write_text("0 space\n100 click 20 8\n")
    before = signal.getsignal(number)
    signal_at_frame(30, number, monkeypatch)
    assert main(["--record", str(record), "--script", str(script), "--frames", "100000"]) == code
    monkeypatch.undo()
    printed = capsys.readouterr()
    out = printed.out.splitlines()
    assert out[0].startswith("final tick ")
    tick = out[0].split()[2]
    name = signal.Signals(number).name
    assert printed.err == (
        f"python -m game play: stopped by {name}; kept {record} (to tick {tick}, signal, "
        "replayable)\n"
    )
    assert final_line(record)["ended"] == "signal"
    assert replays(record, capsys) == [
        out[0],
        "the recorded session was ended by a signal (Ctrl+C, a closed terminal or a kill)",
        "matches the recording (replayed at 60 fps)",
    ]
    assert signal.getsignal(number) == before  # the previous handler is back


def test_a_crash_still_writes_the_final_line_and_the_hash(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    run_frame = GameLoop.run_frame
    frames = 0

    def crashing(loop: GameLoop) -> bool:
        nonlocal frames
        frames += 1
        if frames == 30:
            raise RuntimeError("a bug")
        return run_frame(loop)

    monkeypatch.setattr(GameLoop, "run_frame", crashing)
    record = tmp_path / "session.replay"
    with pytest.raises(RuntimeError, match="a bug"):
        main(["--record", str(record), "--frames", "100"])
    monkeypatch.undo()
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("final tick ")
    assert final_line(record)["ended"] == "error"
    assert replays(record, capsys) == [
        out[0],
        "the recorded session was ended by an error; it was recorded up to that moment",
        "matches the recording (replayed at 60 fps)",
    ]


@pytest.mark.parametrize(
    ("name", "reason"), [("a" * 256 + ".png", "file name too long"), ("shots", "is a directory")]
)
def test_a_screenshot_that_cannot_be_written_is_refused_before_the_game_starts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, reason: str
) -> None:
    (tmp_path / "shots").mkdir()
    record = tmp_path / "session.replay"
    shot = tmp_path / name
    assert main(["--screenshot", str(shot), "--record", str(record), "--frames", "1"]) == 2
    assert capsys.readouterr().err == f"error: --screenshot {shot}: cannot write it: {reason}\n"
    assert sorted(path.name for path in tmp_path.iterdir()) == ["shots"]


def test_a_screenshot_that_fails_at_the_end_is_one_line_and_the_recording_is_whole(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def full_disk(dispatcher: Dispatcher, path: Path) -> Path:
        raise OSError(28, "No space left on device", str(path))

    monkeypatch.setattr(Dispatcher, "save_screenshot", full_disk)
    record, shot = tmp_path / "session.replay", tmp_path / "shot.png"
    assert main(["--screenshot", str(shot), "--record", str(record), "--frames", "5"]) == 2
    captured = capsys.readouterr()
    assert captured.err == f"error: the game stopped: {shot}: no space left on device\n"
    assert captured.out.splitlines()[0].startswith("final tick ")
    assert final_line(record)["ended"] == "error"


@pytest.mark.parametrize("flag", ["--config", "--script"])
def test_record_pointed_at_an_input_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], flag: str
) -> None:
    source = tmp_path / "input.toml"
    source.write_text("")
    assert main([flag, str(source), "--record", str(source), "--frames", "1"]) == 2
    assert capsys.readouterr().err == (
        f"error: --record {source} is the {flag} file: it would be overwritten\n"
    )
    assert source.read_text() == ""


@pytest.mark.slow
def test_a_closed_terminal_ends_the_real_game_with_a_replayable_recording(tmp_path: Path) -> None:
    game = Command("--record session.replay --frames 100000", tmp_path, stop_at="window")
    game.reaches("window")  # the window is up, the recording open: the first frame is next
    game.send(signal.SIGHUP)
    assert (game.ends(), game.lines) == (
        129,
        [
            "at window",
            "python -m game play: stopped by SIGHUP; kept session.replay (to tick 0, signal, "
            "replayable)",
        ],
    )
    assert game.out.splitlines()[0].startswith("final tick 0 state ")
    assert final_line(tmp_path / "session.replay")["ended"] == "signal"
    replay = Command("replay session.replay", tmp_path, stop_at=None)
    assert replay.ends() == 0, replay.err
    assert replay.out.splitlines()[0] == game.out.splitlines()[0]
