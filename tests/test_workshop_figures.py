"""Figures for slides: a frame's values sit at its end, lag is a band with its mean, every
figure is a PNG and an SVG, in the theme asked for.

The worked example: 50 fps frames and 50 Hz ticks, so every 20 ms frame runs exactly one tick,
and a 100 ms stall at 1 s, so the frame from 1.00 s to 1.12 s owes 6 ticks; `drop` runs M = 5
and drops one (20 ms).
"""

from pathlib import Path

import numpy as np
import pytest

from game.cli import main
from game.workshop.figures.frame_series import FrameSeries, slice_seconds
from game.workshop.files.scenario_loading import Flag, load_scenario
from game.workshop.runs.simulation import run_scenario

SCENARIOS = Path(__file__).resolve().parents[1] / "configs" / "scenarios"


@pytest.fixture(scope="module")
def stalled() -> FrameSeries:
    scenario = load_scenario(
        None,
        [
            Flag("--hz", ("scheduler", "hz"), "50"),
            Flag("--render-fps", ("clock", "render_fps"), "50"),
            Flag("--seconds", ("seconds",), "2"),
            Flag("--stall", ("stalls",), [{"at": "1", "ms": "100"}]),
        ],
    )
    return FrameSeries(run_scenario(scenario))


def test_the_stalled_frame_is_one_frame_at_its_end(stalled: FrameSeries) -> None:
    at = int(np.argmax(stalled.frame_ms))
    assert stalled.end_s[at - 1 : at + 2].tolist() == [1.0, 1.12, 1.14]
    assert stalled.frame_ms[at - 1 : at + 2].tolist() == [20.0, 120.0, 20.0]
    assert stalled.steps[at - 1 : at + 2].tolist() == [1, 5, 1]
    assert stalled.dropped_ms[at - 1 : at + 2].tolist() == [0.0, 20.0, 0.0]


def test_ticks_are_summed_where_their_frame_ended(stalled: FrameSeries) -> None:
    # Nothing ends between 1.0 and 1.1 s; then the stalled frame's 5 and four frames of 1.
    ticks = stalled.per_slice(stalled.steps, 0.1)
    assert ticks.tolist() == [5.0] * 10 + [0.0, 9.0] + [5.0] * 8


def test_lag_is_the_saw_tooth_summarised_per_slice(stalled: FrameSeries) -> None:
    band = stalled.lag_band(0.1)
    # Before the stall: 0 -> 20 ms in every frame, averaging 10.
    assert band.low_ms[:10].tolist() == [0.0] * 10
    assert band.high_ms[:10].tolist() == [20.0] * 10
    assert band.mean_ms[:10] == pytest.approx([10.0] * 10)
    # 1.0-1.1 s: the stalled frame climbs from 0 to 100 ms, averaging 50.
    # 1.1-1.2 s: on to 120, down to the dropped 20 at 1.12 s, then 20 -> 40 saw-teeth:
    # (110 x 20 + 30 x 80) / 100 = 46.
    assert (band.low_ms[10], band.high_ms[10]) == (0.0, 100.0)
    assert (band.low_ms[11], band.high_ms[11]) == (20.0, 120.0)
    assert band.mean_ms[10:13] == pytest.approx([50.0, 46.0, 30.0])


def test_slices_are_100_ms_unless_the_run_is_long() -> None:
    assert [slice_seconds(s) for s in (6, 24, 25, 40, 600, 3600)] == [0.1, 0.1, 0.2, 0.2, 5, 15]


def test_simulate_draws_png_and_svg_in_the_dark_theme(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "dark"
    args = ["simulate", "--scenario", str(SCENARIOS / "single_stall.toml"), "--seconds", "3",
            "--theme", "dark", "--out", str(out)]  # fmt: skip
    assert main(args) == 0
    written = capsys.readouterr().out.splitlines()[-1]
    assert written.endswith(f"{out / 'timeline.png'}, {out / 'timeline.svg'}")
    assert (out / "timeline.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    svg = (out / "timeline.svg").read_text()
    assert svg.startswith("<?xml") and "fill: #101418" in svg  # the dark page


def test_an_unknown_theme_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compare", "--theme", "sepia"]) == 2
    assert capsys.readouterr().err == (
        "error: argument --theme: invalid choice: 'sepia' (choose from 'light', 'dark')\n"
    )
