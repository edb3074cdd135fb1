"""Scenario files: a workshop demo written down, so it plays out the same on every laptop.

A scenario is a TOML file in `configs/scenarios/`, validated like the game's config (strict,
frozen, unknown keys refused, one `FILE: [dotted.key] message (got VALUE)` line per problem).
It reuses the config's own sections, so `[scheduler]`, `[load]` and `[world]` mean exactly what
they mean in `configs/default.toml`, and adds what only a headless run has:

    title = "A single 200 ms stall"
    seconds = 6                      # wall seconds to simulate

    [scheduler]                      # as in the config: hz, policy, max_steps, ...
    policy = "drop"

    [clock]                          # the virtual clock: how long frames last
    render_fps = 144
    render_cost_ms = 1
    jitter_ms = 0                    # seeded noise added to every frame
    jitter_seed = 0

    [[stalls]]                       # at wall second 2, the machine stops for 200 ms
    at = 2
    ms = 200

    [[changes]]                      # at wall second 4, knobs turn (any of policy, hz,
    at = 4                           # max_steps, time_scale, step_cost_ms, render_fps,
    policy = "uncapped"              # render_cost_ms, paused, conditioning)
    conditioning = "snap"            # as the U key: the new mode takes over the account

    [[inputs]]                       # the player fires at simulated second 1.5:
    sim_second = 1.5                 # tick floor(1.5 x hz), whatever the frame rate
    action = "fire"                  # or "reset", or "integrator" with integrator = "verlet"

Wall and simulated time are kept apart on purpose. Stalls and changes happen to the *machine*, at
a wall second. Inputs happen to the *simulation*, at a tick: `sim_second` is converted to tick
`floor(sim_second x hz)` at the scenario's tick rate, so they land on the same tick at 30 fps and
at 240 fps, in slow motion and after a pause.

A change of `conditioning` is the U key pressed at that second: the first frame that ends at or
after it has its measured delta conditioned by the new mode, and the new mode inherits the
conditioning account (`conditioning_carry_ns`) as it stands, so no time is made or lost in the
switch (raw pays the account back in that frame). The mode's parameters (`snap_tolerance_ms`,
`average_frames`, `jitter_fix`) are `[scheduler]` settings for the whole run, as in the game,
where U switches the mode and the config sets its parameters.
"""

from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path
from typing import Annotated, Literal, NamedTuple, Self

from pydantic import AfterValidator, Field, model_validator

from game.config.exact import decimal_text, exact_number
from game.config.knob_fields import with_knobs, with_section
from game.config.knob_types import ChangeKnobs, ClockKnobs
from game.config.model import (
    InputSection,
    IntegratorName,
    LoadSection,
    SchedulerSection,
    WorldSection,
)
from game.config.problems import NOTHING, Problem, SettingError
from game.config.section import Section
from game.config.toml_files import TomlArray
from game.knobs import Where
from game.limits import MAX_RUN_FRAMES, MAX_RUN_TICKS
from game.printable import printable
from game.workshop.files.display_section import DisplaySection
from game.workshop.files.network_section import NetworkSection
from game.workshop.files.timeline import CHANGE_KNOBS, PlayerInput, SettingsChange, Stall, Timeline
from timestep_lab import NS_PER_MS, NS_PER_SECOND, hz_to_step_ns

MAX_SECONDS = 3_600
"""The longest run a scenario may ask for: an hour of wall time."""
MAX_STALL_MS = 60_000
MAX_SIM_SECONDS = 86_400

WallSecond = Annotated[Fraction, exact_number(at_least=0, at_most=MAX_SECONDS, example="2.5")]
RunSeconds = Annotated[Fraction, exact_number(more_than=0, at_most=MAX_SECONDS, example="10")]
SimSecond = Annotated[Fraction, exact_number(at_least=0, at_most=MAX_SIM_SECONDS, example="1.5")]
StallMs = Annotated[Fraction, exact_number(more_than=0, at_most=MAX_STALL_MS, example="200")]


def _finite(value: float) -> float:
    if not math.isfinite(value):
        raise ValueError("must be a finite number")
    return value


Metres = Annotated[float, AfterValidator(_finite)]


@with_section("clock")
class ClockSection(ClockKnobs):
    """`[clock]`: the virtual clock, which computes each frame's length instead of measuring it.

    A frame lasts max(1 / render_fps, render_cost + ticks of the last frame x step cost), plus a
    jitter drawn from a seeded generator, plus any stall. Its knobs are the table's `clock.*`.
    """


class StallEntry(Section):
    """`[[stalls]]`: the machine stops for `ms` at wall second `at`."""

    at: WallSecond
    ms: StallMs


@with_knobs(Where.CHANGE)
class ChangeEntry(ChangeKnobs):
    """`[[changes]]`: at wall second `at`, the knobs given here turn (the others stay).

    They are the knobs a player turns with a key between two frames (`Where.CHANGE` in
    `game.knobs`), so a change is applied the way a key press is (`LabSession.change`), and a
    run with changes is a run someone could have played. A change of `conditioning` is U: the
    new mode takes over the account as it stands; its parameters are `[scheduler]`'s, which no
    key changes, so they are not here.
    """

    at: WallSecond

    @model_validator(mode="after")
    def _changes_something(self) -> Self:
        if all(getattr(self, name) is None for name in type(self).model_fields if name != "at"):
            raise SettingError(
                "at", "a change needs at least one setting besides at, such as policy", self.at
            )
        return self


class InputEntry(Section):
    """`[[inputs]]`: what the player does at simulated second `sim_second` (see the module)."""

    sim_second: SimSecond
    action: Literal["fire", "reset", "integrator"]
    x: Metres | None = None
    """Fire at this point (metres, with y), as a click does; without it, along the aim."""
    y: Metres | None = None
    integrator: IntegratorName | None = None
    """The integrator to switch to (action "integrator" only)."""

    @model_validator(mode="after")
    def _fits_the_action(self) -> Self:
        if (self.x is None) != (self.y is None):
            missing = "y" if self.y is None else "x"
            raise SettingError(missing, "is needed too: a target is a point, x and y", NOTHING)
        if self.action != "fire" and self.x is not None:
            raise SettingError(
                "x", f"is only for action 'fire' (the action is {self.action!r})", self.x
            )
        if (self.action == "integrator") != (self.integrator is not None):
            if self.integrator is None:
                raise SettingError("integrator", "is required by action 'integrator'", NOTHING)
            raise SettingError("integrator", "is only for action 'integrator'", self.integrator)
        return self


class Scenario(Section):
    """One scenario file. `Scenario()` is ten seconds of the game's defaults at 144 fps."""

    title: Annotated[str, Field(max_length=80)] = ""
    """A few words for tables and figures."""
    about: Annotated[str, Field(max_length=400)] = ""
    """What to watch for: printed above the summary."""
    seconds: RunSeconds = Fraction(10)
    """Wall seconds to simulate."""
    scheduler: SchedulerSection = SchedulerSection()
    load: LoadSection = LoadSection()
    world: WorldSection = WorldSection()
    input: InputSection = InputSection()
    clock: ClockSection = ClockSection()
    display: DisplaySection | None = None
    """The virtual display at the end of the loop (`game.workshop.files.display_section`), if
    any."""
    network: NetworkSection | None = None
    """A remote peer and rollback (`game.workshop.files.network_section`), if any."""
    stalls: TomlArray[StallEntry] = ()
    changes: TomlArray[ChangeEntry] = ()
    inputs: TomlArray[InputEntry] = ()

    def timeline(self) -> Timeline:
        """The scenario's events, in wall nanoseconds and ticks."""
        hz = self.scheduler.hz
        return Timeline(
            changes=tuple(_settings_change(change) for change in self.changes),
            stalls=tuple(
                Stall(stall.at * NS_PER_SECOND, stall.ms * NS_PER_MS) for stall in self.stalls
            ),
            tick_events=tuple(
                PlayerInput(
                    tick=math.floor(entry.sim_second * hz),
                    action=entry.action,
                    x=entry.x,
                    y=entry.y,
                    integrator=entry.integrator,
                )
                for entry in self.inputs
            ),
        )

    def heading(self, path: Path | None, fallback: str) -> str:
        """What to call the run on screen: its title, else its file's name, else `fallback`;
        printable (`game.printable`: a title holding a line break or an escape sequence cannot
        split a heading or colour the terminal)."""
        if self.title:
            return printable(self.title)
        return printable(path.stem.replace("_", " ")) if path is not None else fallback

    @property
    def until_ns(self) -> Fraction:
        return self.seconds * NS_PER_SECOND


def _settings_change(entry: ChangeEntry) -> SettingsChange:
    turned = {name: getattr(entry, name) for name in CHANGE_KNOBS}
    return SettingsChange(entry.at * NS_PER_SECOND, **turned)


def timeline_problems(scenario: Scenario) -> list[Problem]:
    """Checks across the file that one entry cannot make on its own, so that a run that cannot be
    done as asked is refused before it starts instead of being cut short without a word.

    - A timed change of tick rate must leave the max frame at least one step long, as
      `[scheduler]` itself must; otherwise the scheduler would refuse it in the middle of the run.
    - A stall must end before the run does (a frame that would pass the end is never run).
    - The run may simulate at most `MAX_RUN_TICKS` ticks and take at most `MAX_RUN_FRAMES`
      frames (`run_size`): a command within them finishes in under a minute.
    """
    problems = [*_stalls_past_the_end(scenario), *_too_many_ticks(scenario)]
    frame_ns = scenario.scheduler.max_frame_ns
    for index, change in enumerate(scenario.changes):
        if change.hz is not None and hz_to_step_ns(change.hz) > frame_ns:
            step_ms = Fraction(math.ceil(1_000_000 / change.hz), 1000)
            problems.append(
                Problem(
                    ("changes", index, "hz"),
                    f"makes the step {decimal_text(step_ms)} ms, longer than "
                    f"scheduler.max_frame_ms ({decimal_text(scenario.scheduler.max_frame_ms)})",
                    change.hz,
                )
            )
    return problems


def _stalls_past_the_end(scenario: Scenario) -> list[Problem]:
    problems = []
    for index, stall in enumerate(scenario.stalls):
        end = stall.at + stall.ms / 1000
        if end >= scenario.seconds:
            problems.append(
                Problem(
                    ("stalls", index),
                    f"ends at {decimal_text(end)} s, not before the run's "
                    f"{decimal_text(scenario.seconds)} s: a stall must end before the run does",
                    involves=(("seconds",),),
                )
            )
    return problems


class RunSize(NamedTuple):
    """The most one run of a scenario can take, and the rates that bound it."""

    ticks: int
    """Ticks simulated, the re-simulated ones (`resimulated`) among them."""
    frames: int
    hz: Fraction
    time_scale: Fraction
    render_fps: Fraction
    resimulated: int = 0
    """Ticks a `[network]` run may simulate again (`NetworkSection.resimulated_at_most`): each
    costs a step, as a new tick does."""


def run_size(scenario: Scenario) -> RunSize:
    """No policy runs more ticks than the scaled wall time holds (seconds x time scale x hz), and
    no frame is shorter than 1 / render_fps, each at the largest value the run reaches; with
    vsync, no more frames than the panel refreshes, plus the queue's and the one being drawn.
    A `[network]` run may also simulate ticks again (a rollback), as many as its settings allow
    at most."""
    changes = scenario.changes
    hz = max([scenario.scheduler.hz, *(c.hz for c in changes if c.hz is not None)])
    scale = max([scenario.scheduler.time_scale, *(c.time_scale for c in changes if c.time_scale)])
    fps = max([scenario.clock.render_fps, *(c.render_fps for c in changes if c.render_fps)])
    ticks = math.ceil(scenario.seconds * scale * hz)
    display, queued = scenario.display, 0
    if display is not None and display.vsync:  # a full queue waits for a vblank to take a frame
        fps = min(fps, max(display.refresh_hz, display.vrr_max_hz or 0))
        queued = display.queue_depth + 1  # and the one being drawn
    network = scenario.network
    again = 0 if network is None else network.resimulated_at_most(ticks)
    frames = math.ceil(scenario.seconds * fps) + queued
    return RunSize(ticks + again, frames, hz, scale, fps, again)


def work_refusal(scenario: Scenario, runs: int = 1) -> str | None:
    """Why `runs` runs of `scenario` are more work than one command may do (`MAX_RUN_TICKS`,
    `MAX_RUN_FRAMES`, all the runs together), or None when they are not."""
    size = run_size(scenario)
    who, times = ("the run", "") if runs == 1 else (f"{runs} runs", f"{runs} x ")
    seconds = f"{times}{decimal_text(scenario.seconds)} s"
    if runs * size.ticks > MAX_RUN_TICKS:
        again = ""
        if size.resimulated:
            window = scenario.network.prediction_window if scenario.network else 0
            again = (
                f", and {runs * size.resimulated:,} re-simulated: each tick may roll back its "
                f"last {window} (network.prediction_window)"
            )
        return (
            f"would let {who} simulate up to {runs * size.ticks:,} ticks ({seconds} x time "
            f"scale {decimal_text(size.time_scale)} x {decimal_text(size.hz)} Hz{again}), more "
            f"than {MAX_RUN_TICKS:,} (the limit)"
        )
    if runs * size.frames > MAX_RUN_FRAMES:
        return (
            f"would let {who} take up to {runs * size.frames:,} frames ({seconds} x "
            f"{decimal_text(size.render_fps)} fps), more than {MAX_RUN_FRAMES:,} (the limit)"
        )
    return None


def _too_many_ticks(scenario: Scenario) -> list[Problem]:
    refusal = work_refusal(scenario)
    if refusal is None:
        return []
    return [
        Problem(
            ("seconds",),
            refusal,
            involves=(
                ("scheduler", "hz"),
                ("scheduler", "time_scale"),
                ("clock", "render_fps"),
                ("changes",),
            ),
        )
    ]
