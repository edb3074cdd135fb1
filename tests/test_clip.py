"""`python -m game clip`: the real game, filmed on a clock only the game moves.

A clip is a picture every 1/fps s of game time; a picture instant sees whatever the window held
when that instant passed. Refusals come first, in one line, before any rendering.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import imageio.v2 as imageio
import pygame
import pytest
from PIL import Image, ImageSequence

from game.app.filming import FilmingClock, Take, film, own_pixels, picture_of
from game.cli import main
from game.config.loading import load_config
from game.workshop.clips.cues import ScenarioCues
from game.workshop.clips.files import ClipSpec, Pixels, gif_delays_ms, open_sink
from game.workshop.files.scenario import Scenario
from game.workshop.files.scenario_loading import load_scenario
from game.workshop.runs.simulation import run_scenario

MS = 1_000_000
ROOT = Path(__file__).resolve().parents[1]
STALL = ROOT / "configs" / "scenarios" / "single_stall.toml"


def clip(*args: str) -> int:
    return main(["clip", *args])


# -- refusals: one line, exit 2, before anything is rendered --------------------------------------


L1 = ["--lesson", "1", "--seconds", "1"]


@pytest.mark.parametrize(
    ("flags", "says"),
    [
        ([*L1, "--size", "0x720"], "--size must be from 320x240 to 3840x2160 (got '0x720')"),
        ([*L1, "--size", "abc"], "--size must be WIDTHxHEIGHT, like 1280x720 (got 'abc')"),
        ([*L1, "--fps", "0"], "--fps must be from 1 to 50 for a .gif (got 0)"),
        ([*L1, "--fps", "60"], "--fps must be from 1 to 50 for a .gif (got 60)"),
        (["--lesson", "1", "--seconds", "0"], "--seconds must be above 0 and at most 600"),
        (["--lesson", "1", "--seconds", "x"], "--seconds must be a number like 10 or 2.5"),
        (["--lesson", "99", "--seconds", "1"], "there is no lesson 99 (the lessons are 1, 2"),
        ([*L1, "--step", "9"], "--step 9: lesson 1 has steps 1 to 3"),
        (["--step", "2", "--seconds", "1"], "--step needs --lesson"),
        (["--seconds", "1"], "say what to film: --lesson N, --scenario NAME|FILE or --script FILE"),
        ([*L1, "--scenario", str(STALL)], "film a lesson or a scenario, not both"),
        ([*L1, "--demo"], "--demo lasts as long as the step's demo: leave out --seconds"),
        (["--scenario", str(STALL), "--demo"], "--demo needs --lesson, and plays the step's own"),
        (["--lesson", "1"], "say how long: --seconds S (or --demo, with --lesson)"),
    ],
)  # fmt: skip
def test_bad_flags_are_one_line_and_exit_2(
    flags: list[str], says: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert clip(*flags, "--out", str(tmp_path / "a.gif")) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith(f"error: {says}")
    assert list(tmp_path.iterdir()) == []  # nothing written


def test_unknown_extension_unwritable_output_and_missing_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a_file = tmp_path / "file"
    a_file.write_text("")
    (tmp_path / "folder.gif").mkdir()
    cases = [
        (["--lesson", "1", "--out", str(tmp_path / "a.avi")], "--out must end in .gif or .mp4"),
        (["--lesson", "1", "--out", str(tmp_path / "folder.gif")], "is a directory"),
        (["--lesson", "1", "--out", str(a_file / "a.gif")], "cannot write it: not a directory"),
        (["--lesson", "1", "--out", str(tmp_path / "a.mp4"), "--size", "321x240"], "even"),
        (["--script", str(tmp_path / "none.txt"), "--out", str(tmp_path / "a.gif")], "not found"),
        (["--scenario", str(tmp_path / "none.toml"), "--out", str(tmp_path / "a.gif")], "none"),
    ]
    for flags, says in cases:
        assert clip(*flags, "--seconds", "1") == 2
        lines = capsys.readouterr().err.splitlines()
        assert len(lines) == 1 and says in lines[0], lines
    assert sorted(path.name for path in tmp_path.iterdir()) == ["file", "folder.gif"]


# -- timing ---------------------------------------------------------------------------------------


def test_gif_delays_keep_the_clip_as_long_as_it_should_be() -> None:
    delays = gif_delays_ms(30, 30)
    assert delays[:3] == [30, 40, 30]
    assert sum(delays) == 1000  # 33 ms each would play one second in 0.99 s (3 hundredths: 0.9)


def test_a_picture_instant_sees_what_was_on_the_window_while_time_passed() -> None:
    spec = ClipSpec(Path("x.gif"), 320, 240, fps=10, seconds=Fraction(1))
    shots: list[tuple[int, int]] = []
    clock = FilmingClock(spec, lambda count: shots.append((clock.now_ns(), count)))
    clock.move_on(5 * MS)  # before the start: nothing is filmed
    clock.start()
    clock.sleep_ns(150 * MS)  # instants 0 and 100 ms
    clock.busy_wait_ns(50 * MS)  # 150 -> 200: none (200 belongs to what comes next)
    clock.block_ns(2_000 * MS)  # a stall: instants 200 ... 900, the same picture 8 times
    assert shots == [(5 * MS, 2), (205 * MS, 8)]
    assert clock.done and clock.taken == 10


# -- the game, filmed -----------------------------------------------------------------------------


def small(tmp_path: Path, name: str, seconds: str = "0.5", fps: int = 10) -> ClipSpec:
    return ClipSpec(tmp_path / name, 320, 240, fps, Fraction(seconds))


def test_a_clip_is_the_same_picture_for_picture_on_every_run(tmp_path: Path) -> None:
    script = tmp_path / "keys.txt"
    script.write_text("100 space\n200 shift+s\n")
    for name in ("one.gif", "two.gif"):
        assert clip("--script", str(script), "--seconds", "1", "--size", "320x240", "--fps",
                    "10", "--out", str(tmp_path / name)) == 0  # fmt: skip
    one, two = (tmp_path / "one.gif").read_bytes(), (tmp_path / "two.gif").read_bytes()
    assert one == two
    with Image.open(tmp_path / "one.gif") as gif:
        assert gif.size == (320, 240)
        durations = [frame.info["duration"] for frame in ImageSequence.Iterator(gif)]
    assert sum(durations) == 1000  # a frozen stretch (the 2 s stall) is one long GIF frame
    assert len(durations) < 10


def test_an_mp4_holds_every_picture(tmp_path: Path) -> None:
    assert clip("--lesson", "2", "--seconds", "0.5", "--size", "320x240", "--fps", "20",
                "--out", str(tmp_path / "l2.mp4")) == 0  # fmt: skip
    reader = imageio.get_reader(tmp_path / "l2.mp4")
    pictures = list(reader.iter_data())
    reader.close()
    assert len(pictures) == 10 and pictures[0].shape == (240, 320, 3)
    assert [path.name for path in tmp_path.iterdir()] == ["l2.mp4"]  # no temporary left


def as_layouts(rgb: bytes) -> dict[Pixels, bytes]:
    """One picture's bytes in each layout, the fourth byte of a pixel different in each."""
    pixels = [rgb[i : i + 3] for i in range(0, len(rgb), 3)]
    return {
        "RGB": rgb,
        "RGBX": b"".join(p + b"\xff" for p in pixels),
        "BGRX": b"".join(p[::-1] + b"\x00" for p in pixels),
    }


@pytest.mark.parametrize("kind", [".mp4", ".gif"])
def test_a_clip_is_the_same_file_whichever_layout_its_pictures_come_in(
    tmp_path: Path, kind: str
) -> None:
    # The window's own bytes (BGRX here) go to the sink as they are, where pygame would pack
    # them as RGB or RGBX at ten times the cost: ffmpeg and Pillow must make the very same file.
    spec = ClipSpec(tmp_path / f"c{kind}", 64, 48, 10, Fraction(1))
    pictures = [bytes((7 * n + i) % 256 for i in range(64 * 48 * 3)) for n in range(3)]
    files = []
    for pixels in ("RGB", "RGBX", "BGRX"):
        sink = open_sink(spec, tmp_path / f"{pixels}{kind}")
        for picture in pictures:
            sink.add(as_layouts(picture)[pixels], pixels, 2)
        sink.close()
        files.append((tmp_path / f"{pixels}{kind}").read_bytes())
    assert files[0] == files[1] == files[2]


def test_an_mp4_takes_its_pictures_in_one_layout(tmp_path: Path) -> None:
    spec = ClipSpec(tmp_path / "c.mp4", 64, 48, 10, Fraction(1))
    sink = open_sink(spec, spec.out)
    sink.add(bytes(64 * 48 * 4), "BGRX")
    with pytest.raises(ValueError, match="a clip's pictures are all BGRX \\(got one in RGBX\\)"):
        sink.add(bytes(64 * 48 * 4), "RGBX")
    sink.discard()


def test_the_window_hands_over_its_own_bytes_when_a_sink_takes_their_layout() -> None:
    window = pygame.Surface((4, 2), depth=32, masks=(0xFF0000, 0xFF00, 0xFF, 0))
    window.fill((10, 20, 30))
    assert own_pixels(window) == "BGRX"
    assert picture_of(window) == (bytes((30, 20, 10, 0)) * 8, "BGRX")
    swapped = pygame.Surface((4, 2), depth=32, masks=(0xFF, 0xFF00, 0xFF0000, 0))
    swapped.fill((10, 20, 30))
    assert picture_of(swapped) == (bytes((10, 20, 30, 0)) * 8, "RGBX")
    packed = pygame.Surface((4, 2), depth=24)  # 3 bytes a pixel: converted
    packed.fill((10, 20, 30))
    assert own_pixels(packed) is None
    assert picture_of(packed) == (bytes((10, 20, 30, 255)) * 8, "RGBX")


def test_a_scenario_clip_stalls_where_the_scenario_says_and_the_policy_drops(
    tmp_path: Path,
) -> None:
    """single_stall: 200 ms at wall second 2, at 60 Hz and 144 fps, M = 5. The real loop and
    pacer, cued by the scenario, see one frame of 200 ms + 1/144 s, run 5 ticks of it and drop
    the other whole ticks, 7 or 8 by the sub-step remainder it carried in: `simulate` drops 7;
    the real loop's first frame lasts 0 ms (it measures from the warm-up), so its remainder at
    second 2 is one frame period behind."""
    scenario = load_scenario(STALL)
    spec = small(tmp_path, "stall.gif", seconds="3")
    cues = ScenarioCues(scenario, STALL)
    sink = open_sink(spec, spec.out)
    filmed = film(Take(cues.config(320, 240), cues=cues), spec, sink)
    sink.discard()
    simulated = run_scenario(scenario.model_copy(update={"seconds": Fraction(3)}))
    assert filmed.taken == 30
    lane = filmed.session.lanes[0]
    frames = lane.history.latest(10_000).frame_ms
    assert abs(frames.max() - (200 + 1000 / 144)) < 1e-5  # whole ns: 206.944444 or ..445
    step = Fraction(50_000_000, 3)
    assert simulated.books["dropped_ns"] == round(7 * step)
    assert lane.books.dropped_ns == 8 * step


def test_scenario_cues_hand_out_changes_stalls_and_inputs_when_due() -> None:
    scenario = Scenario.model_validate(
        {
            "stalls": [{"at": 1, "ms": 200}, {"at": 1, "ms": 50}],
            "changes": [{"at": 2, "policy": "uncapped", "render_fps": 60}],
            "inputs": [{"sim_second": 0.5, "action": "fire"}],
            "clock": {"render_cost_ms": 2},
        }
    )
    cues = ScenarioCues(scenario)
    assert cues.stall_due_ns(999 * MS) == 0
    assert cues.stall_due_ns(1_000 * MS) == 250 * MS
    assert cues.changes_due(1_999 * MS) == []
    (change,) = cues.changes_due(2_000 * MS)
    assert (change.policies, change.fps_cap) == (("uncapped",), 60)
    assert cues.inputs_due(29) == []
    assert len(cues.inputs_due(30)) == 1  # sim second 0.5 at 60 Hz: tick 30
    assert cues.frame_work_ns() == 2 * MS


def test_a_render_rate_the_pacer_cannot_hold_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    odd = tmp_path / "ntsc.toml"
    odd.write_text("[clock]\nrender_fps = 59.94\n")
    assert clip("--scenario", str(odd), "--seconds", "1", "--out", str(tmp_path / "a.gif")) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert "render_fps 59.94 is not a whole number" in line


def test_the_lesson_step_is_the_one_asked_for(tmp_path: Path) -> None:
    spec = small(tmp_path, "l4.gif", seconds="0.2")
    sink = open_sink(spec, spec.out)
    config = load_config(None, ["render.width=320", "render.height=240"])
    filmed = film(Take(config, lesson=(4, 2)), spec, sink)
    sink.discard()
    assert filmed.session.controls.alpha_mode.value == "correct"  # step 2: the correct alpha
    assert filmed.session.controls.policies == ("backlog",)


def test_a_demo_clip_lasts_as_long_as_the_steps_demo(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "stall.gif"
    flags = ["--lesson", "4", "--step", "1", "--demo", "--size", "320x240", "--fps", "10"]
    assert clip(*flags, "--out", str(out)) == 0
    said = capsys.readouterr().out
    assert (
        said
        == f"wrote {out}: 31 pictures, 320x240, the demo of lesson 4 step 1 (3.1 s at 10 fps)\n"
    )
    with Image.open(out) as gif:
        assert len(list(ImageSequence.Iterator(gif))) >= 2  # unchanged pictures are merged
