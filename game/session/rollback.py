"""`Rollback`: predict the remote's input, and when it arrives otherwise, go back and run again.

Our world runs ahead of what the remote has told us. For a tick whose remote input has not
arrived, the world runs on a prediction: the last input known, repeated (GGPO's and GGRS's
rule). When inputs arrive at the start of a frame (`frame_begins`), each is compared with what
the world ran; at the first tick that was wrong the world is restored from its snapshot of that
tick and every tick since is simulated again, inside the frame, with the inputs now known: the
local orders exactly as they were submitted, and the remote's corrected or re-predicted. The
re-simulated ticks run to completion (they are owed already); they cost a whole step each, and
the session counts them as work (the virtual clock, the spiral rule, the overload light).

The prediction window: at most `prediction_window` ticks may run past the last confirmed one
(`may_run`). A new tick beyond it waits: the frame runs no more new ticks (a window stall),
and its time goes back to the scheduler like any tick a frame did not run.

Time sync on our side (`game.session.pacing`): each frame sees how far ahead of the remote we
are; at its end, a wait holds back lane 0's next ticks or a stretch lengthens them.

The remote is behind a link (`game.network.link`): the simulated peer, or a real one over UDP;
each frame sends where we are and our inputs, and takes what arrived. Whose input the remote's
is, and how it is predicted, is the sides' business (`game.session.sides`): the cannon's trigger
against the simulated peer, the second avatar's move in a match. Either way it is submitted right
before each tick, as an order when it would change something, never in a snapshot.

The local orders are logged with the tick the world was at when each was submitted: a snapshot
of tick t is saved when tick t - 1 ends, before anything is submitted for t, so after restoring
it, the orders submitted since are exactly the logged ones from t on, submitted again at the
same points.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable
from fractions import Fraction
from typing import NamedTuple, Protocol

from game.network.link import Link, SimulatedLink
from game.network.peer import Heard, Packet, RemoteInput, RemotePeer
from game.network.settings import NetworkSettings
from game.session.confirmed_peer import DESYNC_CHECK_TICKS, ConfirmedPeer
from game.session.pacing import UNPACED, OurPace
from game.session.readout import MatchReadout, NetworkReadout
from game.session.rollback_books import NO_ROLLBACK, RollbackFrame, RollbackTotals
from game.session.sides import Sides, TriggerSides
from game.world.avatar import AvatarInput
from game.world.orders import Order
from game.world.snapshots import SnapshotRing
from game.world.world import World
from timestep_lab import NS_PER_MS, FixedStepScheduler

DEPTH_STRIP_FRAMES = 24
"""How many frames the HUD's strip of rollback depths shows."""


class Snapshots(Protocol):
    """A ring of saved world states by tick (`game.world.snapshots.SnapshotRing`)."""

    def save(self, world: World) -> None: ...

    def restore(self, world: World, tick: int) -> None: ...

    def __contains__(self, tick: object) -> bool: ...


class TooLate(ValueError):
    """A remote input for a tick older than any snapshot kept: only an edited recording
    holds one (a live session's window never lets a tick run that far ahead)."""


class Arrival(NamedTuple):
    """Remote inputs as they arrived: at our world's `tick`, the inputs for ticks `first`,
    `first + 1`, ... (what a recording keeps, and a replay hands back at the same tick)."""

    tick: int
    first: int
    inputs: tuple[RemoteInput, ...]


class Rollback:
    """Lane 0's predictions, snapshots, logged orders and rollbacks, and their books."""

    def __init__(
        self,
        world: World,
        settings: NetworkSettings,
        snapshots: Snapshots,
        *,
        peer: RemotePeer | None = None,
        window: int | None = None,
        check_desyncs: bool = True,
        link: Link | None = None,
        sides: Sides | None = None,
    ) -> None:
        self.settings = settings
        self._world = world
        """Lane 0's world, the one rolled back."""
        self.peer = peer
        """The simulated remote peer, if that is what the link leads to."""
        self.link: Link | None = SimulatedLink(peer) if peer is not None else link
        """The other end (None: a replay, whose inputs come back from the recording)."""
        self.sides: Sides = TriggerSides(world.cannon_on) if sides is None else sides
        self.window = window
        """The prediction window in ticks (None: no window, as a replay runs)."""
        self._snapshots = snapshots
        first = self.sides.first
        origin = self.origin = world.tick
        """Our tick when the peers connected: the remote's tick 0 (0 unless the game connected
        in the middle of a session, as the live game's network control does)."""
        delayed = range(origin, origin + settings.input_delay)
        self._known: dict[int, RemoteInput] = dict.fromkeys(delayed, first)
        self._first = first
        self.confirmed = origin + settings.input_delay - 1
        """The last tick up to which every remote input is known."""
        self._used: dict[int, tuple[RemoteInput, float]] = {}
        """Each tick run since the oldest one still needed: the remote input it ran on, its dt."""
        self._log: dict[int, list[Order]] = {}
        """Local orders by the tick the world was at when they were submitted."""
        self._pending: RemoteInput = first
        self._hashes: dict[int, str] = {}
        self.totals = RollbackTotals()
        self._frame = NO_ROLLBACK
        self.last_frame = NO_ROLLBACK
        """The figures of the last finished frame."""
        self.depths: deque[int] = deque(maxlen=DEPTH_STRIP_FRAMES)
        """The rollback depth of the last frames, oldest first (the HUD's strip)."""
        self.on_arrival: Callable[[Arrival], None] | None = None
        """Told of every arrival as it is taken in (a recording writes it down)."""
        self.on_tick: Callable[[World], None] | None = None
        """Told of each tick's end, re-simulated or not (`replay --against` hashes each)."""
        self.now_ns = 0
        """Our wall clock: the sum of the frames' lengths, whole ns."""
        self.rollbacks = 0  # so far, each re-simulating one tick or more
        self.late_inputs = 0  # remote inputs that came after their tick ran on a prediction
        self.stop_at: int | None = None
        """No new tick from this one on (`--until-tick`); None: no end."""
        self.pace = OurPace(settings.time_sync)
        """Our own time sync: how far ahead we are, and the wait or stretch it sets."""
        desync, apply = self.totals.desync, self.sides.apply_remote
        self._reference = ConfirmedPeer(world, desync, apply) if check_desyncs else None
        snapshots.save(world)

    @classmethod
    def online(cls, world: World, settings: NetworkSettings, step_ns: Fraction) -> Rollback:
        """Against the remote peer `settings` describe, simulated from their seed, with its
        prediction window and a confirmed peer checking for desyncs."""
        peer = RemotePeer(settings, step_ns, world.cannon_on)
        window = settings.prediction_window
        return cls(world, settings, _ring(window), peer=peer, window=window)

    @classmethod
    def matched(
        cls, world: World, settings: NetworkSettings, link: Link, sides: Sides, window: int
    ) -> Rollback:
        """Against a real peer over `link` (a match: `game.workshop.runs.match`), with the
        prediction window and a confirmed peer checking for desyncs."""
        return cls(world, settings, _ring(window), window=window, link=link, sides=sides)

    @classmethod
    def from_recording(
        cls, world: World, settings: NetworkSettings, sides: Sides | None = None
    ) -> Rollback:
        """For a replay: the inputs come back as recorded, at the ticks they arrived at
        (`Session.remote_inputs`); no window (a recorded stall changed no state), no check."""
        ring = _ring(settings.prediction_window)
        return cls(world, settings, ring, check_desyncs=False, sides=sides)

    # -- the frame ---------------------------------------------------------------------------------

    def frame_begins(self, world: World, elapsed_ns: int) -> int:
        """The frame starts `elapsed_ns` after the last: what the remote sent by now arrives,
        and the world is rolled back and re-simulated if it ran a wrong prediction. Returns
        the ticks re-simulated."""
        now = self.now_ns = self.now_ns + elapsed_ns
        link = self.link
        if link is None:
            return 0
        origin = self.origin
        us = Heard(world.tick - origin, self.confirmed - origin, self.pace.sync.average)
        first, inputs = self.sides.outgoing()
        link.send(now, us, first - origin, inputs)
        resimulated = self.receive(world, self._fresh(world.tick, link.arrivals(now)))
        them = link.remote(now)
        if them is not None:  # time sync starts once we have heard the remote, as its does
            self.pace.saw(world.tick - origin - them.tick, them.lead)
        return resimulated

    def frame_ends(self, scheduler: FixedStepScheduler) -> RollbackFrame:
        """Close the frame's books (lane 0's `scheduler` holds its final plan), and against a
        remote peer, let our time sync set the next plan's wait or stretch."""
        assert scheduler.last_plan is not None, "a frame ends after its plan"
        paced = UNPACED if self.link is None else self.pace.pace(scheduler)
        frame = self._frame._replace(
            new_ticks=scheduler.last_plan.steps, held=paced.held, stretched=paced.stretched
        )
        self.last_frame = frame
        self.depths.append(frame.depth)
        self.totals.add(frame)
        self._frame = NO_ROLLBACK
        return frame

    def readout(self) -> NetworkReadout:
        """What the HUD's NETWORK rows say."""
        settings, frame, totals, link = self.settings, self.last_frame, self.totals, self.link
        return NetworkReadout(
            latency_ms=(settings.latency_ns if link is None else link.one_way_ns) / NS_PER_MS,
            input_delay=settings.input_delay,
            prediction_window=settings.prediction_window,
            new_ticks=frame.new_ticks,
            resimulated=frame.resimulated,
            depth=frame.depth,
            depths=tuple(self.depths),
            resimulated_total=totals.resimulated_ticks,
            max_depth=totals.max_depth,
            misses=totals.prediction_misses,
            window_stalls=totals.window_stalls,
            desyncs=totals.desyncs,
            time_sync=settings.time_sync,
            waiting=frame.held > 0 or self.pace.holding > 0,
            stretching=frame.stretched,
            held_total=totals.held_ticks,
            stretched_total=totals.stretched_frames,
            match=self._match_readout() if link is not None and self.sides.match else None,
        )

    def _match_readout(self) -> MatchReadout:
        """A match's link, measured: what the NETWORK rows add."""
        link = self.link
        assert link is not None
        them = link.remote(self.now_ns)
        ahead = None if them is None else self._world.tick - self.origin - them.tick
        return MatchReadout(link.sent, link.lost, self.late_inputs, self.confirmed, ahead)

    @property
    def checks(self) -> dict[int, str]:
        """The confirmed world's state hash at each of the last compared ticks (none without a
        confirmed peer): what the other peer's must be too."""
        return {} if self._reference is None else self._reference.checks

    def may_run(self, tick: int) -> bool:
        """Whether a new tick may run on prediction: not past the window (a stall if not), nor
        at `stop_at` (a headless match's last tick)."""
        if self.stop_at is not None and tick >= self.stop_at:
            return False
        if self.window is None or tick - self.confirmed <= self.window:
            return True
        self._frame = self._frame._replace(window_stall=True)
        return False

    def our_input(self, world: World, order: AvatarInput | None, run: int) -> Order | None:
        """Right before a new tick, our avatar's input as the input desk read it: the order to
        stamp for this tick, if any (`Sides.ours`: in a match, the move read `input_delay`
        ticks ago; the one read now is sent)."""
        return self.sides.ours(world, order, run)

    def before_tick(self, world: World) -> None:
        """Right before a new tick: the remote's input for it, known or predicted."""
        self._pending = self._input_for(world.tick)
        self.sides.apply_remote(world, self._pending)

    def after_tick(self, world: World) -> None:
        """A tick ended: what it ran with, and a snapshot of the tick the world is at now."""
        self._used[world.tick - 1] = (self._pending, world.last_dt)
        self._snapshots.save(world)
        if self.on_tick is not None:
            self.on_tick(world)
        if self._reference is not None and world.tick % DESYNC_CHECK_TICKS == 0:
            self._hashes[world.tick] = world.state_hash()

    def after_lane_tick(self, lane_index: int) -> None:
        """The session's hook after any lane's tick (`Frame`): lane 0's is `after_tick`."""
        if lane_index == 0:
            self.after_tick(self._world)

    def submitted(self, tick: int, order: Order) -> None:
        """A local order was submitted while the world was at `tick` (before it ran)."""
        self._log.setdefault(tick, []).append(order)

    # -- inputs in, rollbacks out ------------------------------------------------------------------

    def receive(self, world: World, arrivals: Iterable[Arrival]) -> int:
        """Take in arrived inputs; roll back to the first tick the world ran wrong, if any, and
        re-simulate up to where it was. Returns the ticks re-simulated."""
        before = self.confirmed
        misses = 0
        now = world.tick
        for arrival in arrivals:
            if self.on_arrival is not None:
                self.on_arrival(arrival)
            for offset, value in enumerate(arrival.inputs):
                tick = arrival.first + offset
                if tick in self._known:
                    continue
                self._known[tick] = value
                used = self._used.get(tick)
                ran = used is not None and tick < now
                self.late_inputs += ran
                misses += ran and used is not None and used[0] != value
        while self.confirmed + 1 in self._known:
            self.confirmed += 1
        target = self._first_wrong(before + 1, now)
        depth = 0 if target is None else now - target
        if target is not None:
            self.rollbacks += 1
            self._resimulate(world, target)
        frame = self._frame
        self._frame = frame._replace(
            resimulated=frame.resimulated + depth,
            depth=max(frame.depth, depth),
            misses=frame.misses + misses,
        )
        self._confirm(world)
        return depth

    def _first_wrong(self, start: int, end: int) -> int | None:
        """The first tick from `start` to `end - 1` that ran with another input than the one
        it has now (known, or predicted anew), if any."""
        used, input_for = self._used, self._input_for
        return next((tick for tick in range(start, end) if input_for(tick) != used[tick][0]), None)

    def _fresh(self, tick: int, packets: list[Packet]) -> list[Arrival]:
        """The arrived packets' inputs from the first one not known yet, as arrivals at our
        world's `tick` (the known ones before it are left out: a recording keeps less)."""
        arrivals = []
        known = self._known
        for packet in packets:
            first = self.origin + packet.first_tick
            skip = 0
            while skip < len(packet.inputs) and first + skip in known:
                skip += 1
            if skip < len(packet.inputs):
                arrivals.append(Arrival(tick, first + skip, packet.inputs[skip:]))
        return arrivals

    def _input_for(self, tick: int) -> RemoteInput:
        """The remote's input for `tick`: known, or predicted from the last confirmed (the
        trigger repeated; the direction held, with no presses)."""
        known = self._known.get(tick)
        if known is not None:
            return known
        return self.sides.predicted(self._known.get(self.confirmed, self._first))

    def _resimulate(self, world: World, target: int) -> None:
        end = world.tick
        if target not in self._snapshots:
            raise TooLate(
                f"a remote input for tick {target} arrived at tick {end}, {end - target} ticks "
                "late: further back than the prediction window keeps snapshots"
            )
        self._snapshots.restore(world, target)
        while world.tick < end:
            tick = world.tick
            for order in self._log.get(tick, ()):
                world.submit(order)
            self._pending = self._input_for(tick)
            self.sides.apply_remote(world, self._pending)
            world.step(self._used[tick][1])
            self.after_tick(world)
        for order in self._log.get(end, ()):
            world.submit(order)

    def _confirm(self, world: World) -> None:
        """Let the confirmed peer run what is confirmed (and run here), then forget what no
        rollback can reach any more."""
        last = min(self.confirmed, world.tick - 1)
        reference = self._reference
        if reference is not None:
            reference.run_to(last, self._orders_at, self._confirmed_input, self._hashes)
            keep_from = reference.world.tick
        else:
            keep_from = last + 1
        for tick in [tick for tick in self._used if tick < keep_from]:
            del self._used[tick]
            self._log.pop(tick, None)
            if tick < self.confirmed:
                self._known.pop(tick, None)

    def _orders_at(self, tick: int) -> list[Order]:
        return self._log.get(tick, [])

    def _confirmed_input(self, tick: int) -> tuple[RemoteInput, float]:
        return self._known[tick], self._used[tick][1]


def _ring(window: int) -> Snapshots:
    """Snapshots for every tick a rollback can reach: the window's, and the confirmed one's."""
    return SnapshotRing(window + 2)
