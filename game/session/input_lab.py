"""`InputDesk`: the player's presses, fed to each lane's sampling model and counted.

The loop (or the headless runner) hands the desk every key edge of the avatar's buttons with
its wall time: it owns the clock, the desk only reads the numbers it is given. The session tells
the desk when a frame is planned, before each tick, when the frame is settled, and the caller
tells it when the picture was flipped. Out of that the desk produces, per lane:

- before each tick, the tick's `AvatarInput` (what that tick consumed under the lane's model),
  only when something changed, to be stamped and recorded like any command;
- the counters: presses, seen, lost, doubled, merged (`InputCounts`);
- for each press, its latency in three parts and its place on the timeline strip.

So a recording holds what each tick consumed, and replays the same at any render rate, even
for the models whose outcome depended on the frame times (frame-edge, tick-poll).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import NamedTuple

from game.session.input_models import MODELS, FrameWindow, InputModel
from game.session.input_readout import (
    Fate,
    InputCounts,
    InputReadout,
    PressLatency,
    PressMark,
)
from game.vocabulary import HELD_BUTTONS, INPUT_MODEL_NAMES, TAP_BUTTONS
from game.world.avatar import AvatarInput
from timestep_lab import NS_PER_SECOND, StepPlan, round_ns

TIMELINE_NS = 2 * NS_PER_SECOND
"""How much wall time the readout's timeline covers."""
KEPT_PRESSES = 256
"""Press records kept per lane (older ones leave the timeline and the books keep counting)."""
KEPT_MARKS = 2_048
"""Tick and flip times kept per lane: 2 s of 1,000 fps."""


class _Press:
    """What happened to one press in one lane, filled in as it happens."""

    __slots__ = ("_mark", "at_ns", "button", "fate", "interpolation_ns", "present_ns", "tick_at_ns")

    def __init__(self, button: str, at_ns: int) -> None:
        self.button = button
        self.at_ns = at_ns
        self.fate = Fate.PENDING
        self.tick_at_ns: list[int] = []
        self.interpolation_ns: int | None = None
        self.present_ns: int | None = None
        self._mark: PressMark | None = None

    def changed(self) -> None:
        self._mark = None

    def mark(self) -> PressMark:
        """As the timeline shows it (made again only after the press changed)."""
        if self._mark is None:
            shown = None
            if self.tick_at_ns and self.present_ns is not None:
                shown = self.tick_at_ns[0] + self.present_ns
            self._mark = PressMark(
                self.button, self.at_ns, self.fate, tuple(self.tick_at_ns), shown
            )
        return self._mark


class LaneClock(NamedTuple):
    """What the desk needs of a lane when its frame is planned (a NamedTuple: one a frame)."""

    plan: StepPlan
    next_tick: int
    time_scale: Fraction


class InputLane:
    """One lane's model and its books of presses."""

    def __init__(self, model: str, run_sent: int = 0) -> None:
        if model not in MODELS:
            raise ValueError(f"unknown input model {model!r} (known: {', '.join(MODELS)})")
        self.model_name = model
        self.model: InputModel = MODELS[model]()
        self.presses = self.seen = self.lost = self.doubled = self.merged = 0
        self._open: dict[int, Fate] = {}
        """The fate of every press a tick may still act on: those pending, and those acted on
        in the open frame (a model acts on a press again only within that frame). The counters
        are kept from here, so they stay exact however many presses wait; `_records`, bounded,
        only feeds the timeline."""
        self._acted: list[int] = []
        """The presses acted on in the open frame: settled (out of `_open`) when it ends."""
        self._records: dict[int, _Press] = {}
        self._recent: deque[_Press] = deque()
        """The presses of the timeline's last 2 s, oldest first."""
        self._fresh: list[_Press] = []
        """Acted on for the first time in the open frame: its picture is not drawn yet."""
        self._unshown: list[_Press] = []
        """Acted on in a settled frame whose picture has not reached the screen yet."""
        self._last: _Press | None = None
        self.run_sent = run_sent
        """The run direction the world was last told (an `AvatarInput` carries a change)."""
        self.ticks_at_ns: deque[int] = deque(maxlen=KEPT_MARKS)
        self._counts = InputCounts()

    @property
    def counts(self) -> InputCounts:
        """The counters now: the same value as long as they do not change (a headless run keeps
        one with every frame, and most frames change nothing)."""
        now = (self.presses, self.seen, self.lost, self.doubled, self.merged)
        if self._counts != now:
            self._counts = InputCounts(*now)
        return self._counts

    def press(self, number: int, button: str, at_ns: int) -> None:
        self.presses += 1
        self._open[number] = Fate.PENDING
        record = self._records[number] = _Press(button, at_ns)
        self._recent.append(record)
        if len(self._records) > KEPT_PRESSES:
            del self._records[next(iter(self._records))]
        self.model.press(button, number, at_ns)

    def lose(self, numbers: Sequence[int]) -> None:
        for number in numbers:
            if self._open.get(number) is not Fate.PENDING:
                continue
            del self._open[number]
            self.lost += 1
            record = self._records.get(number)
            if record is not None:  # still on the timeline
                record.fate = Fate.LOST
                record.changed()
                self._last = record

    def tick(self, tick: int, now_ns: int, run: int) -> AvatarInput | None:
        """Ask the model what tick `tick` acts on; the command for it, if anything changed.
        (The tick's time is kept for the timeline; `readout` trims what is older than it.)"""
        deliveries = self.model.tick(tick)
        self.ticks_at_ns.append(now_ns)
        if not deliveries and run == self.run_sent:
            return None  # most ticks: no press to act on, the run direction as it was
        taps = dict.fromkeys(TAP_BUTTONS, 0)
        for delivery in deliveries:
            taps[delivery.button] += 1
            first, *merged = delivery.presses
            self._acted_on(first, now_ns)
            for number in merged:
                if self._open.get(number) is not Fate.PENDING:
                    continue
                del self._open[number]
                self.merged += 1
                record = self._records.get(number)
                if record is not None:
                    record.fate = Fate.MERGED
                    record.tick_at_ns.append(now_ns)
                    record.changed()
        jumps, dashes = taps["jump"], taps["dash"]
        if not (jumps or dashes or run != self.run_sent):
            return None
        self.run_sent = run
        return AvatarInput(tick=tick, run=run, jumps=jumps, dashes=dashes)

    def _acted_on(self, number: int, now_ns: int) -> None:
        fate = self._open.get(number)
        if fate is Fate.PENDING:
            fate = self._open[number] = Fate.SEEN
            self._acted.append(number)
            self.seen += 1
        elif fate is Fate.SEEN:
            fate = self._open[number] = Fate.DOUBLED
            self.seen -= 1
            self.doubled += 1
        record = self._records.get(number)
        if record is None or fate is None:
            return  # no longer on the timeline: counted all the same
        if record.fate is Fate.PENDING:
            self._fresh.append(record)
        record.fate = fate
        record.tick_at_ns.append(now_ns)
        record.changed()

    @property
    def acted_on_this_frame(self) -> bool:
        """A tick of the open frame acted on a press for the first time."""
        return bool(self._fresh)

    def frame_ends(self, interpolation_ns: int) -> None:
        lost = self.model.frame_ends()
        if lost:
            self.lose(lost)
        if self._acted:  # their fates are final: no later frame acts on them
            for number in self._acted:
                del self._open[number]
            self._acted = []
        if not self._fresh:
            return  # most frames: no press acted on
        for record in self._fresh:
            record.interpolation_ns = interpolation_ns
        self._unshown.extend(self._fresh)
        self._fresh = []

    def flipped(self, at_ns: int) -> None:
        if not self._unshown:
            return  # most frames: no press waiting for its picture
        for record in self._unshown:
            record.present_ns = max(0, at_ns - record.tick_at_ns[0])
            record.changed()
            self._last = record
        self._unshown = []

    def readout(self, now_ns: int, flips_ns: Sequence[int]) -> InputReadout:
        since = now_ns - TIMELINE_NS
        recent = self._recent
        while recent and recent[0].at_ns < since:
            recent.popleft()
        _keep_recent(self.ticks_at_ns, now_ns)
        last = self._last
        latency = None
        if last is not None and last.present_ns is not None:
            latency = PressLatency(
                last.tick_at_ns[0] - last.at_ns, last.interpolation_ns or 0, last.present_ns
            )
        return InputReadout(
            model=self.model_name,
            counts=self.counts,
            last_fate=None if last is None else last.fate,
            last_latency=latency,
            now_ns=now_ns,
            presses=tuple(record.mark() for record in recent),
            ticks_at_ns=tuple(self.ticks_at_ns),
            flips_ns=tuple(flips_ns),
        )


def _keep_recent(times: deque[int], now_ns: int) -> None:
    """Forget the times older than the timeline, so a readout copies only what it shows."""
    since = now_ns - TIMELINE_NS
    while times and times[0] < since:
        times.popleft()


class InputDesk:
    """The avatar's buttons, as edges with wall times, handed to one `InputLane` per lane."""

    def __init__(self, models: Sequence[str] = INPUT_MODEL_NAMES[:1]) -> None:
        self.lanes = [InputLane(model) for model in models]
        self.now_ns = 0
        """The latest wall time the desk was told of (a frame's start or an edge's time)."""
        self._frame_start_ns = 0
        self._down: dict[str, bool] = dict.fromkeys((*TAP_BUTTONS, *HELD_BUTTONS), False)
        self._run = 0
        """`run`, worked out when a key changes rather than before every tick."""
        self._presses = 0
        self.flips_ns: deque[int] = deque(maxlen=KEPT_MARKS)

    # -- from the caller, who owns the clock ------------------------------------------------------

    def edge(self, button: str, down: bool, at_ns: int) -> None:
        """A key of the avatar went down or up at wall time `at_ns` (ns since the session
        began, as the caller counts frames). A repeat of the same edge is ignored."""
        if button not in self._down:
            raise ValueError(f"unknown button {button!r} (known: {', '.join(self._down)})")
        self.now_ns = max(self.now_ns, at_ns)
        if self._down[button] == down:
            return
        self._down[button] = down
        self._run = int(self._down["right"]) - int(self._down["left"])
        if button not in TAP_BUTTONS:
            return
        if down:
            self._presses += 1
            for lane in self.lanes:
                lane.press(self._presses, button, at_ns)
        else:
            for lane in self.lanes:
                lane.lose(lane.model.release(button))

    def flipped(self, at_ns: int) -> None:
        """The frame's picture reached the screen at wall time `at_ns`."""
        if at_ns > self.now_ns:  # an `if`, not `max()`: the desk is told of every frame
            self.now_ns = at_ns
        self.flips_ns.append(at_ns)  # (bounded; `readouts` forgets what is off the timeline)
        for lane in self.lanes:
            lane.flipped(at_ns)

    # -- from the session, around its frames ------------------------------------------------------

    def frame_begins(self, elapsed_ns: int, lane_clocks: Callable[[], Sequence[LaneClock]]) -> None:
        """A frame was planned. `lane_clocks()` gives each lane's `LaneClock`; it is asked only
        when a model places presses in time (the window costs exact arithmetic)."""
        start = self._frame_start_ns = self._frame_start_ns + elapsed_ns
        if start > self.now_ns:
            self.now_ns = start
        clocks: Sequence[LaneClock] = ()
        for index, lane in enumerate(self.lanes):
            if not lane.model.wants_window:
                lane.model.frame_begins(None)
                continue
            clocks = clocks or lane_clocks()
            clock = clocks[index]
            plan = clock.plan
            scale = plan.scaled_ns / plan.elapsed_ns if plan.elapsed_ns else clock.time_scale
            lane.model.frame_begins(
                FrameWindow(
                    now_ns=self._frame_start_ns,
                    next_tick=clock.next_tick,
                    end_tick=clock.next_tick + plan.steps,
                    carried_ns=plan.carried_out_ns,
                    step_ns=plan.step_ns,
                    time_scale=scale,
                )
            )

    def before_tick(self, lane_index: int, tick: int) -> AvatarInput | None:
        return self.lanes[lane_index].tick(tick, self.now_ns, self._run)

    def frame_ends(self, plans: Sequence[StepPlan], interpolating: bool) -> None:
        lanes = self.lanes
        if len(plans) != len(lanes):  # (not `zip(strict=True)`: its check costs every frame)
            raise ValueError(f"{len(plans)} plans for {len(lanes)} input lanes")
        for lane, plan in zip(lanes, plans, strict=False):  # the lengths checked above
            delay = 0
            if interpolating and lane.acted_on_this_frame and plan.scaled_ns:
                # The picture is (1 - alpha) of a step behind the newest tick: in wall time,
                # through the time scale. Worked out only for a frame that acted on a press.
                behind = (plan.step_ns - plan.remainder_ns) * plan.elapsed_ns / plan.scaled_ns
                delay = round_ns(max(behind, Fraction(0)))
            lane.frame_ends(delay)

    def restart_counts(self) -> None:
        """Every lane's counters and press marks afresh, each lane's model kept."""
        self.lanes = [InputLane(lane.model_name, lane.run_sent) for lane in self.lanes]

    def match(self, models: Sequence[str]) -> None:
        """One lane per model; a lane whose model changed starts its books afresh (a new lane
        is told the run direction the world it copies was told)."""
        run = self.lanes[0].run_sent
        del self.lanes[len(models) :]
        for index, model in enumerate(models):
            if index == len(self.lanes):
                self.lanes.append(InputLane(model, run))
            elif self.lanes[index].model_name != model:
                self.lanes[index] = InputLane(model, self.lanes[index].run_sent)

    # -- what it reports --------------------------------------------------------------------------

    @property
    def run(self) -> int:
        """-1 left, 1 right, 0 neither or both."""
        return self._run

    def readouts(self) -> tuple[InputReadout, ...]:
        _keep_recent(self.flips_ns, self.now_ns)
        flips = tuple(self.flips_ns)  # one tuple for every lane (the strip reads it once)
        return tuple(lane.readout(self.now_ns, flips) for lane in self.lanes)
