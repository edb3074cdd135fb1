"""`DisplayColumns`: what the display side reads of a capture, one array per column.

Whether each frame reached the screen and when, with its row and present time: the capture's
own columns (`game.capture.frame_columns`), as the reader wrote them while it read the file, so
the policies' runs and the display side share one read and one copy.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from game.capture.frame import CapturedFrame
from game.capture.frame_columns import NOT_SAID, FrameColumns
from game.display.judder import Ints

Bools = npt.NDArray[np.bool_]

MAX_SPAN_NS = 10**15
"""The longest capture the display side runs on, first present to last display or ready time:
a million seconds (11.6 days; the row limit's 19 hours at 144 fps fit 500 times). The model
counts the grid in whole units of up to a thousandth of a ns in 64 bits (`OPEN_LOOP_LIMIT`),
the grid fit in picoseconds: a capture whose times jump past this cannot be laid on a grid."""


@dataclass(frozen=True, slots=True, eq=False)
class DisplayColumns:
    """The columns of a capture the display side reads, one entry per frame, as arrays: a
    million-frame capture is 25 MB here, not the 150 of a list of tuples."""

    rows: Ints
    present_ns: Ints
    displayed: npt.NDArray[np.int8]
    """1 shown, 0 not shown, `NOT_SAID` when the capture does not say."""
    display_ns: Ints
    """When it was shown, `NOT_SAID` when not or not said."""
    ready_ns: Ints
    """When the GPU had drawn it (never before its present), `NOT_SAID` when not said."""

    @classmethod
    def of(cls, columns: FrameColumns) -> DisplayColumns:
        """The capture's columns the display side reads (the same arrays, not copies)."""
        return cls(
            columns.row, columns.time_ns, columns.displayed, columns.display_ns, columns.ready_ns
        )

    @classmethod
    def from_frames(cls, frames: Iterable[CapturedFrame]) -> DisplayColumns:
        return cls.of(FrameColumns.from_frames(frames))

    @property
    def said(self) -> Bools:
        """The frames the capture says whether it showed."""
        said: Bools = self.displayed != NOT_SAID
        return said

    @property
    def shown(self) -> Bools:
        """The frames the capture says it showed, at a time it gives."""
        shown: Bools = (self.displayed == 1) & (self.display_ns != NOT_SAID)
        return shown

    @property
    def ready_from(self) -> str:
        """`"ready"` when every frame the capture says it showed has a ready time (the model is
        then handed each frame when it was ready, a frame with none at its present), else
        `"present"` (each at its present)."""
        shown = self.displayed == 1
        said = self.ready_ns[shown] != NOT_SAID
        return "ready" if bool(shown.any()) and bool(said.all()) else "present"

    def handed_ns(self, ready_from: str) -> Ints:
        """When each frame is handed to the model: its ready time (where it has one) or its
        present, as `ready_from` says."""
        if ready_from != "ready":
            return self.present_ns
        handed: Ints = np.where(self.ready_ns != NOT_SAID, self.ready_ns, self.present_ns)
        return handed

    def missing(self) -> str | None:
        """Why the display side cannot run on this capture, or None when it can: it says
        nothing of what was shown, its times go back, or they span more than the model can
        take (`MAX_SPAN_NS`)."""
        if not self.said.any():
            return "the capture does not say which frames reached the screen"
        times = self.display_ns[self.shown]
        if times.shape[0] == 0 or (times == times[0]).all():
            return "the capture gives fewer than two display times to fit a refresh grid to"
        return self._back_in_time(times) or self._too_long(times)

    def _back_in_time(self, times: Ints) -> str | None:
        """Present times that go back, or display times all before an earlier one's."""
        back = np.flatnonzero(np.diff(self.present_ns) < 0)
        if back.shape[0]:
            at = int(back[0]) + 1
            went = int(self.present_ns[at - 1]) - int(self.present_ns[at])
            times_back = "once" if back.shape[0] == 1 else f"{back.shape[0]:,} times, first"
            return (
                f"the present times go back in time ({times_back} at row {int(self.rows[at]):,}, "
                f"{_ms(went)} ms before the row before it)"
            )
        running = np.maximum.accumulate(times)
        if (running == running[-1]).all():
            earlier = int((times < running).sum())
            return (
                f"the display times go back in time: {earlier:,} of the {times.shape[0]:,} frames "
                "shown were shown before the first of them, leaving no two to fit a grid to"
            )
        return None

    def _too_long(self, times: Ints) -> str | None:
        """Times that span more than the model can lay on a grid."""
        said = self.ready_ns[self.ready_ns != NOT_SAID]
        last = max(int(times.max()), int(said.max()) if said.shape[0] else 0)
        span = last - int(self.present_ns[0])
        if span > MAX_SPAN_NS:
            return (
                f"the capture spans {_ms(span)} ms, more than the {MAX_SPAN_NS // 10**9:,} s the "
                "display model can lay on a refresh grid"
            )
        return None


def _ms(ns: int) -> str:
    """Whole ns as ms with three places and thousands separated (`1,000,000,000.000`)."""
    whole, part = divmod(abs(ns), 10**6)
    return f"{'-' if ns < 0 else ''}{whole:,}.{part // 1000:03d}"
