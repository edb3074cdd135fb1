"""`--frame-log`: a run's frames as PresentMon 1.x writes a capture, exact to the nanosecond.

The file is what PresentMon 1.x writes by default (its 15 columns, in its order), every time the
exact decimal of its whole ns, so `capture` reads it back to the same frame lengths and so, run
through the same scheduler, to the same plans, `==` on every field.
"""

from __future__ import annotations

import csv
import io
from fractions import Fraction
from pathlib import Path

import pytest

from game.capture.reading import open_capture
from game.cli import main
from game.clock.recorded import RecordedFrames
from game.display.model import Presented
from game.resources import CAPTURES, SCENARIOS
from game.workshop.files.frame_log import FRAME_LOG_COLUMNS, FrameLog, ms_text, seconds_text
from game.workshop.files.scenario import Scenario
from game.workshop.files.scenario_loading import load_scenario
from game.workshop.runs.runner import FrameReport
from game.workshop.runs.simulation import run_scenario

MS = 1_000_000
PRESENTMON_1X = (
    "Application,ProcessID,SwapChainAddress,Runtime,SyncInterval,PresentFlags,AllowsTearing,"
    "PresentMode,Dropped,TimeInSeconds,MsBetweenPresents,MsBetweenDisplayChange,MsInPresentAPI,"
    "MsUntilRenderComplete,MsUntilDisplayed"
)


def test_times_are_the_exact_decimals_of_their_whole_nanoseconds() -> None:
    assert ms_text(16_666_667) == "16.666667"
    assert ms_text(277 * MS) == "277.000000"
    assert ms_text(1) == "0.000001"
    assert seconds_text(2_276_666_666) == "2.276666666"
    with pytest.raises(ValueError, match="negative"):
        ms_text(-1)


def test_the_header_is_presentmon_1x_and_a_frame_without_a_display_says_none() -> None:
    out = io.StringIO()
    log = FrameLog(out)
    for length in (16_666_667, 16_666_666, 277 * MS):
        log.frame(length)
    log.finish()
    lines = out.getvalue().splitlines()
    assert ",".join(FRAME_LOG_COLUMNS) == lines[0] == PRESENTMON_1X
    assert lines[1:] == [
        "timestep-lab,0,0x0000000000000000,Other,0,0,0,Other,0,0.016666667,16.666667,"
        "0.000000,0.000000,0.000000,0.000000",
        "timestep-lab,0,0x0000000000000000,Other,0,0,0,Other,0,0.033333333,16.666666,"
        "0.000000,0.000000,0.000000,0.000000",
        "timestep-lab,0,0x0000000000000000,Other,0,0,0,Other,0,0.310333333,277.000000,"
        "0.000000,0.000000,0.000000,0.000000",
    ]


def test_a_display_models_presents_fill_the_display_columns_once_known() -> None:
    out = io.StringIO()
    presented: list[Presented] = []
    log = FrameLog(out)
    log.show_on(presented, vsync=True)
    log.frame(10 * MS)  # its picture is handed over when the next frame begins
    presented.append(Presented(Fraction(12 * MS), Fraction(15 * MS), Fraction(50 * MS, 3)))
    log.frame(10 * MS)
    presented.append(Presented(Fraction(22 * MS), Fraction(22 * MS), Fraction(100 * MS, 3)))
    log.frame(10 * MS)  # the run ends before its picture is handed over: display unknown
    log.finish()
    rows = list(csv.DictReader(io.StringIO(out.getvalue())))
    assert [row["SyncInterval"] for row in rows] == ["1", "1", "1"]
    assert [
        (row["MsBetweenDisplayChange"], row["MsInPresentAPI"], row["MsUntilRenderComplete"],
         row["MsUntilDisplayed"])
        for row in rows
    ] == [
        ("0.000000", "3.000000", "2.000000", "6.666667"),
        ("16.666667", "0.000000", "2.000000", "13.333333"),
        ("0.000000", "0.000000", "0.000000", "0.000000"),
    ]  # fmt: skip


def _plans_of(scenario: Scenario, source: RecordedFrames | None = None) -> list[FrameReport]:
    return list(run_scenario(scenario, source=source).frames)


@pytest.mark.parametrize("name", ["single_stall", "heavy_jitter", "vsync_60"])
def test_simulate_round_trips_through_the_frame_log_to_the_same_plans(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / f"{name}.csv"
    assert main(["simulate", "--scenario", name, "--seconds", "3", "--frame-log", str(log)]) == 0
    assert f"wrote {log}" in capsys.readouterr().out
    assert not log.with_name(log.name + ".part").exists()
    capture = open_capture(log)
    assert (capture.info.format, capture.info.layout) == ("timestep-lab", "1.x")
    lengths = [frame.elapsed_ns for frame in capture.frames()]
    scenario = load_scenario(SCENARIOS / f"{name}.toml")
    scenario = scenario.model_copy(update={"seconds": Fraction(3)})
    original = _plans_of(scenario)
    replayed = _plans_of(scenario, RecordedFrames(lengths))  # the source given: no display
    assert capture.info.frames == len(original) == len(replayed)
    assert [frame.plan for frame in replayed] == [frame.plan for frame in original]


def test_the_shipped_hitch_is_our_own_frame_log_of_a_stated_run(tmp_path: Path) -> None:
    made = tmp_path / "hitch.csv"
    command = "simulate --render-fps 60 --stall 2:260 --seconds 5 --tick-phase 1/2 --frame-log"
    assert main([*command.split(), str(made)]) == 0
    assert made.read_bytes() == (CAPTURES / "hitch.csv").read_bytes()
    lengths = [frame.elapsed_ns for frame in open_capture(CAPTURES / "hitch.csv").frames()]
    assert lengths[:3] == [25 * MS, 16_666_666, 16_666_667]  # half a step late: mid-tick
    assert (len(lengths), max(lengths), lengths.index(max(lengths))) == (283, 276_666_667, 120)


def test_a_frame_log_that_would_overwrite_an_input_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = tmp_path / "taps.txt"
    script.write_text("500 tap jump\n")
    code = main(["simulate", "--input-script", str(script), "--frame-log", str(script)])
    assert code == 2
    assert "--frame-log" in capsys.readouterr().err
    assert script.read_text() == "500 tap jump\n"
