"""Hostile files and flags beyond the captures (issue 30, points 4, 9, 10, 13 to 17): a TOML
file with a byte-order mark, a lesson of thousands of steps, a `[network]` run that re-simulates
more than a command may, a FIFO among the lessons, the largest seed, `lessons`' flags, names
holding escape sequences, custom lessons' claims, and scenarios a clip cannot film."""

from __future__ import annotations

import json
import os
import threading
from fractions import Fraction
from pathlib import Path

import pytest

from game.cli import main
from game.config.loading import load_config
from game.resources import LESSONS
from game.session.controls import Controls
from game.workshop.files.lessons import LessonRun, StepSettings, lesson_baseline, load_lessons
from game.workshop.files.network_section import NetworkSection
from game.workshop.files.recording import header_record
from game.workshop.files.scenario_checks import run_size
from game.workshop.files.scenario_loading import load_scenario

BOM = "\ufeff"


def test_a_toml_file_with_a_byte_order_mark_reads(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    scenario = tmp_path / "marked.toml"
    scenario.write_text(f'{BOM}title = "marked"\nseconds = 1\n', encoding="utf-8")
    assert main(["simulate", "--scenario", str(scenario)]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "marked"
    config = tmp_path / "config.toml"
    config.write_text(f"{BOM}[scheduler]\nhz = 120\n", encoding="utf-8")
    assert load_config(config, []).scheduler.hz == 120


def test_titles_read_from_files_are_printed_with_their_controls_escaped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    scenario = tmp_path / "evil.toml"
    scenario.write_text('title = "evil\\n\\u001b[31mred"\nseconds = 1\n', encoding="utf-8")
    assert main(["simulate", "--scenario", str(scenario)]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "evil\\n\\x1b[31mred"
    folder = tmp_path / "lessons"
    folder.mkdir()
    text = (LESSONS / "02_no_interpolation.toml").read_text(encoding="utf-8")
    title = text.split("\n")[2]
    (folder / "02.toml").write_text(text.replace(title, 'title = "two\\rlines\\u0007"'), "utf-8")
    assert main(["lessons", "--lesson-dir", str(folder)]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "lesson 2: two\\rlines\\x07"


def _many_steps(count: int) -> list[StepSettings]:
    return [StepSettings(fps_cap=(30, 60, 144)[index % 3]) for index in range(count)]


def test_walking_a_lesson_turns_each_step_s_settings_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A clip of step K of a lesson walks the K - 1 steps before it: each step's settings are
    turned once on the way (it was every step's before it, again, at every step: K^2 / 2)."""
    lesson = load_lessons()[0]
    steps = [lesson.steps[0].model_copy(update={"settings": s}) for s in _many_steps(300)]
    long = lesson.model_copy(update={"steps": tuple(steps)})
    turned: list[StepSettings] = []
    original = StepSettings.applied_to

    def counted(self: StepSettings, controls: Controls) -> Controls:
        turned.append(self)
        return original(self, controls)

    monkeypatch.setattr(StepSettings, "applied_to", counted)
    run: LessonRun | None = LessonRun(long)
    while run is not None and run.step < 299:
        run.controls(Controls())
        run = run.advanced()
    assert run is not None and run.step == 299
    assert len(turned) == 1 + 299  # the first step's, and one a step after it


def test_a_step_s_controls_are_the_fold_of_every_step_before_it_from_the_baseline() -> None:
    """For every packaged lesson and step, from controls the room changed: the settings carried
    from step to step give what turning every step's settings from the baseline gives."""
    room = Controls(presentation=True, help=True, paused=True, focus_lane=1, fps_cap=240)
    for lesson in load_lessons():
        run: LessonRun | None = LessonRun(lesson)
        while run is not None:
            folded = lesson_baseline(room)
            for step in lesson.steps[: run.step + 1]:
                folded = step.settings.applied_to(folded)
            assert run.controls(room) == folded, (lesson.number, run.step)
            run = run.advanced()


@pytest.mark.usefixtures("small_limits")
def test_a_network_run_s_work_counts_what_it_may_re_simulate(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Latency 1900 ms, a window of 120 and 1,000 flips a second: a 60 s run re-simulated
    395,080 ticks in 20 s of CPU, unchecked. Every tick may roll back its window."""
    scenario = tmp_path / "resim.toml"
    scenario.write_text(
        "seconds = 60\n[network]\nlatency_ms = 1900\nprediction_window = 120\n"
        "remote_flips_per_s = 1000\n"
    )
    assert main(["simulate", "--scenario", str(scenario)]) == 2
    assert capsys.readouterr().err.splitlines() == [
        f"{scenario}: [seconds] would simulate up to 435,600 ticks (60 s x time scale 1 x 60 Hz, "
        "and 432,000 re-simulated: each tick may roll back its last 120 "
        "(network.prediction_window)), about 52 s of CPU, more than 60,000 a run (the limit)"
    ]
    still = tmp_path / "still.toml"  # a remote that never flips is never mispredicted
    still.write_text("seconds = 600\n[network]\nremote_flips_per_s = 0\n")
    assert run_size(load_scenario(still, timeline=False)) == (36_000, 86_400, 60, 1, 144, 0)


@pytest.mark.usefixtures("small_limits")
def test_a_network_recording_s_replay_counts_what_it_may_re_simulate(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    network = NetworkSection(prediction_window=120, remote_flips_per_s=Fraction(1000))
    lines = [
        header_record(load_config(None, []), network),
        {"final_tick": 600, "state_hash": "0" * 64, "ended": "end", "record_hash": "0" * 64},
    ]
    recording = tmp_path / "net.jsonl"
    recording.write_text("".join(json.dumps(line) + "\n" for line in lines))
    assert main(["replay", str(recording), "--render-fps", "60"]) == 2
    assert capsys.readouterr().err.splitlines() == [
        f"error: replaying {recording} may simulate up to 72,600 ticks (to tick 600, and 72,000 "
        "re-simulated: each tick may roll back its last 120, network.prediction_window), about "
        "8 s of CPU, more than 60,000 (the limit)"
    ]


def test_a_fifo_among_the_lessons_is_skipped(tmp_path: Path) -> None:
    """A FIFO named `*.toml` in a lessons folder once hung `--lesson 1`: folders read only
    regular files, as `--scenario-dir` does. (A FIFO named as an input is read like a pipe.)"""
    folder = tmp_path / "lessons"
    folder.mkdir()
    (folder / "02.toml").write_text((LESSONS / "02_no_interpolation.toml").read_text("utf-8"))
    os.mkfifo(folder / "01_fifo.toml")
    (folder / "03_folder.toml").mkdir()
    assert [lesson.number for lesson in load_lessons(folder)] == [2]


def test_a_fifo_named_as_a_scenario_is_read_like_a_pipe(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fifo = tmp_path / "piped.toml"
    os.mkfifo(fifo)

    def write() -> None:
        with fifo.open("w") as end:
            end.write('title = "piped"\nseconds = 1\n')

    writer = threading.Thread(target=write)
    writer.start()
    assert main(["simulate", "--scenario", str(fifo)]) == 0
    writer.join()
    assert capsys.readouterr().out.splitlines()[0] == "piped"


def test_every_seed_is_0_to_2_to_the_64_less_1_in_network_sections_and_recordings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    largest = 2**64 - 1
    scenario = tmp_path / "seed.toml"
    scenario.write_text(f"seconds = 1\n[network]\nseed = {largest}\nlatency_ms = 50\n")
    recording = tmp_path / "seed.jsonl"
    assert main(["simulate", "--scenario", str(scenario), "--record", str(recording)]) == 0
    assert json.loads(recording.read_text().splitlines()[0])["network"]["seed"] == largest
    assert main(["replay", str(recording)]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith("matches the recording")
    scenario.write_text(f"seconds = 1\n[network]\nseed = {largest + 1}\n")
    assert main(["simulate", "--scenario", str(scenario)]) == 2
    assert capsys.readouterr().err.splitlines() == [
        f"{scenario}: [network.seed] must be at most {largest} (got {largest + 1})"
    ]


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--check", "--workers", "0"], "error: --workers must be at least 1 (got 0)"),
        (["--check", "--workers", "-5"], "error: --workers must be at least 1 (got -5)"),
        (["--json"], "error: --json needs --check (it says how the claims are checked)"),
        (["--workers", "2"], "error: --workers needs --check (it says how the claims are checked)"),
    ],
)
def test_lessons_flags_out_of_range_are_one_line_and_exit_2(
    argv: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["lessons", *argv]) == 2
    assert capsys.readouterr() == ("", said + "\n")


def _own_lesson(folder: Path, **claim: str) -> Path:
    """The packaged lesson 4, numbered 14, its first claim's fields replaced by `claim`."""
    folder.mkdir()
    text = (LESSONS / "04_naive_alpha.toml").read_text(encoding="utf-8")
    text = text.replace("number = 4", "number = 14")
    for key, value in claim.items():
        start = text.index(f"\n{key} = ") + 1
        text = text[:start] + f"{key} = {value}" + text[text.index("\n", start) :]
    (folder / "14_ours.toml").write_text(text, encoding="utf-8")
    return folder


def test_lessons_checks_the_claims_of_your_own_lessons(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = _own_lesson(tmp_path / "ours")
    assert main(["lessons", "--check", "--lesson-dir", str(folder), "--workers", "1"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("lesson 14 step 1: ")
    assert out[-1].endswith(" claims hold")


@pytest.mark.parametrize(("key", "value"), [("tolerance", "inf"), ("expected", "nan")])
def test_a_claim_must_be_finite(
    key: str, value: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = _own_lesson(tmp_path / "ours", **{key: value})
    assert main(["lessons", "--lesson-dir", str(folder)]) == 2
    assert capsys.readouterr().err.splitlines() == [
        f"{folder / '14_ours.toml'}: [steps[1].claims[1].{key}] must be a finite number "
        f"(got {value})"
    ]


@pytest.mark.parametrize(
    ("name", "section", "missing"),
    [("rollback_wait", "network", "simulated peer"), ("vsync_60", "display", "virtual display")],
)
def test_a_clip_of_a_scenario_it_cannot_film_is_refused_naming_the_section(
    name: str, section: str, missing: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "c.gif"
    assert main(["clip", "--scenario", name, "--seconds", "1", "--out", str(out)]) == 2
    refused = capsys.readouterr().err.splitlines()[-1]
    assert refused.startswith("error: --scenario ")
    assert refused.endswith(
        f"{name}.toml: its [{section}] section cannot be filmed (the game's loop has no "
        f"{missing}): run it with simulate, or film a scenario without it"
    )
    assert not out.exists()
