"""The rewind without a window: a session's worlds walked back through their saved ticks, worked
out by hand at 60 Hz (a step of 50,000,000/3 ns)."""

from __future__ import annotations

from fractions import Fraction

from game.session.controls import Controls, ControlsChange
from game.session.rewind import REFUSED_WHILE_RECORDING, UNTIL_RELEASED, Rewind
from game.session.session import LabSession
from game.world.world import demo_world

STEP_NS = Fraction(50_000_000, 3)


def test_a_step_and_a_half_held_is_one_tick_back_drawn_halfway_to_the_one_before() -> None:
    session = LabSession(Controls(), demo_world)
    rewind = Rewind(session)
    for _ in range(10):
        session.play_frame(int(STEP_NS) + 1)  # one tick a frame
    lane = session.lanes[0]
    assert lane.world.tick == 10
    hash_at = {lane.world.tick: lane.world.state_hash()}
    assert rewind.hold() == f"REWIND x1: {UNTIL_RELEASED}"
    assert session.paused
    said = rewind.advance(25_000_000)  # 1.5 steps: position 8.5, drawn as tick 9 at alpha 0.5
    session.play_frame(25_000_000)
    assert (lane.world.tick, lane.rewind_alpha, lane.books.rewound_ticks) == (9, 0.5, 1)
    assert said == f"REWIND x1 to tick 9: 1 tick (17 ms) back; {UNTIL_RELEASED}"
    rewind.advance(25_000_000)  # 3 steps in all: tick 7, alpha 1
    session.play_frame(25_000_000)
    assert (lane.world.tick, lane.rewind_alpha, lane.books.rewound_ticks) == (7, 1.0, 3)
    assert lane.books.paused_ns == 50_000_000 and lane.books.ledger_ok
    assert rewind.release() == "rewound 3 ticks (50 ms): on from tick 7"
    assert not session.paused and lane.rewind_alpha is None
    while lane.world.tick < 10:
        session.play_frame(int(STEP_NS) + 1)
    assert lane.world.state_hash() == hash_at[10]  # the same ticks again, the same state
    assert lane.world.tick == lane.books.ticks - lane.books.rewound_ticks


def test_a_session_paused_before_the_rewind_stays_paused_after_it() -> None:
    session = LabSession(Controls(), demo_world)
    rewind = Rewind(session)
    for _ in range(5):
        session.play_frame(int(STEP_NS) + 1)
    session.change(ControlsChange(paused=True))
    rewind.hold()
    rewind.advance(33_333_334)  # just over 2 steps
    assert rewind.release() == "rewound 2 ticks (33 ms): on from tick 3"
    assert session.paused


def test_while_recording_the_rewind_is_refused_and_nothing_moves() -> None:
    session = LabSession(Controls(), demo_world, on_order=lambda lane_index, order: None)
    rewind = Rewind(session)
    for _ in range(5):
        session.play_frame(int(STEP_NS) + 1)
    assert rewind.hold() == REFUSED_WHILE_RECORDING
    assert rewind.advance(int(2 * STEP_NS)) is None
    assert (session.lanes[0].world.tick, session.paused) == (5, False)
