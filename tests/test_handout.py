"""`python -m game handout`: a static page, checked in a real headless Chromium. The page is the
one the installed game writes (`tests/installed.py`), which is also the install tests' check
that `handout` runs from the wheel.

The browser is Debian's `chromium` package (`.ci/run` installs it), never a downloaded build. It
opens the page from `file://` with networking features off, and must log nothing to the console;
the page's own media check must find every picture and clip; a screenshot must show something.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from PIL import Image, ImageStat

from game.cli import main
from game.commands import handout
from game.resources import REFERENCES
from game.workshop.files.lessons import load_lessons
from game.workshop.handout.page import StepClip, page, reference_sections, trimmed
from tests.commands import HANG_S
from tests.installed import Installed

CHROMIUM = Path("/usr/bin/chromium")
FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip


def test_the_references_page_is_read_section_by_section() -> None:
    sections = {s.anchor: s for s in reference_sections(REFERENCES.read_text(encoding="utf-8"))}
    step_cap = sections["step-cap"]
    assert step_cap.claims.startswith("After a long frame, a catch-up cap must be followed")
    assert step_cap.commands[0] == "schedule --hz 50 --max-steps 4 --initial-remainder-ms 15 200 5"
    assert "schedule --hz 50 --max-steps 4 7 13 15 25" in step_cap.commands  # comment dropped
    assert "lab" in sections["projectile-spring"].commands
    assert all("--plot" not in c for s in sections.values() for c in s.commands)


def test_long_output_keeps_its_head_and_its_ledger_line() -> None:
    output = "\n".join(f"row {n}" for n in range(40))
    kept = ["row 0", "row 1", "row 2", "    ...", "row 38", "row 39"]
    assert trimmed(output, 6).splitlines() == kept


def test_the_clips_are_filmed_at_the_width_the_page_shows_them() -> None:
    # Filmed any wider, the browser would shrink every picture: pixels paid for, never shown.
    step = StepClip(1, "t", 1, "caption", "keys", "clips/lesson-1-step-1.mp4", "clip ...")
    assert '<video src="clips/lesson-1-step-1.mp4"' in page([step], [], [], [], "handout")
    assert 'preload="auto" width="960"></video>' in page([step], [], [], [], "handout")
    assert (handout.FULL.size, handout.FULL.fps) == ("960x540", 30)


def test_a_comparison_writes_the_figure_the_page_shows_and_no_svg(tmp_path: Path) -> None:
    # The SVG would cost a second layout of the figure, 2 s of CPU, for a file nobody sees.
    shown = handout.comparison(tmp_path, "single_stall", "uncapped,clamp")
    assert shown.figure == "figures/compare-single_stall/compare.png"
    folder = tmp_path / "figures" / "compare-single_stall"
    assert sorted(path.name for path in folder.iterdir()) == ["compare.csv", "compare.png"]


def test_an_unusable_out_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "file").write_text("")
    assert main(["handout", "--out", str(tmp_path / "file"), "--quick"]) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert "exists and is not a directory" in line


def chromium(page: Path, *flags: str, profile: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(CHROMIUM), *FLAGS, f"--user-data-dir={profile}", *flags, page.as_uri()],
        capture_output=True, text=True, timeout=HANG_S, check=True,
    )  # fmt: skip


def media_check(page: Path, profile: Path) -> tuple[dict[str, str], list[str]]:
    """The page's media-check attributes after loading, and what it logged to the console."""
    done = chromium(
        page, "--enable-logging=stderr", "--v=0", "--virtual-time-budget=15000", "--dump-dom",
        profile=profile,
    )  # fmt: skip
    tag = re.search(r'<p id="media-check"([^>]*)>', done.stdout)
    assert tag is not None, done.stdout[:500]
    attributes = dict(re.findall(r'data-([a-z]+)="([^"]*)"', tag.group(1)))
    console = [line for line in done.stderr.splitlines() if ":CONSOLE" in line]
    return attributes, console


@pytest.mark.slow
@pytest.mark.chromium
@pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed")
def test_the_installed_handout_loads_in_headless_chromium_with_every_clip_and_figure(
    installed: Installed, tmp_path: Path
) -> None:
    out = tmp_path / "handout"  # written by the installed game, from a folder of its own
    done = installed.run("timestep-lab", "handout", "--quick", "--out", str(out))
    assert done.returncode == 0, done.stderr[-2000:]
    index = out / "index.html"
    text = index.read_text(encoding="utf-8")
    sources = re.findall(r'<(?:img|video) src="([^"]+)"', text)
    clips = [s for s in sources if s.endswith(".mp4")]
    assert len(clips) == len(load_lessons())  # --quick: one step a lesson
    assert any(s.endswith("compare.png") for s in sources)
    assert "http://" not in text and "https://" not in text  # nothing from the network
    assert "0.326992" in text and ": balanced" in text  # lab's and schedule's real output
    # Each clip is its step's demo, with the figures its caption claims measured from that run.
    assert "clip --lesson 7 --step 1 --demo --size 640x360 --fps 10" in text
    assert "<td>lost_pct</td><td>79 +- 5 %</td><td>79.167 %</td><td>ok</td>" in text
    assert text.count("<table class=claims>") == len(clips) and 'class="differs"' not in text
    # It writes what the page shows (and the comparison's CSV): no SVG is drawn for nobody.
    written = [path.relative_to(out).as_posix() for path in out.rglob("*") if path.is_file()]
    csv = "figures/compare-single_stall/compare.csv"
    assert sorted(written) == sorted([*sources, "index.html", csv])

    checked, console = media_check(index, tmp_path / "profile")
    assert console == []
    assert checked == {"checked": str(len(sources)), "broken": "0"}

    shot = tmp_path / "page.png"
    chromium(
        index, f"--screenshot={shot}", "--window-size=1280,1600", "--hide-scrollbars",
        "--virtual-time-budget=5000", profile=tmp_path / "profile",
    )  # fmt: skip
    with Image.open(shot) as picture:
        spread = ImageStat.Stat(picture.convert("L")).stddev[0]
        assert picture.size == (1280, 1600)
    assert spread > 20  # text, clips and figures; a blank page would be 0

    # And the check is real: a clip that went missing is reported on the page.
    (out / "clips" / "lesson-3-step-1.mp4").unlink()
    checked, _ = media_check(index, tmp_path / "profile")
    assert checked["broken"] == "1"
