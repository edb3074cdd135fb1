"""Captures compressed with gzip (issue 33): every reader reads them as it reads the plain file,
told by the first two bytes, and the size limits count the decompressed bytes."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

import game.capture.capframex
import game.capture.source
from game.capture.reading import frame_columns, open_capture
from game.errors import BadInput
from tests.capture_files import presents, write_capframex, write_mangohud, write_presentmon_1x

FRAMES_MS = ["16.6667", "7.123456", "33.4", "120.25", "6.9"]


def gzipped(path: Path) -> Path:
    """`path`'s bytes compressed beside it, as `NAME.gz`."""
    packed = path.with_name(path.name + ".gz")
    packed.write_bytes(gzip.compress(path.read_bytes()))
    return packed


def _read(path: Path) -> tuple[object, list[int]]:
    capture = open_capture(path)
    info = capture.info
    kept = (info.format, info.layout, info.process, info.rows, info.frames)
    return kept, frame_columns(capture).elapsed_ns.tolist()


@pytest.mark.parametrize("kind", ["presentmon", "capframex", "mangohud"])
def test_a_gzipped_capture_reads_as_the_plain_file_does(kind: str, tmp_path: Path) -> None:
    if kind == "presentmon":
        plain = write_presentmon_1x(tmp_path / "game.csv", presents(FRAMES_MS))
    elif kind == "capframex":
        plain = write_capframex(tmp_path / "game.json", [presents(FRAMES_MS)])
    else:
        plain = write_mangohud(tmp_path / "game.csv", FRAMES_MS)
    packed = gzipped(plain)
    plain_kept, plain_times = _read(plain)
    packed_kept, packed_times = _read(packed)
    assert (packed_kept, packed_times) == (plain_kept, plain_times)
    assert len(packed_times) == 5


def test_the_format_is_told_from_the_bytes_not_the_name(tmp_path: Path) -> None:
    plain = write_presentmon_1x(tmp_path / "game.csv", presents(FRAMES_MS))
    named_plainly = tmp_path / "packed.csv"
    named_plainly.write_bytes(gzip.compress(plain.read_bytes()))
    assert _read(named_plainly)[1] == _read(plain)[1]


def test_the_size_limit_counts_the_decompressed_bytes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    plain = write_presentmon_1x(tmp_path / "game.csv", presents(["10"] * 200))
    packed = gzipped(plain)
    limit = len(plain.read_bytes()) - 1
    assert packed.stat().st_size < limit  # the file itself is well within it
    monkeypatch.setattr(game.capture.source, "MAX_CAPTURE_BYTES", limit)
    with pytest.raises(BadInput) as refused:
        open_capture(packed)
    assert refused.value.lines == (
        f"{packed}: too large for a capture (more than {limit:,} bytes)",
    )


def test_a_gzipped_session_is_held_to_its_limit_on_its_decompressed_bytes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    packed = gzipped(write_capframex(tmp_path / "game.json", [presents(["10"] * 200)]))
    monkeypatch.setattr(game.capture.capframex, "MAX_CAPFRAMEX_BYTES", 1000)
    with pytest.raises(BadInput) as refused:
        open_capture(packed)
    assert refused.value.lines == (
        f"{packed}: too large for a CapFrameX session (more than 1,000 bytes)",
    )


def test_a_gzip_cut_short_is_one_line(tmp_path: Path) -> None:
    packed = gzipped(write_presentmon_1x(tmp_path / "game.csv", presents(["10"] * 2000)))
    packed.write_bytes(packed.read_bytes()[: packed.stat().st_size // 2])
    with pytest.raises(BadInput) as refused:
        frame_columns(open_capture(packed))
    assert refused.value.lines == (
        f"{packed}: cannot read: damaged gzip data (Compressed file ended before the "
        "end-of-stream marker was reached)",
    )
