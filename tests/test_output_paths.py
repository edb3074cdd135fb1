"""Every command's every output flag against every kind of path: an output never destroys
anything (`game.workshop.files.output`).

A file output refuses a directory, a device, a FIFO and a socket; a folder output refuses
anything but a folder; both refuse an input of the run by any name (itself, a link to it) and
a folder refuses to hold one under a name it writes. Each refusal is one line and exit 2, before
any work, and leaves the path as it was (same inode, type and content). An ordinary file that is
not an input is replaced, and a 248-character name is written whole, with no temporary left.
The device node is a private one made in the test's own folder, never anything under /dev.
"""

from __future__ import annotations

import os
import socket
import stat
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from game.cli import main

SCENARIO_TEXT = "seconds = 1\n"
LONG = "a" * 244  # with its 4-character suffix, a 248-character name


@dataclass(frozen=True)
class Flag:
    """One output flag of one command: the arguments around it, whether it is a folder, the
    input flag whose file a test may point it at, the suffix its file must have."""

    command: tuple[str, ...]
    flag: str
    folder: bool
    input_flag: str | None = None
    suffix: str = ""
    writes: str = ""
    """For a folder: the first file it writes there."""
    runs: bool = True
    """Whether a case that passes the checks is run here (a handout or a lab run is too slow)."""
    source: str = ""
    """The input file's text and suffix when it is not a scenario or a config (a capture)."""

    def argv(self, path: Path, source: Path) -> list[str]:
        words = [
            part.replace("SOURCE", str(source)).replace("OUT", str(path.parent / "clip"))
            for part in self.command
        ]
        return [*words, self.flag, str(path)]

    @property
    def name(self) -> str:
        return f"{self.command[0]} {self.flag}"


TINY_SCENARIO = ("--scenario", "SOURCE")
FLAGS = [
    Flag(("simulate", *TINY_SCENARIO, "--seconds", "0.2"), "--record", False, "--scenario"),
    Flag(("simulate", *TINY_SCENARIO, "--seconds", "0.2"), "--out", True, "--scenario",
         writes="frames.csv"),
    Flag(("compare", *TINY_SCENARIO, "--policies", "drop"), "--out", True, "--scenario",
         writes="compare.csv", runs=False),
    Flag(("sweep", *TINY_SCENARIO, "--vary", "load.step_cost_ms=1,2", "--workers", "1"), "--out",
         True, "--scenario", writes="sweep.csv", runs=False),
    Flag(("clip", *TINY_SCENARIO, "--seconds", "0.2", "--size", "320x240", "--fps", "10"),
         "--out", False, "--scenario", suffix=".gif"),
    Flag(("handout", "--quick"), "--out", True, writes="index.html", runs=False),
    Flag(("lab",), "--plot", True, writes="projectile.png", runs=False),
    Flag(("simulate", *TINY_SCENARIO, "--seconds", "0.2"), "--frame-log", False, "--scenario",
         suffix=".csv"),
    Flag(("clip", *TINY_SCENARIO, "--seconds", "0.2", "--size", "320x240", "--fps", "10",
          "--out", "OUT.gif"), "--frame-log", False, "--scenario", suffix=".csv"),
    Flag(("capture", "SOURCE", "--policies", "drop", "--headroom-frames", "0"), "--out", True,
         "FILE", writes="frames.csv", source=".csv"),
    Flag(("play", "--frames", "1", "--config", "SOURCE"), "--record", False, "--config"),
    Flag(("play", "--frames", "1", "--config", "SOURCE"), "--frame-log", False, "--config",
         suffix=".csv"),
    Flag(("play", "--frames", "1", "--config", "SOURCE"), "--screenshot", False, "--config",
         suffix=".png"),
]  # fmt: skip


def _device(path: Path) -> None:
    os.mknod(path, stat.S_IFCHR | 0o600, os.makedev(1, 3))  # a private /dev/null, here only


def _fifo(path: Path) -> None:
    os.mkfifo(path)


def _socket(path: Path) -> None:
    bound = socket.socket(socket.AF_UNIX)
    here = Path.cwd()
    os.chdir(path.parent)  # a socket's address is short: bind it by its bare name
    try:
        bound.bind(path.name)
    finally:
        os.chdir(here)
        bound.close()


def _folder(path: Path) -> None:
    path.mkdir()


def _file(path: Path) -> None:
    path.write_text("an older output\n")


MADE: dict[str, Callable[[Path], None]] = {
    "device": _device, "fifo": _fifo, "socket": _socket, "directory": _folder, "file": _file,
}  # fmt: skip
KIND_WORDS = {
    "device": "a character device", "fifo": "a named pipe", "socket": "a socket",
    "directory": "a directory",
}  # fmt: skip
KINDS = [*MADE, "link to an input", "an input", "holds an input", "248 characters"]


def _cases() -> list[object]:
    return list(_each_case())


def _each_case() -> Iterator[object]:
    for flag in FLAGS:
        for kind in KINDS:
            if kind in ("link to an input", "an input") and flag.input_flag is None:
                continue  # handout and lab read no file of the user's
            if kind == "holds an input" and not (flag.folder and flag.input_flag):
                continue
            yield pytest.param(flag, kind, id=f"{flag.name}-{kind}")


@dataclass(frozen=True)
class Seen:
    """What a path was: enough to tell that nothing touched it."""

    inode: int
    mode: int
    content: bytes | None


def seen(path: Path) -> Seen:
    status = path.lstat()
    regular = stat.S_ISREG(status.st_mode)
    return Seen(status.st_ino, status.st_mode, path.read_bytes() if regular else None)


def _expected_refusal(flag: Flag, kind: str, path: Path) -> str | None:
    """The one line a refused case prints, or None when the output is written."""
    name = f"error: {flag.flag} {path}"
    if kind in ("link to an input", "an input"):
        return f"{name} is the {flag.input_flag} file: it would be overwritten"
    if kind == "holds an input":
        held = path / flag.writes
        return f"error: {flag.flag} {held} is the {flag.input_flag} file: it would be overwritten"
    if flag.folder:
        return None if kind in ("directory", "248 characters") else (
            f"{name}: exists and is not a directory"
        )  # fmt: skip
    if kind in KIND_WORDS:
        return f"{name}: cannot write it: is {KIND_WORDS[kind]}"
    return None


CAPTURE_TEXT = (
    "Application,ProcessID,SwapChainAddress,Runtime,SyncInterval,PresentFlags,AllowsTearing,"
    "PresentMode,Dropped,TimeInSeconds,MsBetweenPresents,MsBetweenDisplayChange,MsInPresentAPI,"
    "MsUntilRenderComplete,MsUntilDisplayed\n"
    + "".join(
        f"game.exe,4712,0x1,DXGI,1,0,0,Hardware: Legacy Flip,0,{k / 60:.9f},16.666667,"
        "16.666667,0.1,1.0,2.0\n"
        for k in range(1, 13)
    )
)
"""A PresentMon 1.x capture of twelve 60 fps frames: `capture`'s input."""


def _source_text(flag: Flag) -> str:
    if flag.source:
        return CAPTURE_TEXT
    return SCENARIO_TEXT if flag.command[0] != "play" else "[hud]\ngraphs = true\n"


@pytest.mark.slow
@pytest.mark.parametrize(("flag", "kind"), _cases())
def test_an_output_path_of_every_kind(
    flag: Flag, kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / f"source{flag.source or flag.suffix or '.toml'}"
    source.write_text(_source_text(flag))
    path = tmp_path / f"{'out' if kind != '248 characters' else LONG}{flag.suffix or '.x'}"
    if kind == "an input":
        path = source
    elif kind == "link to an input":
        path.symlink_to(source)
    elif kind == "holds an input":
        path.mkdir()
        source = path / flag.writes
        source.write_text(_source_text(flag))
    elif kind in MADE:
        MADE[kind](path)
    expected = _expected_refusal(flag, kind, path)
    if expected is None and not flag.runs:
        pytest.skip(f"{flag.name} passes its checks here; its own tests run it")
    before = seen(path) if path.exists() or path.is_symlink() else None
    source_before = seen(source)
    code = main(flag.argv(path, source))
    err = capsys.readouterr().err
    assert seen(source) == source_before  # an input is never touched
    if expected is not None:
        assert (code, err) == (2, expected + "\n")
        assert seen(path) == before
        return
    assert (code, err) == (0, "")
    written = path if not flag.folder else path / flag.writes
    assert written.is_file() and written.stat().st_size > 0
    if kind == "file":
        assert written.read_bytes() != b"an older output\n"
    leftovers = [entry.name for entry in written.parent.iterdir() if ".part" in entry.name]
    assert leftovers == []
