"""`VirtualDisplay`: when a frame the loop has finished is shown, and how long presenting blocks.

A real display refreshes on a fixed grid of vblanks (every 1/refresh s). How a frame handed to
`present` reaches it is the swap chain's *present mode*, and real captures show three:

- `queue` (vsync, FIFO): the frame waits in the swap chain's queue for the next free vblank;
  when the queue already holds `queue_depth` frames, `present` blocks the loop until the oldest
  of them goes on screen (that is how a vsynced game is held to the refresh rate). Every frame
  is shown, in turn.
- `latest` (mailbox, or a compositor such as Windows' DWM showing a windowed game): `present`
  never blocks; at each vblank the newest finished frame is shown, and older ones that no vblank
  showed yet are never shown. A game at 120 fps on a 60 Hz screen shows every other frame.
- `immediate` (vsync off): the frame is shown at once, mid-refresh, torn across the scan.

With a variable-refresh range (VRR, e.g. 48-144 Hz) the panel refreshes when a frame arrives,
but no sooner than 1/max after its last refresh, and it repeats the last frame when none arrives
within 1/min: on its own, or, below the range, evenly by low framerate compensation (LFC,
`game.display.vrr`).

Everything is exact: the refresh period of 59.94 Hz is 100,000,000,000/5994 ns, a Fraction.
Inside, the fixed grid of vblanks is counted in whole *units* of 1/D ns, D the smallest whole
number that makes the first vblank and the period whole (D = 9 at 144 Hz), so that finding a
frame's vblank is integer arithmetic; a time leaves as a Fraction of ns.

Why a phase. The loop starts `phase` of a refresh period after a vblank. A loop that reads its
clock exactly on the vblank grid, with a tick grid that meets the vblanks exactly (60 Hz ticks
on a 60 Hz display), flips between 0 and 2 ticks a frame on the clock's 1 ns floor: Bevy's
"pathological interaction" for real (docs/references.md#bevy). A display starts at an arbitrary
moment; the default 0.37 keeps the tick and vblank grids apart for the rates the game offers.
`phase = 0` shows the flip.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from fractions import Fraction
from math import lcm
from typing import Literal, NamedTuple

import numpy as np
import numpy.typing as npt

from game.display.vrr import NO_REPEATS, VrrPanel, lfc_fits
from timestep_lab import NS_PER_SECOND

MIN_REFRESH_HZ = 1
MAX_REFRESH_HZ = 1_000
"""The refresh rates a display may have (the knob table's `display.refresh_hz`): the
scheduler's snap conditioning counts in refresh periods of 1 ms to 1 s."""
MAX_QUEUE_DEPTH = 3

OPEN_LOOP_LIMIT = 2**62
"""`present_open_loop` counts in 64-bit integers: a run's times in units stay below this."""
Ints = npt.NDArray[np.int64]
Bools = npt.NDArray[np.bool_]

PresentMode = Literal["queue", "latest", "immediate"]
PRESENT_MODES: tuple[PresentMode, ...] = ("queue", "latest", "immediate")


@dataclass(frozen=True, slots=True)
class DisplaySettings:
    """Refresh (exact Hz), the present mode, queue depth (1-3) and an optional VRR range (with
    LFC). `vsync=False` is the `immediate` present mode, and either spelling sets the other."""

    refresh_hz: Fraction = Fraction(60)
    vsync: bool = True
    queue_depth: int = 2
    vrr_min_hz: Fraction | None = None
    vrr_max_hz: Fraction | None = None
    phase: Fraction = Fraction(37, 100)
    """Where in a refresh period the loop starts (0 to 1)."""
    lfc: bool = True
    """Low framerate compensation below the VRR range. On by default, as drivers ship it; it
    works only where the range allows (`lfc_active`), elsewhere the panel repeats at 1/min."""
    present_mode: PresentMode = "queue"
    """How the swap chain takes a frame (see the module's docstring); a VRR panel takes them as
    the queue does, or at once without vsync."""

    def __post_init__(self) -> None:
        refresh = Fraction(self.refresh_hz)
        if not MIN_REFRESH_HZ <= refresh <= MAX_REFRESH_HZ:
            raise ValueError(
                f"refresh must be from {MIN_REFRESH_HZ} to {MAX_REFRESH_HZ} Hz (got {refresh})"
            )
        if isinstance(self.queue_depth, bool) or not 1 <= self.queue_depth <= MAX_QUEUE_DEPTH:
            raise ValueError(f"queue depth must be 1, 2 or 3 (got {self.queue_depth})")
        if (self.vrr_min_hz is None) != (self.vrr_max_hz is None):
            raise ValueError("a VRR range needs both vrr_min_hz and vrr_max_hz")
        low, high = self.vrr_min_hz, self.vrr_max_hz
        if low is not None and high is not None and not 0 < low <= refresh <= high:
            raise ValueError(
                f"the VRR range {low}-{high} Hz must contain the refresh rate ({refresh} Hz)"
            )
        if not 0 <= self.phase < 1:
            raise ValueError(f"phase must be from 0 up to 1 (got {self.phase})")
        object.__setattr__(self, "refresh_hz", refresh)
        self._settle_present_mode()

    def _settle_present_mode(self) -> None:
        """Make `vsync` and `present_mode` say the same thing: vsync off is `immediate`."""
        mode = self.present_mode
        if mode not in PRESENT_MODES:
            raise ValueError(f"present mode must be one of {', '.join(PRESENT_MODES)} (got {mode})")
        if mode == "latest" and (not self.vsync or self.vrr):
            raise ValueError(
                "latest frame wins shows frames on the vblank grid: it needs vsync, no VRR"
            )
        if not self.vsync:
            object.__setattr__(self, "present_mode", "immediate")
        object.__setattr__(self, "vsync", self.present_mode != "immediate")

    @property
    def period_ns(self) -> Fraction:
        """One refresh, exactly."""
        return NS_PER_SECOND / self.refresh_hz

    @property
    def vrr(self) -> bool:
        return self.vrr_min_hz is not None

    @property
    def lfc_active(self) -> bool:
        """LFC is on and the VRR range can take it (max >= 2 x min, see `game.display.vrr`)."""
        low, high = self.vrr_min_hz, self.vrr_max_hz
        return self.lfc and low is not None and high is not None and lfc_fits(low, high)

    def describe(self) -> str:
        """`144 Hz vsync, queue 2` / `60 Hz no vsync` / `VRR 48-144 Hz, LFC`, for tables."""
        if self.vrr:
            lfc = ", LFC" if self.lfc_active else ""
            return f"VRR {_hz(self.vrr_min_hz)}-{_hz(self.vrr_max_hz)} Hz{lfc}"
        sync = f"vsync, queue {self.queue_depth}" if self.vsync else "no vsync"
        if self.present_mode == "latest":
            sync = "vsync, latest frame wins"
        return f"{_hz(self.refresh_hz)} Hz {sync}"


def _hz(value: Fraction | None) -> str:
    return f"{float(value or 0):g}"


class Presented(NamedTuple):
    """One frame's trip through the display, in exact ns since the loop started (a NamedTuple:
    a run presents a frame 144 times a second, and a tuple is the cheapest value to build)."""

    ready_ns: Fraction
    """The loop handed the frame to `present`."""
    resumed_ns: Fraction
    """`present` returned: the loop could start its next frame (later when the queue was full)."""
    shown_ns: Fraction
    """The frame went on screen (its vblank; with vsync off, at once). In the `latest` mode, the
    vblank it was due at: a newer frame due at the same vblank replaces it, and it is never
    shown (`reached_screen`)."""
    repeats_ns: tuple[Fraction, ...] = NO_REPEATS
    """VRR: the refreshes since the previous frame went on screen that showed it again, before
    this one (the panel's own at 1/min, or LFC's)."""

    @property
    def blocked_ns(self) -> Fraction:
        """How long a full queue held the loop."""
        return self.resumed_ns - self.ready_ns

    @property
    def waited_ns(self) -> Fraction:
        """From `present` to the photons: queue and vblank together."""
        return self.shown_ns - self.ready_ns


class VirtualDisplay:
    """A swap chain and a panel, deterministic: call `present` once per finished frame."""

    def __init__(self, settings: DisplaySettings | None = None) -> None:
        self.settings = settings = settings or DisplaySettings()
        period = settings.period_ns
        first_vblank = period * (1 - settings.phase)
        self._per_ns = per_ns = lcm(period.denominator, first_vblank.denominator)
        """The grid's unit: 1/`_per_ns` ns (see the module's docstring)."""
        self._period = period.numerator * (per_ns // period.denominator)
        self._first_vblank = first_vblank.numerator * (per_ns // first_vblank.denominator)
        self._queued: deque[Fraction] = deque()  # show times of frames not on screen yet
        self._last_shown: int | None = None  # on the grid, in units
        self.replaced = 0
        """`latest` mode: frames a newer one replaced before their vblank (never shown)."""
        low, high = settings.vrr_min_hz, settings.vrr_max_hz
        self.panel = (
            VrrPanel(low, high, lfc=settings.lfc, last_refresh_ns=first_vblank - period)
            if low is not None and high is not None
            else None
        )
        """The variable-refresh panel, with a VRR range (None: a fixed vblank grid)."""

    @property
    def repeats(self) -> int:
        """Refreshes that showed the last frame again (VRR: below its range, or no new frame)."""
        return self.panel.repeats if self.panel is not None else 0

    @property
    def collisions(self) -> int:
        """VRR: frames that arrived during a repeat's scan-out and were shown late."""
        return self.panel.collisions if self.panel is not None else 0

    def vblank_at_or_after(self, at_ns: Fraction | int) -> Fraction:
        """The first vblank at or after `at_ns` on the fixed grid."""
        return Fraction(self._vblank_at_or_after(at_ns), self._per_ns)

    def _vblank_at_or_after(self, at_ns: Fraction | int) -> int:
        """`vblank_at_or_after` in units: first + ceil((at - first) / period) x period, the
        division done over the common denominator of `at_ns` and the grid."""
        first, denominator = self._first_vblank, at_ns.denominator
        behind = at_ns.numerator * self._per_ns - first * denominator  # x denominator, in units
        if behind <= 0:
            return first
        return first + _ceil_div(behind, self._period * denominator) * self._period

    def present(self, ready_ns: Fraction) -> Presented:
        """Hand over a finished frame at `ready_ns`; say when the loop resumes and when the
        frame is shown. Calls must come in time order."""
        settings = self.settings
        if not settings.vsync and not settings.vrr:
            return Presented(ready_ns, ready_ns, ready_ns)
        if settings.present_mode == "latest":
            return self._latest_wins(ready_ns)
        queued = self._queued
        while queued and queued[0] <= ready_ns:
            queued.popleft()
        resumed = ready_ns
        if len(queued) >= settings.queue_depth:
            resumed = queued.popleft()  # blocked until the oldest queued frame is on screen
        repeats = NO_REPEATS
        if self.panel is not None:
            shown, repeats = self.panel.show(resumed)
        else:
            shown = Fraction(self._grid_vblank(resumed), self._per_ns)
        queued.append(shown)
        return Presented(ready_ns, resumed, shown, repeats)

    def _latest_wins(self, ready_ns: Fraction) -> Presented:
        """The `latest` mode: `present` never blocks, and the frame is due at the first vblank at
        or after it; one due at the same vblank as the frame before replaces that frame."""
        due = self._vblank_at_or_after(ready_ns)
        if due == self._last_shown:
            self.replaced += 1
        self._last_shown = due
        return Presented(ready_ns, ready_ns, Fraction(due, self._per_ns))

    def present_open_loop(self, ready_ns: Ints) -> Ints:
        """`present` for every frame of a run that nothing waits for (a capture's present
        times: whole ns, in time order), at once, on a display no frame was presented to yet:
        when each is shown, in whole units of 1/`units_per_ns` ns, as `present` says frame by
        frame. In arrays, since a capture can hold a million frames:

        - `immediate`: at once;
        - `latest`: at the first vblank at or after it (due there: the last of those due at one
          vblank is the one shown);
        - `queue`: at that vblank, or one refresh after the frame before, whichever is later. A
          full queue would block a live loop; an open loop is not held, and a frame that would
          have been is shown one refresh after the frame before, so the depth does not matter.
        """
        settings = self.settings
        if settings.vrr or self._last_shown is not None or self._queued:
            raise ValueError("an open-loop run needs a fixed-refresh display nothing was shown on")
        per_ns = self._per_ns
        if ready_ns.shape[0] and int(ready_ns[-1]) >= OPEN_LOOP_LIMIT // per_ns:
            raise ValueError("a run too long for the display's grid in 64-bit units")
        shown: Ints = np.multiply(ready_ns, per_ns, dtype=np.int64)
        if settings.present_mode == "immediate":
            return shown
        # In place (a million frames are 8 MB an array): the whole vblanks after the first,
        # ceil((ready - first) / period) and at least 0, then the vblank itself.
        first, period = self._first_vblank, self._period
        np.subtract(first, shown, out=shown)
        np.floor_divide(shown, period, out=shown)
        np.negative(shown, out=shown)
        np.maximum(shown, 0, out=shown)
        if settings.present_mode == "queue":  # at least one refresh after the frame before
            order = np.arange(shown.shape[0], dtype=np.int64)
            shown -= order
            np.maximum.accumulate(shown, out=shown)
            shown += order
        shown *= period
        shown += first
        return shown

    @property
    def units_per_ns(self) -> int:
        """The grid's unit: 1/`units_per_ns` ns."""
        return self._per_ns

    def _grid_vblank(self, resumed_ns: Fraction) -> int:
        """The vblank a frame handed over at `resumed_ns` goes on screen at, in units: the
        first at or after it, and after the last frame's."""
        last = self._last_shown
        if last is None:
            shown = self._vblank_at_or_after(resumed_ns)
        else:
            following = last + self._period  # the next vblank, on the grid
            at_or_before = resumed_ns.numerator * self._per_ns <= following * resumed_ns.denominator
            shown = following if at_or_before else self._vblank_at_or_after(resumed_ns)
        self._last_shown = shown
        return shown


def reached_screen(shown: Ints) -> Bools:
    """For frames presented in turn, whether each reached the screen: all but those a newer frame
    replaced before their vblank (due at the same instant as the next one: the `latest` mode)."""
    if shown.shape[0] == 0:
        return np.zeros(0, dtype=np.bool_)
    reached: Bools = np.append(shown[1:] != shown[:-1], True)
    return reached


def _ceil_div(numerator: int, denominator: int) -> int:
    """ceil(numerator / denominator) for a positive denominator, in integers."""
    return -(-numerator // denominator)
