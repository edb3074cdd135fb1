"""`Picture`: everything one frame draws, and the way back from a pixel to the world.

The loop decides *when* to draw (after a frame, or every 250 ms of a long catch-up); this
decides *what* goes where: it asks the HUD for the frame's layout, draws each lane's world into
its arena at the lane's alpha, labels the lanes of a split screen, then draws the HUD on top.
It reads the session and never writes to it.
"""

from __future__ import annotations

from fractions import Fraction

import pygame

from game.app.judder_watch import JudderWatch
from game.app.keymap import HELP_ROWS
from game.display.screen_marks import screen_marks
from game.hud.banner import spiral_advice
from game.hud.hud import PRESENTATION_FACTOR, Hud
from game.hud.layout import ScreenLayout
from game.hud.screen_strip import draw_screen_strip, line_width, strip_height
from game.limits import SMALLEST_WINDOW
from game.session.controls import Controls
from game.session.history import FrameHistory
from game.session.lane import Lane
from game.session.readout import Readout
from game.session.session import LabSession
from game.view.avatar import draw_avatar
from game.view.camera import Camera
from game.view.sprites import SpriteBook
from game.view.world_renderer import WorldRenderer
from game.world.render_view import RenderView

BACKGROUND = (10, 13, 22)
"""Behind the arena, where the HUD sits."""
Pixel = tuple[int, int]
STRIP_REFRESHES = 40
"""How many refreshes the simulated screen's strip shows: some fifteen 60 Hz ticks at 165 Hz."""


class Picture:
    """The arenas, the lane labels and the HUD of one window."""

    def __init__(self, graph_seconds: float = 5.0) -> None:
        self.hud = Hud(
            help_rows=HELP_ROWS,
            graph_seconds=graph_seconds,
            backdrop=BACKGROUND,  # `draw` fills the window with it first: see `Hud`
        )
        self._sprites = SpriteBook()
        self._renderers: list[WorldRenderer] = []
        self.judder = JudderWatch()
        """The live judder meter: the loop shows it every frame drawn after its ticks, and the
        readout's DISPLAY rows are its figures (`game.app.judder_watch`); its traces go to the
        graph's judder strip."""
        self.keeps_window = True
        """Whether a frame may start from what the last one left on the window (`draw`);
        False redraws every pixel every frame (the tests compare the two)."""
        self._shown: tuple[object, ...] | None = None
        """What the last frame left on the window (`_showing`)."""

    def layout(self, size: tuple[int, int], readout: Readout) -> ScreenLayout:
        """Where the HUD and the arenas go (`game.hud.layout`): nothing covers an arena."""
        return self.hud.lay_out(size, readout)

    def draw(
        self,
        surface: pygame.Surface,
        session: LabSession,
        readout: Readout,
        *,
        catching_up: bool = False,
        views: tuple[RenderView, ...] | None = None,
        histories: tuple[FrameHistory, ...] = (),
    ) -> tuple[RenderView, ...]:
        """Draw a frame, and return the view of each lane it drew. While catching up, the
        worlds are drawn as they are (alpha 1): the frame's plan is not settled yet, so there
        is no alpha to blend by. `views` draws those instead, and the graphs `histories`
        instead of the lanes' own (the rewatch).

        A frame laid out as the last one drawn on the same surface starts from what that one
        left (`_showing`): the backdrop is where it was, so the window is not filled again,
        each arena restores from its backdrop only what the last frame drew over it, and the
        HUD copies only what changed. The rewatch's graphs come from copied histories, so a
        rewatched frame is always drawn afresh."""
        controls = session.controls
        lanes = session.lanes
        live = views is None
        if views is None:
            views = tuple(_live_view(lane, controls.interpolation, catching_up) for lane in lanes)
        width, height = surface.get_size()
        if width < SMALLEST_WINDOW[0] or height < SMALLEST_WINDOW[1]:
            self._too_small(surface)  # the game runs on; there is just no room to show it
            return views
        layout = self.layout(surface.get_size(), readout)
        showing = _showing(surface, layout, readout)
        kept = self.keeps_window and showing is not None and showing == self._shown
        kept = kept and not histories
        self._shown = showing
        if not kept:
            surface.fill(BACKGROUND)
        arenas = [pygame.Rect(a.x, a.y, a.w, a.h) for a in layout.arenas]
        renderers = self.renderers(session)
        for lane, view, renderer, rect in zip(lanes, views, renderers, arenas, strict=True):
            if rect.width > 0 and rect.height > 0:  # a window too small leaves no arena
                renderer.draw(surface, view, rect, controls, kept=kept)
                if live:  # the rewatch keeps no avatar
                    avatar = _draw_avatar(surface, lane, renderer.camera, rect, controls,
                                          catching_up)  # fmt: skip
                    renderer.drew(avatar)
        if live and arenas and arenas[0].width > 0:
            strip = self._simulated_screen(surface, arenas[0], readout.presentation)
            if strip is not None:  # a kept frame restores the backdrop under it
                renderers[0].drew(strip)
        self.hud.spiral_hint = spiral_advice(readout.lanes)
        histories = histories or tuple(lane.history for lane in lanes)
        self.hud.draw(surface, readout, histories, layout, self.judder.meters, kept=kept)
        return views

    def _simulated_screen(
        self, surface: pygame.Surface, arena: pygame.Rect, big: bool
    ) -> pygame.Rect | None:
        """On a lesson step's simulated screen, lane 1's last refreshes as marks over the top
        of its arena (`game.hud.screen_strip`): that screen's judder on any projector. Returns
        where the strip was drawn, if it was."""
        if not self.judder.simulated or not self.judder.meters:
            return None
        meter = self.judder.meters[0]
        scales = (PRESENTATION_FACTOR, 1.0) if big else (1.0,)
        for scale in scales:  # the strip takes at most half the arena, or is not drawn
            fonts = self.hud.fonts_at(self.hud.scale * scale)
            pad = fonts.px(8)
            area = pygame.Rect(arena.x + pad, arena.y + pad, arena.w - 2 * pad, strip_height(fonts))
            if 2 * area.h <= arena.h and area.w > 0:
                break
        else:
            return None
        refreshes, drawn = meter.recent(STRIP_REFRESHES)
        time_scale = Fraction(meter.time_scale)
        width = line_width(area, fonts)
        marks = screen_marks(refreshes.tolist(), drawn.tolist(), time_scale, width)
        title = f"{float(meter.refresh_hz):g} Hz screen (simulated), refresh by refresh"
        draw_screen_strip(surface, area, marks, title, fonts)
        return area

    def _too_small(self, surface: pygame.Surface) -> None:
        self._shown = None
        surface.fill(BACKGROUND)
        text = f"make the window at least {SMALLEST_WINDOW[0]} x {SMALLEST_WINDOW[1]}"
        words = self.hud.fonts_at(0.5).small.render(text, (230, 230, 240))
        surface.blit(words, (4, 4))

    def renderers(self, session: LabSession) -> list[WorldRenderer]:
        """One renderer per lane (each keeps its own trails), sharing the painted sprites."""
        lanes = session.lanes
        while len(self._renderers) < len(lanes):
            settings = lanes[len(self._renderers)].world.settings
            self._renderers.append(WorldRenderer(settings, self._sprites))
        del self._renderers[len(lanes) :]
        return self._renderers

    def world_point(self, session: LabSession, pixel: Pixel) -> tuple[float, float] | None:
        """The arena point under a pixel, in metres, or None outside every arena."""
        for renderer in self.renderers(session):
            if renderer.covers(pixel) and renderer.camera.in_arena(pixel):
                return renderer.to_world(pixel)
        return None

    def body_at(self, session: LabSession, pixel: Pixel) -> int | None:
        """The id of the body drawn under a pixel (as the last frame showed it), if any."""
        for lane, renderer in zip(session.lanes, self.renderers(session), strict=True):
            if renderer.covers(pixel) and renderer.camera.in_arena(pixel):
                view = lane.world.view(lane.alpha, session.controls.interpolation)
                return view.body_at(*renderer.to_world(pixel))
        return None

    def to_pixels(
        self, session: LabSession, x: float, y: float, arena: pygame.Rect
    ) -> tuple[int, int]:
        """Where a point in metres is on screen in the first lane's arena (scripted clicks)."""
        camera = self.renderers(session)[0].camera
        camera.resize((arena.x, arena.y, arena.width, arena.height))
        px, py = camera.to_screen(x, y)
        return int(px), int(py)


def _showing(
    surface: pygame.Surface, layout: ScreenLayout, readout: Readout
) -> tuple[object, ...] | None:
    """What a frame leaves on the window, as far as the next frame cares: the surface (its
    pixels where they were, at the same size) under this layout. None when the help or a menu
    is drawn over the arenas: the next frame must not start from that."""
    if readout.show_help or readout.menu is not None:
        return None
    return (surface, surface._pixels_address, surface.get_size(), layout)


def _draw_avatar(
    surface: pygame.Surface,
    lane: Lane,
    camera: Camera,
    arena: pygame.Rect,
    controls: Controls,
    catching_up: bool,
) -> pygame.Rect:
    """The lane's avatar, if its world has one, within its arena as every body is (the next
    frame redraws the arena, and nothing outside it); returns where it was drawn."""
    avatar = lane.world.avatar
    if avatar is None:
        return pygame.Rect(0, 0, 0, 0)
    alpha = 1.0 if catching_up else lane.alpha
    interpolate = controls.interpolation == "interpolate"
    previous_clip = surface.get_clip()
    surface.set_clip(previous_clip.clip(arena))
    try:
        return draw_avatar(surface, camera, avatar, alpha, interpolate)
    finally:
        surface.set_clip(previous_clip)


def _live_view(lane: Lane, interpolation: str, catching_up: bool) -> RenderView:
    alpha = 1.0 if catching_up else lane.alpha
    return lane.world.view(alpha, interpolation)
