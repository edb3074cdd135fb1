"""`--lesson-dir DIR`: your own lessons, played (and filmed) instead of the packaged ones."""

from pathlib import Path

import pytest

from game.cli import main
from game.resources import LESSONS


@pytest.fixture
def own_lessons(tmp_path: Path) -> Path:
    """One lesson of our own: the packaged lesson 2, numbered 12."""
    folder = tmp_path / "ours"
    folder.mkdir()
    text = (LESSONS / "02_no_interpolation.toml").read_text(encoding="utf-8")
    (folder / "12_ours.toml").write_text(text.replace("number = 2", "number = 12"), "utf-8")
    return folder


def test_the_game_plays_a_lesson_of_your_own_folder(own_lessons: Path) -> None:
    assert main(["--lesson-dir", str(own_lessons), "--lesson", "12", "--frames", "2"]) == 0


def test_your_folder_replaces_the_packaged_lessons(
    own_lessons: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--lesson-dir", str(own_lessons), "--lesson", "2", "--frames", "2"]) == 2
    assert capsys.readouterr().err == "error: there is no lesson 2 (the lessons are 12)\n"


def test_clip_films_a_lesson_of_your_own_folder(
    own_lessons: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "ours.gif"
    args = ["--lesson-dir", str(own_lessons), "--lesson", "12", "--seconds", "0.2"]
    assert main(["clip", *args, "--fps", "10", "--size", "320x240", "--out", str(out)]) == 0
    assert capsys.readouterr().out.startswith(f"wrote {out}: 2 pictures, 320x240")


def test_a_missing_folder_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--lesson-dir", "nowhere", "--lesson", "1", "--frames", "1"]) == 2
    assert capsys.readouterr().err == "nowhere: the lessons folder is missing\n"
