"""A `GameConfig` becomes a `LabSession`: the one way every mode builds its game.

The played game, a headless simulation and a replay all start from this function, so they start
from the same world (the demo scene), the same scheduler settings and the same controls, and a
replay's first state hash is the game's.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from game.config.model import GameConfig
from game.knobs import Where, knobs_where
from game.session.controls import Controls
from game.session.netplay import LinkLog
from game.session.player_orders import OrderLog, TickRateLog
from game.session.session import LabSession
from game.world.scene import demo_scene
from game.world.settings import CannonSettings, WorldSettings
from game.world.world import World


def controls_from(config: GameConfig) -> Controls:
    """The live controls a game starts with: every live knob a config file sets, turned to the
    file's value (a per-lane knob's value goes to both lanes, as its row says)."""
    return Controls.of(
        {
            knob.control: knob.control_value(config.value(knob.path))
            for knob in knobs_where(Where.CONFIG)
            if knob.control
        }
    )


def world_settings_from(config: GameConfig) -> WorldSettings:
    return WorldSettings(
        gravity=config.world.gravity,
        precision=config.world.precision,
        seed=config.world.seed,
        integrator=config.world.integrator,
        cannon=CannonSettings(every_ticks=max(1, config.world.cannon_period_ticks)),
    )


def session_from(
    config: GameConfig,
    on_order: OrderLog | None = None,
    on_tick_rate: TickRateLog | None = None,
    refresh_hz: Fraction = Fraction(60),
    on_link: LinkLog | None = None,
) -> LabSession:
    """The session a config describes: the demo scene (cannon off if its period is 0), the
    scheduler, the controls. The hooks hear every stamped command, tick-rate change and
    connection of the live game's remote peer (a recorder listens). `refresh_hz` is the
    display's, the unit of `snap` conditioning."""
    settings = world_settings_from(config)
    scene = demo_scene(settings)
    if config.world.cannon_period_ticks == 0:
        scene = replace(scene, cannon_on=False)
    return LabSession(
        controls_from(config),
        lambda: World(settings, scene=scene),
        config.scheduler.settings(refresh_hz),
        on_order=on_order,
        on_tick_rate=on_tick_rate,
        on_link=on_link,
    )
