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

from pydantic import AfterValidator, Field, PrivateAttr, model_validator

from game import limits
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
from game.config.problems import NOTHING, SettingError
from game.config.section import Section
from game.config.toml_files import TomlArray
from game.knobs import Where
from game.printable import printable
from game.workshop.files.display_section import DisplaySection
from game.workshop.files.network_section import NetworkSection
from game.workshop.files.timeline import CHANGE_KNOBS, PlayerInput, SettingsChange, Stall, Timeline
from timestep_lab import NS_PER_MS, NS_PER_SECOND

MAX_SECONDS = limits.MAX_RUN_SECONDS
MAX_STALL_MS = 60_000
MAX_SIM_SECONDS = limits.MAX_RUN_SECONDS

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


def _stall_end(stall: StallEntry) -> Fraction:
    return stall.at + stall.ms / 1000


class LeftOut(NamedTuple):
    """What a run of a scenario's first N seconds left out of it (`Scenario.first`)."""

    stalls: int = 0
    changes: int = 0
    inputs: int = 0
    seconds: Fraction = Fraction(0)
    """The seconds asked for (`--seconds`)."""
    ends_at: Fraction | None = None
    """Where the run's frames end, when a stall that would last past the end was cut there."""

    def __bool__(self) -> bool:
        return bool(self.stalls or self.changes or self.inputs)

    def line(self) -> str:
        """One line for stderr: what was left out, and where the frames end if a stall was cut."""
        counts = ", ".join(
            f"{count} {word}{'' if count == 1 else 's'}"
            for count, word in (
                (self.stalls, "stall"),
                (self.changes, "change"),
                (self.inputs, "input"),
            )
        )
        said = f"the scenario's first {decimal_text(self.seconds)} s: left out {counts}"
        if self.ends_at is not None:
            said += (
                f" (a stall from {decimal_text(self.ends_at)} s lasts past the end: no frame ends "
                f"while it holds, so the run's frames end at {decimal_text(self.ends_at)} s)"
            )
        return said

    def record(self) -> dict[str, int]:
        """`--json`'s `"left_out"`."""
        return {"stalls": self.stalls, "changes": self.changes, "inputs": self.inputs}


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
    _left_out: LeftOut = PrivateAttr(default_factory=lambda: LeftOut())

    @property
    def left_out(self) -> LeftOut:
        """What `first` left out of the scenario's file (nothing, unless `--seconds` cut it)."""
        return self._left_out

    def first(self, seconds: Fraction, *, cut_stalls: bool = True) -> Scenario:
        """The first `seconds` of this scenario, as `--seconds` shorter than it asks: a stall,
        change or input that starts at or after the end is left out. A stall that starts before
        the end and would end after it is cut at the run's end: no frame ends while the machine
        is stopped, so the run's frames end where it starts (`LeftOut.ends_at`).

        `cut_stalls=False` keeps the stalls as they are, for stalls given on the command line
        (`--stall`) beside `--seconds`: those are the user's own, and one that outlasts the run
        is refused (`timeline_problems`) rather than quietly cut."""
        end = seconds
        straddling = [stall.at for stall in self.stalls if stall.at < end <= _stall_end(stall)]
        if cut_stalls and straddling and min(straddling) > 0:
            end = min(straddling)
        scale = max(
            [self.scheduler.time_scale, *(c.time_scale for c in self.changes if c.time_scale)]
        )
        stalls = self.stalls
        if cut_stalls:
            stalls = tuple(stall for stall in self.stalls if _stall_end(stall) < end)
        changes = tuple(change for change in self.changes if change.at < end)
        inputs = tuple(entry for entry in self.inputs if entry.sim_second < end * scale)
        cut = self.model_copy(
            update={"seconds": end, "stalls": stalls, "changes": changes, "inputs": inputs}
        )
        cut._left_out = LeftOut(
            len(self.stalls) - len(stalls),
            len(self.changes) - len(changes),
            len(self.inputs) - len(inputs),
            seconds,
            end if end < seconds else None,
        )
        return cut

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
