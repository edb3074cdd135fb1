"""`Rewind`: hold a key and time runs backwards through the saved ticks; release, and the game
goes on from there.

Rollback netcode, and any game with a rewind, stands on one ability: the world saved at a tick
and put back exactly. The session saves every lane's world before each tick, the last
`REWIND_TICKS` of them (`LabSession.keep_snapshots`, `game.world.snapshots`); this class walks
back through them.

**Speed.** 1x: each step of wall time held takes the world back one tick, whatever the time
scale, until the oldest tick saved. The position is exact (a `Fraction` of ticks); the world is
put back at the tick just after it, and drawn `alpha` of the way from the tick before, the
frame's own interpolation run backwards (`Lane.rewind_alpha`): the world at tick k holds tick
k - 1 as its previous state, so nothing is written for the picture.

**The books.** While the key is held the session is paused: each frame's wall time goes on the
books as paused time, no tick runs, and every frame balances as a paused frame does. Each time
the world is put back, the ticks it lost are counted in the books (`TimeBooks.rewound_ticks`),
so the world's tick is always the ticks run minus the ticks rewound; the time those ticks
simulated stays simulated on the books (it was). On release the session resumes (unless it
was paused before) with the carried time it had, and the world goes on from the tick it was put
back to: the ticks after it are simulated afresh, saved again as they run.

**Split screen.** Every lane goes back by the same wall time, each through its own ring.

**Recordings.** A recording (`--record`) holds orders at their ticks, and its replay only goes
forward; a rewind would make the recorded run one no replay can reproduce. So while recording
the key is refused, with a message.

**A remote peer.** Against a simulated network (`;`) the key is refused too, with a message:
the remote's inputs, its clock and rollback's snapshots only go forward, and a world sent back
behind them would re-simulate a past the remote never had.

It reads no clock: the loop hands it each frame's elapsed time (`advance`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from game.session.controls import ControlsChange
from game.session.lane import Lane
from game.session.session import LabSession

REWIND_TICKS = 600
"""The ticks each lane keeps: 10 s at 60 Hz, 5 s at 120 Hz. At most 600 x width x 201 bytes a
lane (float64; 7.7 MB for 64 bodies)."""
UNTIL_RELEASED = "release Backspace to go on (other keys are ignored until then)"
REFUSED_WHILE_RECORDING = "no rewind while recording (--record): a replay only goes forward"
REFUSED_ONLINE = "no rewind against a remote peer: its inputs only go forward (; turns it off)"


@dataclass(slots=True)
class _LaneRewind:
    """One lane's way back: where it started, and its step (the wall time one tick takes)."""

    lane: Lane
    from_tick: int
    from_time_s: float
    step_ns: Fraction

    def go_back(self, held_ns: int) -> None:
        """Put the world where `held_ns` of rewinding takes it, and set its alpha."""
        ring, world = self.lane.snapshots, self.lane.world
        assert ring is not None and ring.oldest_tick is not None
        position = max(self.from_tick - held_ns / self.step_ns, Fraction(ring.oldest_tick))
        tick = math.ceil(position)
        if tick != world.tick:
            self.lane.books.rewound_ticks += world.tick - tick
            ring.restore(world, tick)
        self.lane.rewind_alpha = float(position - (tick - 1))

    def said(self) -> str:
        """`120 ticks (2000 ms)`: how far back this lane is."""
        world = self.lane.world
        back_ms = (self.from_time_s - world.time) * 1_000
        ticks = self.from_tick - world.tick
        return f"{ticks} tick{'' if ticks == 1 else 's'} ({back_ms:.0f} ms)"


class Rewind:
    """The rewind key's state: held or not, and each lane's way back while it is."""

    def __init__(self, session: LabSession, ticks: int = REWIND_TICKS) -> None:
        self.session = session
        session.keep_snapshots(ticks)
        self.held = False
        self._lanes: list[_LaneRewind] = []
        self._held_ns = 0
        self._resume = False
        """Whether the rewind paused the session, and so resumes it on release."""

    def hold(self) -> str | None:
        """The key went down: pause the session (a frame that is catching up stops there); the
        way back starts with the next frame. Returns a message for the screen, if any."""
        if self.held:
            return None  # the key repeating
        if self.session.recording:
            return REFUSED_WHILE_RECORDING
        if self.session.rollback is not None:
            return REFUSED_ONLINE
        self.held, self._lanes, self._held_ns = True, [], 0
        self._resume = not self.session.wanted_controls.paused
        if self._resume:
            self.session.change(ControlsChange(paused=True))
        return f"REWIND x1: {UNTIL_RELEASED}"

    def advance(self, elapsed_ns: int) -> str | None:
        """Between frames: `elapsed_ns` more of holding, so the worlds go further back.
        Returns what the screen should say."""
        if not self.held or self.session.frame_open:
            return None
        if not self._lanes:
            self._start()
        self._held_ns += elapsed_ns
        for way in self._lanes:
            way.go_back(self._held_ns)
        tick = self.session.lanes[0].world.tick
        return f"REWIND x1 to tick {tick}: {self._how_far()} back; {UNTIL_RELEASED}"

    def release(self) -> str | None:
        """The key went up: the worlds stay where they were put back, and the session goes on
        from there. Returns what was rewound."""
        if not self.held:
            return None
        self.held = False
        session = self.session
        for index, lane in enumerate(session.lanes):
            lane.rewind_alpha = None
            avatar = lane.world.avatar
            if index < len(session.inputs.lanes):  # the run level that world was last told
                session.inputs.lanes[index].run_sent = 0 if avatar is None else avatar.run
        if self._resume:
            session.change(ControlsChange(paused=False))
        said = self._how_far() if self._lanes else "0 ticks (0 ms)"
        return f"rewound {said}: on from tick {session.lanes[0].world.tick}"

    def _start(self) -> None:
        """Save where each lane is now (the newest tick to come back to), then walk back."""
        self._lanes = []
        for lane in self.session.lanes:
            assert lane.snapshots is not None, "keep_snapshots was not called for this lane"
            lane.snapshots.save(lane.world)
            step_ns = lane.scheduler.settings.step_ns
            self._lanes.append(_LaneRewind(lane, lane.world.tick, lane.world.time, step_ns))

    def _how_far(self) -> str:
        if len(self._lanes) == 1:
            return self._lanes[0].said()
        return ", ".join(
            f"lane {number} {way.said()}" for number, way in enumerate(self._lanes, start=1)
        )
