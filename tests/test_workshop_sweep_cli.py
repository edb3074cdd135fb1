"""`python -m game sweep`: a grid of headless runs in parallel, a CSV, a map per policy.

The tiny sweep: `spiral_map.toml` (60 Hz, 144 fps, render cost 2 ms) for 2 s, step cost 0 or
20 ms, M = 1 or 5, under `drop`. At 0 ms every frame is the 6.944 ms budget and the 120 ticks of
2 s all run. At 20 ms a frame lasts 2 + M x 20 ms (22 or 102 ms) and simulates at most M x 16.667
ms, so `drop` loses the difference every frame: the theory (c* = 16.667 - 2 / M ms) says it falls
behind, and it does.
"""

from pathlib import Path

import pytest

from game.cli import main
from game.workshop.files.scenario_loading import Flag
from game.workshop.sweep.grid import SweepRecipe, cells, parse_vary
from game.workshop.sweep.report import runs
from game.workshop.sweep.running import run_all

SCENARIOS = Path(__file__).resolve().parents[1] / "configs" / "scenarios"
MAP = str(SCENARIOS / "spiral_map.toml")
TINY = ["sweep", "--scenario", MAP, "--seconds", "2", "--policies", "drop",
        "--vary", "load.step_cost_ms=0:20:20", "--vary", "scheduler.max_steps=1,5"]  # fmt: skip
CSV = [
    "load.step_cost_ms,scheduler.max_steps,policy,spiral,keeps_up,theory_keeps_up,frontier_ms,"
    "dropped_pct,max_frame_ms,mean_lag_ms,final_lag_ms,frames,ticks,runaway",
    "0,1,drop,no,yes,yes,14.667,0.000,6.944,12.037,0.000,288,120,no",
    "0,5,drop,no,yes,yes,16.267,0.000,6.944,12.037,0.000,288,120,no",
    "20,1,drop,no,no,no,14.667,23.583,22.000,247.313,478.833,92,90,no",
    "20,5,drop,no,no,no,16.267,14.859,102.000,160.951,290.167,26,97,no",
]


@pytest.mark.slow
def test_a_tiny_sweep_writes_the_csv_and_a_map(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "map"
    assert main([*TINY, "--workers", "2", "--out", str(out)]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "Spiral map: 4 runs of 2 s, 2 load.step_cost_ms x 2 scheduler.max_steps",
        "policy  runs  kept up  fell behind  spirals  theory agrees  on frontier",
        "drop       4        2            2        0            4/4            0",
        f"wrote {out / 'sweep.csv'}, {out / 'sweep_drop.png'}, {out / 'sweep_drop.svg'}",
    ]
    assert (out / "sweep.csv").read_text().splitlines() == CSV
    assert (out / "sweep_drop.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "<svg" in (out / "sweep_drop.svg").read_text()


def test_one_worker_or_two_the_runs_are_the_same() -> None:
    axes = [parse_vary("load.step_cost_ms=0:20:20"), parse_vary("scheduler.max_steps=1,5")]
    recipe = SweepRecipe.read(Path(MAP), [Flag("--seconds", ("seconds",), "2")], axes)
    grid = cells(recipe, ["drop", "uncapped"])
    assert run_all(recipe, grid, 1) == run_all(recipe, grid, 2)


def test_uncapped_falls_behind_where_a_tick_costs_more_than_it_simulates() -> None:
    # c* = 16.667 ms without a cap. 16 ms: 3 ticks in 50 ms frames, kept up. 17 ms: frames grow
    # 2% a frame, too slowly for the spiral light in 2 s. 20 ms: they grow 20% a frame.
    flags = [Flag("--seconds", ("seconds",), "2")]
    recipe = SweepRecipe.read(Path(MAP), flags, [parse_vary("load.step_cost_ms=16,17,20")])
    grid = cells(recipe, ["uncapped"])
    done = runs(grid, run_all(recipe, grid, 1))
    assert [(run.measures.spiral, run.measures.keeps_up, run.theory_keeps_up) for run in done] == [
        (False, True, True),
        (False, False, False),
        (True, False, False),
    ]


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["--vary", "load.step_cos_ms=0:4:1"],
         "error: --vary load.step_cos_ms: unknown setting 'step_cos_ms', did you mean "
         "step_cost_ms?"),
        (["--vary", "physics.gravity=1,2"],
         "error: --vary physics.gravity: unknown setting 'physics' (known: scheduler, load, "
         "world, input, clock, display, network, seconds)"),
        (["--vary", "load.step_cost_ms=5:1:1"],
         "error: --vary load.step_cost_ms=5:1:1: the range is empty: B (1) is below A"),
        (["--vary", "load.step_cost_ms=0:4:0"],
         "error: --vary load.step_cost_ms=0:4:0: STEP must be more than 0"),
        (["--vary", "load.step_cost_ms=a,b"],
         "error: --vary load.step_cost_ms=a,b: each value must be a non-negative decimal number "
         "like 16.667 (got 'a')"),
        (["--vary", "scheduler.max_steps=0,1"],
         "error: --vary scheduler.max_steps must be at least 1 (got 0)"),
        (["--vary", "scheduler.max_steps=1.5"],
         "error: --vary scheduler.max_steps must be a whole number (got 1.5)"),
        (["--vary", "load.step_cost_ms"],
         "error: --vary must be KEY=A:B:STEP or KEY=V1,V2,..., like load.step_cost_ms=0:40:1 "
         "(got 'load.step_cost_ms')"),
        (["--vary", "load.step_cost_ms=1,2", "--step-cost-ms", "3"],
         "error: --vary load.step_cost_ms: --step-cost-ms sets it too; give one"),
        (["--vary", "load.step_cost_ms=1", "--vary", "load.step_cost_ms=2"],
         "error: --vary load.step_cost_ms is given twice"),
        (["--vary", "seconds=1", "--vary", "scheduler.hz=30", "--vary", "scheduler.max_steps=1",
          "--vary", "load.step_cost_ms=1", "--vary", "clock.render_fps=60"],
         "error: --vary is given 5 times; at most 4 settings vary at once"),
        (["--vary", "load.step_cost_ms=1", "--workers", "0"],
         "error: --workers must be at least 1 (got 0)"),
        (["--vary", "load.step_cost_ms=1", "--policies", "drop,panic"],
         "error: --policies: unknown policy 'panic' (known: uncapped, clamp, drop, reset, "
         "backlog, variable)"),
        ([], "error: sweep needs --vary KEY=A:B:STEP or KEY=V1,V2,... (one to 4)"),
    ],
)  # fmt: skip
def test_bad_input_is_one_line_and_runs_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], line: str
) -> None:
    out = tmp_path / "never"
    assert main(["sweep", "--scenario", MAP, "--out", str(out), *args]) == 2
    assert capsys.readouterr().err == line + "\n"
    assert not out.exists()


def test_a_scenario_that_turns_the_varied_knob_itself_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spiral = str(SCENARIOS / "spiral.toml")
    args = ["sweep", "--scenario", spiral, "--vary", "load.step_cost_ms=0:40:1",
            "--out", str(tmp_path)]  # fmt: skip
    assert main(args) == 2
    assert capsys.readouterr().err == (
        "error: --vary load.step_cost_ms: the scenario changes it at 4 s, so every run would end "
        "on the same value; give a scenario without that change\n"
    )


def test_an_output_that_cannot_be_written_is_refused_before_any_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    assert main([*TINY, "--out", str(blocker)]) == 2
    assert capsys.readouterr().err == f"error: --out {blocker}: exists and is not a directory\n"
    taken = tmp_path / "taken"
    (taken / "sweep.csv").mkdir(parents=True)
    assert main([*TINY, "--out", str(taken)]) == 2
    assert capsys.readouterr().err == (
        f"error: --out {taken / 'sweep.csv'}: cannot write it: is a directory\n"
    )
    assert main([*TINY[:-4], "--vary", "scheduler.max_steps=1"]) == 2
    assert capsys.readouterr().err == "error: sweep needs --out DIR for sweep.csv and the maps\n"
