"""`Rewatch`: the last 2 s of drawn frames, again, ten times slower (the W key).

Some effects the lessons are about last a frame or two: the naive alpha's overshoot after a
stall, clamp's one 15-tick catch-up frame. Nobody in a room sees them live. So the loop keeps the
frames it actually drew (each lane's `RenderView` and the HUD's `Readout`, in a bounded ring),
and W plays the last 2 s of them back at 1/10 speed, every frame held ten times as long as it
was on screen. It is a film of what was shown, not a new simulation: nothing is stepped, and the
live session is paused meanwhile (`ControlsChange(paused=True)`), so the rewatch bills no time
to any book. W again, or the end of the clip, resumes it (unless it was paused before).

A stall is a picture held on screen for a long time (2 s for Shift+S); played ten times slower
that would be 20 s of one picture. A held picture is therefore shown for at most `MAX_HOLD_NS`
of the clip, and the caption says how long the loop really stalled there.

Times come from the loop (the frame's start, measured where it measures every frame): this
module reads no clock.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, replace

from game.clock.units import NS_PER_MS, NS_PER_SECOND
from game.session.controls import ControlsChange
from game.session.readout import Readout
from game.session.session import LabSession
from game.vocabulary import RENDER_CAPS
from game.world.render_view import RenderView

CLIP_NS = 2 * NS_PER_SECOND
"""How much of the past W rewatches, counted in shown time (a stall counts `MAX_HOLD_NS`)."""
SLOWDOWN = 10
MAX_HOLD_NS = 100 * NS_PER_MS
"""The longest one picture is held in the clip, before the slowdown (1 s once slowed down)."""
RING_FRAMES = 2 * max(RENDER_CAPS)
"""2 s of frames at the highest render cap (240 fps): the ring never holds more. Uncapped, the
game may draw faster, and the ring then holds less than 2 s."""
LABEL = f"REWATCH x1/{SLOWDOWN} (W: back to live)"


@dataclass(frozen=True, slots=True)
class DrawnFrame:
    """One picture as the loop drew it: when, each lane's view, and what the HUD said."""

    at_ns: int
    """When the frame that drew it started, on the loop's clock."""
    views: tuple[RenderView, ...]
    readout: Readout


@dataclass(frozen=True, slots=True)
class ClipFrame:
    """A drawn frame in a clip, and how long it was on screen."""

    frame: DrawnFrame
    held_ns: int
    """Until the next picture replaced it (the last one: until W)."""
    ago_ns: int
    """From this picture to the moment W was pressed."""

    @property
    def shown_ns(self) -> int:
        """How long the clip shows it, before the slowdown."""
        return min(self.held_ns, MAX_HOLD_NS)


def clip_of(frames: tuple[DrawnFrame, ...], now_ns: int, lanes: int) -> tuple[ClipFrame, ...]:
    """The last `CLIP_NS` of shown time before `now_ns`, oldest first: only pictures of
    `lanes` lanes (a split screen turned on or off mid-clip ends it there)."""
    clip: list[ClipFrame] = []
    shown = 0
    until = now_ns
    for frame in reversed(frames):
        if len(frame.views) != lanes:
            break
        entry = ClipFrame(frame, held_ns=until - frame.at_ns, ago_ns=now_ns - frame.at_ns)
        if clip and shown + entry.shown_ns > CLIP_NS:
            break
        clip.append(entry)
        shown += entry.shown_ns
        until = frame.at_ns
    return tuple(reversed(clip))


class Rewatch:
    """Keeps the drawn frames, and plays the last 2 s of them back, slowed down, on request."""

    def __init__(self, capacity: int = RING_FRAMES) -> None:
        self._ring: deque[DrawnFrame] = deque(maxlen=capacity)
        self._clip: tuple[ClipFrame, ...] = ()
        self._played_ns = 0
        self._resume = False
        """Whether the rewatch paused the session, and so resumes it at the end."""

    @property
    def capacity(self) -> int:
        return self._ring.maxlen or 0

    @property
    def frames_kept(self) -> int:
        return len(self._ring)

    @property
    def playing(self) -> bool:
        return bool(self._clip)

    def keep(self, frame: DrawnFrame) -> None:
        """Remember a frame the loop drew (not while rewatching: the rewatch is not the game)."""
        if not self.playing:
            self._ring.append(frame)

    def start(self, now_ns: int, session: LabSession) -> str | None:
        """Play the last 2 s, pausing the session. Returns a message if there is nothing yet."""
        clip = clip_of(tuple(self._ring), now_ns, len(session.lanes))
        if not clip:
            return "nothing to rewatch yet"
        self._clip, self._played_ns = clip, 0
        self._resume = not session.wanted_controls.paused
        if self._resume:
            session.change(ControlsChange(paused=True))
        return None

    def stop(self, session: LabSession) -> None:
        """Back to live: resume the session if the rewatch paused it. The ring starts afresh,
        so the next W rewatches what came after."""
        if self._resume:
            session.change(ControlsChange(paused=False))
        self._clip, self._resume = (), False
        self._ring.clear()

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

    def readout(self) -> Readout | None:
        """The HUD of the frame showing, captioned as a rewatch; None when not rewatching."""
        entry = self.showing()
        if entry is None:
            return None
        caption = f"{LABEL}: {entry.ago_ns / NS_PER_SECOND:.2f} s before W"
        if entry.held_ns > MAX_HOLD_NS:
            caption += (
                f"; this picture stayed on screen {entry.held_ns // NS_PER_MS} ms "
                f"(rewatched as {MAX_HOLD_NS // NS_PER_MS} ms)"
            )
        return replace(entry.frame.readout, caption=caption, menu=None, show_help=False)
