"""Issue 12's reproductions, one test each: every one is one line on stderr and exit 2 (or 1 for a
replay that does not match), or a correct full result. Nothing here may print a traceback.

The ones about how the game ends (Ctrl+C, SIGHUP, a crash, an unwritable --screenshot) run the
game itself and live in `test_play_endings.py`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from game.app import lesson_guide
from game.cli import main
from game.workshop.files.lessons import load_lessons


def refused(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    """The one line `python -m game ARGS` prints on stderr, having printed nothing else."""
    assert main(list(args)) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert len(captured.err.splitlines()) == 1, captured.err
    return captured.err.strip()


# -- the schedule explainer and numbers on the command line ---------------------------------------


def test_schedule_31536000001_is_refused_before_any_row(capsys: pytest.CaptureFixture[str]) -> None:
    assert refused(capsys, "schedule", "16", "31536000001") == (
        "error: bad frame '31536000001': a frame lasts at most a year (31,536,000,000 ms)"
    )


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["--hz", "٣", "16"],
         "error: --hz must be a non-negative decimal number like 16.667 (got '٣')"),
        (["16.7x٣"], "error: bad frame '16.7x٣': frame (ms) must be a non-negative decimal "
                     "number like 16.667 (got '16.7x٣')"),
        (["--max-steps", "٣", "16"],
         "error: argument --max-steps: must be a whole number like 5 (got '٣')"),
    ],
)  # fmt: skip
def test_non_ascii_digits_are_not_numbers(
    capsys: pytest.CaptureFixture[str], args: list[str], line: str
) -> None:
    assert refused(capsys, "schedule", *args) == line


def test_0x10_is_not_ten_frames_of_0_ms(capsys: pytest.CaptureFixture[str]) -> None:
    assert refused(capsys, "schedule", "0x10") == (
        "error: bad frame '0x10': 10 frames of 0 ms; a repeated frame must last more than 0 ms "
        "(frame times are decimal ms, never hex)"
    )


def test_resume_without_pause_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert refused(capsys, "schedule", "16", "resume", "16") == (
        "error: bad frame 'resume': nothing is paused"
    )


# -- configuration, scenarios, lessons, --set and scripts ------------------------------------------


def test_a_screenshot_folder_with_a_nul_is_refused_by_the_config(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert refused(capsys, "--set", 'app.screenshot_dir="a\\u0000b"', "--frames", "1") == (
        "command line: [app.screenshot_dir] must not hold control characters (such as NUL or a "
        "line break) (got 'a\\x00b')"
    )


def test_a_huge_hex_seed_is_refused_before_anything_is_recorded(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    scenario = tmp_path / "seed.toml"
    scenario.write_text("[world]\nseed = 0x" + "f" * 40 + "\n")
    record = tmp_path / "run.replay"
    line = refused(capsys, "simulate", "--scenario", str(scenario), "--record", str(record))
    assert line == (
        f"{scenario}: [world.seed] must be at most 18446744073709551615 "
        "(got 1461501637330902918203684832716283019655932542975)"
    )
    assert not record.exists()


@pytest.mark.parametrize("number", ["1" * 4301, "0x" + "f" * 4000])
def test_integers_over_4300_digits_are_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], number: str
) -> None:
    scenario = tmp_path / "big.toml"
    scenario.write_text(f"[scheduler]\nmax_steps = {number}\n")
    assert refused(capsys, "simulate", "--scenario", str(scenario)) in (
        f"{scenario}: refused at line 2: a number with more than 100 digits (the limit)",
        f"{scenario}: [scheduler.max_steps] has more than 100 digits (the limit)",
    )


@pytest.mark.parametrize("levels", [330, 490])
def test_nesting_of_hundreds_of_levels_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], levels: int
) -> None:
    nested = tmp_path / "nested.toml"
    nested.write_text("a = " + "[" * levels + "]" * levels + "\n")
    line = f"{nested}: refused at line 1: tables and arrays nested more than 32 deep (the limit)"
    assert refused(capsys, "simulate", "--scenario", str(nested)) == line
    assert refused(capsys, "--config", str(nested), "--frames", "1") == line
    deep_set = "a.b=" + "[" * levels + "]" * levels
    assert refused(capsys, "--set", deep_set, "--frames", "1") == (
        "command line: [a.b] refused: tables and arrays nested more than 32 deep (the limit)"
    )


def test_a_script_click_with_a_400_digit_number_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = tmp_path / "demo.txt"
    script.write_text("100 click " + "9" * 400 + " 9\n")
    assert refused(capsys, "--script", str(script), "--frames", "1") == (
        f"{script}:1: a click needs x and y in metres (got '100 click " + "9" * 47 + "'...)"
    )


@pytest.mark.parametrize("flag", ["--config", "--script"])
def test_dev_zero_as_a_game_file_is_one_line(capsys: pytest.CaptureFixture[str], flag: str) -> None:
    what = "a TOML file" if flag == "--config" else "a script"
    assert refused(capsys, flag, "/dev/zero", "--frames", "1") == (
        f"/dev/zero: too large for {what} (more than 1 MiB)"
    )


def test_dev_zero_as_a_scenario_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert refused(capsys, "simulate", "--scenario", "/dev/zero") == (
        "/dev/zero: too large for a TOML file (more than 1 MiB)"
    )


@pytest.mark.parametrize(
    "text",
    ["number = 1\ntitle = 't'\nsteps = " + "[" * 400 + "]" * 400,
     "number = " + "1" * 5000,
     "number = 1\ntitle = 't'\n[[steps]]\ncaption = 'c'\nkeys = 'k'\n[steps.settings]\nhz = 2\n"
     "max_steps = 0x" + "f" * 4000],
)  # fmt: skip
def test_a_bad_lesson_file_is_a_message_in_the_game_not_a_crash(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str
) -> None:
    (tmp_path / "07_bad.toml").write_text(text)
    monkeypatch.setattr(lesson_guide, "load_lessons", lambda: load_lessons(tmp_path))
    guide = lesson_guide.LessonGuide()
    message = guide.toggle_menu()  # what L does
    assert message is not None and message.startswith(f"{tmp_path / '07_bad.toml'}: ")
    assert not guide.menu_open


# -- simulate and compare: a run is done as asked, or refused ------------------------------------


def test_a_stall_longer_than_the_run_is_refused_up_front(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert refused(capsys, "simulate", "--seconds", "10", "--stall", "2:60000") == (
        "error: --stall 2:60000: ends at 62 s, not before the run's 10 s: a stall must end "
        "before the run does"
    )


def test_a_stall_whose_frame_would_end_after_the_run_is_refused_and_nothing_is_recorded(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "run.replay"
    args = ["--seconds", "10", "--stall", "2:7999", "--record", str(record)]
    assert refused(capsys, "simulate", *args) == (
        "error: --stall 2:7999: does not fit in the run: the frame that holds it would end at "
        "10.006 s, after the run's 10 s; end it earlier or run longer"
    )
    assert list(tmp_path.iterdir()) == []


def test_a_stall_placed_after_the_end_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert refused(capsys, "simulate", "--seconds", "10", "--stall", "12:100") == (
        "error: --stall 12:100: ends at 12.1 s, not before the run's 10 s: a stall must end "
        "before the run does"
    )


def test_compare_does_not_claim_seconds_it_did_not_run(capsys: pytest.CaptureFixture[str]) -> None:
    assert refused(capsys, "compare", "--seconds", "10", "--stall", "2:7999") == (
        "error: --stall 2:7999: does not fit in the run: the frame that holds it would end at "
        "10.006 s, after the run's 10 s; end it earlier or run longer"
    )
    args = ["compare", "--policies", "uncapped,drop", "--step-cost-ms", "40", "--seconds", "30"]
    assert main(args) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "compare: up to 30 s under each policy"
    assert lines[1].startswith("  uncapped stopped after ")
    assert lines[1].endswith(" ms: the runaway guard ended it (one frame's work passed 10 s)")
    assert lines[2].split() == ["policy", "max", "frame", "ms", "dropped", "ms", "final", "lag",
                                "ms", "ticks", "spiral"]  # fmt: skip


def test_ticks_beyond_the_limit_are_refused_up_front(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--hz", "10000", "--policy", "uncapped", "--time-scale", "64", "--seconds", "3600"]
    assert refused(capsys, "simulate", *args) == (
        "error: --seconds would simulate up to 2,304,000,000 ticks (3600 s x time scale 64 x "
        "10000 Hz), about 2 days of CPU, more than 100,000,000 a run (the limit)"
    )


@pytest.mark.parametrize("command", ["simulate", "compare"])
def test_out_with_a_256_character_name_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    out = tmp_path / ("a" * 256)
    assert refused(capsys, command, "--seconds", "1", "--out", str(out)) == (
        f"error: --out {out}: cannot create it: file name too long"
    )


def test_record_pointed_at_the_scenario_is_refused_and_the_scenario_kept(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    scenario = tmp_path / "stall.toml"
    scenario.write_text("seconds = 1\n")
    same = tmp_path / "." / "stall.toml"
    line = refused(capsys, "simulate", "--scenario", str(scenario), "--record", str(same))
    assert line == f"error: --record {same} is the --scenario file: it would be overwritten"
    assert scenario.read_text() == "seconds = 1\n"


# -- recordings and replay ------------------------------------------------------------------------

EDITED = """seconds = 2
[[inputs]]
sim_second = 0.6
action = "fire"
[[inputs]]
sim_second = 1
action = "reset"
"""


@pytest.fixture
def recording(tmp_path: Path) -> Path:
    scenario = tmp_path / "edited.toml"
    scenario.write_text(EDITED)
    path = tmp_path / "edited.replay"
    assert main(["simulate", "--scenario", str(scenario), "--record", str(path)]) == 0
    return path


def edit_line(path: Path, number: int, **changes: object) -> None:
    lines = path.read_text().splitlines()
    lines[number] = json.dumps({**json.loads(lines[number]), **changes})
    path.write_text("\n".join(lines) + "\n")


@pytest.mark.parametrize("changes", [{"tick": 37}, {"vy": 92.2}, {"vx": 1e308}])
def test_an_edited_command_the_hash_cannot_see_is_still_a_mismatch(
    recording: Path, capsys: pytest.CaptureFixture[str], changes: dict[str, object]
) -> None:
    capsys.readouterr()
    assert json.loads(recording.read_text().splitlines()[1])["tick"] == 36
    assert main(["replay", str(recording)]) == 0
    matching = capsys.readouterr().out.splitlines()[0]
    edit_line(recording, 1, **changes)
    assert main(["replay", str(recording)]) == 1
    assert capsys.readouterr().out.splitlines() == [
        matching,  # the same state: the reset erased the shot
        "DOES NOT match the recording: its lines were changed after it was recorded",
    ]


def test_version_as_a_decimal_is_refused(
    recording: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    edit_line(recording, 0, version=2.0)
    capsys.readouterr()
    assert refused(capsys, "replay", str(recording)) == (
        f"{recording}:1: replay format version 2.0 is not supported (this game reads version 2)"
    )


def test_a_final_tick_of_a_billion_is_refused(
    recording: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    last = len(recording.read_text().splitlines()) - 1
    edit_line(recording, last, final_tick=1_000_000_000)
    capsys.readouterr()
    assert refused(capsys, "replay", str(recording)) == (
        f"{recording}:{last + 1}: final_tick must be from 0 to 100,000,000, the limit "
        "(got 1000000000)"
    )


def test_dev_zero_as_a_replay_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    # A replay is read streamed, a line at a time: an endless file of zeros is one endless line.
    assert refused(capsys, "replay", "/dev/zero") == (
        "/dev/zero:1: a line longer than 1 MiB: not a replay file"
    )
