"""`LoopOptions`: how one run of the game's loop behaves, beyond the game's settings (a test's
frame count, a screenshot on exit, a script, where F12 writes)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from game.app.script import Press
from game.config.model import GameConfig


@dataclass(frozen=True, slots=True)
class LoopOptions:
    """How this run of the loop should behave, beyond the game's settings."""

    frames: int | None = None
    """Quit after this many frames (tests, screenshots, workshops)."""
    screenshot: Path | None = None
    """Save the last frame here on exit."""
    script: tuple[Press, ...] = ()
    pause_on_focus_loss: bool = True
    screenshot_dir: Path = Path("screenshots")
    graph_seconds: float = 5.0
    print_hash: bool = True
    """Print `final tick T state HASH` on exit (what `replay` prints too)."""
    lesson_clock: bool = False
    """The clock may be switched to the lesson clock (`SwitchedClock`): the played game."""

    @classmethod
    def played(
        cls,
        config: GameConfig,
        frames: int | None,
        screenshot: Path | None,
        script: tuple[Press, ...],
    ) -> LoopOptions:
        """The options of the game a player plays: the config's app and HUD settings, the
        command line's frame count, screenshot and script, and the lesson clock within reach."""
        return cls(
            frames=frames,
            screenshot=screenshot,
            script=script,
            pause_on_focus_loss=config.app.pause_on_focus_loss,
            screenshot_dir=Path(config.app.screenshot_dir),
            graph_seconds=float(config.hud.graph_seconds),
            lesson_clock=True,
        )
