"""The session a headless run drives: the game's own, built from a `GameConfig` the same way.

`play.session_from(config)` builds the game's session; this builds the same one with a hook for
every stamped command, which is what a `SessionRecorder` listens on. Same controls, same world
settings, same demo scene, so a headless run and a played game start from the same state hash.
"""

from __future__ import annotations

from dataclasses import replace

from game.commands.play import controls_from, world_settings_from
from game.config.model import GameConfig
from game.session.session import CommandLog, LabSession
from game.world.scene import demo_scene
from game.world.world import World


def workshop_session(config: GameConfig, on_command: CommandLog | None = None) -> LabSession:
    """The game's session for `config`: the demo scene (cannon off if its period is 0)."""
    settings = world_settings_from(config)
    scene = demo_scene(settings)
    if config.world.cannon_period_ticks == 0:
        scene = replace(scene, cannon_on=False)
    return LabSession(
        controls_from(config),
        lambda: World(settings, scene=scene),
        config.scheduler.settings(),
        on_command=on_command,
    )
