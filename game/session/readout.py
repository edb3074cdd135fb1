"""`Readout`: everything the HUD shows for one frame, as plain values.

The session fills it in; the HUD only draws it. Keeping it free of pygame lets the tests check
what the HUD *says* without looking at pixels, and lets the headless tools print the same lines.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from game.session.input_readout import InputReadout


@dataclass(frozen=True, slots=True)
class LaneReadout:
    """One simulation lane: a scheduler and its world (split screen shows two)."""

    policy: str
    hz: float
    step_ms: float
    max_steps: int
    max_frame_ms: float
    max_backlog_ms: float
    steps: int
    """Ticks run this frame."""
    alpha: float
    remainder_ms: float
    backlog_steps: int
    dropped_frame_ms: float
    dropped_last_second_ms: float
    dropped_total_ms: float
    tick: int
    sim_time_s: float
    """Simulated time since the start."""
    wall_time_s: float
    """Real wall time since the start (or since the books were last reset), paused time too."""
    owed_time_s: float
    """The time the simulation was owed: each frame's wall time scaled by the time scale it
    ran under, paused time excluded, plus single ticks granted while paused. It equals the
    wall time only at a scale of 1 with no pause."""
    lag_ms: float
    """How far the simulation is behind what it was owed: the time dropped, the time carried,
    and, in the middle of a long catch-up, the wall time the frame has taken so far."""
    time_scale: str
    """Exact, as "1/8" or "2"."""
    paused: bool
    overloaded: bool
    spiral: bool
    alpha_mode: str
    integrator: str
    bodies: int
    focused: bool = False
    """In split screen: the lane the policy keys change (B switches)."""
    non_finite_tick: int | None = None
    """The tick after which the world's state became infinite or NaN (None: all finite)."""
    inputs: InputReadout | None = None
    """The input lab: this lane's model, its counters and its press timeline."""
    variable: bool = False
    """The `variable` policy: one tick per frame, as long as the frame; no fixed step."""
    dt_ms: float = 0.0
    """The length of the last frame's ticks (under `variable`, the frame's own length)."""
    conditioning: str = "raw"
    """Delta-time conditioning (`timestep_lab.CONDITIONERS`)."""
    conditioning_carry_ms: float = 0.0
    """The conditioning account: measured time not counted yet (negative: counted ahead)."""


@dataclass(frozen=True, slots=True)
class ListOverlay:
    """A titled list drawn over the scene, such as the lesson menu: (left, right) rows."""

    title: str
    rows: tuple[tuple[str, str], ...]
    footer: str = ""


@dataclass(frozen=True, slots=True)
class LaneJudder:
    """What one lane's live judder meter says about the last second (`game.display.live`)."""

    cadence: str
    """Ticks per refresh, most recent last (`0101001...`)."""
    holds: str
    """Refreshes each recent tick stayed on screen (`2323...`)."""
    judder_pct: float
    position_error_ms: float


@dataclass(frozen=True, slots=True)
class DisplayReadout:
    """The display the live meter assumes, and each lane's meter, lane 1 first."""

    refresh_hz: float
    refresh_read: bool
    """False when the refresh rate is a guess (pygame could not read it)."""
    lanes: tuple[LaneJudder, ...]
    refresh_simulated: bool = False
    """The refresh is the lesson step's screen, simulated on the lesson clock."""


@dataclass(frozen=True, slots=True)
class MatchReadout:
    """A match's link, measured (`--host`, `--join`): what the NETWORK rows add for it."""

    sent: int
    """Datagrams sent."""
    lost: int
    """The peer's sequence numbers never received."""
    late: int
    """The peer's inputs that arrived after their tick ran on a prediction."""
    confirmed: int
    """The last tick up to which every input of the peer's is known."""
    ahead: Fraction | None
    """How far we run ahead of the peer, in ticks, as we estimate it (None: not heard yet)."""


@dataclass(frozen=True, slots=True)
class NetworkReadout:
    """Lane 0 against a remote peer: the link, the last frame's rollback, the run's totals."""

    latency_ms: float
    input_delay: int
    prediction_window: int
    new_ticks: int
    """The last frame's new ticks (simulated for the first time)."""
    resimulated: int
    """The last frame's ticks run again after a rollback."""
    depth: int
    """The last frame's deepest rollback, in ticks."""
    depths: tuple[int, ...]
    """The rollback depth of each recent frame, oldest first (the strip)."""
    resimulated_total: int
    max_depth: int
    misses: int
    """Remote inputs that proved a prediction wrong, since the peers connected."""
    window_stalls: int
    """Frames the full prediction window stopped, since the peers connected."""
    desyncs: int
    time_sync: str = "none"
    """Our own time sync (`game.session.pacing`): "none", "wait" or "stretch"."""
    waiting: bool = False
    """Our wait holds ticks back: the picture stands still."""
    stretching: bool = False
    """Our stretch made the last frame's ticks 11/10 long: the motion is 10% slower."""
    held_total: int = 0
    """Ticks our waits held back, since the peers connected."""
    stretched_total: int = 0
    """Frames our stretch slowed, since the peers connected."""
    match: MatchReadout | None = None
    """Against a real peer: the link as measured."""


@dataclass(frozen=True, slots=True)
class Readout:
    """One frame of the HUD: the lanes, and what belongs to the render loop."""

    lanes: tuple[LaneReadout, ...]
    fps: float
    """Rendered frames per second, averaged over the last second."""
    frame_ms: float
    """The last frame's wall time."""
    work_ms: float
    """The last frame's work: everything but the pacer's wait."""
    frame_budget_ms: float
    """1000 / render-rate cap, or 0 when uncapped."""
    render_cap: str
    """"30", "60", "144", "240" or "uncapped"."""
    vsync: bool
    step_cost_ms: float
    """CPU work added to every tick (a busy wait)."""
    interpolation: str
    """"off", "interpolate" or "extrapolate"."""
    presentation: bool
    show_graphs: bool
    show_help: bool
    caption: str = ""
    """A lesson's caption, or a short message ("screenshot saved ..."), shown over the scene."""
    lasting_caption: str | None = None
    """The caption without its passing status (the lesson step's own words, or nothing; None:
    the whole caption lasts): the HUD picks its type size for this, so a status that comes and
    goes (a stall's message, a catch-up's count) never shrinks the whole HUD while it shows."""
    menu: ListOverlay | None = None
    """A list to choose from (the lesson menu), drawn where the help goes, instead of it."""
    books_since: str = ""
    """What the totals (dropped, lag, sim / wall) count from, when not the start: "step start"
    once a lesson step has restarted the books."""
    display: DisplayReadout | None = None
    """The display rows: refresh, cadence, judder (the live game's estimate)."""
    clock: str = ""
    """Which clock runs the frames: `real (wall)`, or the lesson clock with its slow-motion
    factor (`game.app.lesson_time`); "" where there is no choice (a clip, a test)."""
    capture: str = ""
    """The capture whose frames are playing, and where in it (`hitch.csv · 301/600 · round
    2 · stretched 4 (52 ms)`, `game.clock.captured`); "" when none plays."""
    network: NetworkReadout | None = None
    """Rollback's rows, in a session against a remote peer (None: no NETWORK rows)."""
    watch: tuple[str, ...] = ()
    """The rows the lesson step talks about (its `watch`, rows named as `HUD_ROWS` names them):
    the HUD never hides them to make room."""
