"""Clips: filming 10 s of the game at 1280x720 and 30 fps, into a GIF and into an MP4.

Issue 9's target: a 10 s 1280x720 clip at 30 fps is made (filmed and encoded) in under 30 s on
this 2-core machine. Beside it, in the same run and on the same 300 pictures: the filming alone
(the game's frames at 144 fps, drawn and captured, nothing encoded), and a PNG file per picture
(Pillow), the obvious way to keep frames without a video encoder.
"""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import resource
import tempfile
import time
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

from PIL import Image

from bench.harness import Section, verdict
from game.app.filming import Take, film
from game.config.loading import load_config
from game.workshop.clips.files import ClipSink, ClipSpec, NoPictures, Pixels, open_sink

SIZE = (1280, 720)
FPS = 30
TARGET_S = 30.0


class _PngPerPicture:
    """One PNG file per picture (Pillow's defaults), the way a screenshot loop would keep them."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.count = 0

    def add(self, picture: bytes, pixels: Pixels, repeat: int = 1) -> None:
        rgb = Image.frombytes("RGB", SIZE, picture, "raw", pixels)
        for _ in range(repeat):
            rgb.save(self.folder / f"{self.count:05d}.png")
            self.count += 1

    def close(self) -> None:
        pass

    def discard(self) -> None:
        pass


def _cpu_s() -> float:
    """CPU seconds of this process and of its finished children (ffmpeg)."""
    own, children = (
        resource.getrusage(resource.RUSAGE_SELF),
        resource.getrusage(resource.RUSAGE_CHILDREN),
    )
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _seconds(make: Callable[[], None]) -> tuple[float, float]:
    """(wall, CPU) seconds of one call."""
    start, cpu = time.perf_counter_ns(), _cpu_s()
    make()
    return (time.perf_counter_ns() - start) / 1e9, _cpu_s() - cpu


def _film_each_way(
    folder: Path, seconds: int
) -> tuple[dict[str, tuple[float, float]], dict[str, int]]:
    """Film the default game once per way of keeping the pictures, into `folder`: each way's
    (wall, CPU) seconds, and the size of what it wrote."""
    config = load_config(None, [f"render.width={SIZE[0]}", f"render.height={SIZE[1]}"])

    def spec(name: str) -> ClipSpec:
        return ClipSpec(folder / name, SIZE[0], SIZE[1], FPS, Fraction(seconds))

    def with_sink(made: Callable[[ClipSpec], ClipSink], name: str) -> Callable[[], None]:
        def make() -> None:
            sink = made(spec(name))
            film(Take(config), spec(name), sink)
            sink.close()

        return make

    (folder / "png").mkdir()
    timings = {
        "filming only (nothing encoded)": _seconds(with_sink(lambda s: NoPictures(), "none")),
        "a PNG per picture (Pillow)": _seconds(
            with_sink(lambda s: _PngPerPicture(folder / "png"), "png")
        ),
        "GIF (Pillow)": _seconds(with_sink(lambda s: open_sink(s, s.out), "clip.gif")),
        "MP4 (imageio-ffmpeg, H.264)": _seconds(
            with_sink(lambda s: open_sink(s, s.out), "clip.mp4")
        ),
    }
    sizes = {
        "a PNG per picture (Pillow)": sum(p.stat().st_size for p in (folder / "png").iterdir()),
        "GIF (Pillow)": (folder / "clip.gif").stat().st_size,
        "MP4 (imageio-ffmpeg, H.264)": (folder / "clip.mp4").stat().st_size,
    }
    return timings, sizes


def run(quick: bool) -> list[Section]:
    seconds = 2 if quick else 10
    folder = Path(tempfile.mkdtemp(prefix="bench-clip-"))
    timings, sizes = _film_each_way(folder, seconds)
    base = timings["filming only (nothing encoded)"][0]
    section = Section(
        title="Clips: 10 s of the game at 1280x720, 30 fps",
        intro=(
            f"`python -m game clip`'s work for a {seconds} s clip of the default game (144 fps, "
            f"{seconds * FPS} pictures at {SIZE[0]}x{SIZE[1]}), wall time of one run each, "
            f"filming included. Target: under {TARGET_S:.0f} s for a 10 s clip."
        ),
        columns=[
            "how the pictures are kept",
            "wall time",
            "vs filming only",
            "CPU time",
            "file size",
            "target",
        ],
    )
    clips = ("GIF (Pillow)", "MP4 (imageio-ffmpeg, H.264)")
    for name, (taken, cpu) in timings.items():
        size = sizes.get(name)
        target = verdict(taken < TARGET_S * seconds / 10) if name in clips else ""
        section.add(
            name,
            f"{taken:.1f} s",
            f"x{taken / base:.2f}",
            f"{cpu:.1f} s",
            f"{size / 1e6:.1f} MB" if size is not None else "",
            target,
        )
    section.notes.append(
        f"Filming is the game's own frames: {seconds * 144:,} loop frames drawn (144 fps) for "
        f"{seconds * FPS} pictures; CPU time adds ffmpeg's. "
        "The MP4 is encoded by ffmpeg in its own process while the game renders, so on 2 cores "
        "it costs little beyond filming; the GIF quantizes each picture to its own palette and "
        "writes the file at the end. The machine is shared: read the CPU time (this process and "
        "ffmpeg) beside the wall time when the load is high."
    )
    for path in sorted(folder.rglob("*"), reverse=True):
        path.rmdir() if path.is_dir() else path.unlink()
    folder.rmdir()
    return [section]
