"""`python -m game lab`: the projectile-and-spring article's figures, by the world's own code.

The article and its figures: docs/references.md#projectile-spring.
"""

import json
from pathlib import Path

import pytest

from game.cli import main
from game.commands.lab import catch_up
from game.world.experiments import projectile_error, spring_energy_drift


def test_semi_implicit_projectile_errors_are_the_articles_in_float32() -> None:
    errors = [round(projectile_error("semi-implicit", hz), 6) for hz in (30, 60, 120)]
    assert errors == [0.326992, 0.163485, 0.081733]


def test_in_float64_both_eulers_miss_by_exactly_g_h_t_over_2() -> None:
    for name in ("explicit", "semi-implicit"):
        for hz in (30, 60, 120):
            assert projectile_error(name, hz, "float64") == pytest.approx(
                9.81 * (1 / hz) * 2 / 2, abs=1e-12
            )


def test_verlet_flies_on_the_parabola() -> None:
    assert projectile_error("verlet", 30, "float64") < 1e-12


@pytest.mark.slow
def test_spring_energy_drifts_are_the_articles_in_float64() -> None:
    assert f"{spring_energy_drift('explicit'):.6g}" == "8.44386e+11"
    assert f"{spring_energy_drift('semi-implicit'):.6g}" == "0.0154113"


def test_explicit_drift_is_one_plus_k_h2_over_m_to_the_9900th_minus_one() -> None:
    # 9900 ticks separate the first sample from the last; each multiplies E by 1 + k h^2 / m.
    expected = (1 + 10 / 60**2) ** 9900 - 1
    assert spring_energy_drift("explicit") == pytest.approx(expected, rel=1e-9)


def test_a_200_ms_stall_at_60_hz_with_a_cap_of_5_runs_5_drops_7_keeps_0() -> None:
    stall = catch_up()
    assert (stall.executed, stall.dropped_ticks, stall.remainder_ns) == (5, 7, 0)


def run_lab(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["lab", *args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.slow
def test_json_is_exactly_the_contract(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_lab(capsys, "--json")
    assert code == 0
    record = json.loads(out)
    assert list(record) == ["projectile_error_m", "spring_energy_drift", "catchup"]
    integrators = ["explicit", "semi-implicit", "verlet"]
    assert list(record["projectile_error_m"]) == integrators
    assert all(
        list(rates) == ["30", "60", "120"] for rates in record["projectile_error_m"].values()
    )
    assert list(record["spring_energy_drift"]) == integrators
    assert record["catchup"] == {"executed": 5, "dropped_ticks": 7, "remainder_ns": 0}


def test_json_figures_are_bit_for_bit_the_articles(capsys: pytest.CaptureFixture[str]) -> None:
    """The article printed these doubles; the world's float32/float64 arithmetic gives the same."""
    record = json.loads(run_lab(capsys, "--json")[1])
    assert record["projectile_error_m"]["semi-implicit"] == {
        "30": 0.3269920349121094,
        "60": 0.1634845733642578,
        "120": 0.08173274993896484,
    }
    assert record["spring_energy_drift"]["explicit"] == 844386477935.688
    assert record["spring_energy_drift"]["semi-implicit"] == 0.015411278197765443


@pytest.mark.slow
def test_the_table_shows_the_articles_figures_and_says_which_precision(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run_lab(capsys)
    assert code == 0
    lines = [" ".join(line.split()) for line in out.splitlines()]
    assert "float32 world (as the article)" in lines
    assert "semi-implicit 0.326992 0.163485 0.081733" in lines
    assert "semi-implicit 0.327000 0.163500 0.081750" in lines  # the float64 rows
    assert "explicit 8.44386e+11 8.44385e+11" in lines
    assert "semi-implicit 0.0154113 0.0154157" in lines
    assert "5 ticks run, 7 whole ticks dropped, remainder 0 ns" in lines


@pytest.mark.slow
def test_plot_writes_both_figures(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    target = tmp_path / "figures" / "lab"
    code, _, err = run_lab(capsys, "--json", "--plot", str(target))
    assert code == 0
    for name in ("projectile.png", "spring_energy.png"):
        path = target / name
        assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert path.stat().st_size > 20_000
        assert f"wrote {path}" in err
        assert f"wrote {path.with_suffix('.svg')}" in err
        assert "<svg" in path.with_suffix(".svg").read_text()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bogus"], "error: unrecognized arguments: --bogus"),
        (["--plot"], "error: argument --plot: expected one argument"),
        (["--plot", " "], "error: argument --plot: needs a file or folder name (got ' ')"),
        (["--json", "extra"], "error: unrecognized arguments: extra"),
    ],
)
def test_bad_arguments_exit_2_with_one_line(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    code, out, err = run_lab(capsys, *args)
    assert (code, out, err) == (2, "", message + "\n")


def test_a_plot_directory_that_cannot_be_made_exits_2_with_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    code, out, err = run_lab(capsys, "--plot", str(blocker / "figures"))
    assert (code, out) == (2, "")
    assert err.count("\n") == 1
    assert err == f"error: --plot {blocker / 'figures'}: cannot create it: not a directory\n"
