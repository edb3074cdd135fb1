"""`LabSession`: the whole game without pixels.

The pygame loop and the headless tools drive a session the same way. Each frame they open with
the frame's wall-clock duration, step it tick by tick, and finish it (`game.session.frame`):

    frame = session.begin(elapsed_ns)
    while frame.next_tick():
        ...
    frame.finish()

Between and during frames they hand it the player's actions (`apply`) and changes of controls
(`change`). The session owns the lanes (one, or two in split screen), turns actions into
tick-stamped world orders (`game.session.player_orders`) and scheduler settings, and fills in
the HUD's `Readout`. It never reads a clock and never draws.

When a change arrives matters, and the rule is short. A world order (fire, reset) is stamped
with the next tick and submitted at once: the world applies it right before that tick, in the
middle of a frame or not. A change of controls that touches a scheduler or a world (a policy,
the tick rate, pause, split...) waits while a frame is open: it stops the frame's catch-up, and
is applied once `finish()` has settled the plans. A change that only alters the picture (help,
graphs, overlays) is applied at once.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from game.network.settings import NetworkSettings
from game.session.controls import Act, Action, Controls, ControlsChange
from game.session.frame import Frame, FrameOrderError
from game.session.input_lab import InputDesk, LaneClock
from game.session.lane import Lane
from game.session.lane_readout import LaneReadouts
from game.session.match_rules import refusal, refused_act, refused_controls
from game.session.netplay import LinkLog, link_changed, live_rollback
from game.session.player_orders import OrderLog, PlayerOrders, TickRateLog
from game.session.readout import LaneReadout
from game.session.rollback import Arrival, Rollback
from game.world.avatar import AvatarInput
from game.world.orders import Order, SetIntegrator
from game.world.snapshots import SnapshotRing
from game.world.world import World
from timestep_lab import SchedulerSettings, StepPlan, hz_to_step_ns

WorldFactory = Callable[[], World]


@dataclass(frozen=True, slots=True)
class _BooksRestart:
    """Open fresh books in every lane, counting from `since` (waits for an open frame)."""

    since: str


@dataclass(frozen=True, slots=True)
class _CountsRestart:
    """Start the input lab's counters afresh in every lane (waits for an open frame)."""


class LabSession:
    """Lanes, controls, and the translation of actions into stamped orders."""

    def __init__(
        self,
        controls: Controls,
        make_world: WorldFactory,
        base_settings: SchedulerSettings | None = None,
        *,
        on_order: OrderLog | None = None,
        on_tick_rate: TickRateLog | None = None,
        on_link: LinkLog | None = None,
    ) -> None:
        self._base = base_settings or SchedulerSettings()
        self._on_tick_rate = on_tick_rate
        self._on_link = on_link
        self.controls = replace(
            controls, policies=controls.policies[:1], focus_lane=0, paused=False
        )
        world = make_world()
        self.lanes: list[Lane] = [Lane(self._scheduler_settings(self.controls, 0), world)]
        self.orders = PlayerOrders(self.lanes, on_order)
        """Every order reaches a world through it, stamped with its tick."""
        self._frame: Frame | None = None
        self._waiting: list[ControlsChange | Action | _BooksRestart | _CountsRestart] = []
        """What arrived while a frame was open and waits for it to finish, in order."""
        self.inputs = InputDesk(self.controls.input_models[:1])
        """The avatar's presses, each lane's input model, and their counters."""
        self._lane_readouts = LaneReadouts()
        self.books_since = ""
        """What the books count from, for the HUD ("step start"); empty: the session's start."""
        if world.integrator != controls.integrator:
            self.orders.stamp(SetIntegrator(tick=world.tick, name=controls.integrator))
        self.set_controls(controls)

    @property
    def rollback(self) -> Rollback | None:
        """Lane 0's rollback against a remote peer (`connect`, the `network` control), or None."""
        return self.orders.rollback

    @rollback.setter
    def rollback(self, rollback: Rollback | None) -> None:
        self.orders.rollback = rollback

    # -- time -------------------------------------------------------------------------------------

    def begin(self, elapsed_ns: int) -> Frame:
        """Open a frame of `elapsed_ns`: every lane plans it; the caller steps and finishes it."""
        if self._frame is not None:
            raise FrameOrderError("a frame is already open: finish it before beginning another")
        rollback = self.orders.rollback  # the property's own value (read every frame and tick)
        after = None if rollback is None else rollback.after_lane_tick
        frame = Frame(self.lanes, elapsed_ns, self._frame_finished, self._before_tick, after)
        self._frame = frame
        self.inputs.frame_begins(elapsed_ns, self._lane_clocks)
        if rollback is not None:
            frame.resimulated = rollback.frame_begins(self.lanes[0].world, elapsed_ns)
        return frame

    def connect(self, rollback: Rollback) -> None:
        """Play lane 0 against a remote peer from now on (`game.session.rollback`)."""
        if self._frame is not None or len(self.lanes) > 1:
            raise FrameOrderError("connect a remote peer between frames, to a single lane")
        self.rollback = rollback

    def remote_inputs(self, arrivals: list[Arrival]) -> None:
        """Remote inputs a recording kept, handed back before the tick they arrived at."""
        assert self.rollback is not None, "remote inputs need a session connected to a peer"
        resimulated = self.rollback.receive(self.lanes[0].world, arrivals)
        if self._frame is not None:
            self._frame.resimulated += resimulated

    def reconnect(self, settings: NetworkSettings | None) -> None:
        """A replay's recorded connection, made again before its tick; or None: on alone (a
        match's peer gone). An open frame runs no more ticks; a recorder hears of it."""
        world = self.lanes[0].world
        self.rollback = None if settings is None else Rollback.from_recording(world, settings)
        if self._frame is not None:
            self._frame.stop()
        if self._on_link is not None:
            self._on_link(world.tick, self.rollback)

    def submit_recorded(self, order: Order) -> None:
        """An order from a recording, for lane 0 (recorded already: not told to `on_order`)."""
        world = self.lanes[0].world
        world.submit(order)
        if self.rollback is not None:
            self.rollback.submitted(world.tick, order)

    def _lane_clocks(self) -> list[LaneClock]:
        """What the input desk needs of each lane when the open frame is planned."""
        assert self._frame is not None
        return [
            LaneClock(plan, lane.world.tick, lane.scheduler.settings.time_scale)
            for plan, lane in zip(self._frame.planned, self.lanes, strict=True)
        ]

    def play_frame(self, elapsed_ns: int) -> tuple[StepPlan, ...]:
        """A whole frame with nothing done between its ticks (tests, simple tools)."""
        frame = self.begin(elapsed_ns)
        while frame.next_tick():
            pass
        return frame.finish()

    @property
    def frame_open(self) -> bool:
        return self._frame is not None

    def _frame_finished(self, frame: Frame) -> None:
        """The frame is settled: now carry out what waited for it, in the order it came."""
        self._frame = None
        rollback = self.orders.rollback
        if rollback is not None:
            rollback.frame_ends(self.lanes[0].scheduler)
        interpolating = self.controls.interpolation == "interpolate"
        self.inputs.frame_ends(frame.final_plans, interpolating)
        if not self._waiting:
            return
        waiting, self._waiting = self._waiting, []
        for item in waiting:
            if isinstance(item, ControlsChange):
                self._turn_to(item.applied_to(self.controls))
            elif isinstance(item, _BooksRestart):
                self.restart_books(item.since)
            elif isinstance(item, _CountsRestart):
                self.restart_input_counts()
            else:
                self.apply(item)

    @property
    def paused(self) -> bool:
        return self.controls.paused

    # -- actions and changes ----------------------------------------------------------------------

    def apply(self, action: Action) -> str | None:
        """Carry out a player's action. Returns a short message for the screen, if any."""
        act = action.act
        if self.in_match and (why := refused_act(act)) is not None:
            return why
        if act is Act.FIRE:
            self.orders.fire(action.x, action.y)
            return None
        if act is Act.RESET:
            return self.orders.reset()
        if act is Act.TOGGLE_CANNON:
            return self.orders.toggle_cannon()
        wanted = self.wanted_controls
        if act is Act.SINGLE_STEP:
            if not wanted.paused:
                return "single step works while paused: press P first"
            if self._frame is not None:
                self._waiting.append(action)
            else:
                for index, lane in enumerate(self.lanes):
                    self._before_tick(index)
                    lane.single_step()
                    if self.rollback is not None:
                        self.rollback.after_lane_tick(index)
            return None
        after = wanted.after(action)
        if self.in_match and (why := refused_controls(wanted, after)) is not None:
            return why
        self.change(ControlsChange.between(wanted, after))
        if act is Act.TOGGLE_SPLIT and after.split:
            return "split screen: same frames, same inputs, two policies (B picks the lane)"
        if action.knob == "live.focus_lane" and after.split:
            return f"policy keys now change lane {after.focus_lane + 1}"
        return None

    def change(self, change: ControlsChange) -> None:
        """The one way to change the controls, safe at any moment.

        Between frames the change is made at once. While a frame is open, a change that only
        alters the picture is made at once too; any other change waits for the frame to finish
        and stops its catch-up now (the ticks not run go back to the scheduler), so that the
        plans are settled under the settings that made them.
        """
        if change.empty or (
            self.in_match
            and refused_controls(self.wanted_controls, change.applied_to(self.wanted_controls))
        ):
            return  # in a match, a change that would reach one world only is refused whole
        if self._frame is None:
            self._turn_to(change.applied_to(self.controls))
            return
        if change.drawing_only:
            self.controls = change.applied_to(self.controls)
            if not self._waiting:
                return
        else:
            self._frame.stop()
        self._waiting.append(change)  # a picture change is made again after the waiting ones

    def restart_books(self, since: str) -> None:
        """Count from now in every lane (`Lane.restart_books`): what a lesson step that compares
        numbers starts with. While a frame is open it waits for the frame to finish, after the
        changes that came before it, so the new books open on a settled plan."""
        if self._frame is not None:
            self._waiting.append(_BooksRestart(since))
            return
        for lane in self.lanes:
            lane.restart_books()
        self.books_since = since

    def restart_input_counts(self) -> None:
        """Count the avatar's presses from now, in every lane (seen, lost, doubled, merged and
        the strip), the models kept: a lesson step's taps are that step's alone. Waits, like
        `restart_books`, for an open frame to finish."""
        if self._frame is not None:
            self._waiting.append(_CountsRestart())
            return
        self.inputs.restart_counts()

    @property
    def wanted_controls(self) -> Controls:
        """The controls as they will be once every waiting change is made: what a key that
        moves along a ladder (Tab, C, T) moves from."""
        controls = self.controls
        for item in self._waiting:
            if isinstance(item, ControlsChange):
                controls = item.applied_to(controls)
        return controls

    def set_controls(self, controls: Controls) -> None:
        """Turn every control to `controls` at once. Refused while a frame is open (use
        `change`, which waits for the frame to finish)."""
        if self._frame is not None:
            raise FrameOrderError(
                "cannot set the controls while a frame is open: use change(), which waits for it"
            )
        self._turn_to(controls)

    def _turn_to(self, controls: Controls) -> None:
        """Make the lanes match `controls`: lanes added or removed, schedulers reconfigured and
        paused or resumed, the integrator switched by an order stamped for the next tick."""
        if controls.split and len(self.lanes) == 1:
            self.lanes.append(self.lanes[0].twin())
        elif not controls.split and len(self.lanes) == 2:
            self.lanes.pop()
        self.inputs.match(controls.input_models[: len(self.lanes)])
        for index, lane in enumerate(self.lanes):
            wanted = self._scheduler_settings(controls, index)
            if wanted != lane.scheduler.settings:
                lane.scheduler.reconfigure(wanted)
            if controls.paused != lane.scheduler.paused:
                if controls.paused:
                    lane.scheduler.pause()
                else:
                    lane.scheduler.resume()
        if controls.hz != self.controls.hz and self._on_tick_rate is not None:
            self._on_tick_rate(self.lanes[0].world.tick, controls.hz)
        if not self.in_match and link_changed(self.controls, controls):  # `netplay`
            self.rollback = live_rollback(controls, self.lanes[0])
            if self._on_link is not None:
                self._on_link(self.lanes[0].world.tick, self.rollback)
        if controls.integrator != self.controls.integrator:
            for index, lane in enumerate(self.lanes):
                self.orders.stamp(
                    SetIntegrator(tick=lane.world.tick, name=controls.integrator), index
                )
        self.controls = controls

    def _scheduler_settings(self, controls: Controls, lane_index: int) -> SchedulerSettings:
        step_ns = hz_to_step_ns(controls.hz)
        return replace(
            self._base,
            step_ns=step_ns,
            # F is at least one step: at 10 Hz a 20 ms max frame would let no tick through.
            max_frame_ns=max(self._base.max_frame_ns, step_ns),
            policy=controls.policies[lane_index],
            max_steps=controls.max_steps,
            time_scale=controls.time_scale,
            alpha_mode=controls.alpha_mode,
            conditioning=controls.conditioning[lane_index],
        )

    def teleport(self, body_id: int, x: float, y: float) -> str:
        """Move a body to (x, y) at the next tick, in every lane (`PlayerOrders.teleport`)."""
        if self.in_match:
            return refusal("teleports")
        return self.orders.teleport(body_id, x, y, smear=self.controls.smear_teleports)

    def keep_snapshots(self, ticks: int) -> None:
        """From now on, every lane saves its world before each tick, the last `ticks` of them
        (`Lane.snapshots`): what the rewind goes back through."""
        for lane in self.lanes:
            lane.snapshots = SnapshotRing(ticks)

    @property
    def in_match(self) -> bool:
        """Lane 0 plays a real peer (`--host`, `--join`): `game.session.match_rules` applies."""
        return self.rollback is not None and self.rollback.sides.match

    @property
    def recording(self) -> bool:
        """A recorder hears every order (`--record`)."""
        return self.orders.on_order is not None

    def _before_tick(self, lane_index: int) -> bool:
        """Right before a lane's tick: the world saved for the rewind, if kept, the avatar's keys
        and the remote's input for it, stamped. False, and nothing done, when rollback's
        prediction window is full: the tick waits for the remote."""
        lane = self.lanes[lane_index]
        world = lane.world
        rollback = self.orders.rollback if lane_index == 0 else None
        if rollback is not None and not rollback.may_run(world.tick):
            return False
        if lane.snapshots is not None:
            lane.snapshots.save(world)
        order: Order | None = self.inputs.before_tick(lane_index, world.tick)
        if rollback is not None:  # in a match, the move read input_delay ticks ago, and sent
            order = rollback.our_input(
                world, order if isinstance(order, AvatarInput) else None, self.inputs.run
            )
        if order is not None:
            self.orders.stamp(order, lane_index)
        if rollback is not None:
            rollback.before_tick(world)
        return True

    # -- what the HUD shows -----------------------------------------------------------------------

    def lane_readouts(self, in_frame_ns: int = 0) -> tuple[LaneReadout, ...]:
        """What the HUD shows of each lane. `in_frame_ns` is the wall time the open frame has
        taken so far (the loop's clock): in the middle of a long catch-up, the lag grows by it."""
        split = len(self.lanes) > 1
        inputs = self.inputs.readouts()
        progress = self._frame.progress() if self._frame is not None else ()
        return tuple(
            self._lane_readouts.of(
                lane,
                inputs[index],
                focused=split and index == self.controls.focus_lane,
                open_frame=progress[index] if index < len(progress) else None,
                in_frame_ns=in_frame_ns,
            )
            for index, lane in enumerate(self.lanes)
        )
