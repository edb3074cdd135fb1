"""`Picture`: everything one frame draws, and the way back from a pixel to the world.

The loop decides *when* to draw (after a frame, or every 250 ms of a long catch-up); this
decides *what* goes where: it asks the HUD for the frame's layout, draws each lane's world into
its arena at the lane's alpha, labels the lanes of a split screen, then draws the HUD on top.
It reads the session and never writes to it.

A frame is drawn in two halves: what every frame must do whether or not anyone sees it (the
views, the trails' dots, the graphs' bars), then its pixels, painted from a `FrameToPaint`
that holds everything they read. The game paints at once; a clip paints only the frames its
camera films, when it films them (`on_demand`, `game.app.filming`).
"""

from __future__ import annotations

from fractions import Fraction
from typing import NamedTuple

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
from game.view.avatar import BODY, JOINER_BODY, draw_avatar
from game.view.camera import Camera
from game.view.sprites import SpriteBook
from game.view.world_renderer import WorldRenderer
from game.world.avatar import Avatar
from game.world.render_view import RenderView

BACKGROUND = (10, 13, 22)
"""Behind the arena, where the HUD sits."""
Pixel = tuple[int, int]
STRIP_REFRESHES = 40
"""How many refreshes the simulated screen's strip shows: some fifteen 60 Hz ticks at 165 Hz."""


class ScreenRefreshes(NamedTuple):
    """What a simulated screen's strip shows, read off lane 1's live judder meter when the frame
    is drawn: its last refreshes and the drawn time on screen at each."""

    refreshes: list[int]
    drawn: list[int]
    time_scale: Fraction
    refresh_hz: float


class FrameToPaint(NamedTuple):
    """One frame as drawn, with all its painting reads (`Picture.draw`): values, or copies of
    what the game may change before the frame is painted. (A NamedTuple: one a frame.)"""

    surface: pygame.Surface
    readout: Readout
    views: tuple[RenderView, ...]
    controls: Controls
    """The overlay switches and the interpolation (a frozen value)."""
    avatars: tuple[tuple[tuple[Avatar, ...], float] | None, ...]
    """Each lane's avatar and the alpha it is drawn at; none for the rewatch, which keeps none."""
    screen: ScreenRefreshes | None
    layout: ScreenLayout | None
    """Laid out when the frame was drawn, if it had to be then; else laid out when painted."""
    laid_hint: str
    """The spiral hint the layout is made with: the last frame's, as it always was."""
    hint: str
    """This frame's spiral hint, on the banner."""
    rewatched: bool
    """Its graphs come from copied histories: it is always painted afresh."""


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
        self.on_demand = False
        """False paints every frame as it is drawn (the game). True keeps the frame drawn and
        paints it only when something looks at the window (`paint_pending`): a clip at 30 fps
        of a lesson at 144 fps films about one frame in five (`game.app.filming`)."""
        self._pending: FrameToPaint | None = None
        """The frame drawn but not painted yet (`on_demand`)."""
        self._shown: tuple[object, ...] | None = None
        """What the last frame painted left on the window (`_showing`)."""
        self.drawn = 0
        self.painted = 0
        """Frames drawn, and painted: the same in the game, fewer painted in a clip."""

    def layout(self, size: tuple[int, int], readout: Readout) -> ScreenLayout:
        """Where the HUD and the arenas go (`game.hud.layout`): nothing covers an arena. (The
        panel is laid out for `readout`: a frame waiting to be painted is painted first.)"""
        self.paint_pending()
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

        Drawing is two halves: what every frame must do whether or not anyone sees it
        (`_record`: the views, the trails' dots, the graphs' bars, the HUD's type size), and
        the pixels (`_paint`). The game paints at once; `on_demand`, the frame waits as a
        `FrameToPaint` until `paint_pending`, or is dropped when the next one is drawn."""
        frame = self._record(surface, session, readout, catching_up, views, histories)
        if self.on_demand:
            self._pending = frame
        else:
            self._paint(frame)
        return frame.views

    def paint_pending(self) -> None:
        """Paint the frame drawn last, if it is still waiting (`on_demand`): before anything
        reads the window's pixels (the camera, a screenshot) or the renderers' cameras."""
        frame, self._pending = self._pending, None
        if frame is not None:
            self._paint(frame)

    def _record(
        self,
        surface: pygame.Surface,
        session: LabSession,
        readout: Readout,
        catching_up: bool,
        views: tuple[RenderView, ...] | None,
        histories: tuple[FrameHistory, ...],
    ) -> FrameToPaint:
        """The frame's every-frame work, in the order a painted frame does it, and the frame
        to paint. The trails are made of every frame drawn, and the graphs bin the history as
        it is when a bar completes: both need the layout, so it is made now when they do."""
        self.drawn += 1
        controls, lanes = session.controls, session.lanes
        live, rewatched = views is None, bool(histories)
        if views is None:
            views = tuple(_live_view(lane, controls.interpolation, catching_up) for lane in lanes)
        size = surface.get_size()
        laid_hint = self.hud.spiral_hint
        layout = None
        if size[0] >= SMALLEST_WINDOW[0] and size[1] >= SMALLEST_WINDOW[1]:
            renderers = self.renderers(session)
            trailed = controls.trails or not all(each.trails.empty for each in renderers)
            if trailed or readout.show_graphs:
                layout = self.hud.lay_out(size, readout)
            if trailed and layout is not None:
                for renderer, view, arena in zip(renderers, views, layout.arenas, strict=True):
                    if arena.w > 0 and arena.h > 0:
                        renderer.record(view, controls)
            histories = histories or tuple(lane.history for lane in lanes)
            self.hud.record(size, readout, histories, layout, self.judder.meters)
            self.hud.spiral_hint = spiral_advice(readout.lanes)  # laid out with the last one's
        avatars = tuple(_posed(lane, catching_up) for lane in lanes) if live else ()
        screen = _screen_refreshes(self.judder) if live else None
        hints = laid_hint, self.hud.spiral_hint
        return FrameToPaint(
            surface, readout, views, controls, avatars, screen, layout, *hints, rewatched
        )

    def _paint(self, frame: FrameToPaint) -> None:
        """The frame's pixels, from what it kept alone. A frame laid out as the last one painted
        on the same surface starts from what that one left (`_showing`): the backdrop is where
        it was, so the window is not filled again, each arena restores from its backdrop only
        what the last frame drew over it, and the HUD copies only what changed."""
        self.painted += 1
        surface, readout = frame.surface, frame.readout
        width, height = size = surface.get_size()
        if width < SMALLEST_WINDOW[0] or height < SMALLEST_WINDOW[1]:
            self._too_small(surface)  # the game runs on; there is just no room to show it
            return
        layout = frame.layout
        if layout is None:
            self.hud.spiral_hint = frame.laid_hint
            layout = self.hud.lay_out(size, readout)
            self.hud.spiral_hint = frame.hint
        showing = _showing(surface, layout, readout)
        kept = self.keeps_window and showing is not None and showing == self._shown
        kept = kept and not frame.rewatched
        self._shown = showing
        if not kept:
            surface.fill(BACKGROUND)
        arenas = [pygame.Rect(a.x, a.y, a.w, a.h) for a in layout.arenas]
        controls = frame.controls
        for index, (view, renderer, rect) in enumerate(
            zip(frame.views, self._renderers, arenas, strict=True)
        ):
            if rect.width > 0 and rect.height > 0:  # a window too small leaves no arena
                renderer.paint(surface, view, rect, controls, kept=kept)
                if frame.avatars:  # the rewatch keeps no avatar
                    avatar = _draw_avatar(
                        surface, frame.avatars[index], renderer.camera, rect, controls
                    )
                    renderer.drew(avatar)
        if frame.screen is not None and arenas and arenas[0].width > 0:
            strip = self._simulated_screen(surface, arenas[0], readout.presentation, frame.screen)
            if strip is not None:  # a kept frame restores the backdrop under it
                self._renderers[0].drew(strip)
        self.hud.paint(surface, readout, layout, kept=kept)

    def _simulated_screen(
        self, surface: pygame.Surface, arena: pygame.Rect, big: bool, screen: ScreenRefreshes
    ) -> pygame.Rect | None:
        """On a lesson step's simulated screen, lane 1's last refreshes as marks over the top
        of its arena (`game.hud.screen_strip`): that screen's judder on any projector. Returns
        where the strip was drawn, if it was."""
        scales = (PRESENTATION_FACTOR, 1.0) if big else (1.0,)
        for scale in scales:  # the strip takes at most half the arena, or is not drawn
            fonts = self.hud.fonts_at(self.hud.scale * scale)
            pad = fonts.px(8)
            area = pygame.Rect(arena.x + pad, arena.y + pad, arena.w - 2 * pad, strip_height(fonts))
            if 2 * area.h <= arena.h and area.w > 0:
                break
        else:
            return None
        width = line_width(area, fonts)
        marks = screen_marks(screen.refreshes, screen.drawn, screen.time_scale, width)
        title = f"{screen.refresh_hz:g} Hz screen (simulated), refresh by refresh"
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
        self.paint_pending()  # the cameras are where the last frame drawn put them
        for renderer in self.renderers(session):
            if renderer.covers(pixel) and renderer.camera.in_arena(pixel):
                return renderer.to_world(pixel)
        return None

    def body_at(self, session: LabSession, pixel: Pixel) -> int | None:
        """The id of the body drawn under a pixel (as the last frame showed it), if any."""
        self.paint_pending()
        for lane, renderer in zip(session.lanes, self.renderers(session), strict=True):
            if renderer.covers(pixel) and renderer.camera.in_arena(pixel):
                view = lane.world.view(lane.alpha, session.controls.interpolation)
                return view.body_at(*renderer.to_world(pixel))
        return None

    def to_pixels(
        self, session: LabSession, x: float, y: float, arena: pygame.Rect
    ) -> tuple[int, int]:
        """Where a point in metres is on screen in the first lane's arena (scripted clicks)."""
        self.paint_pending()
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
    posed: tuple[tuple[Avatar, ...], float] | None,
    camera: Camera,
    arena: pygame.Rect,
    controls: Controls,
) -> pygame.Rect:
    """The lane's avatars at its alpha, if its world has any (a match's has two: the joiner's
    in its own colour), within its arena as every body is (the next frame redraws the arena,
    and nothing outside it); returns where they were drawn."""
    if posed is None:
        return pygame.Rect(0, 0, 0, 0)
    avatars, alpha = posed
    interpolate = controls.interpolation == "interpolate"
    previous_clip = surface.get_clip()
    surface.set_clip(previous_clip.clip(arena))
    try:
        drawn = [
            draw_avatar(surface, camera, avatar, alpha, interpolate, body=colour)
            for avatar, colour in zip(avatars, (BODY, JOINER_BODY), strict=False)
        ]
        return drawn[0].unionall(drawn[1:])
    finally:
        surface.set_clip(previous_clip)


def _posed(lane: Lane, catching_up: bool) -> tuple[tuple[Avatar, ...], float] | None:
    """The lane's avatars (frozen values: the first, and a match's joiner's) and the alpha they
    are drawn at, if it has any."""
    world = lane.world
    if world.avatar is None:
        return None
    avatars = (world.avatar,) if world.joiner is None else (world.avatar, world.joiner)
    return avatars, 1.0 if catching_up else lane.alpha


def _screen_refreshes(judder: JudderWatch) -> ScreenRefreshes | None:
    """On a simulated screen, the strip's refreshes as lane 1's meter has them now (the meter
    goes on with the next frame)."""
    if not judder.simulated or not judder.meters:
        return None
    meter = judder.meters[0]
    refreshes, drawn = meter.recent(STRIP_REFRESHES)
    time_scale, hz = Fraction(meter.time_scale), float(meter.refresh_hz)
    return ScreenRefreshes(refreshes.tolist(), drawn.tolist(), time_scale, hz)


def _live_view(lane: Lane, interpolation: str, catching_up: bool) -> RenderView:
    alpha = 1.0 if catching_up else lane.alpha
    return lane.world.view(alpha, interpolation)
