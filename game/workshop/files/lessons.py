"""Guided lessons: a workshop's script, played inside the game, one step at a time.

A lesson is a TOML file in `configs/lessons/`, validated like the config (strict, frozen,
unknown keys refused, one `FILE: [dotted.key] message (got VALUE)` line per problem):

    number = 2
    title = "Fixed step, no interpolation"

    [[steps]]
    caption = "Ten ticks a second, drawn as they are: the balls jump from tick to tick."
    keys = "press I to interpolate"
    watch = ["interpolation"]        # the HUD rows the caption and keys talk about
    press = ["i"]                    # the keys named above, as a script names them
    fire = true                      # fire once as the step starts: something to watch at once
    reset_books = true               # count dropped time, lag, sim and wall from this step on
    [steps.settings]                 # any of the fields of `StepSettings` below
    hz = 10
    interpolation = "off"
    [steps.expect]                   # where `press` leaves the controls (the rest unchanged)
    interpolation = "interpolate"
    [steps.demo]                     # the step played by itself, for `lessons --check`
    seconds = 2                      # and the handout's clip: this long, on the lesson clock,
    keys = [{ at_s = 1, key = "i" }] # pressing these keys of `press` at these seconds
    [[steps.claims]]                 # a figure the caption claims, measured from the demo
    measure = "pictures_per_s"       # one of `game.vocabulary.CLAIM_MEASURES`
    expected = 10
    tolerance = 0.5
    to_s = 1                         # over the frames up to 1 s (also: from_s, lane, refresh_hz)

Each step starts clean: from the lesson's own baseline (every knob a lesson may set at its
default, unpaused, one lane), turned by the settings of that step and of every step before it,
never from what was on before the lesson or pressed since (`LessonRun.controls`). It shows its
caption (what to watch) and its keys (what to press), and waits for N. `press` and `expect`
make the keys text checkable: a test starts every step, presses exactly those keys through the
game's own key map, and checks that the controls end at `expect`, so a caption can never again
promise what its key does not do.
`watch` names the rows of the HUD the caption and the keys talk about (`HUD_ROWS`: the panel's
labels, and "graphs"): the HUD keeps them on screen in every mode and at every window size.

`demo` and `claims` make the caption provable: `python -m game lessons --check` plays each
step's demo on a clock the game moves itself (`game.app.demo`), measures each claimed figure
(`game.workshop.claims`) and prints the claim beside the measurement.

`LessonRun` is the pure state of a lesson being played; the game loop only shows its caption
and applies its controls.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path
from typing import Annotated, Literal, Self

from pydantic import AfterValidator, Field, model_validator

from game.config.choices import choices_text, one_of
from game.config.exact import decimal_text, exact_number
from game.config.knob_fields import with_knobs
from game.config.knob_types import LessonKnobs
from game.config.model import ConditioningName, InputModelName, PolicyName
from game.config.problems import NOTHING, SettingError
from game.config.section import Section
from game.config.toml_files import TomlArray, load_toml_model
from game.errors import BadInput
from game.knobs import Scope, Where, knobs_where
from game.resources import CAPTURES, LESSONS
from game.session.controls import Controls, partner_policy
from game.vocabulary import (
    CLAIM_MEASURES,
    HUD_ROWS,
    KEY_MODIFIERS,
    KEY_NAMES,
    MEASURES_FOR_A_SCREEN,
)

MAX_DEMO_SECONDS = 10
"""A demo shows one effect: a few seconds of game time (the check plays every step's)."""
DemoSecond = Annotated[Fraction, exact_number(at_least=0, at_most=MAX_DEMO_SECONDS, example="1.5")]

LESSONS_DIR = LESSONS


def _shipped_capture(name: str) -> str:
    """A file name in `assets/captures/` (`hitch.csv`), never a path."""
    if Path(name).name != name or not (CAPTURES / name).is_file():
        shipped = tuple(sorted(path.name for path in CAPTURES.glob("*.csv")))
        raise ValueError(f"must be a capture shipped in assets/captures/ ({choices_text(shipped)})")
    return name


CaptureName = Annotated[str, AfterValidator(_shipped_capture)]


@with_knobs(Where.LESSON)
class StepSettings(LessonKnobs):
    """The controls a step sets; anything left out is as the lesson's baseline and its earlier
    steps left it (`LessonRun.controls`), never as the player had it. Every knob a
    lesson may set (`Where.LESSON` in `game.knobs`) is a field, under its short name; the second
    lane's are declared here."""

    second_policy: PolicyName | None = None
    """Splits the screen, with this policy on the second lane."""
    split: bool | None = None
    """True splits the screen (the second lane as V would choose it), False joins it."""
    second_conditioning: ConditioningName | None = None
    """Delta-time conditioning of lane 2 in split screen (lane 1's, unless this says)."""
    second_input_model: InputModelName | None = None
    """The input model of the second lane (shown when the screen is split)."""
    capture: CaptureName | None = None
    """A capture shipped in `assets/captures/`, by its file name: the step's frames last what
    its frames did (`game.app.captures`), round and round, for as long as the step shows."""

    def applied_to(self, controls: Controls) -> Controls:
        """`controls` with this step's settings turned."""
        changes: dict[str, object] = {
            knob.control: knob.control_value(getattr(self, knob.short))
            for knob in knobs_where(Where.LESSON)
            if knob.scope is not Scope.LANE and getattr(self, knob.short) is not None
        }
        if self.conditioning is not None or self.second_conditioning is not None:
            first_mode = self.conditioning or controls.conditioning[0]
            changes["conditioning"] = (first_mode, self.second_conditioning or first_mode)
        if self.input_model is not None or self.second_input_model is not None:
            first_model, second_model = controls.input_models
            changes["input_models"] = (
                self.input_model or first_model,
                self.second_input_model or second_model,
            )
        changes.update(self._lanes(controls))
        return replace(controls, **changes)  # type: ignore[arg-type]

    def _lanes(self, controls: Controls) -> dict[str, object]:
        """The policies, and so the split: a second policy or `split` decide it."""
        first = self.policy or controls.policies[0]
        if self.second_policy is not None:
            policies: tuple[str, ...] = (first, self.second_policy)
        elif self.split is True and not controls.split:
            policies = (first, partner_policy(first))
        elif self.split is False or (self.split is None and not controls.split):
            policies = (first,)
        elif self.policy is not None:
            policies = (first, *controls.policies[1:])
        else:
            return {}
        return (
            {"policies": policies} if len(policies) > 1 else {"policies": policies, "focus_lane": 0}
        )


def lesson_baseline(controls: Controls) -> Controls:
    """`controls` with every knob a lesson may set (`Where.LESSON`) back at its default, the
    pause off and one lane: what a lesson starts from, whatever was on (a 20 ms step cost, slow
    motion, a split screen). The rest (presentation mode, help) is the room's, and stays."""
    fresh = Controls()
    turned = {knob.control: getattr(fresh, knob.control) for knob in knobs_where(Where.LESSON)}
    return replace(controls, **turned, paused=False, focus_lane=0)


class ExpectedControls(StepSettings):
    """Where a step's keys leave the controls: `StepSettings`, and pause (P is a step's key)."""

    paused: bool | None = None

    def applied_to(self, controls: Controls) -> Controls:
        turned = super().applied_to(controls)
        return turned if self.paused is None else replace(turned, paused=self.paused)


def _key_press(name: str) -> str:
    """A key as a script names it: "e", "period", "shift+s"."""
    *modifiers, key = name.split("+")
    if key not in KEY_NAMES or any(modifier not in KEY_MODIFIERS for modifier in modifiers):
        raise ValueError(
            f"must be a key name like 'e', 'period' or 'shift+s' (modifiers "
            f"{choices_text(KEY_MODIFIERS)})"
        )
    return name


KeyPress = Annotated[str, AfterValidator(_key_press)]
HudRow = Annotated[str, AfterValidator(one_of(*HUD_ROWS))]


class DemoKey(Section):
    """One key of a demo, pressed `at_s` seconds of game time after the step starts."""

    at_s: DemoSecond
    key: KeyPress


class Demo(Section):
    """The step played by itself: its keys at set times, on the lesson clock."""

    seconds: Annotated[Fraction, exact_number(more_than=0, at_most=MAX_DEMO_SECONDS, example="3")]
    """How long the demo runs, in seconds of game time."""
    keys: TomlArray[DemoKey] = ()
    """Keys of the step's `press`, in time order."""
    jitter_ms: Annotated[Fraction, exact_number(at_least=0, at_most=4, example="1.5")] = Fraction(0)
    """Each frame's drawing takes 1 ms and up to this much more (seeded): the measured frame
    times wobble around the cap, as a real machine's do, while the frames stay on schedule."""

    @model_validator(mode="after")
    def _keys_in_time(self) -> Self:
        times = [key.at_s for key in self.keys]
        if times != sorted(times) or any(at >= self.seconds for at in times):
            end = decimal_text(self.seconds)
            raise SettingError(
                "keys",
                f"must be in time order, each before the end at {end} s",
                [decimal_text(at) for at in times],
            )
        return self


class Claim(Section):
    """A figure the caption claims: measured from the demo, it must be `expected` within
    `tolerance`."""

    measure: Annotated[str, AfterValidator(one_of(*CLAIM_MEASURES))]
    """What is measured (`game.vocabulary.CLAIM_MEASURES`)."""
    expected: Annotated[float, Field(allow_inf_nan=False)]
    tolerance: Annotated[float, Field(ge=0, allow_inf_nan=False)]
    """Both finite: `inf` would hold any measurement, `nan` none, and neither says anything."""
    lane: Literal[1, 2] = 1
    from_s: DemoSecond = Fraction(0)
    """Measure the frames after this second of the demo..."""
    to_s: DemoSecond | None = None
    """...up to this one (the demo's end if left out)."""
    refresh_hz: (
        Annotated[Fraction, exact_number(at_least=1, at_most=1000, example="165")] | None
    ) = None
    """The screen a judder figure is for."""

    @model_validator(mode="after")
    def _refresh_for_judder(self) -> Self:
        needs = self.measure in MEASURES_FOR_A_SCREEN
        if needs != (self.refresh_hz is not None):
            says = "is needed by" if needs else "is only for"
            raise SettingError("refresh_hz", f"{says} a judder figure", self.refresh_hz)
        if self.to_s is not None and self.to_s <= self.from_s:
            raise SettingError("to_s", "must be after from_s", self.to_s, involves=("from_s",))
        return self


class LessonStep(Section):
    caption: Annotated[str, Field(min_length=1, max_length=400)]
    """What to watch."""
    keys: Annotated[str, Field(min_length=1, max_length=160)]
    """What to press, in words, naming every key of `press`."""
    watch: TomlArray[HudRow] = ()
    """The HUD rows the caption and `keys` talk about: never hidden while the step shows."""
    press: TomlArray[KeyPress] = ()
    """The keys of `keys`, in order, from the state the step starts in."""
    expect: ExpectedControls = ExpectedControls()
    """The controls once `press` is pressed; anything left out is as the step set it."""
    reset: bool = False
    """Reset the scene when the step starts (a clean picture to watch)."""
    reset_books: bool = False
    """Open fresh books when the step starts, in every lane: dropped time, lag, sim and wall
    time, the spiral light and the graphs count from the step's start, not from earlier play."""
    fire: bool = False
    """Fire once when the step starts, so a slow cannon (every 4.5 s at 10 Hz) shows at once."""
    settings: StepSettings = StepSettings()
    demo: Demo | None = None
    """The step played by itself, for the check and the handout's clip."""
    claims: TomlArray[Claim] = ()
    """The figures the caption claims, measured from the demo."""

    @model_validator(mode="after")
    def _demo_presses_its_keys(self) -> Self:
        if self.claims and self.demo is None:
            raise SettingError("claims", "need a [steps.demo] to be measured from", NOTHING)
        named = set(self.press)
        for key in self.demo.keys if self.demo is not None else ():
            if key.key not in named:
                raise SettingError("demo", "must press only keys of the step's press", key.key)
        return self


class Lesson(Section):
    number: Annotated[int, Field(ge=1, le=99)]
    title: Annotated[str, Field(min_length=1, max_length=80)]
    steps: Annotated[TomlArray[LessonStep], Field(min_length=1)]


def load_lessons(folder: Path = LESSONS_DIR) -> tuple[Lesson, ...]:
    """Every lesson in the folder, by number; a bad file or a repeated number is BadInput. Only
    regular files are read, as `--scenario-dir` reads them: a FIFO or a device named `*.toml`
    would hang the read or never end it, and a folder so named is no lesson."""
    if not folder.is_dir():
        raise BadInput(f"{folder}: the lessons folder is missing")
    files = [path for path in sorted(folder.glob("*.toml")) if path.is_file()]
    lessons = [load_toml_model(path, Lesson) for path in files]
    numbers = [lesson.number for lesson in lessons]
    repeated = sorted({n for n in numbers if numbers.count(n) > 1})
    if repeated:
        raise BadInput(f"{folder}: lesson numbers must be unique (got {repeated[0]} twice)")
    return tuple(sorted(lessons, key=lambda lesson: lesson.number))


def find_lesson(lessons: tuple[Lesson, ...], number: int) -> Lesson:
    for lesson in lessons:
        if lesson.number == number:
            return lesson
    available = ", ".join(str(lesson.number) for lesson in lessons)
    raise BadInput.error(f"there is no lesson {number} (the lessons are {available})")


ROOM_CONTROLS = tuple(
    name
    for name in Controls.__dataclass_fields__
    if name not in {knob.control for knob in knobs_where(Where.LESSON)} | {"paused", "focus_lane"}
)
"""The controls no lesson sets nor reads (presentation mode, help): the room's, kept as they are
(`lesson_baseline`)."""


@dataclass(frozen=True, slots=True)
class LessonRun:
    """A lesson being played: which step is showing."""

    lesson: Lesson
    step: int = 0
    folded: Controls | None = None
    """The settings of every step up to this one, turned in order from `lesson_baseline` of
    fresh controls: carried from step to step (`advanced`), so that walking a lesson of K steps
    turns each step's settings once, not K^2 / 2 times (worked out when the run is made)."""

    def __post_init__(self) -> None:
        if self.folded is None:
            controls = lesson_baseline(Controls())
            for step in self.lesson.steps[: self.step + 1]:
                controls = step.settings.applied_to(controls)
            object.__setattr__(self, "folded", controls)

    @property
    def current(self) -> LessonStep:
        return self.lesson.steps[self.step]

    @property
    def last(self) -> bool:
        return self.step == len(self.lesson.steps) - 1

    def advanced(self) -> LessonRun | None:
        """The next step, or None when the lesson is over."""
        if self.last:
            return None
        following = self.lesson.steps[self.step + 1].settings.applied_to(self._folded())
        return replace(self, step=self.step + 1, folded=following)

    def controls(self, free_play: Controls) -> Controls:
        """The controls this step starts with: `lesson_baseline(free_play)`, then the settings
        of every step up to this one, in order (a step's keys text starts where the steps before
        it left the controls, and never where the player did). A step's settings read and turn
        only the knobs the baseline sets, so this is the fold from fresh controls (`folded`)
        with the room's own controls (`ROOM_CONTROLS`) as `free_play` has them."""
        room = {name: getattr(free_play, name) for name in ROOM_CONTROLS}
        return replace(self._folded(), **room)

    def _folded(self) -> Controls:
        assert self.folded is not None, "worked out when the run is made (`__post_init__`)"
        return self.folded

    def caption(self) -> str:
        step = self.current
        where = f"Lesson {self.lesson.number}, step {self.step + 1}/{len(self.lesson.steps)}"
        after = "N: next step" if not self.last else "N: end the lesson"
        return f"{where}: {step.caption}  [{step.keys}; {after}]"
