"""An in-memory `Capture` for the capture command's tests: frames from a list, no file."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from game.capture.frame import Capture, CapturedFrame, CaptureInfo


@dataclass(frozen=True)
class MemoryCapture:
    """A `Capture` whose frames are the given elapsed times (row k + 1 for frame k)."""

    elapsed_ns: Sequence[int]
    process: str = "game.exe (4712)"
    skipped: tuple[tuple[str, int], ...] = ()

    @property
    def info(self) -> CaptureInfo:
        skipped = dict(self.skipped)
        frames = len(self.elapsed_ns)
        return CaptureInfo(
            path="memory.csv", format="presentmon", layout="1.x", process=self.process,
            swapchain="0x1", column="presents", rows=frames + sum(skipped.values()),
            frames=frames, skipped=skipped, chosen_by_default=True,
        )  # fmt: skip

    def frames(self) -> Iterator[CapturedFrame]:
        time = 0
        for index, elapsed in enumerate(self.elapsed_ns):
            time += elapsed
            yield CapturedFrame(index + 2, time, elapsed, elapsed, True, None)


def as_capture(elapsed_ns: Sequence[int]) -> Capture:
    return MemoryCapture(tuple(elapsed_ns))
