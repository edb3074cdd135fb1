"""`Rewatch`: the moment that just happened, again, ten times slower (the W key).

Some effects the lessons are about last a frame or two: the naive alpha's overshoot after a
stall, clamp's one 15-tick catch-up frame. Nobody in a room sees them live. So the loop keeps the
frames it actually drew (each lane's `RenderView`, the HUD's `Readout` and how far each lane's
frame history had got, in a bounded ring), and W plays them back at 1/10 speed, every frame held
ten times as long as it was on screen. It is a film of what was shown, not a new simulation:
nothing is stepped, and the live session is paused meanwhile (`ControlsChange(paused=True)`),
so the rewatch bills no time to any book. W again, or the end of the clip, resumes it (unless
it was paused before).

**Where it starts.** At the event: the first *strained* frame of the last 2 s (one whose
scheduler wanted more than M ticks or dropped time, `StepPlan.strained`: a stall's catch-up, a
spiral's frame). With no strained frame in them, the clip is all of the last 2 s.

**Tick by tick.** A catch-up frame runs its ticks before it draws, so its picture shows only
where they ended. So the loop films each lane's world after each tick of a frame (`after_tick`,
up to `MAX_FILMED_TICKS`), the film is kept with the frame if it is one of the first
`FILMED_PER_STRAIN` strained frames in a row (a stall's catch-up frame and the few after it;
not every frame of a spiral), and the rewatch shows a filmed frame's ticks one by one before
its own picture, `TICK_SHOT_NS` each, labelled "tick 3 of 15": clamp's 15 ticks can be counted
on screen.

**The same instant.** The graphs are drawn from each lane's frame history as it stood when the
picture was drawn (`FrameHistory.as_of`, from copies taken when W was pressed: the live history
goes on meanwhile), so the graphs and the HUD's rows show the same frame.

A stall is a picture held on screen for a long time (2 s for Shift+S); played ten times slower
that would be 20 s of one picture. A held picture is therefore shown for at most `MAX_HOLD_NS`
of the clip, and the caption says how long the loop really stalled there.

Times come from the loop (the frame's start, measured where it measures every frame): this
module reads no clock.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, replace

from game.session.controls import ControlsChange
from game.session.frame import Frame
from game.session.history import FrameHistory
from game.session.lane import Lane
from game.session.readout import Readout
from game.session.session import LabSession
from game.vocabulary import RENDER_CAPS
from game.world.render_view import InterpolationMode, RenderView
from timestep_lab import NS_PER_MS, NS_PER_SECOND

CLIP_NS = 2 * NS_PER_SECOND
"""How much of the past W rewatches, counted in shown time (a stall counts `MAX_HOLD_NS`)."""
SLOWDOWN = 10
MAX_HOLD_NS = 100 * NS_PER_MS
"""The longest one picture is held in the clip, before the slowdown (1 s once slowed down)."""
TICK_SHOT_NS = 20 * NS_PER_MS
"""How long each filmed tick is shown, before the slowdown: 0.2 s, so 15 ticks take 3 s."""
MAX_FILMED_TICKS = 30
"""A frame that ran more ticks in a lane is not filmed: a spiral's frames would take minutes."""
FILMED_PER_STRAIN = 4
"""How many strained frames in a row are filmed: the one where the strain began, and 3 more."""
FILMS_KEPT = 16
"""The ring keeps the last 16 films (films are large); an older filmed frame is shown as drawn."""
RING_FRAMES = 2 * max(RENDER_CAPS)
"""2 s of frames at the highest render cap (240 fps): the ring never holds more. Uncapped, the
game may draw faster, and the ring then holds less than 2 s."""
LABEL = f"REWATCH x1/{SLOWDOWN} (W: back to live)"

Film = tuple[tuple[RenderView, ...], ...]
"""Per lane, the world after each tick of one frame, first tick first."""


@dataclass(frozen=True, slots=True)
class DrawnFrame:
    """One picture as the loop drew it: when, each lane's view, and what the HUD said."""

    at_ns: int
    """When the frame that drew it started, on the loop's clock."""
    views: tuple[RenderView, ...]
    readout: Readout
    strained: bool = False
    """Some lane's scheduler wanted more than M ticks, or dropped time, in this frame."""
    graphs: tuple[tuple[FrameHistory, int], ...] = ()
    """Each lane's frame history and how many frames it had been given: the graphs then."""
    ticks: Film = ()
    """The frame's ticks, filmed (see the module's docstring); empty when it was not."""

    @classmethod
    def of(
        cls, at_ns: int, views: tuple[RenderView, ...], readout: Readout, session: LabSession
    ) -> DrawnFrame:
        """The picture just drawn after a frame of `session`, with its strain and its graphs."""
        plans = [lane.scheduler.last_plan for lane in session.lanes]
        strained = any(plan is not None and plan.strained for plan in plans)
        graphs = tuple((lane.history, lane.history.appended) for lane in session.lanes)
        return cls(at_ns, views, readout, strained, graphs)


@dataclass(frozen=True, slots=True)
class ClipFrame:
    """A drawn frame in a clip (or one of its filmed ticks), and how long it was on screen."""

    frame: DrawnFrame
    held_ns: int
    """Until the next picture replaced it (the last one: until W)."""
    ago_ns: int
    """From this picture to the moment W was pressed."""
    tick: int = 0
    """Which of the frame's filmed ticks this shows, from 1; 0 for the picture it drew."""

    @property
    def shown_ns(self) -> int:
        """How long the clip shows it, before the slowdown."""
        return TICK_SHOT_NS if self.tick else min(self.held_ns, MAX_HOLD_NS)

    @property
    def views(self) -> tuple[RenderView, ...]:
        """What to draw: the frame's picture, or each lane's world after this tick (a lane that
        ran fewer ticks stays on its last; one that ran none shows the frame's picture)."""
        if not self.tick:
            return self.frame.views
        return tuple(
            film[min(self.tick, len(film)) - 1] if film else view
            for film, view in zip(self.frame.ticks, self.frame.views, strict=True)
        )

    def tick_label(self) -> str:
        """`tick 3 of 15`; in split screen, each lane's: `lane 1 tick 3 of 5, lane 2 tick 3
        of 15`. Empty for the frame's own picture."""
        if not self.tick:
            return ""
        counts = [len(film) for film in self.frame.ticks]
        if len(counts) == 1:
            return f"tick {self.tick} of {counts[0]}"
        return ", ".join(
            f"lane {lane} tick {min(self.tick, count)} of {count}"
            for lane, count in enumerate(counts, start=1)
        )


def clip_of(frames: tuple[DrawnFrame, ...], now_ns: int, lanes: int) -> tuple[ClipFrame, ...]:
    """What W shows, oldest first: the last `CLIP_NS` of shown time before `now_ns` (only
    pictures of `lanes` lanes: a split screen turned on or off mid-clip ends it there), from
    its first strained frame if it has one; a filmed frame's ticks come before its picture."""
    window: list[ClipFrame] = []
    shown = 0
    until = now_ns
    for frame in reversed(frames):
        if len(frame.views) != lanes:
            break
        entry = ClipFrame(frame, held_ns=until - frame.at_ns, ago_ns=now_ns - frame.at_ns)
        if window and shown + entry.shown_ns > CLIP_NS:
            break
        window.append(entry)
        shown += entry.shown_ns
        until = frame.at_ns
    window.reverse()
    start = next((index for index, entry in enumerate(window) if entry.frame.strained), 0)
    return tuple(shot for entry in window[start:] for shot in _shots(entry))


def _shots(entry: ClipFrame) -> tuple[ClipFrame, ...]:
    """A filmed frame's ticks one by one, then its picture; any other frame, its picture."""
    ticks = max((len(film) for film in entry.frame.ticks), default=0)
    return (*(replace(entry, tick=tick) for tick in range(1, ticks + 1)), entry)


class Rewatch:
    """Keeps the drawn frames, and plays the moment back, slowed down, on request."""

    def __init__(self, capacity: int = RING_FRAMES) -> None:
        self._ring: deque[DrawnFrame] = deque(maxlen=capacity)
        self._clip: tuple[ClipFrame, ...] = ()
        self._played_ns = 0
        self._resume = False
        """Whether the rewatch paused the session, and so resumes it at the end."""
        self._histories: dict[FrameHistory, FrameHistory] = {}
        """Each lane's frame history as it stood when W was pressed, by the live one."""
        self._filming: Frame | None = None
        self._film: list[list[RenderView]] = []
        """Each lane's world after each tick of the frame `_filming`, so far."""
        self._kept = 0
        """Frames ever kept: the ring holds the last of them."""
        self._strained_run = 0
        """Strained frames in a row, up to the last one kept."""
        self._filmed: deque[int] = deque()
        """Which frames (by the count of frames kept before them) carry a film, oldest first."""

    @property
    def capacity(self) -> int:
        return self._ring.maxlen or 0

    @property
    def frames_kept(self) -> int:
        return len(self._ring)

    @property
    def playing(self) -> bool:
        return bool(self._clip)

    def after_tick(self, frame: Frame, lanes: Sequence[Lane]) -> None:
        """A tick of `frame` just ran: film each lane's world after it, if the frame runs at
        least 2 and at most `MAX_FILMED_TICKS` ticks in its lanes (`keep` decides whether the
        film is kept)."""
        if self.playing or frame.ticks_run > MAX_FILMED_TICKS * len(lanes):
            return
        progress = frame.progress()
        if all(plan.steps < 2 for plan, _ in progress):
            return
        if frame is not self._filming:
            self._filming, self._film = frame, [[] for _ in lanes]
        for film, (_, ran), lane in zip(self._film, progress, lanes, strict=True):
            if len(film) < ran <= MAX_FILMED_TICKS:
                film.append(lane.world.view(1.0, InterpolationMode.OFF))

    def keep(self, frame: DrawnFrame) -> None:
        """Remember a frame the loop drew (not while rewatching: the rewatch is not the game),
        with the film of its ticks if it is one of the first strained frames in a row and the
        film has every tick it ran."""
        film, self._filming, self._film = self._film, None, []
        if self.playing:
            return
        self._strained_run = self._strained_run + 1 if frame.strained else 0
        steps = [lane.steps for lane in frame.readout.lanes]
        whole = [len(each) for each in film] == steps and max(steps, default=0) >= 2
        if 0 < self._strained_run <= FILMED_PER_STRAIN and whole and not frame.ticks:
            frame = replace(frame, ticks=tuple(tuple(each) for each in film))
        if frame.ticks:
            self._filmed.append(self._kept)
        self._ring.append(frame)
        self._kept += 1
        if len(self._filmed) > FILMS_KEPT:
            self._forget_film(self._filmed.popleft())

    def _forget_film(self, kept_before: int) -> None:
        """Drop the film of a frame, if the ring still holds it (films are large)."""
        index = kept_before - (self._kept - len(self._ring))
        if index >= 0:
            self._ring[index] = replace(self._ring[index], ticks=())

    def start(self, now_ns: int, session: LabSession) -> str | None:
        """Play the moment, pausing the session. Returns a message if there is nothing yet."""
        clip = clip_of(tuple(self._ring), now_ns, len(session.lanes))
        if not clip:
            return "nothing to rewatch yet"
        self._clip, self._played_ns = clip, 0
        live = {history for entry in clip for history, _ in entry.frame.graphs}
        self._histories = {history: history.copy() for history in live}
        self._resume = not session.wanted_controls.paused
        if self._resume:
            session.change(ControlsChange(paused=True))
        return None

    def stop(self, session: LabSession) -> None:
        """Back to live: resume the session if the rewatch paused it. The ring starts afresh,
        so the next W rewatches what came after."""
        if self._resume:
            session.change(ControlsChange(paused=False))
        self._clip, self._resume, self._histories = (), False, {}
        self._ring.clear()
        self._filmed.clear()
        self._strained_run = 0

    def advance(self, elapsed_ns: int, session: LabSession) -> None:
        """Let `elapsed_ns` of the loop's time pass in the rewatch; at its end, back to live."""
        if not self.playing:
            return
        self._played_ns += elapsed_ns
        if self._played_ns >= SLOWDOWN * sum(entry.shown_ns for entry in self._clip):
            self.stop(session)

    def showing(self) -> ClipFrame | None:
        """The clip's frame for the time played so far, or None when not rewatching."""
        if not self._clip:
            return None
        start = 0
        for entry in self._clip:
            start += SLOWDOWN * entry.shown_ns
            if self._played_ns < start:
                return entry
        return self._clip[-1]

    def histories(self) -> tuple[FrameHistory, ...]:
        """Each lane's frame history as it stood when the picture showing was drawn: what the
        graphs draw, so that they show the same instant as the HUD's rows (none when not
        rewatching, or when the picture did not say)."""
        entry = self.showing()
        if entry is None:
            return ()
        return tuple(
            self._histories[history].as_of(appended) for history, appended in entry.frame.graphs
        )

    def readout(self) -> Readout | None:
        """The HUD of the frame showing, captioned as a rewatch; None when not rewatching."""
        entry = self.showing()
        if entry is None:
            return None
        caption = f"{LABEL}: {entry.ago_ns / NS_PER_SECOND:.2f} s before W"
        if entry.tick:
            caption += f", {entry.tick_label()}"
        elif entry.held_ns > MAX_HOLD_NS:
            caption += (
                f"; this picture stayed on screen {entry.held_ns // NS_PER_MS} ms "
                f"(rewatched as {MAX_HOLD_NS // NS_PER_MS} ms)"
            )
        return replace(entry.frame.readout, caption=caption, menu=None, show_help=False)
