"""`QuitOnSignals`: Ctrl+C, a closed terminal and `kill` end the game the way the close button does.

Python turns SIGINT into a `KeyboardInterrupt` wherever the program happens to be, possibly in
the middle of a tick, and SIGHUP kills the process outright: either way the game used to stop
without its final hash, and the recording without its final line. While the game runs, the first
SIGINT, SIGHUP or SIGTERM posts a QUIT event instead. The loop reads it at its next poll (at most
100 ms into a long catch-up), finishes at a tick boundary and prints the final hash, and the
recorder writes its final line, so the session replays to the same state.

A second signal means the game is not answering: it raises `KeyboardInterrupt` where the program
is, and the caller still finishes the recording (marked "signal") on the way out.
"""

from __future__ import annotations

import signal
from types import FrameType, TracebackType

import pygame

from game.stopping import heard

SIGNALS = tuple(
    getattr(signal, name) for name in ("SIGINT", "SIGHUP", "SIGTERM") if hasattr(signal, name)
)


class QuitOnSignals:
    """A context: the signals post QUIT while inside it; the previous handlers come back after.

    `received` names the first signal that came ("SIGINT"), or is None.
    """

    def __init__(self) -> None:
        self.received: str | None = None
        self.number = 0
        self._previous: dict[int, object] = {}

    def __enter__(self) -> QuitOnSignals:
        for number in SIGNALS:
            self._previous[number] = signal.signal(number, self._handle)
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        for number, handler in self._previous.items():
            signal.signal(number, handler)  # type: ignore[arg-type]
        self._previous.clear()

    @property
    def exit_code(self) -> int:
        """What a shell expects from a program a signal ended: 128 + its number (130 for ^C)."""
        return 128 + self.number

    def _handle(self, number: int, frame: FrameType | None) -> None:
        heard(number)  # a stop point waiting for a signal goes on (`game.stopping`)
        if self.received is not None:
            raise KeyboardInterrupt
        self.received = signal.Signals(number).name
        self.number = number
        try:
            pygame.event.post(pygame.event.Event(pygame.QUIT))
        except pygame.error:  # no event queue to post to: stop where we are
            raise KeyboardInterrupt from None


def window_answers() -> bool:
    """Between the slices of a long wait (a captured frame of seconds): the window's events are
    pumped, so that it answers the system and is not taken for hung, and whether a quit (a stop
    signal's, the close button's) waits in the queue. The other events wait there for the
    loop, as they would at the end of any frame."""
    try:
        pygame.event.pump()
        return bool(pygame.event.peek(pygame.QUIT))
    except pygame.error:  # no window, no queue: nothing to answer
        return False
