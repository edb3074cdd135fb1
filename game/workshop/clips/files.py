"""Clip files: what `python -m game clip` writes, checked before any frame is rendered.

A clip is a fixed number of pictures, one every 1/fps s of game time, written as an animated GIF
(Pillow) or an H.264 MP4 (the ffmpeg that the `imageio-ffmpeg` wheel ships). The pictures
arrive as raw bytes, laid out as the window holds them (`Pixels`); this module never sees pygame,
so it is tested without a display.

Everything that can be refused is refused up front, in one line (a bad size, an unknown
extension, a folder that cannot be written, a path that is a device or one of the run's inputs):
a minute of rendering must not end in "cannot write". The sinks write where they are told: the
clip command hands them the temporary name of `written_whole`, renamed at the end, so an
interrupted run never leaves half a clip under the real name.
"""

from __future__ import annotations

import contextlib
import itertools
import math
import re
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any, Literal, Protocol

from PIL import Image

from game.config.exact import decimal_text
from game.errors import BadInput
from game.limits import SMALLEST_WINDOW
from game.workshop.files.output import Named, Outputs
from timestep_lab import NS_PER_SECOND

FORMATS = (".gif", ".mp4")
MIN_SIZE = SMALLEST_WINDOW
MAX_SIZE = (3840, 2160)
"""The window sizes a clip may have: the game's smallest window up to 4K."""
MAX_FPS = {".gif": 50, ".mp4": 120}
"""A GIF counts its delays in hundredths of a second, and browsers slow any delay under 2 of them
down to 10: 50 fps is the fastest a GIF really plays."""
MAX_SECONDS = 600
MAX_PICTURES = 1_200
"""Pictures one clip may have: each is a frame of the game run and drawn (about 10 ms of CPU
here at the smallest size), so a clip within this and `MAX_MEGAPIXELS` takes under a minute."""
MAX_MEGAPIXELS = 400
"""Pictures x width x height, in millions: drawing and encoding cost per pixel (about 75 ms a
1280x720 picture here, 400 ms at 4K): 14 s at 30 fps of 1280x720, 48 pictures of 4K."""
Pixels = Literal["RGB", "RGBX", "BGRX"]
"""How a picture's bytes are laid out: 3 a pixel, or 4 (the fourth ignored) in either order.
A window's surface is usually BGRX in memory, and a sink that takes those bytes as they are
saves pygame a conversion (1.5 ms a 960x540 picture, against 0.13 ms for the copy)."""
_SIZE = re.compile(r"(\d{1,5})x(\d{1,5})")


def parse_size(text: str) -> tuple[int, int]:
    """`1280x720` -> (1280, 720), within `MIN_SIZE` and `MAX_SIZE`."""
    match = _SIZE.fullmatch(text.strip())
    if match is None:
        raise BadInput.error(f"--size must be WIDTHxHEIGHT, like 1280x720 (got {text!r})")
    width, height = int(match.group(1)), int(match.group(2))
    (low_w, low_h), (high_w, high_h) = MIN_SIZE, MAX_SIZE
    if not (low_w <= width <= high_w and low_h <= height <= high_h):
        raise BadInput.error(
            f"--size must be from {low_w}x{low_h} to {high_w}x{high_h} (got {text!r})"
        )
    return width, height


@dataclass(frozen=True, slots=True)
class ClipSpec:
    """What to film: where, how big, how many pictures a second, for how long."""

    out: Path
    width: int
    height: int
    fps: int
    seconds: Fraction

    @property
    def kind(self) -> str:
        return self.out.suffix.lower()

    @property
    def frame_count(self) -> int:
        """Pictures in the clip: one at the start and every 1/fps s after, up to `seconds`."""
        return max(1, math.floor(self.seconds * self.fps))

    def instant_ns(self, index: int) -> int:
        """When picture `index` is taken, in whole ns of game time after the clip's start."""
        return index * NS_PER_SECOND // self.fps


def clip_spec(
    out: Path, size: str, fps: int, seconds: str, inputs: Iterable[Named] = ()
) -> ClipSpec:
    """The clip asked for on the command line, every value checked (`BadInput`, one line), and
    `out` checked as an output of a run that reads `inputs` (`Outputs.file`)."""
    kind = out.suffix.lower()
    if kind not in FORMATS:
        raise BadInput.error(f"--out must end in .gif or .mp4 (got {str(out)!r})")
    width, height = parse_size(size)
    if kind == ".mp4" and (width % 2 or height % 2):
        raise BadInput.error(
            f"--size must be even for an MP4 (H.264 halves the colour; got {size})"
        )
    if not 1 <= fps <= MAX_FPS[kind]:
        raise BadInput.error(f"--fps must be from 1 to {MAX_FPS[kind]} for a {kind} (got {fps})")
    try:
        length = Fraction(seconds.strip())
    except ValueError:
        raise BadInput.error(
            f"--seconds must be a number like 10 or 2.5 (got {seconds!r})"
        ) from None
    if not 0 < length <= MAX_SECONDS:
        raise BadInput.error(f"--seconds must be above 0 and at most {MAX_SECONDS} (got {seconds})")
    spec = ClipSpec(out, width, height, fps, length)
    _refuse_too_much_work(spec)
    Outputs(inputs).file("--out", out)
    return spec


def _refuse_too_much_work(spec: ClipSpec) -> None:
    pictures = spec.frame_count
    what = f"--seconds {decimal_text(spec.seconds)} at {spec.fps} fps is {pictures:,} pictures"
    if pictures > MAX_PICTURES:
        raise BadInput.error(f"{what}, more than {MAX_PICTURES:,} (the limit)")
    megapixels = math.ceil(pictures * spec.width * spec.height / Fraction(1_000_000))
    if megapixels > MAX_MEGAPIXELS:
        raise BadInput.error(
            f"{what} of {spec.width}x{spec.height}, {megapixels:,.0f} megapixels, more than "
            f"{MAX_MEGAPIXELS} (the limit): fewer --seconds or --fps, or a smaller --size"
        )


def gif_delays_ms(count: int, fps: int) -> list[int]:
    """Each picture's delay, in whole hundredths of a second (as a GIF stores them), chosen so
    that picture i starts at round(i x 100 / fps): at 30 fps the delays go 30, 40, 30 ms..., and a
    10 s clip lasts 10 s, where a delay of 33 ms for every picture (3 hundredths) would play it
    in 9."""
    starts = [round(Fraction(100 * index, fps)) for index in range(count + 1)]
    return [10 * (later - earlier) for earlier, later in itertools.pairwise(starts)]


class ClipSink(Protocol):
    """Where the pictures go, in order; `repeat` says for how many instants it stayed on screen."""

    def add(self, picture: bytes, pixels: Pixels, repeat: int = 1) -> None:
        """Take a picture laid out as `pixels` (every picture of a clip is laid out the same)."""
        ...

    def close(self) -> None:
        """Finish the file (its caller renames it to the clip's name)."""
        ...

    def discard(self) -> None:
        """Give up: let go of the pictures and of the encoder (its caller removes the file)."""
        ...


class NoPictures:
    """A clip sink that keeps nothing: for a run whose pictures nobody looks at (the claims
    check), and for timing the filming alone (the benchmarks)."""

    def add(self, picture: bytes, pixels: Pixels, repeat: int = 1) -> None:
        pass

    def close(self) -> None:
        pass

    def discard(self) -> None:
        pass


class GifSink:
    """Pillow's GIF writer. Each picture gets its own 255-colour palette (fast octree, no
    dithering: flat HUD colours stay flat), and Pillow stores only the rectangle that changed,
    merging a picture that did not change into the previous one's delay."""

    def __init__(self, spec: ClipSpec, path: Path) -> None:
        self._spec = spec
        self._path = path
        self._pictures: list[Image.Image] = []
        self._repeats: list[int] = []

    def add(self, picture: bytes, pixels: Pixels, repeat: int = 1) -> None:
        size = (self._spec.width, self._spec.height)
        rgb = Image.frombytes("RGB", size, picture, "raw", pixels)  # Pillow drops the X
        self._pictures.append(
            rgb.quantize(255, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
        )
        self._repeats.append(repeat)

    def close(self) -> None:
        pictures = self._pictures
        delays = gif_delays_ms(sum(self._repeats), self._spec.fps)
        durations, start = [], 0
        for repeat in self._repeats:  # a picture shown for n instants lasts their n delays
            durations.append(sum(delays[start : start + repeat]))
            start += repeat
        pictures[0].save(
            self._path,
            format="GIF",
            save_all=True,
            append_images=pictures[1:],
            duration=durations,
            loop=0,
            disposal=1,
        )

    def discard(self) -> None:
        self._pictures.clear()


ENCODER_PRESET = "veryfast"
"""x264's speed preset. A clip is flat HUD colours and a few moving bodies: `veryfast` encodes a
lesson's 3 s clip with half the CPU of the default `medium`, into a file about as small
(BENCHMARKS.md, "Clips"); `ultrafast` saves little more and triples the file."""
ENCODER_TUNING = "subme=1:rc-lookahead=5"
"""Two of `veryfast`'s settings made cheaper: the coarsest sub-pixel motion search (a few
bodies move; the HUD does not) and a 5-picture look-ahead for the rate control (the pictures
change little): the handout's 38 clips in 18% less CPU, the same 5.4 MB (BENCHMARKS.md,
"Limits")."""


FFMPEG_PIXELS: dict[Pixels, str] = {"RGB": "rgb24", "RGBX": "rgb0", "BGRX": "bgr0"}
"""ffmpeg's name for each layout ("0": a byte that is ignored)."""


class Mp4Sink:
    """H.264 in an MP4, piped to ffmpeg picture by picture (imageio-ffmpeg's `write_frames`):
    memory stays flat and ffmpeg encodes on the other core while the game renders. ffmpeg is
    started by the first picture, which says how the bytes are laid out; it turns any layout
    of the same picture into the very same video."""

    def __init__(self, spec: ClipSpec, path: Path) -> None:
        self._spec = spec
        self._path = path
        self._pixels: Pixels | None = None
        self._encoder: Any = None  # imageio-ffmpeg's generator, sent one picture at a time

    def add(self, picture: bytes, pixels: Pixels, repeat: int = 1) -> None:
        if self._encoder is None:
            self._start(pixels)
        elif pixels != self._pixels:
            raise ValueError(f"a clip's pictures are all {self._pixels} (got one in {pixels})")
        for _ in range(repeat):
            self._encoder.send(picture)

    def _start(self, pixels: Pixels) -> None:
        import imageio_ffmpeg  # type: ignore[import-untyped]

        # quality=None: x264's own default (crf 23), which the clips have always had
        self._encoder = imageio_ffmpeg.write_frames(
            str(self._path),
            (self._spec.width, self._spec.height),
            pix_fmt_in=FFMPEG_PIXELS[pixels],
            pix_fmt_out="yuv420p",
            fps=self._spec.fps,
            codec="libx264",
            quality=None,
            macro_block_size=1,
            ffmpeg_log_level="error",
            output_params=[
                "-movflags",
                "+faststart",
                "-preset",
                ENCODER_PRESET,
                "-x264-params",
                ENCODER_TUNING,
            ],
        )
        self._encoder.send(None)  # ffmpeg starts here
        self._pixels = pixels

    def close(self) -> None:
        if self._encoder is not None:
            self._encoder.close()  # waits for ffmpeg to finish the file
            self._encoder = None

    def discard(self) -> None:
        """Kill ffmpeg (not wait for it to encode what it has: a stopped clip is thrown away,
        and a stopped worker has seconds to clean up); `written_whole` removes the file."""
        encoder, self._encoder = self._encoder, None
        if encoder is not None:  # what imageio-ffmpeg does on Ctrl+C: kill ffmpeg
            with contextlib.suppress(_Discarded):
                encoder.throw(_Discarded())
            with contextlib.suppress(Exception):
                encoder.close()


class _Discarded(BaseException):
    """Thrown into imageio-ffmpeg's writer, which then kills ffmpeg at once."""


def open_sink(spec: ClipSpec, path: Path) -> ClipSink:
    """The writer for the clip's format, writing to `path` (a temporary name: `written_whole`)."""
    return GifSink(spec, path) if spec.kind == ".gif" else Mp4Sink(spec, path)
