"""`BadInput`: the one way bad input leaves the program.

Bad arguments, config files, scenarios and replays raise `BadInput` with ready-made lines; the
command line prints them to stderr and exits with status 2. No traceback ever reaches a user.
"""

from __future__ import annotations

EXIT_BAD_INPUT = 2


class BadInput(Exception):
    """Input the program refuses. Each line is printed as is, one problem per line."""

    def __init__(self, *lines: str) -> None:
        super().__init__("\n".join(lines))
        self.lines = lines

    @classmethod
    def error(cls, message: str) -> BadInput:
        """A plain command-line error: one line starting with "error:"."""
        return cls(f"error: {message}")
