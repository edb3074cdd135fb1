"""Issue 12, bounded: a headless run streams its frames (memory O(1) in frames), and the spiral
verdict is met by a slow spiral (frames growing for minutes) but not by a policy that levels off."""

import csv
import json
from pathlib import Path
from typing import Any

import pytest

from bench.bench_memory import peak_rss_mb
from game.cli import main
from game.workshop.figures.frame_series import FrameSeries, SeriesBuilder
from game.workshop.files.scenario_loading import Flag, load_scenario
from game.workshop.runs.growth import GrowthWatch
from game.workshop.runs.simulation import run_scenario

ROOT = Path(__file__).resolve().parents[1]
FRAME_LIMIT_RSS_MB = 150
"""Peak RSS of `simulate --seconds 400 --render-fps 250 --out DIR` (100,000 frames, the frame
limit; figures drawn): at 150,000 frames about 120 MB, matplotlib included; before streaming the
frames alone took ~100 MB more."""


def summary_of(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    assert main(["simulate", "--json", *args]) == 0
    last: dict[str, Any] = json.loads(capsys.readouterr().out.splitlines()[-1])["summary"]
    return last


@pytest.mark.slow
def test_a_slow_spiral_is_a_spiral(capsys: pytest.CaptureFixture[str]) -> None:
    summary = summary_of(
        capsys, "--policy", "uncapped", "--step-cost-ms", "16.7", "--seconds", "600"
    )
    assert (summary["max_frame_ns"], summary["spiral"], summary["runaway"]) == (
        1_202_400_000, True, False
    )  # fmt: skip


def test_two_minutes_of_the_slow_spiral_already_show_it(capsys: pytest.CaptureFixture[str]) -> None:
    summary = summary_of(
        capsys, "--policy", "uncapped", "--step-cost-ms", "16.7", "--seconds", "120"
    )
    assert (summary["spiral"], summary["runaway"]) == (True, False)


def test_a_fast_spiral_is_a_spiral_stopped_by_the_runaway_guard(
    capsys: pytest.CaptureFixture[str],
) -> None:
    summary = summary_of(capsys, "--policy", "uncapped", "--step-cost-ms", "20", "--seconds", "60")
    assert (summary["max_frame_ns"], summary["spiral"], summary["runaway"]) == (
        9_200_000_000, True, True
    )  # fmt: skip


@pytest.mark.slow
@pytest.mark.parametrize("policy", ["drop", "backlog", "reset"])
def test_a_capped_policy_that_levels_off_is_no_spiral(
    capsys: pytest.CaptureFixture[str], policy: str
) -> None:
    summary = summary_of(capsys, "--policy", policy, "--step-cost-ms", "20", "--seconds", "600")
    assert (summary["max_frame_ns"], summary["spiral"]) == (100_000_000, False)


def test_growth_needs_three_rising_quarters_and_a_last_frame_four_times_the_first() -> None:
    def watch(lengths: list[int], flat_ticks: bool = False) -> GrowthWatch:
        growth, end = GrowthWatch(), 0
        for length in lengths:
            end += length
            growth.add(end, length, 5 if flat_ticks else length)  # uncapped: ticks follow
        return growth

    rising = watch([10] * 100 + [20] * 50 + [30] * 33 + [40] * 25 + [41])
    assert [frames for _, frames in rising.quarters()] == [100, 50, 33, 26]
    assert rising.growing()
    assert not watch([10] * 100 + [20] * 50 + [30] * 33 + [30] * 33).growing()  # levelled off
    assert not watch([10] * 100 + [11] * 91 + [12] * 83 + [13] * 77).growing()  # < 4x at the end
    assert not watch([]).growing()
    flat = watch([10] * 100 + [20] * 50 + [30] * 33 + [40] * 25 + [41], flat_ticks=True)
    assert not flat.growing()  # longer frames over the same ticks: a slow machine, no spiral


def test_the_series_builder_keeps_at_most_its_points_and_the_totals() -> None:
    scenario = load_scenario(None, [Flag("--seconds", ("seconds",), "10")])
    builder = SeriesBuilder(max_points=100)
    result = run_scenario(scenario, sink=builder, keep=0)
    assert result.frames == ()
    series = builder.series()
    exact = FrameSeries(run_scenario(scenario))
    assert (exact.count, series.count) == (1440, 90)  # merged to 16 frames a point
    assert series.steps.sum() == exact.steps.sum() == 600
    assert series.span_ms.sum() == pytest.approx(exact.frame_ms.sum())
    assert series.end_ns[-1] == exact.end_ns[-1] == 10_000_000_000


def test_keep_holds_only_the_last_frames() -> None:
    scenario = load_scenario(None, [Flag("--seconds", ("seconds",), "1")])
    seen: list[int] = []
    result = run_scenario(scenario, sink=lambda frame: seen.append(frame.number), keep=3)
    assert seen == list(range(1, 145))
    assert [frame.number for frame in result.frames] == [142, 143, 144]


@pytest.mark.slow
def test_frames_csv_is_streamed_one_row_per_frame(tmp_path: Path) -> None:
    assert main(["simulate", "--seconds", "2", "--render-fps", "30", "--out", str(tmp_path)]) == 0
    with (tmp_path / "frames.csv").open(encoding="utf-8") as file:
        rows = list(csv.DictReader(file))
    assert [row["frame"] for row in rows] == [str(n) for n in range(1, 61)]
    assert rows[-1]["wall_ns"] == "2000000000"
    assert sorted(path.name for path in tmp_path.iterdir()) == [
        "frames.csv", "summary.json", "timeline.png", "timeline.svg"
    ]  # fmt: skip


@pytest.mark.slow
def test_the_frame_limit_at_250_fps_stays_under_the_memory_bound(tmp_path: Path) -> None:
    assert peak_rss_mb(["--seconds", "400", "--render-fps", "250", "--out", str(tmp_path)])[0] < (
        FRAME_LIMIT_RSS_MB
    )
    with (tmp_path / "frames.csv").open(encoding="utf-8") as file:
        assert sum(1 for _ in file) == 100_001
