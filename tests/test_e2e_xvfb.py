"""End to end: the real game, as a separate process, in a real X window, played with real keys.

Every other test drives the loop in-process on SDL's dummy driver with posted events. This one
checks what those cannot: that `python -m game` opens a window on a real X server, that key
presses arriving from the X server (xdotool's XTEST, as from a keyboard) reach the loop, that F12
writes what the window shows, that a stall really blocks the process, and that Q quits cleanly
with the final tick and state hash on stdout.

Real time is what this test is about, in two places only, each a bound the OS guarantees on any
machine: the S key's stall blocks the process for at least as long as asked, and the world at 60
Hz under the uncapped policy (nothing dropped) reaches at least half of 60 ticks a second of wall
time. Every other wait is for an event (Xvfb's display number, SDL opening the display, the
window, a screenshot file, the game's exit); `HANG_S` only ends a test that would otherwise hang.

The X server is a private Xvfb on a display number it picks itself (`-displayfd`), so parallel
runs never collide. The window is found by the game's process id (`xdotool search --pid`), then
its title is checked: the `xdotool` Debian ships (3.20160805) cannot match `--name` against
SDL's UTF-8 window title, so `search --name "Timestep Lab"` never finds it.
"""

from __future__ import annotations

import os
import re
import select
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
import pygame
import pytest
from numpy.typing import NDArray

pytestmark = [
    pytest.mark.slow,
    pytest.mark.xvfb,
    pytest.mark.skipif(
        shutil.which("Xvfb") is None or shutil.which("xdotool") is None,
        reason="needs Xvfb and xdotool (.ci/run installs them: apt-get install xvfb xauth xdotool)",
    ),
]

ROOT = Path(__file__).resolve().parents[1]
"""This checkout: the game the child runs is the code under test, installed or not."""
TITLE = "Timestep Lab"
SIZE = (1280, 720)
STALL_S = 0.2
"""What the S key blocks the loop for."""
FINAL_LINE = re.compile(r"final tick (\d+) state ([0-9a-f]{64})")
CENTRE = (slice(440, 840), slice(260, 460))
"""The middle 400 x 200 pixels of the window (x, then y: surfarray's order), where the help
overlay sits."""
HANG_S = 300.0
"""How long a wait for an event may last before the test calls the game hung: not a speed
assumption (each event comes within seconds on the slowest machine)."""


XVFB = ("Xvfb", "-screen", "0", "1600x900x24", "-nolisten", "tcp", "-noreset")
"""`-noreset`: an X server resets when its last client leaves; the probe leaving must not make
the game arrive during a reset."""


@pytest.fixture
def display() -> Iterator[str]:
    """A private Xvfb; yields its display name (":3") and stops it afterwards."""
    read_end, write_end = os.pipe()
    server = subprocess.Popen(
        [*XVFB, "-displayfd", str(write_end)],
        pass_fds=(write_end,),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    os.close(write_end)
    try:
        ready, _, _ = select.select([read_end], [], [], HANG_S)
        number = os.read(read_end, 16).decode().strip() if ready else ""
        if not number:
            server.kill()
            _, errors = server.communicate(timeout=5)
            pytest.fail(f"Xvfb did not report a display number: {errors.decode(errors='replace')}")
        name = f":{number}"
        _wait_until_sdl_opens(name, server)
        yield name
    finally:
        os.close(read_end)
        if server.poll() is None:
            server.terminate()
            try:
                server.wait(timeout=5)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()


SDL_OPENS = "import pygame; pygame.display.init(); print(pygame.display.get_driver())"
"""What the game does first with the display, as a probe that does nothing else."""


def _wait_until_sdl_opens(name: str, server: subprocess.Popen[bytes]) -> None:
    """Wait until SDL itself can open the new display, or fail saying why.

    Xvfb reports its number once it listens, but a CI run once saw the game, started right
    after, refuse the display ("x11 not available"). Asking SDL the way the game will (not
    another X client) both waits out such a start and, if it never opens, puts SDL's and Xvfb's
    own words in the failure. (`-noreset` matters too: by default an X server resets when its
    last client leaves, and the probe leaving would make the game arrive during the reset.)
    """
    env = {**os.environ, "DISPLAY": name, "SDL_VIDEODRIVER": "x11", "SDL_AUDIODRIVER": "dummy"}
    deadline = time.monotonic() + HANG_S
    while True:
        probe = subprocess.run(
            [sys.executable, "-c", SDL_OPENS],
            env=env,
            capture_output=True,
            text=True,
            timeout=HANG_S,
        )
        if probe.returncode == 0:
            return
        if server.poll() is not None or time.monotonic() > deadline:
            server.kill()
            _, errors = server.communicate(timeout=5)
            pytest.fail(
                f"SDL cannot open Xvfb's display {name}: {probe.stderr.strip()}\n"
                f"Xvfb said: {errors.decode(errors='replace')}"
            )
        time.sleep(0.2)


class Game:
    """The game process, and what the test needs to talk to it and about it."""

    def __init__(self, display: str, shots: Path, log: Path) -> None:
        env = dict(os.environ)
        env.update(DISPLAY=display, SDL_VIDEODRIVER="x11", SDL_AUDIODRIVER="dummy")
        env["PYTHONPATH"] = os.pathsep.join(filter(None, (str(ROOT), env.get("PYTHONPATH"))))
        self.display = display
        self.shots = shots
        self._out = (log / "stdout.txt").open("w+")
        self._err = (log / "stderr.txt").open("w+")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "game", "--set", f"app.screenshot_dir={shots}"],
            env=env,
            cwd=log,
            stdout=self._out,
            stderr=self._err,
        )

    def output(self) -> tuple[str, str]:
        """What the game printed so far, stdout and stderr."""
        texts = []
        for stream in (self._out, self._err):
            stream.flush()
            stream.seek(0)
            texts.append(stream.read())
        return texts[0], texts[1]

    def xdotool(self, *args: str) -> str:
        done = subprocess.run(
            ["xdotool", *args],
            env={**os.environ, "DISPLAY": self.display},
            capture_output=True,
            text=True,
            timeout=HANG_S,
        )
        return done.stdout.strip() if done.returncode == 0 else ""

    def wait_for(self, ready: Callable[[], bool], what: str) -> None:
        """Poll until `ready()`; fail with the game's output if it dies or takes too long."""
        deadline = time.monotonic() + HANG_S
        while not ready():
            if self.process.poll() is not None:
                out, err = self.output()
                pytest.fail(
                    f"the game exited ({self.process.returncode}) while waiting for {what}\n"
                    f"stdout: {out}\nstderr: {err}"
                )
            if time.monotonic() > deadline:
                out, err = self.output()
                pytest.fail(f"no {what} after {HANG_S} s\nstdout: {out}\nstderr: {err}")
            time.sleep(0.02)

    def window(self) -> str:
        """The id of the game's window, once it is mapped and titled."""
        found: list[str] = []

        def titled() -> bool:
            for window in self.xdotool("search", "--pid", str(self.process.pid)).split():
                if self.xdotool("getwindowname", window) == TITLE:
                    found.append(window)
                    return True
            return False

        self.wait_for(titled, f"window titled {TITLE!r}")
        return found[0]

    def screenshots(self) -> list[Path]:
        """F12's pictures, oldest first (the name ends with the frame number)."""
        return sorted(self.shots.glob("*.png"), key=lambda path: int(path.stem.rsplit("-", 1)[1]))

    def press_and_wait_for_shot(self, *keys: str) -> float:
        """Press `keys` (the last being F12); return the seconds until the new picture exists."""
        before = len(self.screenshots())
        sent = time.monotonic()
        self.xdotool("key", *keys)
        self.wait_for(lambda: len(self.screenshots()) > before, f"screenshot after {keys}")
        return time.monotonic() - sent

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        self._out.close()
        self._err.close()


def pixels(path: Path) -> NDArray[np.int16]:
    """A screenshot as an (x, y, rgb) array of signed ints, so differences do not wrap."""
    return pygame.surfarray.array3d(pygame.image.load(str(path))).astype(np.int16)


def text_share(region: NDArray[np.int16]) -> float:
    """The share of pixels bright enough to be text: the arena and plates are all dark."""
    return float((region.max(axis=2) > 180).mean())


def test_the_real_game_in_a_real_window_answers_real_keys(display: str, tmp_path: Path) -> None:
    shots = tmp_path / "shots"
    game = Game(display, shots, tmp_path)
    try:
        window = game.window()
        game.xdotool("windowfocus", "--sync", window)
        game.press_and_wait_for_shot("F12")  # the first frames: warm-up and all
        steady = game.press_and_wait_for_shot("h", "F12")  # H: the help overlay
        game.xdotool("key", "1")  # the uncapped policy: the stall is caught up, every tick of it
        started = time.monotonic()
        stall_to_shot = game.press_and_wait_for_shot("s", "F12")
        game.xdotool("key", "q")
        try:
            code = game.process.wait(timeout=HANG_S)
        except subprocess.TimeoutExpired:
            pytest.fail(f"the game did not quit within {HANG_S} s of Q: {game.output()}")
        ran_s = time.monotonic() - started
        out, err = game.output()
    finally:
        game.stop()

    assert code == 0, f"exit status {code}\nstdout: {out}\nstderr: {err}"
    assert "Traceback" not in err, err
    final = FINAL_LINE.fullmatch(out.strip().splitlines()[-1]) if out.strip() else None
    assert final is not None, f"no 'final tick N state HASH' line in stdout: {out!r}"
    # The world ran in real time: at 60 Hz, and under the uncapped policy (nothing dropped) for
    # the last `ran_s` seconds, stall included. Half of that is a floor no working loop misses.
    assert int(final[1]) >= 60 * ran_s * 0.5, f"tick {final[1]} after {ran_s:.2f} s"

    # S really blocked the process: the picture asked for right after it came that much later.
    # (Without a stall it takes about 0.05 s: a frame and xdotool's start.)
    assert stall_to_shot >= STALL_S, (
        f"the screenshot after S came {stall_to_shot:.3f} s after the key, "
        f"one without a stall {steady:.3f} s"
    )

    plain, helped, after_stall = game.screenshots()
    images = [pixels(path) for path in (plain, helped, after_stall)]
    for path, image in zip((plain, helped, after_stall), images, strict=True):
        assert image.shape == (*SIZE, 3), path.name
        colours = len(np.unique(image.reshape(-1, 3), axis=0))
        assert colours > 200 and image.std() > 10, f"{path.name}: {colours} colours, looks blank"
    before, during = images[0][CENTRE], images[1][CENTRE]
    changed = float((np.abs(before - during).max(axis=2) > 24).mean())
    assert changed > 0.25, f"the help overlay changed only {changed:.0%} of the centre"
    assert text_share(before) < 0.01, f"{text_share(before):.1%} of the arena's centre is text"
    assert text_share(during) > 0.02, f"only {text_share(during):.1%} of the help's centre is text"
