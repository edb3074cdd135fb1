"""`Picture`: everything one frame draws, and the way back from a pixel to the world.

The loop decides *when* to draw (after a frame, or every 250 ms of a long catch-up); this
decides *what* goes where: it asks the HUD for the frame's layout, draws each lane's world into
its arena at the lane's alpha, labels the lanes of a split screen, then draws the HUD on top.
It reads the session and never writes to it.
"""

from __future__ import annotations

import pygame

from game.app.judder_watch import JudderWatch
from game.app.keymap import HELP_ROWS
from game.hud.banner import spiral_advice
from game.hud.hud import Hud
from game.hud.layout import ScreenLayout
from game.limits import SMALLEST_WINDOW
from game.session.lane import Lane
from game.session.readout import Readout
from game.session.session import LabSession
from game.view.avatar import draw_avatar
from game.view.sprites import SpriteBook
from game.view.world_renderer import WorldRenderer
from game.world.render_view import RenderView

BACKGROUND = (10, 13, 22)
"""Behind the arena, where the HUD sits."""
Pixel = tuple[int, int]


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
    ) -> tuple[RenderView, ...]:
        """Draw a frame, and return the view of each lane it drew. While catching up, the
        worlds are drawn as they are (alpha 1): the frame's plan is not settled yet, so there
        is no alpha to blend by. `views` draws those instead (the rewatch)."""
        surface.fill(BACKGROUND)
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
        arenas = [pygame.Rect(a.x, a.y, a.w, a.h) for a in layout.arenas]
        renderers = self.renderers(session)
        for lane, view, renderer, rect in zip(lanes, views, renderers, arenas, strict=True):
            if rect.width > 0 and rect.height > 0:  # a window too small leaves no arena
                renderer.draw(surface, view, rect, controls)
                avatar = lane.world.avatar
                if live and avatar is not None:  # the rewatch keeps no avatar
                    plan = lane.scheduler.last_plan
                    alpha = 1.0 if catching_up or plan is None else plan.alpha
                    interpolate = controls.interpolation == "interpolate"
                    draw_avatar(surface, renderer.camera, avatar, alpha, interpolate)
        self.hud.spiral_hint = spiral_advice(readout.lanes)
        histories = tuple(lane.history for lane in lanes)
        self.hud.draw(surface, readout, histories, layout, self.judder.meters)
        return views

    def _too_small(self, surface: pygame.Surface) -> None:
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
                plan = lane.scheduler.last_plan
                alpha = plan.alpha if plan else 1.0
                view = lane.world.view(alpha, session.controls.interpolation)
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


def _live_view(lane: Lane, interpolation: str, catching_up: bool) -> RenderView:
    plan = lane.scheduler.last_plan
    alpha = 1.0 if catching_up or plan is None else plan.alpha
    return lane.world.view(alpha, interpolation)
