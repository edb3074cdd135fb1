"""A capture in the played game: `--capture FILE`, and lesson 6 step 4's shipped `hitch.csv`.

The laptop is a `ManualClock` under the `SwitchedClock`, as in `test_app_lesson_time`: the frames
are the capture's lengths whatever the laptop does, the HUD names the capture, and a step that
plays a capture plays it only while it shows.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest

from game.app.lesson_guide import LessonGuide
from game.app.lesson_time import SwitchedClock
from game.app.loop import GameLoop
from game.app.loop_options import LoopOptions
from game.app.window import Window
from game.capture.reading import open_capture
from game.cli import main
from game.clock.captured import CapturedClock
from game.clock.manual import ManualClock
from game.config.loading import load_config
from game.errors import BadInput
from game.from_config import session_from
from game.resources import CAPTURES
from game.workshop.files.lessons import load_lessons
from tests.capture_shapes import write_five_processes
from tests.helpers import shipped_lessons

MS = 1_000_000
HITCH = [frame.elapsed_ns for frame in open_capture(CAPTURES / "hitch.csv").frames()]


@pytest.fixture(scope="module", autouse=True)
def _pygame() -> Iterator[None]:
    pygame.init()
    yield
    pygame.quit()


def _played(laptop: ManualClock, clock: ManualClock | CapturedClock) -> GameLoop:
    """The played game (`lesson_clock=True`, the `SwitchedClock`) on `clock`."""
    window = Window(640, 360, fullscreen=False, vsync=False)
    options = LoopOptions(print_hash=False, lesson_clock=True, pause_on_focus_loss=False)
    pygame.event.clear()
    session = session_from(load_config(None, ()))
    return GameLoop(session, window, clock, options, lessons=LessonGuide(shipped_lessons()))


def _frames(loop: GameLoop, count: int) -> list[int]:
    lengths = []
    for _ in range(count):
        assert loop.run_frame()
        lengths.append(loop.last_plans[0].elapsed_ns)
    return lengths


def test_lesson_6_step_4_plays_the_shipped_hitch_while_it_shows() -> None:
    step = load_lessons()[5].steps[3]
    assert (step.settings.capture, step.settings.clock) == ("hitch.csv", "real")
    laptop = ManualClock()
    loop = _played(laptop, laptop)
    loop.lessons.start(6, loop.session)
    for _ in range(3):
        loop.lessons.next_step(loop.session)
    loop.warm_up()
    lengths = _frames(loop, 125)
    assert lengths[1:] == HITCH[:124]  # from the frame boundary after the step began
    assert max(lengths) == 276_666_667  # the hitch, 2 s in
    totals = [lane.books.summary() for lane in loop.session.lanes]
    assert [total["dropped_ns"] for total in totals] == [200 * MS, 0]  # drop, then backlog
    readout = loop.readout()
    assert (readout.clock, readout.capture.split(" \N{MIDDLE DOT} ")[:2]) == (
        "capture",
        ["hitch.csv", "125/283"],
    )
    loop.lessons.next_step(loop.session)  # the summary step: back on the lesson clock
    _frames(loop, 2)
    assert isinstance(loop.clock, SwitchedClock) and loop.clock.on_lesson_clock
    assert loop.readout().capture == ""


def test_capture_plays_where_the_wall_would_and_d_switches_to_the_lesson_clock() -> None:
    laptop = ManualClock()
    frames = (10 * MS, 30 * MS)
    captured = CapturedClock(laptop, lambda: frames, name="two.csv", count=2)
    loop = _played(laptop, captured)
    loop.warm_up()
    assert _frames(loop, 4) == [10 * MS, 30 * MS, 10 * MS, 30 * MS]
    assert loop.readout().capture == "two.csv \N{MIDDLE DOT} 1/2 \N{MIDDLE DOT} round 3"
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_d, mod=0, unicode=""))
    _frames(loop, 2)
    assert loop.readout().clock.startswith("lesson")
    assert loop.readout().capture == ""


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["--process", "game.exe"], "error: --process needs --capture FILE"),
        (["--capture", "missing.csv"], "missing.csv: file not found"),
    ],
)
def test_a_bad_capture_is_one_line_before_any_window(
    args: list[str], line: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["play", *args]) == 2
    assert capsys.readouterr().err.splitlines() == [line]


def test_a_step_naming_a_capture_not_shipped_is_refused(tmp_path: Path) -> None:
    (tmp_path / "bad.toml").write_text(
        'number = 1\ntitle = "x"\n[[steps]]\ncaption = "c"\nkeys = "k"\n'
        '[steps.settings]\ncapture = "../hitch.csv"\n'
    )
    with pytest.raises(BadInput) as refused:
        load_lessons(tmp_path)
    (line,) = refused.value.lines
    assert "[steps[1].settings.capture] must be a capture shipped in assets/captures/ " in line
    assert "'hitch.csv'" in line


@pytest.mark.slow
def test_the_game_on_a_capture_ends_where_the_headless_run_did_and_logs_the_capture_again(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`play --capture` (the wall clock, the dummy driver: 4.7 s of real time) against the run
    the capture was logged from: the same final tick and state hash, and a byte-identical log."""
    log = tmp_path / "live.csv"
    hitch = str(CAPTURES / "hitch.csv")
    assert main(["play", "--capture", hitch, "--frames", "283", "--frame-log", str(log)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("playing ") and out[0].endswith(
        "283 frames of timestep-lab (0), "
        "swap chain 0x0000000000000000, by "
        "presents interval; 0 rows skipped"
    )
    assert out[1] == (
        "final tick 287 state 36588136beae2b253680ca3424a217610578e9516f9ef6de02655586737679cb"
    )
    assert log.read_bytes() == (CAPTURES / "hitch.csv").read_bytes()


def test_a_clip_of_the_step_films_the_captures_frames_and_logs_them(tmp_path: Path) -> None:
    log, out = tmp_path / "clip.csv", tmp_path / "step4.gif"
    args = [
        "clip",
        "--lesson",
        "6",
        "--step",
        "4",
        "--seconds",
        "1",
        "--fps",
        "5",
        "--size",
        "320x240",
    ]
    assert main([*args, "--out", str(out), "--frame-log", str(log)]) == 0
    logged = [frame.elapsed_ns for frame in open_capture(log).frames()]
    assert logged == HITCH[: len(logged)]  # the clip's frames are the capture's, from the first
    assert len(logged) == 46  # to the last picture, at 0.8 s (five pictures at 5 fps)


def test_pause_holds_the_capture_and_the_paused_frames_run_on_the_wall() -> None:
    laptop = ManualClock()
    frames = (10 * MS, 30 * MS, 20 * MS)
    loop = _played(laptop, CapturedClock(laptop, lambda: frames, name="three.csv", count=3))
    loop.warm_up()
    assert _frames(loop, 1) == [10 * MS]
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_p, mod=0, unicode=""))
    assert _frames(loop, 1) == [30 * MS]  # P is read as the frame begins; it ends on the capture
    assert loop.readout().capture == "three.csv \N{MIDDLE DOT} 3/3 \N{MIDDLE DOT} held"
    laptop.move_on(7 * MS)
    assert _frames(loop, 1) == [7 * MS]  # paused: the wall's frame, the capture held at frame 3
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_p, mod=0, unicode=""))
    laptop.move_on(5 * MS)
    assert _frames(loop, 3) == [5 * MS, 20 * MS, 10 * MS]  # on again from frame 3, then round 2


def test_the_game_plays_a_capture_through_a_fifo_chosen_as_capture_chooses(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--capture <(zcat ...)` is a pipe: read once, with every row, the process chosen as
    `capture` chooses it (not the compositor) and the others listed. It plays two frames of
    7 ms on the wall clock: real time, a few ms of it, which nothing here measures."""
    data = write_five_processes(tmp_path / "five.csv").read_bytes()
    fifo = tmp_path / "five_fifo.csv"
    os.mkfifo(fifo)

    def write() -> None:
        with fifo.open("wb") as end:
            end.write(data)

    writer = threading.Thread(target=write)
    writer.start()
    assert main(["play", "--capture", str(fifo), "--frames", "2"]) == 0
    writer.join()
    out = capsys.readouterr().out.splitlines()
    assert out[0] == (
        f"playing {fifo} (presentmon 1.x): 5 frames of GRB.exe (13456), swap chain "
        "0x0000000000000002, by presents interval; 19 rows skipped"
    )
    assert out[1].startswith("  other processes: DWM.exe (1520) swap chain 0x0000000000000001 9 ")
