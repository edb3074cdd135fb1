"""Render figures: the scene with 5,000 projectiles, and the default scene, per drawn frame.

Each figure is the whole draw of one frame into a 1280x720 display surface on SDL's dummy
driver: clear (the backdrop), the arena, the cannon and every body. Beside it, in the same run
and on the same bodies, the two obvious ways to draw them: `pygame.draw.circle` per body (no
rotation, no anti-aliasing) and `transform.rotate` of the body's sprite per body (the same
picture as the sprites, made every frame).
"""

from __future__ import annotations

import os
from collections.abc import Callable

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import numpy as np
import pygame

from bench.harness import Section, median_ns_per_batch, ms, verdict
from game.view import ALL_OVERLAYS, NO_OVERLAYS, Overlays, WorldRenderer
from game.view.sprites import FRAMES
from game.world.bodies import PROJECTILE
from game.world.orders import Fire
from game.world.render_view import RenderView
from game.world.scene import Scene
from game.world.settings import WorldSettings
from game.world.world import World, demo_world

SCREEN = (1280, 720)
PROJECTILES = 5_000
TARGET_FPS = 144
FRAME_WORK_MS = 3.0
"""Issue 4's budget for everything a frame does but wait; the scene is one part of it."""
HZ = 60


def crowd_world(count: int = PROJECTILES, seed: int = 4) -> World:
    """`count` projectiles spread over the arena, drifting at under 1.5 m/s and spinning.

    Built through the public API (a `Scene` of `Fire` commands), so these are real bodies with
    real views; slow enough that all of them are still on screen for the frames measured.
    """
    settings = WorldSettings(capacity=count)
    rng = np.random.default_rng(seed)
    shots = tuple(
        Fire(tick=0, x=x, y=y, vx=vx, vy=vy, spin=spin)
        for x, y, vx, vy, spin in zip(
            rng.uniform(0.5, settings.arena_width - 0.5, count).tolist(),
            rng.uniform(4.0, settings.arena_height - 0.5, count).tolist(),
            rng.uniform(-1.0, 1.0, count).tolist(),
            rng.uniform(-1.0, 1.0, count).tolist(),
            rng.uniform(-6.0, 6.0, count).tolist(),
            strict=True,
        )
    )
    return World(settings, Scene(projectiles=shots))


def views(world: World, frames: int) -> list[RenderView]:
    """One view per tick for `frames` ticks (at alpha 0.5), so each draw shows a new picture."""
    shown = []
    for _ in range(frames):
        world.step(1.0 / HZ)
        shown.append(world.view(0.5))
    return shown


def cycling(draw: Callable[[RenderView], None], shown: list[RenderView]) -> Callable[[], None]:
    """A zero-argument call drawing the next view each time (what `median_ns_per_batch` takes)."""
    state = {"next": 0}

    def one_frame() -> None:
        draw(shown[state["next"] % len(shown)])
        state["next"] += 1

    return one_frame


def circles(screen: pygame.Surface, renderer: WorldRenderer) -> Callable[[RenderView], None]:
    """Baseline: the same backdrop and cannon, then one `draw.circle` per body."""

    def draw(view: RenderView) -> None:
        camera = renderer.camera
        renderer.stage.draw_backdrop(screen, camera)
        shots = view.kind == PROJECTILE
        px, py = camera.to_screen(view.x[shots], view.y[shots])
        radius = round(camera.pixels(float(view.radius[shots][0])))
        for centre in zip(px.tolist(), py.tolist(), strict=True):
            pygame.draw.circle(screen, (255, 174, 56), centre, radius)
        renderer.stage.draw_cannon(screen, camera)

    return draw


def rotations(screen: pygame.Surface, renderer: WorldRenderer) -> Callable[[RenderView], None]:
    """Baseline: the same backdrop and cannon, then the sprite rotated per body, per frame."""

    def draw(view: RenderView) -> None:
        camera = renderer.camera
        renderer.stage.draw_backdrop(screen, camera)
        shots = view.kind == PROJECTILE
        px, py = camera.to_screen(view.x[shots], view.y[shots])
        radius = round(camera.pixels(float(view.radius[shots][0])))
        upright = renderer.sprites.projectile(radius).surfaces[0]
        degrees = np.degrees(view.angle[shots]).tolist()
        for x, y, turn in zip(px.tolist(), py.tolist(), degrees, strict=True):
            turned = pygame.transform.rotate(upright, turn)
            screen.blit(turned, turned.get_rect(center=(x, y)))
        renderer.stage.draw_cannon(screen, camera)

    return draw


def sprites(
    screen: pygame.Surface, renderer: WorldRenderer, overlays: Overlays
) -> Callable[[RenderView], None]:
    def draw(view: RenderView) -> None:
        renderer.draw(screen, view, None, overlays)

    return draw


def crowd(screen: pygame.Surface, quick: bool) -> Section:
    repeat = 15 if quick else 101
    world = crowd_world()
    shown = views(world, 30)
    on_screen = int(np.count_nonzero(shown[-1].kind == PROJECTILE))
    renderer = WorldRenderer(world.settings)
    section = Section(
        title=f"Render: {PROJECTILES:,} projectiles, one whole frame",
        intro=(
            f"Median time to draw one {SCREEN[0]}x{SCREEN[1]} frame (backdrop, arena, cannon, "
            f"{on_screen:,} projectiles on screen) on the dummy driver, {repeat} frames each, "
            f"and the frame rate that allows uncapped. Target: >= {TARGET_FPS} fps "
            f"(<= {1000 / TARGET_FPS:.2f} ms) for the sprites with `fblits`."
        ),
        columns=["how the bodies are drawn", "median per frame", "fps", "vs sprites", "target"],
    )
    ways: list[tuple[str, Callable[[RenderView], None], bool]] = [
        ("pre-rendered sprites, one `fblits` (this renderer)",
         sprites(screen, renderer, NO_OVERLAYS), True),
        ("`pygame.draw.circle` per body (no rotation, no AA)", circles(screen, renderer), False),
        ("`transform.rotate` + `blit` per body", rotations(screen, renderer), False),
        ("sprites + ghost, tick markers and trails",
         sprites(screen, renderer, ALL_OVERLAYS), False),
    ]  # fmt: skip
    renderer.draw(screen, shown[0])  # paint the backdrop and sprites before timing
    costs = [median_ns_per_batch(cycling(draw, shown), repeat=repeat) for _, draw, _ in ways]
    for (label, _, is_target), cost in zip(ways, costs, strict=True):
        fps = 1e9 / cost
        target = verdict(fps >= TARGET_FPS) if is_target else ""
        section.add(label, ms(cost), f"{fps:,.0f}", f"{cost / costs[0]:.1f}x", target)
    section.notes.append(
        f"Each sprite exists at {FRAMES} angles; a body's frame is `rint(angle / step) % frames` "
        "for all bodies in one numpy call, and one `fblits` with `BLEND_PREMULTIPLIED` (pygame's "
        "SIMD blitter) draws the lot. `draw.circle` draws the cheapest possible picture (a flat, "
        f"jagged disc that cannot show a turn) at {costs[1] / costs[0]:.1f}x the time; rotating "
        f"per body, the same picture as the sprites, takes {costs[2] / costs[0]:.0f}x."
    )
    return section


def default(screen: pygame.Surface, quick: bool) -> Section:
    repeat = 31 if quick else 301
    world = demo_world()
    for _ in range(6 * HZ):
        world.step(1.0 / HZ)
    shown = views(world, 60)
    section = Section(
        title="Render: the default scene, one whole frame",
        intro=(
            f"The game's opening scene after 6 s (4 springs, {shown[-1].count - 4} projectiles "
            f"in flight), drawn into {SCREEN[0]}x{SCREEN[1]}; median of {repeat} frames. It is "
            f"part of issue 4's frame work budget (<= {FRAME_WORK_MS:g} ms for everything but "
            "the pacer's wait)."
        ),
        columns=["overlays", "median per frame", "share of the frame work budget"],
    )
    for label, overlays in (("none", NO_OVERLAYS), ("ghost, tick markers, trails", ALL_OVERLAYS)):
        renderer = WorldRenderer(world.settings)
        cost = median_ns_per_batch(
            cycling(sprites(screen, renderer, overlays), shown), repeat=repeat
        )
        section.add(label, ms(cost), f"{cost / (FRAME_WORK_MS * 1e4):.0f}%")
    return section


def run(quick: bool) -> list[Section]:
    pygame.display.init()
    pygame.font.init()
    try:
        screen = pygame.display.set_mode(SCREEN)
        return [crowd(screen, quick), default(screen, quick)]
    finally:
        pygame.display.quit()
