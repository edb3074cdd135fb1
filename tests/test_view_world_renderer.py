"""The scene renderer: bodies where the camera puts them, overlays only when asked, no writes.

Pictures are compared pixel by pixel with the same scene drawn without the thing under test,
so each test states exactly which pixels a body or an overlay may change.
"""

from __future__ import annotations

import warnings

import numpy as np
import numpy.typing as npt
import pygame
import pytest

from game.session.controls import Controls
from game.view import arena_colours
from game.view.world_renderer import (
    ALL_OVERLAYS,
    NO_OVERLAYS,
    Overlays,
    OverlaySwitches,
    WorldRenderer,
)
from game.world.orders import Fire, SpawnSpring
from game.world.render_view import RenderView
from game.world.scene import Scene
from game.world.settings import WorldSettings
from game.world.world import World, demo_world

SIZE = (1280, 720)
Box = tuple[int, int, int, int]
"""Inclusive pixel bounds: (left, top, right, bottom)."""


def shot_world(x: float = 8.0, y: float = 9.0, vx: float = 1.0, vy: float = 0.0) -> World:
    """One projectile fired from (x, y), nothing else (the cannon is off in a bare scene)."""
    return World(WorldSettings(), Scene(projectiles=(Fire(tick=0, x=x, y=y, vx=vx, vy=vy),)))


def empty_view() -> RenderView:
    return World(WorldSettings()).view()


def drawn(
    view: RenderView,
    overlays: OverlaySwitches = NO_OVERLAYS,
    renderer: WorldRenderer | None = None,
) -> pygame.Surface:
    surface = pygame.Surface(SIZE)
    (renderer or WorldRenderer(WorldSettings())).draw(surface, view, None, overlays)
    return surface


def pixels(surface: pygame.Surface) -> npt.NDArray[np.uint8]:
    picture: npt.NDArray[np.uint8] = pygame.surfarray.array3d(surface)
    return picture


def changed_box(before: pygame.Surface, after: pygame.Surface) -> Box | None:
    """The smallest box holding every pixel that differs, or None if none does."""
    columns, rows = np.nonzero((pixels(before) != pixels(after)).any(axis=2))
    if columns.size == 0:
        return None
    return int(columns.min()), int(rows.min()), int(columns.max()), int(rows.max())


def around(px: int, py: int, reach: int) -> Box:
    return px - reach, py - reach, px + reach, py + reach


def inside(box: Box | None, bounds: Box) -> bool:
    assert box is not None, "nothing was drawn"
    return (
        bounds[0] <= box[0] and bounds[1] <= box[1] and box[2] <= bounds[2] and box[3] <= bounds[3]
    )


def screen_point(renderer: WorldRenderer, x: float, y: float) -> tuple[int, int]:
    px, py = renderer.camera.to_screen(x, y)
    return int(px), int(py)


def fired_at_10hz(ticks: int) -> World:
    """A shot stepped at 10 Hz: semi-implicit Euler leaves it g dt t / 2 below its parabola."""
    world = shot_world(x=4.0, y=9.0, vx=3.0, vy=8.0)
    for _ in range(ticks):
        world.step(0.1)
    return world


def test_a_projectile_covers_the_16_pixels_centred_on_where_the_camera_puts_it() -> None:
    renderer = WorldRenderer(WorldSettings())
    view = shot_world(x=8.0, y=9.0).view(1.0, "off")
    picture = drawn(view, renderer=renderer)
    assert screen_point(renderer, 8.0, 9.0) == (320, 360)
    assert changed_box(drawn(empty_view()), picture) == (312, 352, 327, 367)  # radius 0.2 m = 8 px
    sprite = renderer.sprites.projectile(8)
    centre = sprite.surfaces[0].get_at((sprite.half, sprite.half))
    assert centre.a == 255
    assert picture.get_at((320, 360))[:3] == centre[:3]


def test_a_shot_fired_straight_up_is_drawn_with_its_nose_up() -> None:
    nose = pygame.Color(*arena_colours.PROJECTILE_NOSE)
    flat = drawn(shot_world(x=8.0, y=9.0, vx=1.0, vy=0.0).view(1.0, "off"))
    assert flat.get_at((324, 360)) == nose  # facing right: nose 0.55 r to the right
    upright = drawn(shot_world(x=8.0, y=9.0, vx=0.0, vy=1.0).view(1.0, "off"))
    assert upright.get_at((320, 355)) == nose  # a quarter turn: frame 8, nose up the screen
    assert upright.get_at((324, 360)) != nose


def test_the_cannon_stands_on_its_settings_position() -> None:
    renderer = WorldRenderer(WorldSettings())
    picture = drawn(empty_view(), renderer=renderer)
    cannon = WorldSettings().cannon
    assert (
        picture.get_at(screen_point(renderer, cannon.x, cannon.y))[:3] == arena_colours.CANNON_BAND
    )


def test_the_ghost_appears_only_when_toggled_and_only_around_the_exact_parabola() -> None:
    renderer = WorldRenderer(WorldSettings())
    view = fired_at_10hz(15).view(1.0, "off")
    ghost_x, ghost_y = float(view.analytic_x[0]), float(view.analytic_y[0])
    assert ghost_y - float(view.y[0]) == pytest.approx(9.81 * 0.1 * 1.5 / 2)  # 0.74 m off
    ghost = around(*screen_point(renderer, ghost_x, ghost_y), reach=12)
    body_x, body_y = screen_point(renderer, float(view.x[0]), float(view.y[0]))
    plain = drawn(view, renderer=renderer)
    assert changed_box(drawn(empty_view()), plain) == (
        body_x - 8,
        body_y - 8,
        body_x + 7,
        body_y + 7,
    )
    with_ghost = drawn(view, Overlays(ghost=True), renderer=renderer)
    assert inside(changed_box(plain, with_ghost), ghost)


def test_tick_markers_sit_on_the_raw_tick_not_the_blended_position() -> None:
    renderer = WorldRenderer(WorldSettings())
    view = fired_at_10hz(5).view(0.5, "interpolate")
    raw = screen_point(renderer, float(view.raw_x[0]), float(view.raw_y[0]))
    blended = screen_point(renderer, float(view.x[0]), float(view.y[0]))
    assert raw != blended
    plain = drawn(view, renderer=renderer)
    marked = drawn(view, Overlays(tick_markers=True), renderer=renderer)
    box = changed_box(plain, marked)
    assert inside(box, around(*raw, reach=9))
    assert box is not None
    centre = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
    assert abs(centre[0] - raw[0]) <= 1 and abs(centre[1] - raw[1]) <= 1  # on the raw tick


def test_with_interpolation_off_the_tick_marker_sits_on_the_body() -> None:
    renderer = WorldRenderer(WorldSettings())
    view = fired_at_10hz(5).view(0.5, "off")
    body = screen_point(renderer, float(view.x[0]), float(view.y[0]))
    plain = drawn(view, renderer=renderer)
    marked = drawn(view, Overlays(tick_markers=True), renderer=renderer)
    assert inside(changed_box(plain, marked), around(*body, reach=9))


def frames_of(
    world: World, renderer: WorldRenderer, overlays: Overlays, count: int
) -> pygame.Surface:
    """Draw `count` frames, one tick apart, onto one surface; return it."""
    surface = pygame.Surface(SIZE)
    for _ in range(count):
        renderer.draw(surface, world.view(1.0, "off"), None, overlays)
        world.step(0.1)
    renderer.draw(surface, world.view(1.0, "off"), None, overlays)
    return surface


def test_trails_are_dots_on_earlier_drawn_positions_only_when_toggled() -> None:
    with_trails = frames_of(
        fired_at_10hz(0), WorldRenderer(WorldSettings()), Overlays(trails=True), 4
    )
    without = frames_of(fired_at_10hz(0), WorldRenderer(WorldSettings()), NO_OVERLAYS, 4)
    earlier = []  # the body's pixel in each of the 4 frames before the last
    camera = WorldRenderer(WorldSettings()).camera
    for tick in range(4):
        view = fired_at_10hz(tick).view(1.0, "off")
        earlier.append(tuple(int(v) for v in camera.to_screen(view.x[0], view.y[0])))
    diff = (pixels(without) != pixels(with_trails)).any(axis=2)
    allowed = np.zeros_like(diff)
    for x, y in earlier:
        allowed[x - 9 : x + 9, y - 9 : y + 9] = True
    assert not (diff & ~allowed).any()
    assert all(diff[x, y] for x, y in earlier)  # a dot on each earlier position
    final = fired_at_10hz(4).view(1.0, "off")
    assert (pixels(without) == pixels(drawn(final))).all()  # no trail: no residue of old frames


def test_switching_trails_off_forgets_them() -> None:
    renderer = WorldRenderer(WorldSettings())
    world = fired_at_10hz(0)
    frames_of(world, renderer, Overlays(trails=True), 4)
    renderer.draw(pygame.Surface(SIZE), world.view(1.0, "off"), None, NO_OVERLAYS)
    world.step(0.1)
    view = world.view(1.0, "off")
    again = drawn(view, Overlays(trails=True), renderer=renderer)
    assert (pixels(again) == pixels(drawn(view, Overlays(trails=True)))).all()


def test_the_sessions_controls_switch_the_overlays() -> None:
    view = fired_at_10hz(15).view(0.5, "interpolate")
    from_controls = drawn(view, Controls(ghost=True, tick_markers=True))
    from_overlays = drawn(view, Overlays(ghost=True, tick_markers=True))
    assert (pixels(from_controls) == pixels(from_overlays)).all()
    assert changed_box(drawn(view), from_controls) is not None


def test_drawing_changes_neither_the_world_nor_the_view() -> None:
    world = demo_world()
    for _ in range(200):
        world.step(1 / 60)
    view = world.view(0.4, "interpolate")
    before = {name: getattr(view, name).copy() for name in ("x", "y", "angle", "raw_x", "ids")}
    digest = world.state_hash()
    renderer = WorldRenderer(world.settings)
    for _ in range(3):
        renderer.draw(pygame.Surface(SIZE), view, None, ALL_OVERLAYS)
    assert world.state_hash() == digest
    for name, values in before.items():
        assert np.array_equal(getattr(view, name), values)
    assert not view.x.flags.writeable


def test_split_rects_draw_into_their_own_half_only() -> None:
    surface = pygame.Surface(SIZE)
    sentinel = pygame.Color(255, 0, 255)
    surface.fill(sentinel)
    surface.set_clip((0, 0, 1000, 700))
    left = WorldRenderer(WorldSettings())
    right = WorldRenderer(WorldSettings(), left.sprites)  # one sprite book for both halves
    world = demo_world()
    for _ in range(100):
        world.step(1 / 60)
    left.draw(surface, world.view(), (0, 0, 640, 720), ALL_OVERLAYS)
    picture = pixels(surface)
    assert (picture[640:] == sentinel[:3]).all()
    assert (picture[:640, :700] != sentinel[:3]).any(axis=2).all()  # all the left half is drawn
    assert (picture[:640, 700:] == sentinel[:3]).all()  # except what the caller clipped away
    assert surface.get_clip() == pygame.Rect(0, 0, 1000, 700)  # and the caller's clip is back
    surface.set_clip(None)
    right.draw(surface, world.view(), pygame.Rect(640, 0, 640, 720), ALL_OVERLAYS)
    assert (pixels(surface)[:640] == picture[:640]).all()
    assert left.camera.rect == (0, 0, 640, 720)
    assert right.camera.rect == (640, 0, 640, 720)
    assert right.camera.point_to_world((640, 540)) == (0.0, 0.0)


def test_a_click_maps_through_the_renderer_of_the_half_it_landed_in() -> None:
    surface, view = pygame.Surface(SIZE), empty_view()
    left = WorldRenderer(WorldSettings())
    right = WorldRenderer(WorldSettings(), left.sprites)
    left.draw(surface, view, (0, 0, 640, 720))
    right.draw(surface, view, (640, 0, 640, 720))
    click = (960, 360)  # the middle of the right half
    assert not left.covers(click)
    assert right.covers(click)
    assert right.to_world(click) == (16.0, 9.0)
    assert left.covers((639, 0)) and not left.covers((640, 0))


def test_without_a_rect_the_scene_fills_the_surface() -> None:
    renderer = WorldRenderer(WorldSettings(), rect=(0, 0, 10, 10))
    renderer.draw(pygame.Surface((800, 450)), empty_view())
    assert renderer.camera.rect == (0, 0, 800, 450)
    assert renderer.camera.scale == 25.0


def test_a_spring_is_drawn_from_its_mount_down_to_its_bob() -> None:
    spring = SpawnSpring(tick=0, anchor_x=16.0, anchor_y=17.0, k=4.0, mass=1.0, rest_length=5.0)
    view = World(WorldSettings(), Scene(springs=(spring,))).view()
    renderer = WorldRenderer(WorldSettings())
    anchor_x, anchor_y = screen_point(renderer, 16.0, 17.0)
    bob_x, bob_y = screen_point(renderer, 16.0, 12.0)
    box = changed_box(drawn(empty_view()), drawn(view, renderer=renderer))
    assert box == (anchor_x - 16, anchor_y - 5, bob_x + 15, bob_y + 15)  # mount 5 px, bob 16 px


def test_an_exploded_spring_keeps_its_mount_and_loses_its_bob_quietly() -> None:
    stiff = SpawnSpring(
        tick=0, anchor_x=16.0, anchor_y=17.0, k=10_000.0, mass=1.0, rest_length=5.0, offset=(0, -1)
    )
    world = World(WorldSettings(integrator="explicit"), Scene(springs=(stiff,)))
    with np.errstate(over="ignore", invalid="ignore"):
        for _ in range(400):
            world.step(0.1)
    view = world.view(1.0, "off")
    assert not np.isfinite(view.y[0])
    renderer = WorldRenderer(WorldSettings())
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        picture = drawn(view, ALL_OVERLAYS, renderer=renderer)
    anchor = screen_point(renderer, 16.0, 17.0)
    assert picture.get_at(anchor)[:3] == arena_colours.MOUNT_PIN
    assert changed_box(drawn(empty_view()), picture) == (
        anchor[0] - 16,
        anchor[1] - 5,
        anchor[0] + 15,
        anchor[1] + 2,
    )


@pytest.mark.parametrize("precision", ["float64", "float32"])
def test_a_few_bodies_placed_one_by_one_are_the_pixels_of_the_array_path(
    precision: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Up to `FEW_BODIES` bodies are placed in plain floats, more with numpy: the same pixels,
    sprite frames and sizes either way (springs swinging, shots turning, some half outside)."""
    import game.view.world_renderer as world_renderer

    settings = WorldSettings(precision=precision)
    world = demo_world(settings)
    for _ in range(97):
        world.step(1 / 60)
    view = world.view(0.37, "interpolate")
    assert 2 <= view.kind.size <= world_renderer.FEW_BODIES
    few = drawn(view, renderer=WorldRenderer(settings))
    monkeypatch.setattr(world_renderer, "FEW_BODIES", 0)
    rect = (-40, -30, SIZE[0], SIZE[1])  # the arena partly off the surface
    assert pixels(drawn(view, renderer=WorldRenderer(settings))).tobytes() == pixels(few).tobytes()
    shifted_few = pygame.Surface(SIZE)
    monkeypatch.setattr(world_renderer, "FEW_BODIES", 16)
    WorldRenderer(settings).draw(shifted_few, view, rect)
    shifted_many = pygame.Surface(SIZE)
    monkeypatch.setattr(world_renderer, "FEW_BODIES", 0)
    WorldRenderer(settings).draw(shifted_many, view, rect)
    assert pixels(shifted_many).tobytes() == pixels(shifted_few).tobytes()
