"""What the caption says this frame: the lesson's words first, then the loop's status.

A lesson's caption is read for minutes, so it stays up whatever happens; a status (a catch-up
in progress, a message such as "screenshot saved", the first-start hint) goes after it, never
in its place. One pure function, so the rule can be read and tested in one place; the message
itself is kept, with the moment it goes, in `StatusMessage`.
"""

from __future__ import annotations

from timestep_lab import NS_PER_SECOND

FIRST_HINT = "H: help \N{MIDDLE DOT} L: lessons"
FIRST_HINT_NS = 10 * NS_PER_SECOND
"""For the first seconds of a game with no lesson, say where the help and the lessons are."""
MESSAGE_NS = 3 * NS_PER_SECOND
"""How long a message stays up."""


class StatusMessage:
    """The last thing the app said ("stalled the loop for 200 ms"), up for `MESSAGE_NS`."""

    def __init__(self) -> None:
        self._text = ""
        self._until_ns = 0

    def say(self, text: str, now_ns: int) -> None:
        self._text, self._until_ns = text, now_ns + MESSAGE_NS

    def at(self, now_ns: int) -> str:
        """The message still up at `now_ns` on the loop's clock, or ""."""
        return self._text if now_ns < self._until_ns else ""


def caption_for(
    lesson: str,
    *,
    catching_up_ticks: int | None = None,
    message: str = "",
    since_start_ns: int = 0,
) -> str:
    """The caption: `lesson`, then the most urgent status (a catch-up, a message, the hint)."""
    if catching_up_ticks is not None:
        status = f"catching up: {catching_up_ticks} ticks run in this frame so far"
    elif message:
        status = message
    elif not lesson and since_start_ns < FIRST_HINT_NS:
        status = FIRST_HINT
    else:
        status = ""
    if lesson and status:
        return f"{lesson}  \N{EM DASH} {status}"
    return lesson or status
