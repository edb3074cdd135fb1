"""What a match refuses (`game.session.match_rules`): whatever would change one world only.

Two sessions play a match in this process, the host and the joiner, over an in-memory wire in
place of the UDP link (the refusals are the session's; the network has its own tests,
`test_match_udp.py`). Each refused control is pressed on the host: it says so, and after the
same frames both worlds are in the state of a match where nothing was pressed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pytest

from game.config.loading import load_config
from game.from_config import session_from
from game.knobs import Move
from game.network.link import Remote
from game.network.peer import Heard, Packet, RemoteInput
from game.network.settings import NetworkSettings
from game.session.controls import Act, Action, ControlsChange
from game.session.match_rules import refusal
from game.session.rollback import Rollback
from game.session.session import LabSession
from game.session.sides import MatchSides

FRAME_NS = 16_666_667


class Wire:
    """One end of an in-memory link: what one end sends, the other takes at its next frame."""

    def __init__(self) -> None:
        self.inbox: list[Packet] = []
        self.other: Wire = self
        self._mine: list[RemoteInput] = []
        self.sent = self.lost = 0

    def send(self, now_ns: int, us: Heard, first: int, inputs: Sequence[RemoteInput]) -> None:
        self._mine.extend(inputs)
        self.other.inbox.append(Packet(now_ns, us.tick, 0, tuple(self._mine)))

    def arrivals(self, now_ns: int) -> list[Packet]:
        arrived, self.inbox = self.inbox, []
        return arrived

    def remote(self, now_ns: int) -> Remote | None:
        return None

    @property
    def one_way_ns(self) -> int:
        return 0


def match_pair() -> tuple[LabSession, LabSession]:
    """A host's session and a joiner's, in one match over a wire."""
    host_end, joiner_end = Wire(), Wire()
    host_end.other, joiner_end.other = joiner_end, host_end
    sessions = []
    for host, end in ((True, host_end), (False, joiner_end)):
        session = session_from(load_config(None, ()))
        world = session.lanes[0].world
        world.add_joiner()
        sides = MatchSides(host=host, input_delay=0)
        session.connect(Rollback.matched(world, NetworkSettings(), end, sides, 8))
        sessions.append(session)
    return sessions[0], sessions[1]


def played(pressed: Callable[[LabSession], str | None] | None) -> tuple[str, str, str | None]:
    """Both worlds' hashes after 60 frames, `pressed` done on the host after the tenth; and
    what it said."""
    host, joiner = match_pair()
    said = None
    for frame in range(60):
        if frame == 10 and pressed is not None:
            said = pressed(host)
        host.play_frame(FRAME_NS)
        joiner.play_frame(FRAME_NS)
    hashes = [session.lanes[0].world.state_hash() for session in (host, joiner)]
    return hashes[0], hashes[1], said


def variable_policy(session: LabSession) -> str | None:
    session.change(ControlsChange(policies=("variable",)))
    return None if session.controls.policies == ("drop",) else "the policy changed"


REFUSED: dict[str, tuple[Callable[[LabSession], str | None], str]] = {
    "space": (lambda s: s.apply(Action(Act.FIRE)), "firing"),
    "click": (lambda s: s.apply(Action(Act.FIRE, x=10.0, y=5.0)), "firing"),
    "reset": (lambda s: s.apply(Action(Act.RESET)), "reset"),
    "cannon": (lambda s: s.apply(Action(Act.TOGGLE_CANNON)), "the cannon's switch"),
    "single step": (lambda s: s.apply(Action(Act.SINGLE_STEP)), "single steps"),
    "teleport": (lambda s: s.teleport(0, 5.0, 5.0), "teleports"),
    "tick rate": (lambda s: s.apply(Action.turn("scheduler.hz", Move.NEXT)), "the tick rate"),
    "integrator": (
        lambda s: s.apply(Action.turn("world.integrator", Move.NEXT)),
        "the integrator",
    ),
    "pause": (lambda s: s.apply(Action.turn("live.paused", Move.FLIP)), "pause"),
    "time scale": (
        lambda s: s.apply(Action.turn("scheduler.time_scale", Move.UP)),
        "the time scale",
    ),
    "split": (lambda s: s.apply(Action(Act.TOGGLE_SPLIT)), "split screen"),
    "network": (
        lambda s: s.apply(Action.turn("network.enabled", Move.FLIP)),
        "the network controls (the match is the link)",
    ),
    "latency": (
        lambda s: s.apply(Action.turn("network.latency_ms", Move.UP)),
        "the network controls (the match is the link)",
    ),
}


def test_two_worlds_of_a_match_where_nothing_is_pressed_agree() -> None:
    host, joiner, _ = played(None)
    assert host == joiner


@pytest.mark.parametrize("name", list(REFUSED))
def test_a_refused_control_says_so_and_changes_neither_world(name: str) -> None:
    press, what = REFUSED[name]
    untouched = played(None)
    host, joiner, said = played(press)
    assert said == refusal(what)
    assert (host, joiner) == untouched[:2]


def test_the_variable_policy_is_refused_without_a_word_from_a_lesson_or_a_script() -> None:
    """A change that does not come from a key (a lesson step, a script) is dropped whole."""
    host, joiner, said = played(variable_policy)
    assert said is None
    assert (host, joiner) == played(None)[:2]


def test_what_decides_only_when_ticks_run_or_how_they_look_stays_local() -> None:
    def local(session: LabSession) -> str | None:
        session.apply(Action.turn("scheduler.policy", Move.NEXT))
        session.apply(Action.turn("render.interpolation", Move.NEXT))
        changed = session.controls
        return f"{changed.policies[0]} {changed.interpolation}"

    host, joiner, said = played(local)
    assert said == "reset extrapolate"  # the next policy after drop, and extrapolation
    assert (host, joiner) == played(None)[:2]
