"""`Match`: this game and a real peer's, one world between them (`--host`, `--join`).

Pure like the session it connects (the loop, `game.app.loop`, waits for its start and asks
whether it is over); the one piece of the live game that talks to the network.

`agree` runs before the window opens: it binds the socket, says where it listens (a host), and
shakes hands (`game.network.handshake`): a mismatch is one line and exit 2, with nothing
opened or written. `connect` then makes the session's world a match's (the joiner's avatar
added, `World.add_joiner`) and plays lane 0 against the peer through rollback, over the UDP
link (`game.network.udp_link`), with the sides of a match (`game.session.sides`): the host
steers the first avatar, the joiner the second.

`--until-tick T` ends a headless match: no tick past T runs, and once every input up to it is
confirmed on both sides (ours by us, the peer's acknowledgement of ours) the world at T is the
same on both, and is said: `confirmed tick T state HASH`, then the counts. Each side goes on
sending for `LINGER_FRAMES` frames, so that the peer hears our last acknowledgement.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Mapping

from game.clock.wall import Clock
from game.config.exact import decimal_text
from game.config.model import GameConfig
from game.errors import BadInput
from game.network import handshake
from game.network.address import bound_socket, host_address, join_address
from game.network.conditioner import LinkConditioner
from game.network.handshake import Agreed
from game.network.packets import DROPPED
from game.network.udp_link import UdpLink
from game.session.controls import Controls
from game.session.rollback import Arrival, Rollback
from game.session.session import LabSession
from game.session.sides import MatchSides
from game.workshop.files.match_record import match_settings as header_settings
from game.world.orders import Teleport
from timestep_lab import NS_PER_MS, NS_PER_SECOND, hz_to_step_ns

EXIT_UNCONFIRMED = 1
"""A headless match that ended before its `--until-tick` was confirmed."""
LINGER_FRAMES = 15
"""Frames a finished match goes on sending, so that the peer hears our last acknowledgement."""
NUDGE_AT = "TIMESTEP_LAB_NUDGE_AT"
"""A test hook: at this tick, this game's world is nudged (a desync the check must catch)."""
LOST_AFTER_NS = 3 * NS_PER_SECOND
"""A peer silent this long is lost: the game goes on alone."""


def match_settings(config: GameConfig, controls: Controls) -> dict[str, str]:
    """What both games of a match must agree on, as text (compared in the handshake)."""
    return {
        "hz": decimal_text(config.scheduler.hz),
        "world": json.dumps(config.world.model_dump(mode="json"), sort_keys=True),
        "input_delay": str(controls.input_delay),
        "prediction_window": str(controls.prediction_window),
        "time_sync": str(controls.time_sync),
    }


def conditioner(config: GameConfig, *, host: bool) -> LinkConditioner | None:
    """The link conditioner `[network]` asks for (`game.network.conditioner`), seeded from the
    world's seed, or None when it adds nothing."""
    network = config.network
    made = LinkConditioner(
        int(network.latency_ms * NS_PER_MS),
        int(network.jitter_ms * NS_PER_MS),
        network.loss,
        config.world.seed,
        host=host,
    )
    return None if made.idle else made


def match_header(host: bool, controls: Controls) -> dict[str, object]:
    """The recording's `match` header: which side this was, and the link's settings."""
    return {
        "host": host,
        "input_delay": controls.input_delay,
        "prediction_window": controls.prediction_window,
        "time_sync": controls.time_sync,
    }


def say(line: str) -> None:
    """A line about the match on stderr, at once: what the game is doing, not its results
    (those go on stdout: the confirmed state, the counts)."""
    print(line, file=sys.stderr, flush=True)


class Match:
    """The agreed match, then the connected one: its link, its rollback, its end."""

    def __init__(
        self, agreed: Agreed, link: UdpLink, *, host: bool, until_tick: int | None
    ) -> None:
        self.agreed = agreed
        self.link = link
        self.host = host
        self.until_tick = until_tick
        self.rollback: Rollback | None = None
        self._lingering = 0
        self._settled_ns: int | None = None
        """When the match was first found confirmed (rollback's clock)."""
        self.ended: str | None = None
        """Why the match ended before its game did (a desync, the peer lost or gone), if it
        did."""
        nudge = os.environ.get(NUDGE_AT, "")
        self._nudge_at = int(nudge) if nudge.isascii() and nudge.isdigit() else None

    @classmethod
    def agree(
        cls,
        config: GameConfig,
        controls: Controls,
        clock: Clock,
        *,
        host: str | None,
        join: str | None,
        until_tick: int | None,
    ) -> Match:
        """Bind, say where (a host), and shake hands; `BadInput` on any mismatch."""
        facts = handshake.our_facts(match_settings(config, controls))
        if host is not None:
            sock = bound_socket(host_address(host))
            address, port = sock.getsockname()
            say(f"hosting on {address}:{port}: waiting for a player to --join")
            try:
                agreed = handshake.host(sock, facts, clock.now_ns)
            except BaseException:
                sock.close()
                raise
        else:
            assert join is not None
            peer = join_address(join)
            sock = bound_socket(("0.0.0.0", 0))
            try:
                agreed = handshake.join(sock, peer, facts, clock.now_ns)
            except BaseException:
                sock.close()
                raise
        if agreed.warning is not None:
            say(agreed.warning)
        side = "hosting" if host is not None else "joined"
        say(f"match: {side}, the peer at {agreed.peer[0]}:{agreed.peer[1]}")
        step_ns = hz_to_step_ns(config.scheduler.hz)
        link = UdpLink(
            sock,
            agreed.peer,
            step_ns,
            agreed.round_trip_ns,
            conditioner(config, host=host is not None),
        )
        return cls(agreed, link, host=host is not None, until_tick=until_tick)

    def header(self, controls: Controls) -> dict[str, object]:
        """This side's `match` header for a recording (`match_header`)."""
        return match_header(self.host, controls)

    def connect(
        self, session: LabSession, on_arrival: Callable[[Arrival], None] | None = None
    ) -> Rollback:
        """Make lane 0's world a match's and play it against the peer from tick 0 (a
        recording hears of each arrival of the peer's moves: `on_arrival`)."""
        world = session.lanes[0].world
        if world.tick != 0 or session.rollback is not None:
            raise BadInput.error("a match starts from tick 0, without the simulated peer")
        world.add_joiner()
        controls = session.controls
        settings = header_settings(match_header(self.host, controls))
        sides = MatchSides(host=self.host, input_delay=settings.input_delay)
        window = settings.prediction_window
        rollback = Rollback.matched(world, settings, self.link, sides, window)
        rollback.stop_at = self.until_tick
        rollback.on_arrival = on_arrival
        session.connect(rollback)
        self.rollback = rollback
        return rollback

    def wait_for_start(self, clock: Clock) -> None:
        """Before the first frame: wait for the moment both games agreed on."""
        clock.sleep_ns(max(0, self.agreed.start_ns - clock.now_ns()))
        say("match: playing from tick 0")

    def after_frame(self, session: LabSession) -> str | None:
        """After a frame: has the peer gone (a goodbye), or fallen silent for `LOST_AFTER_NS`?
        Then the match ends, and the game goes on alone, the peer's avatar as it was told
        last (`LabSession.reconnect(None)`). Returns what to say, once."""
        rollback = self.rollback
        if self.ended is not None or rollback is None or session.rollback is not rollback:
            return None
        if self.settled():
            return None  # every input up to --until-tick confirmed: the peer may go first
        self._nudge(session)
        desync = self._first_desync(rollback)
        if desync is not None:
            self.ended = f"DESYNC at tick {desync}: the worlds differ; each goes on alone"
            check = bytes.fromhex(rollback.checks[desync])[:8]
            self.link.tell_check(rollback.now_ns, desync, check)  # so the peer sees it too
        elif self.link.left:
            self.ended = "peer left: the game goes on alone"
        elif rollback.now_ns - self.link.last_heard_ns >= LOST_AFTER_NS:
            seconds = LOST_AFTER_NS // NS_PER_SECOND
            self.ended = f"peer lost: nothing heard for {seconds} s; the game goes on alone"
        else:
            return None
        self.link.flush()  # what the conditioner holds: the peer may need it to see the desync
        session.reconnect(None)
        say(f"at tick {session.lanes[0].world.tick}: {self.ended}")
        return self.ended

    def _first_desync(self, rollback: Rollback) -> int | None:
        """Compare the peer's confirmed state hashes with ours, tick by tick, as both are
        known; the first tick they differ at, if any. Then say our newest to the peer."""
        ours, theirs = rollback.checks, self.link.their_checks
        differing = None
        for tick in sorted(tick for tick in theirs if tick in ours):
            if bytes.fromhex(ours[tick])[:8] != theirs.pop(tick) and differing is None:
                differing = tick
        if ours:
            oldest, newest = next(iter(ours)), next(reversed(ours))
            for tick in [tick for tick in theirs if tick < oldest]:
                del theirs[tick]  # ours is forgotten already: never to be compared
            self.link.our_check = (newest, bytes.fromhex(ours[newest])[:8])
        return differing

    def _nudge(self, session: LabSession) -> None:
        """The test hook `NUDGE_AT`: once lane 0 reaches that tick, a spring's bob moves a
        little in this world only, stamped as an order (so rollback keeps it): a desync."""
        if self._nudge_at is None or session.lanes[0].world.tick < self._nudge_at:
            return
        self._nudge_at = None
        session.orders.stamp(Teleport(tick=session.lanes[0].world.tick, body_id=0, x=10, y=10))

    def over(self, session: LabSession) -> bool:
        """After a frame: whether a headless match has run to its tick, confirmed both ways,
        and has lingered long enough for the peer to hear so (`LINGER_FRAMES`, counted
        once the conditioner's longest hold has passed); or has ended without it."""
        if self.until_tick is not None and self.ended is not None:
            return True
        rollback = self.rollback
        if rollback is None or not self.confirmed(session):
            return False
        if self._settled_ns is None:
            self._settled_ns = rollback.now_ns
        held = self.link.conditioner.most_ns if self.link.conditioner is not None else 0
        if rollback.now_ns - self._settled_ns >= held:
            self._lingering += 1  # counted once what we sent when settled has arrived
        return self._lingering > LINGER_FRAMES

    def settled(self) -> bool:
        """Every input before `--until-tick` is confirmed on both sides (ours by us, the peer's
        acknowledgement of ours): the rest needs no peer."""
        last, rollback = self.until_tick, self.rollback
        if last is None or rollback is None:
            return False
        return rollback.confirmed >= last - 1 and self.link.acked >= last - 1

    def confirmed(self, session: LabSession) -> bool:
        """The world stands at `--until-tick`, settled: its state is the same in both games."""
        return self.settled() and session.lanes[0].world.tick == self.until_tick

    def report(self, session: LabSession) -> list[str]:
        """`confirmed tick T state HASH`, the counts, and the datagrams dropped."""
        world, rollback, link = session.lanes[0].world, self.rollback, self.link
        assert rollback is not None
        return [
            f"confirmed tick {world.tick} state {world.state_hash()}",
            f"rollbacks {rollback.rollbacks}, re-simulated ticks "
            f"{rollback.totals.resimulated_ticks}, packets sent {link.sent}, lost {link.lost}, "
            f"late {rollback.late_inputs}",
            dropped_line(link.drops),
        ]

    def end(self, session: LabSession) -> int:
        """The game is over: say the confirmed state and the counts (`--until-tick`, once
        confirmed), say goodbye to a peer still there, and close the socket. The exit code:
        1 when a headless match ended before its tick was confirmed (a desync, a peer gone)."""
        failed = False
        if self.confirmed(session):
            print(*self.report(session), sep="\n", flush=True)
        elif self.ended is not None and self.until_tick is not None:
            say(f"tick {self.until_tick} was never confirmed: {self.ended.split(':')[0]}")
            failed = True
        if self.ended is None:
            self.link.say_goodbye()
        self.link.close()
        return EXIT_UNCONFIRMED if failed else 0


def dropped_line(drops: Mapping[str, int]) -> str:
    """`dropped N`, and how many for each reason that had any: `dropped 12 (from a stranger
    10, stale 2)` (`game.network.packets.DROPPED`)."""
    counts = {reason: drops.get(reason, 0) for reason in DROPPED}
    reasons = ", ".join(f"{reason} {count}" for reason, count in counts.items() if count)
    total = sum(counts.values())
    return f"dropped {total} ({reasons})" if reasons else "dropped 0"


def refuse_match_arguments(
    host: str | None, join: str | None, until_tick: int | None, capture: object
) -> None:
    """What cannot be told apart from the flags alone."""
    if host is not None and join is not None:
        raise BadInput.error("--host and --join: a game either hosts a match or joins one")
    if until_tick is not None and host is None and join is None:
        raise BadInput.error("--until-tick needs a match: --host or --join")
    if until_tick is not None and until_tick < 1:
        raise BadInput.error(f"--until-tick must be at least 1 (got {until_tick})")
    if capture is not None and (host is not None or join is not None):
        raise BadInput.error("--capture plays a recorded pace: a match plays in real time")
