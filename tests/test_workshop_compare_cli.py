"""`python -m game compare`: one scenario, several policies, one table and one figure."""

from pathlib import Path
from typing import Any

import pytest

from game.cli import main

SCENARIOS = Path(__file__).resolve().parents[1] / "configs" / "scenarios"
STALL = str(SCENARIOS / "single_stall.toml")


@pytest.mark.slow
def test_compare_prints_and_writes_the_table_and_draws_the_figure(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "compare"
    args = ["compare", "--scenario", STALL, "--policies", "drop,uncapped,backlog",
            "--seconds", "3", "--out", str(out)]  # fmt: skip
    assert main(args) == 0
    assert capsys.readouterr().out.splitlines() == [
        "A single 200 ms stall: 3 s under each policy",
        "policy    max frame ms  dropped ms  final lag ms  ticks  spiral",
        "drop           206.944     116.667       131.944    172      no",
        "uncapped       206.944       0.000        15.278    179      no",
        "backlog        206.944       0.000        15.278    179      no",
        f"wrote {out / 'compare.csv'}, {out / 'compare.png'}, {out / 'compare.svg'}",
    ]
    assert (out / "compare.csv").read_text().splitlines() == [
        "policy,max_frame_ms,dropped_ms,final_lag_ms,ticks,spiral",
        "drop,206.944,116.667,131.944,172,no",
        "uncapped,206.944,0.000,15.278,179,no",
        "backlog,206.944,0.000,15.278,179,no",
    ]
    png = (out / "compare.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 50_000
    assert "<svg" in (out / "compare.svg").read_text()


def test_the_spiral_scenario_spirals_only_without_a_cap(capsys: pytest.CaptureFixture[str]) -> None:
    spiral = str(SCENARIOS / "spiral.toml")
    assert main(["compare", "--scenario", spiral, "--policies", "uncapped,drop,clamp"]) == 0
    rows = capsys.readouterr().out.splitlines()[2:]
    assert [(row.split()[0], row.split()[-1]) for row in rows] == [
        ("uncapped", "yes"), ("drop", "no"), ("clamp", "no"),
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("policies", "line"),
    [
        ("drop,panic",
         "error: --policies: unknown policy 'panic' (known: uncapped, clamp, drop, reset, "
         "backlog, variable)"),
        ("drop,,clamp", "error: --policies must be names separated by commas (got 'drop,,clamp')"),
        ("drop,drop", "error: --policies names a policy twice (got 'drop,drop')"),
    ],
)  # fmt: skip
def test_bad_policies_are_refused(
    capsys: pytest.CaptureFixture[str], policies: str, line: str
) -> None:
    assert main(["compare", "--policies", policies]) == 2
    assert capsys.readouterr().err == line + "\n"


def test_a_scenario_that_switches_policy_by_itself_cannot_be_compared(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "switching.toml"
    path.write_text('[[changes]]\nat = 1.5\npolicy = "uncapped"\n')
    assert main(["compare", "--scenario", str(path)]) == 2
    assert capsys.readouterr().err == (
        "error: --scenario changes the policy at 1.5 s; compare runs each policy for the whole "
        "scenario, so give it one without policy changes\n"
    )


@pytest.mark.slow
def test_compare_holds_no_run_s_frames_however_long_the_runs(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Each policy's frames go to a bounded plotting series as they are made; the run keeps
    none (six policies of an hour cost what one does)."""
    import game.commands.compare as compare_command

    kept: list[int] = []
    real = compare_command.run_scenario  # type: ignore[attr-defined]

    def counting(*args: Any, **kwargs: Any) -> Any:
        result = real(*args, **kwargs)
        kept.append(len(result.frames))
        return result

    monkeypatch.setattr(compare_command, "run_scenario", counting)
    scenario = "configs/scenarios/single_stall.toml"
    code = main(["compare", "--scenario", scenario, "--policies", "drop,uncapped",
                 "--out", str(tmp_path)])  # fmt: skip
    assert code == 0
    assert kept == [0, 0]
    assert (tmp_path / "compare.png").stat().st_size > 0
