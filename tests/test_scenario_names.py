"""Scenarios by name (`--scenario spiral`), the `scenarios` listing, and where the files are."""

import tomllib
from importlib import metadata
from pathlib import Path

import pytest

from game import resources
from game.cli import main, version_text
from game.workshop.files.scenario_names import find_scenario, known_scenarios

ROOT = Path(__file__).resolve().parents[1]
PACKAGED = ROOT / "configs" / "scenarios"
NAMES = sorted(path.stem for path in PACKAGED.glob("*.toml"))


def test_in_a_checkout_the_files_are_the_repositorys_own() -> None:
    assert (resources.ROOT, resources.INSTALLED) == (ROOT, False)
    assert resources.SCENARIOS == PACKAGED
    assert resources.LESSONS == ROOT / "configs" / "lessons"
    assert resources.DEFAULT_CONFIG == ROOT / "configs" / "default.toml"
    assert resources.FONTS == ROOT / "assets" / "fonts"
    assert resources.REFERENCES == ROOT / "docs" / "references.md"
    assert all(licence.path.is_file() for licence in resources.LICENCES)


def test_the_wheel_maps_exactly_what_the_module_says_is_shipped() -> None:
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    mapped = pyproject["tool"]["hatch"]["build"]["targets"]["wheel"]["force-include"]
    assert mapped == {name: f"game/{resources.PACKAGED}/{name}" for name in resources.SHIPPED}


def test_a_name_is_the_packaged_scenario_and_the_output_says_so(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert find_scenario(Path("spiral"), None) == PACKAGED / "spiral.toml"
    assert find_scenario(Path("spiral.toml"), None) == PACKAGED / "spiral.toml"
    assert capsys.readouterr().err.splitlines() == [
        f"--scenario spiral: the packaged scenario 'spiral' ({PACKAGED / 'spiral.toml'})",
        f"--scenario spiral.toml: the packaged scenario 'spiral' ({PACKAGED / 'spiral.toml'})",
    ]


def test_an_existing_file_of_that_name_wins_and_the_output_says_which(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("spiral.toml").write_text('title = "mine"\n', encoding="utf-8")
    assert find_scenario(Path("spiral.toml"), None) == Path("spiral.toml")
    assert capsys.readouterr().err == (
        "--scenario spiral.toml: the file spiral.toml, not the packaged scenario 'spiral' "
        f"({PACKAGED / 'spiral.toml'})\n"
    )


def test_a_path_is_used_as_it_is_and_says_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    assert find_scenario(PACKAGED / "vrr.toml", None) == PACKAGED / "vrr.toml"
    assert find_scenario(Path("no/such.toml"), None) == Path("no/such.toml")
    assert capsys.readouterr().err == ""


def test_your_own_folder_is_looked_up_first(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    own = tmp_path / "ours"
    own.mkdir()
    (own / "spiral.toml").write_text('title = "Our spiral"\n', encoding="utf-8")
    (own / "warmup.toml").write_text('title = "Warm-up"\nseconds = 1\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert find_scenario(Path("warmup"), own) == own / "warmup.toml"
    assert find_scenario(Path("spiral"), own) == own / "spiral.toml"
    assert find_scenario(Path("vrr"), own) == PACKAGED / "vrr.toml"
    assert list(known_scenarios(own)) == ["spiral", "warmup", *(n for n in NAMES if n != "spiral")]
    capsys.readouterr()
    assert main(["scenarios", "--scenario-dir", str(own)]) == 0
    lines = capsys.readouterr().out.splitlines()
    width = max(len(name) for name in NAMES)
    assert lines[:3] == [f"yours ({own}):", f"  {'spiral':<{width}}  Our spiral",
                         f"  {'warmup':<{width}}  Warm-up"]  # fmt: skip
    assert f"  {'spiral':<{width}}  The spiral of death  (hidden by yours)" in lines


def test_a_name_found_nowhere_is_one_line_listing_the_names_exit_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["simulate", "--scenario", "nosuch"]) == 2
    assert capsys.readouterr().err == (
        f"error: --scenario nosuch: no such file, nor a scenario of that name (packaged: "
        f"{', '.join(NAMES)})\n"
    )
    assert main(["compare", "--scenario", "spiral", "--scenario-dir", "nowhere"]) == 2
    assert capsys.readouterr().err == "error: --scenario-dir nowhere: no such folder\n"


def test_simulate_runs_a_packaged_scenario_by_name(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["simulate", "--scenario", "single_stall", "--seconds", "3"]) == 0
    printed = capsys.readouterr()
    assert printed.out.startswith("A single 200 ms stall")
    assert printed.err.startswith("--scenario single_stall: the packaged scenario")


def test_scenarios_lists_every_packaged_name_with_its_title(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["scenarios"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"packaged ({PACKAGED}):"
    listed = [line.split()[0] for line in lines[1 : 1 + len(NAMES)]]
    assert listed == NAMES
    width = max(len(name) for name in NAMES)
    assert f"  {'spiral':<{width}}  The spiral of death" in lines


def test_version_says_which_where_the_files_are_and_where_the_licences_are() -> None:
    lines = version_text().splitlines()
    assert lines[0].startswith(f"timestep-lab {metadata.version('timestep-lab')} (Python 3.")
    licenses = ROOT / "assets" / "licenses"
    assert lines[1:] == [
        f"files: {ROOT} (a checkout)",
        "licences (`--licences` prints them in full):",
        f"  the DejaVu fonts: {ROOT / 'assets' / 'fonts' / 'LICENSE-DejaVu.txt'}",
        f"  ffmpeg, from imageio-ffmpeg (GPL-3.0-or-later): {licenses / 'ffmpeg.txt'}",
        f"  the GPL, version 3, that ffmpeg is under: {licenses / 'GPL-3.0.txt'}",
        f"  imageio-ffmpeg (BSD-2-Clause): {licenses / 'imageio-ffmpeg-LICENSE.txt'}",
    ]


def test_licences_prints_each_in_full(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["--licences"])
    assert exited.value.code == 0
    printed = capsys.readouterr().out
    headings = [line for line in printed.splitlines() if line.startswith("==> ")]
    assert headings == [
        "==> the DejaVu fonts (LICENSE-DejaVu.txt)",
        "==> ffmpeg, from imageio-ffmpeg (GPL-3.0-or-later) (ffmpeg.txt)",
        "==> the GPL, version 3, that ffmpeg is under (GPL-3.0.txt)",
        "==> imageio-ffmpeg (BSD-2-Clause) (imageio-ffmpeg-LICENSE.txt)",
    ]
    assert "Bitstream Vera" in printed and "GNU GENERAL PUBLIC LICENSE" in printed
