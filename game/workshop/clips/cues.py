"""`ScenarioCues`: a scenario's timeline, handed to the real game loop as a clip reaches it.

`simulate` plays a scenario on the virtual clock with no pixels; a clip of the same scenario runs
the real `GameLoop` (its pacer, its drawing, its HUD) on a `ManualClock`, and these cues put the
scenario into that loop the way `game.workshop.runs.runner` puts it into a headless run:

- the settings: the scenario's `[scheduler]`, `[load]` and `[world]`, and its render rate as the
  game's render-rate cap (the real pacer holds it, so it must be a whole number of fps);
- changes and stalls, at the first frame boundary at or after their wall second (a stall blocks
  the clock there, so the next frame measures it, as a real hitch is measured);
- inputs, right before their tick, in the middle of a frame if need be;
- the frame's drawing: `render_cost_ms` plus the seeded jitter is each frame's work. The real
  pacer sleeps away what fits in the frame's budget, so a jitter that fits leaves the frame
  times as they were; `simulate` adds jitter on top of the budget instead.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from game.clock.virtual import FrameJitter
from game.config.exact import decimal_text
from game.config.model import GameConfig
from game.errors import BadInput
from game.session.controls import Act, Action, ControlsChange
from game.workshop.files.scenario import Scenario
from game.workshop.files.timeline import PlayerInput, SettingsChange, TickEvent
from game.workshop.runs.simulation import scenario_config
from timestep_lab import NS_PER_MS, round_ns

DRAWING_NS = NS_PER_MS
"""What drawing one frame is taken to cost in a clip of a lesson or a script: without it an
uncapped frame rate would let no time pass at all on a clock that only moves when spent."""


def whole_fps(render_fps: Fraction, where: str) -> int:
    """The render rate as the game's cap: the pacer counts whole frames per second."""
    if render_fps.denominator != 1:
        raise BadInput.error(
            f"{where}: render_fps {decimal_text(render_fps)} is not a whole number; the game's "
            "pacer, which a clip runs, holds whole frame rates only"
        )
    return int(render_fps)


class ScenarioCues:
    """What the scenario wants done now: changes and stalls by wall time, inputs by tick."""

    def __init__(self, scenario: Scenario, path: Path | None = None) -> None:
        where = str(path) if path is not None else "scenario"
        self.fps_cap = whole_fps(scenario.clock.render_fps, where)
        for change in scenario.changes:
            if change.render_fps is not None:
                whole_fps(change.render_fps, f"{where}: the change at {decimal_text(change.at)} s")
        self.scenario = scenario
        timeline = scenario.timeline()
        self._changes = list(timeline.changes)
        self._stalls = list(timeline.stalls)
        self._inputs = list(timeline.tick_events)
        self._render_cost_ns = scenario.clock.render_cost_ms * NS_PER_MS
        jitter_ns = int(scenario.clock.jitter_ms * NS_PER_MS)
        self._jitter = FrameJitter(jitter_ns, scenario.clock.jitter_seed) if jitter_ns else None

    def config(self, width: int, height: int) -> GameConfig:
        """The game's settings for the clip: the scenario's, at this window size and frame rate."""
        config = scenario_config(self.scenario)
        render = config.render.model_copy(
            update={"width": width, "height": height, "fps_cap": self.fps_cap}
        )
        return config.model_copy(update={"render": render})

    def changes_due(self, since_start_ns: int) -> list[ControlsChange]:
        """The timed changes whose wall second has come, as the controls they turn."""
        due = []
        while self._changes and self._changes[0].at_ns <= since_start_ns:
            due.append(self._turn(self._changes.pop(0)))
        return due

    def stall_due_ns(self, since_start_ns: int) -> int:
        """The stalls whose wall second has come, added up (whole ns)."""
        total = Fraction(0)
        while self._stalls and self._stalls[0].at_ns <= since_start_ns:
            total += self._stalls.pop(0).length_ns
        return round_ns(total)

    def inputs_due(self, next_tick: int) -> list[Action | ControlsChange]:
        """The inputs stamped for `next_tick` (or missed before it), in order."""
        due = []
        while self._inputs and self._inputs[0].tick <= next_tick:
            due.append(_input(self._inputs.pop(0)))
        return due

    def frame_work_ns(self) -> int:
        """This frame's drawing: the render cost plus the next draw of the seeded jitter."""
        jitter = self._jitter.draw_ns() if self._jitter is not None else 0
        return round_ns(self._render_cost_ns) + jitter

    def _turn(self, change: SettingsChange) -> ControlsChange:
        """The change for the game: a scenario's render rate becomes the game's frame cap."""
        cost, fps = change.render_cost_ms, change.render_fps
        if cost is not None:
            self._render_cost_ns = cost * NS_PER_MS
        turned = change.controls().turned()
        if fps is not None:
            turned["fps_cap"] = int(fps)
        return ControlsChange(**turned)


def _input(event: TickEvent) -> Action | ControlsChange:
    match event:
        case PlayerInput(action="fire", x=x, y=y):
            return Action(Act.FIRE, x=x, y=y)
        case PlayerInput(action="reset"):
            return Action(Act.RESET)
        case PlayerInput(action="integrator", integrator=name) if name is not None:
            return ControlsChange(integrator=name)
        case _:
            raise ValueError(f"a scenario cannot hold {event!r}")
