"""The display on the command line: bad `[display]` settings are one line and exit 2; the
judder table; `schedule --conditioning`; `simulate` with a display."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from game.cli import main

SCENARIOS = Path(__file__).resolve().parents[1] / "configs" / "scenarios"


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("[display]\nrefresh_hz = 0", "[display.refresh_hz] must be at least 1 (got 0)"),
        ("[display]\nqueue_depth = 0", "[display.queue_depth] must be at least 1 (got 0)"),
        (
            "[display]\nrefresh_hz = 165\nvrr_min_hz = 48\nvrr_max_hz = 144",
            "[display.vrr_min_hz] and vrr_max_hz (144) must contain refresh_hz (165) (got 48)",
        ),
        ("[display]\nvrr_min_hz = 48",
         "[display.vrr_max_hz] is needed too: a VRR range has two ends"),
        ("[display]\nrefresh_hz = 75\nvrr_min_hz = 48\nvrr_max_hz = 75\nlfc = true",
         "[display.lfc] needs vrr_max_hz (75) at least twice vrr_min_hz (48) to repeat frames "
         "within the range (got true)"),
        ("[display]\nlfc = false",
         "[display.lfc] applies only to a VRR range (vrr_min_hz and vrr_max_hz) (got false)"),
        ('[scheduler]\nconditioning = "smooth"',
         "[scheduler.conditioning] must be one of 'raw', 'snap', 'average' or 'godot' "
         "(got 'smooth')"),
    ],
)  # fmt: skip
def test_bad_display_settings_are_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, line: str
) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text + "\n", encoding="utf-8")
    assert main(["simulate", "--scenario", str(path)]) == 2
    assert capsys.readouterr().err == f"{path}: {line}\n"


def test_simulate_with_a_display_reports_the_judder(capsys: pytest.CaptureFixture[str]) -> None:
    scenario = str(SCENARIOS / "judder_144.toml")
    assert main(["simulate", "--scenario", scenario, "--seconds", "2", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out.splitlines()[-1])["summary"]
    assert summary["ledger_ok"] is True
    assert summary["holds"] in {("23232" * 4)[start : start + 12] for start in range(5)}
    assert 117 < summary["judder_pct"] < 120


def test_simulate_on_a_vrr_panel_counts_its_repeats_and_collisions(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["simulate", "--scenario", str(SCENARIOS / "vrr_lfc.toml"), "--seconds", "2"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-3].startswith("display VRR 48-144 Hz, LFC: judder 100.000 %")
    assert out[-1] == (
        "VRR panel, LFC on: repeats 79, collisions 1 "
        "(frames that came during a repeat's scan-out and were shown late)"
    )


def test_the_judder_command_prints_one_markdown_row_per_combination(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = ["--hz", "60", "--refresh", "144", "--conditioning", "raw,snap", "--seconds", "1"]
    assert main(["judder", *args]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("| tick Hz | refresh Hz | render cap | interpolation |")
    assert [line.split(" | ")[3:5] for line in lines[2:]] == [
        ["off", "raw"], ["off", "snap"], ["interpolate", "raw"], ["interpolate", "snap"],
    ]  # fmt: skip
    snapped = lines[-1].split(" | ")
    assert (snapped[5], snapped[6]) == ("0.0", "0.000")


def test_the_judder_command_refuses_a_bad_rate(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["judder", "--refresh", "0"]) == 2
    assert capsys.readouterr().err == "error: --refresh must be from 1 to 1000 Hz (got '0')\n"


def test_schedule_shows_the_conditioning_account_frame_by_frame(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["schedule", "--conditioning", "snap", "16.9", "16.4", "17", "25"]) == 0
    out = capsys.readouterr().out
    assert "counted ms  carry ms" in out
    assert "      1      16.900      1       0.000         0.000" in out
    assert "conditioning (exact ns): measured 75_300_000 = counted 75_300_000 + " \
        "conditioning carry 0\n" in out  # fmt: skip
    assert out.rstrip().endswith("balanced")


def test_the_judder_command_refuses_more_than_200_rows(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["judder", "--hz", ",".join(["60"] * 7), "--refresh", ",".join(["60"] * 8)]) == 2
    assert capsys.readouterr().err == ("error: the lists ask for 448 rows; at most 200 at a time\n")
