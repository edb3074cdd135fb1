"""The frame protocol under random play: a hypothesis state machine over a pure `LabSession`.

Frames of random length (0 to 3 s) are begun, stepped a random number of ticks, handed a few
random inputs at that tick (an action, a change of controls, a lesson step, a teleport, a call
to `set_controls`, which must be refused), stepped on, sometimes stopped, and finished; between
frames come more inputs, pauses, splits and lessons. After every rule:

- no frame is left open, every lane's books balance with `==`, and its world, scheduler and books
  agree on the tick;
- the lanes do what the controls say (their number, policies, tick rate, M, scale, alpha, pause).

The session is recorded as the game records it (`SessionRecorder` wired into `session_from`, as
`play` does), and at the end the recording replays, through the `replay` command, to the same
final tick and state hash. A session that runs ticks under the `variable` policy cannot replay
exactly (its ticks are as long as the frames were: docs/recording.md), so its
recording ends right before lane 1's first such tick, and replays to that tick and hash.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import tempfile
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from game.commands import replay
from game.config.loading import load_config
from game.from_config import session_from
from game.knobs import KNOBS, Move
from game.session.controls import (
    Act,
    Action,
    ControlsChange,
)
from game.session.frame import FrameOrderError
from game.session.session import LabSession
from game.vocabulary import (
    INTEGRATOR_NAMES as INTEGRATOR_ORDER,
)
from game.vocabulary import (
    INTERPOLATION_NAMES as INTERPOLATIONS,
)
from game.vocabulary import (
    POLICY_NAMES as POLICY_ORDER,
)
from game.vocabulary import (
    RENDER_CAPS as FPS_CAPS,
)
from game.vocabulary import (
    STEP_COSTS_MS,
    TICK_RATES,
    TIME_SCALES,
)
from game.workshop.files.lessons import LessonStep
from game.workshop.files.recording import SessionRecorder
from tests.helpers import lanes_out_of_step, shipped_lessons, unbalanced_lanes
from timestep_lab import NS_PER_MS, NS_PER_SECOND, AlphaMode

MAX_TICKS_A_FRAME = 240
"""A frame still owing ticks after this many is stopped (as quitting would): the rest go back to
the schedulers. It keeps an uncapped 3 s frame at 120 Hz and 4x speed (1,440 ticks) cheap."""

LOOP_ACTS = frozenset({Act.QUIT, Act.STALL, Act.SCREENSHOT, Act.FULLSCREEN, Act.LESSON_MENU,
                       Act.NEXT_LESSON_STEP})  # fmt: skip
"""Acts the game loop carries out itself; every other act is the session's (`apply`)."""


@dataclass(frozen=True, slots=True)
class LessonStepInput:
    """A lesson entering one of its steps, as `LessonGuide` does it."""

    lesson: int
    step: int

    @property
    def settings(self) -> LessonStep:
        (lesson,) = (each for each in shipped_lessons() if each.number == self.lesson)
        return lesson.steps[self.step]


@dataclass(frozen=True, slots=True)
class TeleportInput:
    body_id: int
    x: float
    y: float


@dataclass(frozen=True, slots=True)
class SetControlsInput:
    """Every control turned at once (`set_controls`): refused while a frame is open."""

    change: ControlsChange


Input = Action | ControlsChange | LessonStepInput | TeleportInput | SetControlsInput


def maybe(values: st.SearchStrategy[object]) -> st.SearchStrategy[object]:
    return st.none() | values


turns = st.sampled_from(
    [(knob.path, key.move, key.number) for knob in KNOBS for key in knob.keys]
).map(lambda turn: Action.turn(*turn))
"""Every key of every knob, as the table names them."""
actions = turns | st.sampled_from(
    [act for act in Act if act not in LOOP_ACTS and act is not Act.TURN]
).flatmap(
    lambda act: st.builds(
        Action,
        st.just(act),
        x=st.floats(0, 32) if act is Act.FIRE else st.none(),
        y=st.floats(0, 18) if act is Act.FIRE else st.none(),
    )
)
"""A player's key (or click), as the session receives it."""

changes = st.builds(
    ControlsChange,
    policies=maybe(st.lists(st.sampled_from(POLICY_ORDER), min_size=1, max_size=2).map(tuple)),
    focus_lane=maybe(st.integers(0, 1)),
    hz=maybe(st.sampled_from((*TICK_RATES, Fraction(50)))),
    time_scale=maybe(st.sampled_from(TIME_SCALES)),
    max_steps=maybe(st.integers(1, 12)),
    alpha_mode=maybe(st.sampled_from(AlphaMode)),
    integrator=maybe(st.sampled_from(INTEGRATOR_ORDER)),
    step_cost_ms=maybe(st.sampled_from(STEP_COSTS_MS)),
    interpolation=maybe(st.sampled_from(INTERPOLATIONS)),
    fps_cap=maybe(st.sampled_from(FPS_CAPS)),
    graphs=maybe(st.booleans()),
    paused=st.sampled_from((None,) * 8 + (True, False)),  # now and then (focus lost, back)
    smear_teleports=maybe(st.booleans()),
)
"""A change from a script, a scenario or `--set`: any controls, to any allowed values."""

lesson_steps = st.sampled_from(
    [
        LessonStepInput(lesson.number, step)
        for lesson in shipped_lessons()
        for step in range(len(lesson.steps))
    ]
)
teleports = st.builds(
    TeleportInput, st.integers(0, 12), st.floats(0, 32), st.floats(0, 18)
)  # fmt: skip
inputs: st.SearchStrategy[Input] = st.one_of(
    actions, changes, lesson_steps, teleports, st.builds(SetControlsInput, changes)
)


class FrameProtocol(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self._folder = tempfile.TemporaryDirectory()
        self.record = Path(self._folder.name) / "session.jsonl"
        config = load_config(None)
        self.recorder = SessionRecorder(config, self.record)
        self.session: LabSession = session_from(
            config,
            on_order=self.recorder.on_order,
            on_tick_rate=self.recorder.tick_rate_changed,
        )
        self.recording = True

    def end_the_recording(self) -> None:
        """Write the final tick and state hash now (later commands are not written)."""
        if self.recording:
            self.recording = False
            self.recorded_tick = self.session.lanes[0].world.tick
            self.recorder.finish(self.session.lanes[0].world)

    def carry_out(self, what: Input) -> None:
        session = self.session
        match what:
            case Action():
                session.apply(what)
            case ControlsChange():
                session.change(what)
            case LessonStepInput():
                wanted = session.wanted_controls
                step = what.settings
                session.change(ControlsChange.between(wanted, step.settings.applied_to(wanted)))
                if step.reset:
                    session.apply(Action(Act.RESET))
            case TeleportInput(body_id=body, x=x, y=y):
                session.teleport(body, x, y)
            case SetControlsInput(change=change):
                controls = change.applied_to(session.controls)
                if session.frame_open:
                    before = (session.controls, session.wanted_controls)
                    with pytest.raises(FrameOrderError, match="use change"):
                        session.set_controls(controls)
                    assert (session.controls, session.wanted_controls) == before
                else:
                    session.set_controls(controls)
                    assert session.controls == controls

    # -- rules ------------------------------------------------------------------------------------

    def play_a_frame(
        self, elapsed: int, ticks_before: int, during: list[Input], stop_after: int | None
    ) -> None:
        """Begin, run some ticks, take inputs at that tick, run on (maybe stop), finish."""
        lane = self.session.lanes[0]
        frame = self.session.begin(elapsed)
        if lane.scheduler.settings.policy == "variable" and frame.planned[0].steps:
            self.end_the_recording()  # before lane 1's first tick as long as a frame
        while frame.ticks_run < ticks_before and frame.next_tick():
            pass
        for what in during:
            self.carry_out(what)
        limit = MAX_TICKS_A_FRAME if stop_after is None else frame.ticks_run + stop_after
        while frame.ticks_run < limit and frame.next_tick():
            pass
        unrun = sum(plan.steps for plan in frame.planned) - frame.ticks_run
        event(f"a frame ended with planned ticks unrun: {unrun > 0}")
        frame.stop()
        frame.finish()

    @rule(
        elapsed=st.integers(4 * NS_PER_MS, 50 * NS_PER_MS),
        ticks_before=st.integers(0, 3),
        during=st.lists(inputs, max_size=2),
        stop_after=st.none() | st.integers(0, 3),
    )
    def an_ordinary_frame(
        self, elapsed: int, ticks_before: int, during: list[Input], stop_after: int | None
    ) -> None:
        self.play_a_frame(elapsed, ticks_before, during, stop_after)

    @rule(lengths=st.lists(st.integers(4 * NS_PER_MS, 50 * NS_PER_MS), min_size=1, max_size=30))
    def frames_go_by(self, lengths: list[int]) -> None:
        """Plain play: frames with nothing pressed."""
        for elapsed in lengths:
            self.play_a_frame(elapsed, 0, [], None)

    @rule(
        elapsed=st.integers(50 * NS_PER_MS, 3 * NS_PER_SECOND),
        ticks_before=st.integers(0, 40),
        during=st.lists(inputs, max_size=3),
        stop_after=st.none() | st.integers(0, 40),
    )
    def a_long_frame(
        self, elapsed: int, ticks_before: int, during: list[Input], stop_after: int | None
    ) -> None:
        """A hitch, a stall or the spiral: a catch-up, with inputs in the middle of it."""
        self.play_a_frame(elapsed, ticks_before, during, stop_after)

    @rule(
        elapsed=st.integers(0, 3 * NS_PER_SECOND),
        ticks_before=st.integers(0, 40),
        during=st.lists(inputs, max_size=3),
        stop_after=st.none() | st.integers(0, 40),
    )
    def a_frame_of_any_length(
        self, elapsed: int, ticks_before: int, during: list[Input], stop_after: int | None
    ) -> None:
        self.play_a_frame(elapsed, ticks_before, during, stop_after)

    @rule(between=st.lists(inputs, min_size=1, max_size=3))
    def inputs_between_frames(self, between: list[Input]) -> None:
        for what in between:
            self.carry_out(what)

    @precondition(lambda self: not self.session.wanted_controls.paused)
    @rule()
    def pause(self) -> None:
        self.session.apply(Action.turn("live.paused", Move.FLIP))

    @precondition(lambda self: self.session.wanted_controls.paused)
    @rule()
    def resume(self) -> None:
        self.session.apply(Action.turn("live.paused", Move.FLIP))

    @precondition(lambda self: self.session.paused)
    @rule()
    def single_step(self) -> None:
        self.session.apply(Action(Act.SINGLE_STEP))

    @rule()
    def split_or_join(self) -> None:
        self.session.apply(Action(Act.TOGGLE_SPLIT))

    @rule(step=lesson_steps)
    def lesson_step(self, step: LessonStepInput) -> None:
        self.carry_out(step)

    # -- invariants -------------------------------------------------------------------------------

    @invariant()
    def every_lane_balances_and_no_frame_is_left_open(self) -> None:
        assert unbalanced_lanes(self.session) == []

    @invariant()
    def the_lanes_do_what_the_controls_say(self) -> None:
        assert lanes_out_of_step(self.session) == []

    def teardown(self) -> None:
        """The recording replays, through the `replay` command, to its final tick and hash."""
        try:
            self.end_the_recording()
            told = io.StringIO()
            with contextlib.redirect_stdout(told):
                status = replay.run(
                    argparse.Namespace(file=self.record, render_fps="50", against=None)
                )
            event(f"replayed ticks: {self.recorded_tick // 100 * 100}+")
            assert status == 0, told.getvalue()
            assert told.getvalue().startswith(f"final tick {self.recorded_tick} ")
        finally:
            self._folder.cleanup()


FrameProtocol.TestCase.settings = settings(max_examples=80, stateful_step_count=50, deadline=None)
TestFrameProtocol = FrameProtocol.TestCase
TestFrameProtocol.pytestmark = [pytest.mark.slow]  # type: ignore[attr-defined]


# -- the frame's order ---------------------------------------------------------------------------


def test_a_frame_cannot_begin_while_another_is_open_and_finishes_once() -> None:
    session = session_from(load_config(None))
    frame = session.begin(50 * NS_PER_MS)
    with pytest.raises(FrameOrderError, match="a frame is already open"):
        session.begin(0)
    assert frame.next_tick()  # the open frame goes on as if nothing happened
    frame.finish()
    with pytest.raises(FrameOrderError, match="already finished"):
        frame.finish()
    assert not frame.next_tick()
    assert (session.lanes[0].world.tick, session.lanes[0].books.frames) == (1, 1)
    assert unbalanced_lanes(session) == []
