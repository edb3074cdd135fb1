"""`replay A --against B`: the two recordings of one match, compared tick by tick.

Each game of a match records what it did: its own avatar's orders, and each arrival of the
peer's moves at the tick it arrived. Replayed as they are, the two differ wherever each ran on
a prediction of the other, so they are compared as their confirmed worlds ran them
(`ConfirmedPeer`): every tick with the orders that side stamped and the peer's move as it
finally was, never a prediction. Two games that kept one world hold the same state after every
tick both recordings confirm; the first tick where the hashes differ is where the worlds
parted (a desync, which the live check only sees at the next multiple of 15 ticks).
"""

from __future__ import annotations

from game.clock.virtual import VirtualClock
from game.errors import BadInput
from game.from_config import session_from
from game.network.peer import AvatarMove
from game.session.rollback import Arrival, Rollback
from game.session.sides import MatchSides
from game.workshop.files.match_record import match_settings
from game.workshop.files.replay_file import Recording
from game.workshop.files.timeline import LinkChange, RecordedOrder, RemoteArrival, Timeline
from game.workshop.runs.runner import run_headless
from game.world.world import World


def confirmed_hashes(recording: Recording, name: str) -> list[str]:
    """The state hash after each tick (the first: after tick 0) of the match's world as its
    confirmed peer ran it, up to the last tick whose peer move the recording holds (and no
    further than the match lasted, nor the recording)."""
    match = recording.match
    if match is None:
        raise BadInput.error(f"{name}: --against compares the recordings of a match's two games")
    settings = match_settings(match)
    delay = settings.input_delay
    moves: dict[int, AvatarMove] = {}
    end = recording.final_tick
    for event in recording.events:
        if isinstance(event, RemoteArrival):
            for offset, move in enumerate(event.arrival.inputs):
                if isinstance(move, AvatarMove):
                    moves.setdefault(event.arrival.first + offset, move)
        elif isinstance(event, LinkChange) and event.settings is None:
            end = min(end, event.tick)  # the match ended there: the game went on alone
    known = delay
    while known in moves:
        known += 1
    end = min(end, known)
    session = session_from(recording.config)
    world = session.lanes[0].world
    world.add_joiner()
    sides = MatchSides(host=match["host"], input_delay=delay, live=False)
    rollback = Rollback.from_recording(world, settings, sides)
    session.connect(rollback)
    hashes: list[str] = []

    def hashed(after: World) -> None:
        hashes.append(after.state_hash())

    rollback.on_tick = hashed
    every = RemoteArrival(Arrival(0, delay, tuple(moves[tick] for tick in range(delay, end))))
    ours = [e for e in recording.events if isinstance(e, RecordedOrder) and e.tick < end]
    timeline = Timeline(tick_events=(every, *ours) if end > delay else tuple(ours))
    clock = VirtualClock(recording.config.scheduler.hz)
    run_headless(session, clock, timeline, until_tick=end, keep=0)
    return hashes


def first_difference(ours: list[str], theirs: list[str]) -> tuple[int | None, int]:
    """The first tick whose state differs (None: none), and the last tick both hold."""
    both = min(len(ours), len(theirs))
    first = next((tick for tick in range(both) if ours[tick] != theirs[tick]), None)
    return (None if first is None else first + 1), both
