"""`GameLoop`: the real-time loop, and the only owner of the wall clock.

One frame, in order:

    poll events -> actions      (keys become controls, tick-stamped commands, or real stalls)
    measure the wall delta      (the one place the frame's duration is read from the clock)
    session.frame(delta)        (the scheduler plans, the lanes run exactly that many ticks)
    draw the view at alpha      (read-only, interpolated; then the HUD)
    flip, then pace             (sleep, then spin, to the next frame's deadline)

While a long catch-up runs (the spiral of death), the loop still polls events every 100 ms of
stepping and redraws every 250 ms, so the player can switch the policy and get out.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from pathlib import Path

import pygame

from game.app.held_keys import HeldKeys
from game.app.keymap import HELP_ROWS, action_for
from game.app.lesson_guide import LessonGuide
from game.app.pacer import FramePacer
from game.app.script import Press, ScriptPlayer
from game.app.window import Window
from game.clock.units import NS_PER_MS, NS_PER_SECOND
from game.clock.wall import Clock
from game.hud.hud import Hud
from game.hud.lane_label import LaneLabel
from game.scheduler.plan import StepPlan
from game.session.controls import Act, Action
from game.session.readout import Readout
from game.session.session import LabSession
from game.view.scene import SceneRenderer
from game.view.sprites import SpriteBook

POLL_EVERY_NS = 100 * NS_PER_MS
"""While stepping, look at the event queue at least this often."""
REDRAW_EVERY_NS = 250 * NS_PER_MS
"""While stepping, redraw at least this often, so the window never looks frozen."""
MESSAGE_NS = 3 * NS_PER_SECOND
ESCAPE_ACTS = frozenset(
    {
        Act.NEXT_POLICY, Act.PREVIOUS_POLICY, Act.SET_POLICY, Act.LESS_COST, Act.MORE_COST,
        Act.FEWER_CATCH_UP, Act.MORE_CATCH_UP, Act.SLOWER, Act.FASTER, Act.CYCLE_TICK_RATE,
        Act.TOGGLE_PAUSE, Act.TOGGLE_SPLIT, Act.RESET, Act.NEXT_LESSON_STEP, Act.QUIT,
    }
)  # fmt: skip
"""Keys that stop a long catch-up at once: they change how the next frames handle time.
Others (a screenshot, the graphs, the help...) wait for the frame to finish."""
BACKGROUND = (10, 13, 22)
"""Behind the arena, where the HUD sits."""
SPIRAL_HINT = "press 3 (drop) or 2 (clamp), or Shift+C for less step cost"
SPLIT_SPIRAL_HINT = "B picks the lane, then 3 (drop) or 2 (clamp); Shift+C: less step cost"


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


class GameLoop:
    """Ties the wall clock, the session, the renderer and the HUD into a playable game."""

    def __init__(
        self,
        session: LabSession,
        window: Window,
        clock: Clock,
        options: LoopOptions | None = None,
        *,
        lessons: LessonGuide | None = None,
    ) -> None:
        self.session = session
        self.window = window
        self.clock = clock
        self.options = options or LoopOptions()
        self.pacer = FramePacer(session.controls.fps_cap or None)
        self.hud = Hud(
            help_rows=HELP_ROWS,
            spiral_hint=SPIRAL_HINT,
            graph_seconds=self.options.graph_seconds,
        )
        self._sprites = SpriteBook()
        self._lane_label = LaneLabel(self.hud.fonts_at(1.0))
        self._renderers: list[SceneRenderer] = []
        self.frames = 0
        self.quitting = False
        self._held = HeldKeys()
        self.lessons = lessons or LessonGuide()
        self._script = ScriptPlayer(self.options.script)
        self._started_ns = clock.now_ns()
        self._last_ns = self._started_ns
        self._last_wait_ns = 0
        self._work_ns = 0
        self._frame_ns = 0
        self._auto_paused = False
        self._message = ""
        self._message_until = 0
        self._deferred: list[Action] = []
        self._escaping = False
        self._lesson_band = 0
        """Height kept free above the arena for a lesson's caption (measured when drawn)."""
        self._last_poll = 0
        self._last_redraw = 0
        self._ticks_this_frame = 0
        self._screenshot_requested = False
        self.last_plans: tuple[StepPlan, ...] = ()

    # -- running ----------------------------------------------------------------------------------

    def run(self) -> int:
        """Run until quit (or `frames` frames); print the final tick and state hash."""
        self.warm_up()
        while self.run_frame():
            pass
        if self.options.screenshot is not None:
            self.save_screenshot(self.options.screenshot)
        if self.options.print_hash:
            world = self.session.lanes[0].world
            print(f"final tick {world.tick} state {world.state_hash()}", flush=True)
        return 0

    def warm_up(self) -> None:
        """Draw once before the clock starts: fonts and sprites are painted on first use, and
        that one-off cost should not arrive as a long first frame (and dropped time)."""
        self._draw()  # the HUD learns its layout, which decides where the arena goes,
        self._draw()  # so the second draw paints the sprites at the size the game will use
        pygame.display.flip()
        pygame.event.pump()
        self._started_ns = self._last_ns = self.clock.now_ns()

    def run_frame(self) -> bool:
        """One frame. Returns False once the game should stop."""
        self._script.post_due(self.clock.now_ns() - self._started_ns, self._to_pixels)
        for event in pygame.event.get():
            self._handle(event)
        if self.quitting:
            return False
        now = self.clock.now_ns()
        elapsed, self._last_ns = now - self._last_ns, now
        self._frame_ns = elapsed
        self._work_ns = max(0, elapsed - self._last_wait_ns)
        self._last_poll = self._last_redraw = now
        self._ticks_this_frame = 0
        self._escaping = False
        self.last_plans = self.session.frame(elapsed, self._before_tick)
        deferred, self._deferred = self._deferred, []
        for action in deferred:
            self.perform(action)
        self._draw()
        pygame.display.flip()
        if self._screenshot_requested:
            self._screenshot_requested = False
            self._save_numbered_screenshot()
        self.frames += 1
        cap = self.session.controls.fps_cap or None
        if self.pacer.cap_fps != cap:  # F, a lesson or a script changed the render-rate cap
            self.pacer.set_cap(cap)
        self._last_wait_ns = self.pacer.wait(self.clock)
        if self.options.frames is not None and self.frames >= self.options.frames:
            return False
        return not self.quitting

    def _before_tick(self) -> bool:
        """Asked before every tick: keep the window alive, allow an escape, spend the step cost.

        Events are read at least every 100 ms of stepping and the screen redrawn every 250 ms,
        so even a frame that owes thousands of ticks (the spiral) answers the keyboard.
        """
        if self._escaping or self.quitting:
            return False
        cost = self.session.controls.step_cost_ns
        self._ticks_this_frame += 1
        if cost or self._ticks_this_frame % 64 == 0:  # cheap ticks: look at the clock less
            now = self.clock.now_ns()
            if now - self._last_poll >= POLL_EVERY_NS:
                self._last_poll = now
                for event in pygame.event.get():
                    self._handle(event, during_ticks=True)
                if self._escaping or self.quitting:
                    return False
            if now - self._last_redraw >= REDRAW_EVERY_NS:
                self._last_redraw = now
                self._draw(catching_up=True)
                pygame.display.flip()
        if cost:
            self.clock.busy_wait_ns(cost)  # the tick's real CPU work, paid only if it runs
        return True

    # -- events and actions -----------------------------------------------------------------------

    def _handle(self, event: pygame.event.Event, during_ticks: bool = False) -> None:
        self._held.observe(event)
        action: Action | None = None
        if event.type == pygame.QUIT:
            action = Action(Act.QUIT)
        elif event.type == pygame.KEYDOWN:
            if self.lessons.key_in_menu(event.key, self.session):
                self._escaping = self._escaping or during_ticks  # a lesson turns the knobs
                return
            action = action_for(event.key, self._held.mods(getattr(event, "mod", 0)))
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            target = self._world_point(event.pos)
            if target is not None:
                action = Action(Act.FIRE, x=target[0], y=target[1])
        elif event.type in (pygame.WINDOWFOCUSLOST, pygame.WINDOWMINIMIZED):
            self._focus_lost()
        elif event.type in (pygame.WINDOWFOCUSGAINED, pygame.WINDOWRESTORED):
            self._focus_back()
        elif event.type == pygame.VIDEORESIZE:
            self.window.resized(event.w, event.h)
        if action is None:
            return
        if during_ticks:
            # Carry it out once the frame settles; if it changes how time is handled, stop
            # stepping now (the unrun ticks go back to the scheduler): that is the way out.
            self._deferred.append(action)
            self._escaping = self._escaping or action.act in ESCAPE_ACTS
        else:
            self.perform(action)

    def perform(self, action: Action) -> None:
        """Carry out one action: the app's own (quit, stall, screen) or the session's."""
        act = action.act
        if act is Act.QUIT:
            self.quitting = True
        elif act is Act.STALL:
            self.clock.block_ns(action.number * NS_PER_MS)  # really block, like a GC pause
            self._say(f"stalled the loop for {action.number} ms")
        elif act is Act.SCREENSHOT:
            self._screenshot_requested = True
        elif act is Act.FULLSCREEN:
            self.window.toggle_fullscreen()
        else:
            if act is Act.LESSON_MENU:
                message = self.lessons.toggle_menu()
            elif act is Act.NEXT_LESSON_STEP:
                message = self.lessons.next_step(self.session)
            else:
                message = self.session.apply(action)
            if message:
                self._say(message)

    def _focus_lost(self) -> None:
        if self.options.pause_on_focus_loss and not self.session.paused:
            self.session.set_paused(True)
            self._auto_paused = True
            self._escaping = True  # no point finishing a catch-up nobody is watching
            self._say("paused: the window lost focus")

    def _focus_back(self) -> None:
        if self._auto_paused:
            self._auto_paused = False
            self.session.set_paused(False)
            self._say("resumed (the hidden time was not billed)")

    def _say(self, message: str) -> None:
        self._message = message
        self._message_until = self.clock.now_ns() + MESSAGE_NS

    # -- drawing ----------------------------------------------------------------------------------

    def _lane_rects(self) -> list[pygame.Rect]:
        """Where each lane's arena goes: the window right of the HUD panel, so the panel never
        hides the cannon; one lane on top, or two stacked in split screen."""
        width, height = self.window.size
        panel = self.hud.layout.panel
        left = panel.right + 8 if panel.width and panel.right < width // 2 else 0
        area = pygame.Rect(left, 0, width - left, height)
        graphs = self.hud.layout.graphs
        if left and graphs.height and graphs.top > height // 2:
            area.height = graphs.top - 6  # keep the arenas clear of the graphs below them
        if self.lessons.run is not None and self._lesson_band:
            area.height -= self._lesson_band  # a lesson's caption stays above the arena
            area.top += self._lesson_band
        if len(self.session.lanes) == 1:
            return [pygame.Rect(area.x, area.y, area.width, min(area.height, area.width * 9 // 16))]
        half = area.height // 2
        return [
            pygame.Rect(area.x, area.y, area.width, half),
            pygame.Rect(area.x, area.y + half, area.width, area.height - half),
        ]

    def _lane_renderers(self) -> list[SceneRenderer]:
        """One renderer per lane (each keeps its own trails), sharing the painted sprites."""
        lanes = self.session.lanes
        while len(self._renderers) < len(lanes):
            settings = lanes[len(self._renderers)].world.settings
            self._renderers.append(SceneRenderer(settings, self._sprites))
        del self._renderers[len(lanes) :]
        return self._renderers

    def _world_point(self, pixel: tuple[int, int]) -> tuple[float, float] | None:
        """The arena point under a pixel, in metres, or None outside every arena."""
        for renderer in self._lane_renderers():
            if renderer.covers(pixel) and renderer.camera.in_arena(pixel):
                return renderer.to_world(pixel)
        return None

    def _draw(self, catching_up: bool = False) -> None:
        surface = self.window.surface
        surface.fill(BACKGROUND)
        controls = self.session.controls
        lanes = self.session.lanes
        for lane, renderer, rect in zip(
            lanes, self._lane_renderers(), self._lane_rects(), strict=True
        ):
            plan = lane.scheduler.last_plan
            alpha = 1.0 if catching_up or plan is None else plan.alpha
            view = lane.world.view(alpha, controls.interpolation)
            renderer.draw(surface, view, rect, controls)
        if len(lanes) > 1:
            for index, rect in enumerate(self._lane_rects()):
                policy = controls.policies[index]
                focused = index == controls.focus_lane
                text = f"lane {index + 1}: {policy}" + ("  (B: keys here)" if focused else "")
                self._lane_label.draw(surface, rect, text, focused)
        readout = self.readout(catching_up)
        self.hud.spiral_hint = SPLIT_SPIRAL_HINT if len(lanes) > 1 else SPIRAL_HINT
        self.hud.draw(surface, readout, self.session.lanes[0].history)
        if self.lessons.run is not None and readout.caption == self.lessons.caption():
            self._lesson_band = self.hud.layout.caption.bottom + 6

    def readout(self, catching_up: bool = False) -> Readout:
        controls = self.session.controls
        history = self.session.lanes[0].history.window(1.0)
        span = float(history.wall_s[-1] - history.wall_s[0]) if len(history) > 1 else 0.0
        fps = (len(history) - 1) / span if span > 0 else 0.0
        caption = ""
        if catching_up:
            caption = f"catching up: {self._ticks_this_frame} ticks run in this frame so far"
        elif self._message and self.clock.now_ns() < self._message_until:
            caption = self._message
        else:
            caption = self.lessons.caption()
        return Readout(
            lanes=self.session.lane_readouts(),
            fps=fps,
            frame_ms=self._frame_ns / NS_PER_MS,
            work_ms=self._work_ns / NS_PER_MS,
            frame_budget_ms=1000 / controls.fps_cap if controls.fps_cap else 0.0,
            render_cap=str(controls.fps_cap) if controls.fps_cap else "uncapped",
            vsync=self.window.vsync_active,
            step_cost_ms=float(controls.step_cost_ms),
            interpolation=controls.interpolation,
            presentation=controls.presentation,
            show_graphs=controls.graphs,
            show_help=controls.help,
            caption=caption,
            menu=self.lessons.menu(),
        )

    # -- screenshots ------------------------------------------------------------------------------

    def save_screenshot(self, path: Path) -> Path:
        path.parent.mkdir(parents=True, exist_ok=True)
        pygame.image.save(self.window.surface, str(path))
        return path

    def _save_numbered_screenshot(self) -> None:
        stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
        path = self.options.screenshot_dir / f"timestep-lab-{stamp}-{self.frames}.png"
        try:
            self._say(f"screenshot saved: {self.save_screenshot(path)}")
        except (OSError, pygame.error) as problem:
            self._say(f"screenshot failed: {problem}")

    def _to_pixels(self, x: float, y: float) -> tuple[int, int]:
        """Where a point in metres is on screen (for scripted clicks), in the first lane."""
        camera = self._lane_renderers()[0].camera
        rect = self._lane_rects()[0]
        camera.resize((rect.x, rect.y, rect.width, rect.height))
        px, py = camera.to_screen(x, y)
        return int(px), int(py)
