"""`SpiralRule`: the one definition of the spiral of death, for the banner and every verdict.

The spiral: ticks cost more wall time than they simulate, so each frame owes more ticks than the
last, takes longer to run them, and owes even more. What makes it a spiral is the cause: the
frames grow *because* the ticks owed grow. A slow laptop (long frames with a flat number of
ticks), a drawing cost that grows, or a capped policy that runs its M ticks every frame and
drops the rest all make long frames, and none of them is a spiral.

The rule, over per-frame figures (`FrameLoad`: the frame's length, the ticks it ran, the whole
steps it carried to later frames; a frame *owes* the ticks it ran plus those it carried):

- a frame **climbs** when it lasts at least `growth_percent` (5%) longer than the frame before,
  that frame ran more ticks than the one before it (the work this frame waited for grew), and
  it owes more ticks still (the cause goes on);
- the spiral **starts** at the `frames`-th (4th) frame in a row that climbs, if that frame
  lasts at least `min_frame_ns` (50 ms);
- once on, it stays on (no flicker) until it is **over**: the `frames`-th frame in a row that
  owes no more ticks than the frame before it.

A capped policy's flat M ticks never climb, however much it carries; frames that grow while the
ticks run stay flat never climb. (Frames that grow for another reason under `uncapped`, with
ticks that cost nothing, make it run more ticks too: from these figures alone that looks the
same, so it needs 4 frames in a row and 50 ms.) Anything that runs ticks can be judged:
rollback's re-simulated ticks and a capture's ticks count as ticks run. Integer arithmetic,
like everything about time.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import NamedTuple

from timestep_lab import NS_PER_MS

_made = tuple.__new__
"""`_made(Record, values)` is `Record(*values)` for a NamedTuple `Record` without the call to its
`__new__` (as the scheduler makes its plans): the rule's state is made every frame."""


class FrameLoad(NamedTuple):
    """What the rule needs of one frame (a NamedTuple: one is made every frame)."""

    frame_ns: int
    """How long the frame lasted."""
    ticks: int
    """The ticks it ran (re-simulated ticks count)."""
    backlog: int = 0
    """The whole steps it carried to later frames: ticks still owed."""

    @property
    def owed(self) -> int:
        """The ticks this frame owed: those it ran and those it put off."""
        return self.ticks + self.backlog


NO_FRAME = FrameLoad(0, 0)


class SpiralState(NamedTuple):
    """Where the rule stands after a frame."""

    on: bool = False
    climbing: int = 0
    """Frames in a row that climbed."""
    level: int = 0
    """Frames in a row that owed no more ticks than the frame before."""
    last: FrameLoad = NO_FRAME
    before_last: FrameLoad = NO_FRAME


class SpiralSpan(NamedTuple):
    """One spiral in a run of frames, by 1-based frame number."""

    start: int
    """The frame the rule says it starts."""
    over: int | None
    """The frame the rule says it is over (None: still on at the last frame)."""


@dataclass(frozen=True, slots=True)
class SpiralRule:
    frames: int = 4
    growth_percent: int = 5
    min_frame_ns: int = 50 * NS_PER_MS

    def climbs(self, state: SpiralState, frame: FrameLoad) -> bool:
        """This frame lasts `growth_percent` longer than the last, which ran more ticks than the
        one before it, and it owes more ticks than the last."""
        before = state.last
        return (
            before.frame_ns > 0
            and frame.frame_ns * 100 >= before.frame_ns * (100 + self.growth_percent)
            and before.ticks > state.before_last.ticks
            and frame.owed > before.owed
        )

    def after(self, state: SpiralState, frame: FrameLoad) -> SpiralState:
        """The rule's state once `frame` has ended."""
        climbing = state.climbing + 1 if self.climbs(state, frame) else 0
        level = state.level + 1 if frame.owed <= state.last.owed else 0
        if state.on:
            on = level < self.frames
        else:
            on = climbing >= self.frames and frame.frame_ns >= self.min_frame_ns
        return _made(SpiralState, (on, climbing, level, frame, state.last))  # every frame

    def spans(self, frames: Iterable[FrameLoad]) -> tuple[SpiralSpan, ...]:
        """Every spiral in `frames`, from the frame it starts to the frame it is over."""
        state, log = SpiralState(), SpiralLog()
        for number, frame in enumerate(frames, start=1):
            state = self.after(state, frame)
            log.saw(number, state.on)
        return log.spans()


class SpiralLog:
    """The spirals of a run of frames, written down as the rule turns on and off."""

    def __init__(self) -> None:
        self._spans: list[SpiralSpan] = []
        self._start: int | None = None

    def saw(self, frame: int, on: bool) -> None:
        """Frame number `frame` (1-based) ended with the rule `on` or off."""
        if on and self._start is None:
            self._start = frame
        elif not on and self._start is not None:
            self._spans.append(SpiralSpan(self._start, frame))
            self._start = None

    def spans(self) -> tuple[SpiralSpan, ...]:
        still_on = () if self._start is None else (SpiralSpan(self._start, None),)
        return (*self._spans, *still_on)
