"""The display's share of input-to-photon latency: from the end of the frame's ticks to light.

A press travels: wait for the tick that consumes it, the interpolation delay (the picture shows
the tick before), then the frame's own road to the panel, which is this module's part:

    render      the frame is drawn                      (frame start + work -> ready)
    pacer       the render cap holds it back            (ready -> paced)
    queue       a full present queue blocks the loop    (paced -> resumed)
    vblank      it waits in the queue for its refresh   (resumed -> shown)

Headless the four are exact (`VirtualDisplay` says when the frame is shown). In the live game
they are estimated from the refresh rate and the vsync state, and say so: without vsync a frame
reaches the panel, on average, half a refresh after it is finished; with vsync and a full queue,
one refresh per queued frame more.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from game.display.model import Presented
from timestep_lab import NS_PER_SECOND


@dataclass(frozen=True, slots=True)
class DisplayLatency:
    """From a frame's start to its photons, in exact ns, in four parts."""

    render_ns: Fraction
    pacer_ns: Fraction
    queue_ns: Fraction
    vblank_ns: Fraction
    estimated: bool = False
    """True when the figures are a model's expectation, not a measurement."""

    @property
    def total_ns(self) -> Fraction:
        return self.render_ns + self.pacer_ns + self.queue_ns + self.vblank_ns

    def parts(self) -> dict[str, Fraction]:
        return {
            "render": self.render_ns,
            "pacer": self.pacer_ns,
            "queue": self.queue_ns,
            "vblank": self.vblank_ns,
        }


def frame_to_photons(
    frame_start_ns: Fraction, ready_ns: Fraction, paced_ns: Fraction, presented: Presented
) -> DisplayLatency:
    """The exact breakdown of one frame of a headless run (`presented` for the frame handed over
    at `paced_ns`)."""
    if not frame_start_ns <= ready_ns <= paced_ns == presented.ready_ns:
        raise ValueError("a frame's times must come in order: start, ready, paced (= presented)")
    return DisplayLatency(
        render_ns=ready_ns - frame_start_ns,
        pacer_ns=paced_ns - ready_ns,
        queue_ns=presented.blocked_ns,
        vblank_ns=presented.shown_ns - presented.resumed_ns,
    )


def estimated_to_photons(
    work_ns: int, pacer_wait_ns: int, refresh_hz: Fraction, *, vsync: bool, queued_frames: int = 0
) -> DisplayLatency:
    """The live game's estimate: its measured work and pacer wait, then the display's expected
    share: half a refresh for the next scan-out, plus one refresh per frame already queued when
    vsync holds them."""
    period = NS_PER_SECOND / refresh_hz
    return DisplayLatency(
        render_ns=Fraction(work_ns),
        pacer_ns=Fraction(pacer_wait_ns),
        queue_ns=period * queued_frames if vsync else Fraction(0),
        vblank_ns=period / 2,
        estimated=True,
    )
