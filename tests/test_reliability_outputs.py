"""Issue 20's reproductions of outputs that destroyed data and of numbers past what the code was
written for, each with the line it now gives (or the whole, correct result)."""

from __future__ import annotations

import json
import os
import re
import stat
from fractions import Fraction
from pathlib import Path

import pytest

from game.cli import main
from game.errors import BadInput
from game.knobs import KNOBS, Where, knob_at
from game.workshop.files.output import name_limit, partial_path, written_whole
from game.workshop.runs.display_run import vblank_grid

STALL = "seconds = 1\n"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def private_null(folder: Path) -> Path:
    """A character device like /dev/null, made in the test's own folder (never /dev)."""
    path = folder / "null"
    os.mknod(path, stat.S_IFCHR | 0o600, os.makedev(1, 3))
    return path


# -- 1, 2, 3, 10: one way to write an output ---------------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        ("simulate", "--seconds", "1", "--record", "NULL"),
        ("play", "--frames", "1", "--record", "NULL"),
    ],
)
def test_1_a_device_is_refused_as_a_recording_and_stays_a_device(
    argv: tuple[str, ...], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    null = private_null(tmp_path)
    code, _, err = run(capsys, *(str(null) if word == "NULL" else word for word in argv))
    assert (code, err) == (2, f"error: --record {null}: cannot write it: is a character device\n")
    assert stat.S_ISCHR(null.lstat().st_mode)


def test_1_a_device_named_like_a_clip_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    device = tmp_path / "x.gif"
    os.mknod(device, stat.S_IFCHR | 0o600, os.makedev(1, 3))
    code, _, err = run(capsys, "clip", "--lesson", "1", "--seconds", "0.2", "--out", str(device))
    assert (code, err) == (2, f"error: --out {device}: cannot write it: is a character device\n")
    assert stat.S_ISCHR(device.lstat().st_mode)


@pytest.mark.parametrize("flag", ["--scenario", "--script"])
def test_2_a_clip_over_its_own_scenario_or_script_is_refused(
    flag: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "scen.gif"
    source.write_text(STALL if flag == "--scenario" else "0 space\n")
    argv = ("clip", flag, str(source), "--seconds", "0.3", "--out", str(source))
    code, _, err = run(capsys, *argv)
    assert (code, err) == (
        2,
        f"error: --out {source} is the {flag} file: it would be overwritten\n",
    )
    assert source.read_text() == (STALL if flag == "--scenario" else "0 space\n")


def test_3_a_sweep_folder_holding_its_scenario_under_sweep_csv_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    scenario = tmp_path / "sweep.csv"
    scenario.write_text(STALL)
    argv = ("sweep", "--scenario", str(scenario), "--vary", "load.step_cost_ms=1,2")
    code, _, err = run(capsys, *argv, "--seconds", "1", "--out", str(tmp_path))
    assert (code, err) == (
        2,
        f"error: --out {scenario} is the --scenario file: it would be overwritten\n",
    )
    assert scenario.read_text() == STALL


def test_10_a_clip_with_a_248_character_name_is_written_under_that_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / ("a" * 244 + ".gif")
    argv = ("clip", "--lesson", "1", "--seconds", "0.2", "--size", "320x240", "--fps", "10")
    code, printed, err = run(capsys, *argv, "--out", str(out))
    assert (code, err) == (0, "")
    assert printed == f"wrote {out}: 2 pictures, 320x240, 0.2 s of game time at 10 fps\n"
    assert [path.name for path in tmp_path.iterdir()] == [out.name]  # no temporary left


def test_the_temporary_name_gives_way_never_the_final_one(tmp_path: Path) -> None:
    limit = name_limit(tmp_path)
    out = tmp_path / ("b" * (limit - 4) + ".mp4")  # the longest name the folder takes
    partial, kept = partial_path(out), partial_path(out, keep_suffix=True)
    assert len(partial.name.encode()) == len(kept.name.encode()) == limit
    assert partial.name.endswith(".part") and kept.name.endswith(".part.mp4")
    assert partial_path(tmp_path / "c.mp4", keep_suffix=True).name == "c.part.mp4"
    with written_whole(out) as writing:
        writing.write_text("whole\n")
    assert [path.name for path in tmp_path.iterdir()] == [out.name]


def test_the_temporary_file_goes_however_the_writing_ends(tmp_path: Path) -> None:
    """A signal that the command turns into an exception (SystemExit here) ends the block like
    any other: the temporary file is removed and the older output stays."""
    out = tmp_path / "frames.csv"
    out.write_text("older\n")
    with pytest.raises(SystemExit), written_whole(out) as writing:
        writing.write_text("half")
        raise SystemExit(143)
    assert [path.name for path in tmp_path.iterdir()] == ["frames.csv"]
    assert out.read_text() == "older\n"


def test_a_device_put_in_place_during_the_run_is_not_replaced(tmp_path: Path) -> None:
    out = tmp_path / "null"
    with pytest.raises(BadInput) as refused, written_whole(out, "--out") as writing:
        writing.write_text("whole\n")
        os.mknod(out, stat.S_IFCHR | 0o600, os.makedev(1, 3))
    assert refused.value.lines == (f"error: --out {out}: cannot write: is a character device",)
    assert stat.S_ISCHR(out.lstat().st_mode)
    assert [path.name for path in tmp_path.iterdir()] == ["null"]


# -- 8, 9: a refresh rate within its range, and exact arithmetic on it -------------------------


def display_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], refresh: str
) -> tuple[int, str, str]:
    scenario = tmp_path / "display.toml"
    scenario.write_text(f"seconds = 2\n[display]\nrefresh_hz = {refresh}\n")
    return run(capsys, "simulate", "--scenario", str(scenario))


def test_8_a_refresh_rate_with_many_digits_is_measured_not_overflowed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = display_run(tmp_path, capsys, "997.123456789")
    assert (code, err) == (0, "")
    assert out.splitlines()[-2:] == [
        "display 997.123 Hz vsync, queue 2: judder 243.396 %, position error 2.005 ms (0.0173 m "
        "at the cannon's horizontal speed), latency 27.080 ms over 1753 refreshes",
        "ticks per refresh 000000000100000000000001; refreshes per tick 999999999999",
    ]


@pytest.mark.parametrize(("near", "exact"), [("60.000000001", "60"), ("144.00000001", "144")])
def test_8_a_hair_off_a_rate_measures_what_the_rate_does(
    near: str, exact: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """int64 wrapped silently here: 0 refreshes at 60.000000001 Hz, negative ticks at
    144.00000001. A rate a billionth off measures what the round rate does."""
    near_lines = display_run(tmp_path, capsys, near)[1].splitlines()[-2:]
    exact_lines = display_run(tmp_path, capsys, exact)[1].splitlines()[-2:]
    assert near_lines[1] == exact_lines[1]
    assert "-" not in near_lines[1]
    assert near_lines[0].split(": ", 1)[1] == exact_lines[0].split(": ", 1)[1]


def test_8_the_vblank_grid_is_exact_past_int64() -> None:
    period = Fraction(10**9) / Fraction("997.123456789")
    first = period * Fraction(63, 100)
    exact = [(2 * (first + i * period)).__floor__() for i in range(5)]  # 2x, then halves up
    rounded = [(twice + 1) // 2 for twice in exact]
    assert vblank_grid(first, period, 5).tolist() == rounded
    far = vblank_grid(first, period, 100_000)
    assert int(far[-1]) == round(first + 99_999 * period)
    assert bool((far[1:] > far[:-1]).all())


@pytest.mark.parametrize("refresh", ["0.5", "1e-300", "0", "1000.5"])
def test_9_a_refresh_rate_outside_1_to_1000_hz_is_one_line(
    refresh: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = display_run(tmp_path, capsys, refresh)
    bound = "must be at most 1000" if refresh == "1000.5" else "must be at least 1"
    scenario = tmp_path / "display.toml"
    assert (code, err) == (2, f"{scenario}: [display.refresh_hz] {bound} (got {refresh})\n")


@pytest.mark.parametrize("refresh", ["0.5", "1001"])
def test_8_9_judder_takes_the_same_refresh_range(
    refresh: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(capsys, "judder", "--refresh", refresh)
    assert (code, err) == (2, f"error: --refresh must be from 1 to 1000 Hz (got '{refresh}')\n")


def test_8_judder_a_hair_off_60_hz_is_the_60_hz_row(capsys: pytest.CaptureFixture[str]) -> None:
    near = json.loads(_judder_json(capsys, "60.000000001"))
    exact = json.loads(_judder_json(capsys, "60"))
    assert near.pop("refresh_hz") == "60.000000001"
    del exact["refresh_hz"]
    assert near == exact
    assert near["cadence"] == "1" * 24 and near["refreshes"] == 48


def _judder_json(capsys: pytest.CaptureFixture[str], refresh: str) -> str:
    argv = ("judder", "--refresh", refresh, "--hz", "60", "--seconds", "1", "--json")
    code, out, _ = run(capsys, *argv, "--interpolation", "off", "--conditioning", "raw")
    assert code == 0
    return out.strip()


# -- 11, 12b: every seed 0 to 2^64 - 1, and no number read past MAX_DIGITS ---------------------


@pytest.mark.parametrize("seed", [str(2**64), "9" * 5001])
def test_11_an_input_script_seed_past_64_bits_is_refused_as_in_a_scenario(
    seed: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = tmp_path / "taps.txt"
    line = f"random jump 4/s seed {seed}"
    script.write_text(line + "\n")
    code, _, err = run(capsys, "simulate", "--seconds", "1", "--input-script", str(script))
    assert (code, err) == (
        2,
        f"{script}:1: the seed must be from 0 to 18446744073709551615 (a 64-bit number) "
        f"(got {line!r})\n",
    )


def test_11_the_largest_seed_is_taken(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "taps.txt"
    script.write_text(f"random jump 4/s seed {2**64 - 1}\n")
    assert run(capsys, "simulate", "--seconds", "1", "--input-script", str(script))[0] == 0


def test_12b_a_final_tick_of_5001_digits_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "r.replay"
    assert run(capsys, "simulate", "--seconds", "1", "--record", str(record))[0] == 0
    lines = record.read_text().splitlines()
    lines[-1] = re.sub(r'"final_tick": \d+', '"final_tick": ' + "9" * 5001, lines[-1])
    record.write_text("\n".join(lines) + "\n")
    code, _, err = run(capsys, "replay", str(record))
    assert (code, err) == (
        2,
        f"{record}:{len(lines)}: a number has 5,001 digits; at most 100 are read\n",
    )
    assert "set_int_max_str_digits" not in err


def test_every_number_a_file_can_set_has_a_range_with_both_ends() -> None:
    """The knob table states each range once; the file readers, the checks and the help read it
    from there (a key-only knob, such as the focused lane, is no file's setting)."""
    numbers = [
        knob
        for knob in KNOBS
        if knob.kind in (int, float, Fraction) and not knob.choices and knob.where != Where.KEY
    ]
    unbounded = [
        knob.path
        for knob in numbers
        if knob.range is None
        or knob.range.at_most is None
        or (knob.range.at_least is None and knob.range.more_than is None)
    ]
    assert unbounded == []
    refresh = knob_at("display.refresh_hz").range
    assert refresh is not None and (refresh.at_least, refresh.at_most) == (1, 1000)
    seeds = [knob_at(path).range for path in ("world.seed", "clock.jitter_seed")]
    assert all(
        seed is not None and (seed.at_least, seed.at_most) == (0, 2**64 - 1) for seed in seeds
    )
