"""Outputs are written whole or not at all, into a folder made ready first, and never over an
input: each refusal is one line."""

import os
from pathlib import Path

import pytest

from game.errors import BadInput
from game.workshop.files.output import (
    output_directory,
    partial_path,
    refuse_overwriting_inputs,
    written_whole,
)


def test_a_file_is_written_under_a_partial_name_and_renamed_when_complete(tmp_path: Path) -> None:
    path = tmp_path / "frames.csv"
    with written_whole(path) as partial:
        assert partial == tmp_path / "frames.csv.part" == partial_path(path)
        partial.write_text("tick\n1\n")
        assert not path.exists()
    assert sorted(tmp_path.iterdir()) == [path]
    assert path.read_text() == "tick\n1\n"


def test_a_failed_write_keeps_the_last_good_file_and_removes_the_partial_one(
    tmp_path: Path,
) -> None:
    path = tmp_path / "frames.csv"
    path.write_text("the last good run\n")
    with pytest.raises(BadInput) as refused, written_whole(path) as partial:
        partial.write_text("half a ")
        raise OSError(28, "No space left on device")
    assert refused.value.lines == (f"{path}: cannot write: no space left on device",)
    assert sorted(tmp_path.iterdir()) == [path]
    assert path.read_text() == "the last good run\n"


def test_an_interrupted_write_removes_the_partial_file_and_goes_on_interrupting(
    tmp_path: Path,
) -> None:
    with pytest.raises(KeyboardInterrupt), written_whole(tmp_path / "f.csv") as partial:
        partial.write_text("half")
        raise KeyboardInterrupt
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("name", "reason"),
    [("a" * 256, "file name too long"), ("file/inside", "not a directory")],
)
def test_a_folder_that_cannot_be_made_is_one_line(tmp_path: Path, name: str, reason: str) -> None:
    (tmp_path / "file").write_text("")
    with pytest.raises(BadInput) as refused:
        output_directory(tmp_path / name)
    assert refused.value.lines == (f"error: --out {tmp_path / name}: cannot create it: {reason}",)


def test_a_file_where_the_folder_should_be_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "out").write_text("")
    with pytest.raises(BadInput) as refused:
        output_directory(tmp_path / "out", "--plot")
    assert refused.value.lines == (
        f"error: --plot {tmp_path / 'out'}: exists and is not a directory",
    )


def test_an_output_that_is_an_input_by_any_name_is_refused(tmp_path: Path) -> None:
    scenario = tmp_path / "s.toml"
    scenario.write_text("")
    os.link(scenario, tmp_path / "hard.toml")
    (tmp_path / "soft.toml").symlink_to(scenario)
    for alias in ("s.toml", "./s.toml", "hard.toml", "soft.toml", "sub/../s.toml"):
        (tmp_path / "sub").mkdir(exist_ok=True)
        with pytest.raises(BadInput) as refused:
            refuse_overwriting_inputs(
                [("--record", tmp_path / alias)], [("--scenario", scenario), ("--config", None)]
            )
        assert refused.value.lines == (
            f"error: --record {tmp_path / alias} is the --scenario file: it would be overwritten",
        )


def test_two_outputs_to_one_file_are_refused_and_distinct_files_pass(tmp_path: Path) -> None:
    with pytest.raises(BadInput) as refused:
        refuse_overwriting_inputs(
            [("--record", tmp_path / "a.png"), ("--screenshot", tmp_path / "a.png")], []
        )
    assert refused.value.lines == (
        f"error: --screenshot {tmp_path / 'a.png'} is the --record file: it would be overwritten",
    )
    refuse_overwriting_inputs(
        [("--record", tmp_path / "a.replay"), ("--screenshot", tmp_path / "a.png")],
        [("--script", tmp_path / "a.txt")],
    )
