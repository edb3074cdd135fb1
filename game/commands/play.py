"""`python -m game` (or `python -m game play`): the game itself.

Settings come from `configs/default.toml`'s defaults, then `--config FILE`, then `--set KEY=VALUE`
for single settings. `--frames`, `--screenshot` and `--script` let a test or a workshop drive the
real loop and keep the picture.
"""

from __future__ import annotations

import argparse
from dataclasses import replace
from pathlib import Path

from game.config.loading import load_config
from game.config.model import GameConfig
from game.errors import BadInput
from game.scheduler.settings import AlphaMode
from game.session.controls import Controls
from game.session.session import LabSession
from game.world.scene import demo_scene
from game.world.settings import CannonSettings, WorldSettings
from game.world.world import World

HELP = "play the game (the default when no command is given)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", type=Path, help="a TOML settings file (see configs/)")
    parser.add_argument(
        "--set", dest="overrides", action="append", default=[], metavar="KEY=VALUE",
        help="override one setting, e.g. --set scheduler.policy=uncapped (repeatable)",
    )  # fmt: skip
    parser.add_argument("--frames", type=int, help="quit after this many frames")
    parser.add_argument("--screenshot", type=Path, help="save the last frame as a PNG")
    parser.add_argument("--script", type=Path, help="timed key presses to play (see README)")


def controls_from(config: GameConfig) -> Controls:
    """The live controls a game starts with."""
    return Controls(
        policies=(config.scheduler.policy,),
        hz=config.scheduler.hz,
        time_scale=config.scheduler.time_scale,
        max_steps=config.scheduler.max_steps,
        alpha_mode=AlphaMode(config.scheduler.alpha),
        integrator=config.world.integrator,
        step_cost_ms=config.load.step_cost_ms,
        interpolation=config.render.interpolation,
        fps_cap=config.render.fps_cap,
        graphs=config.hud.graphs,
        help=config.hud.help,
        presentation=config.hud.presentation,
        ghost=config.overlays.ghost,
        tick_markers=config.overlays.tick_markers,
        trails=config.overlays.trails,
    )


def world_settings_from(config: GameConfig) -> WorldSettings:
    period = config.world.cannon_period_ticks
    return WorldSettings(
        gravity=config.world.gravity,
        precision=config.world.precision,
        seed=config.world.seed,
        integrator=config.world.integrator,
        cannon=CannonSettings(every_ticks=max(1, period)),
    )


def session_from(config: GameConfig) -> LabSession:
    """The session a config describes: the demo scene, the scheduler, the controls."""
    settings = world_settings_from(config)
    scene = demo_scene(settings)
    if config.world.cannon_period_ticks == 0:
        scene = replace(scene, cannon_on=False)
    return LabSession(
        controls_from(config),
        lambda: World(settings, scene=scene),
        config.scheduler.settings(),
    )


def run(args: argparse.Namespace) -> int:
    # pygame and the loop are imported here, so the other commands never load them.
    from game.app.loop import GameLoop, LoopOptions
    from game.app.script import load_script
    from game.app.window import Window
    from game.clock.wall import WallClock

    if args.frames is not None and args.frames < 1:
        raise BadInput.error(f"--frames must be at least 1 (got {args.frames})")
    config = load_config(args.config, args.overrides)
    script = load_script(args.script) if args.script else ()
    session = session_from(config)
    window = Window(
        config.render.width, config.render.height,
        fullscreen=config.render.fullscreen, vsync=config.render.vsync,
    )  # fmt: skip
    options = LoopOptions(
        frames=args.frames,
        screenshot=args.screenshot,
        script=script,
        pause_on_focus_loss=config.app.pause_on_focus_loss,
        screenshot_dir=Path(config.app.screenshot_dir),
        graph_seconds=float(config.hud.graph_seconds),
    )
    return GameLoop(session, window, WallClock(), options).run()
