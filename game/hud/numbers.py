"""How the panel writes counts and durations: the same figure always in the same words.

A row's text changes every frame, so its numbers are written at a fixed precision and unit
("120.0 ms" up to a second, "3.25 s" after): the text reads steadily from across a room.
"""

from __future__ import annotations


def count_of(n: int, noun: str) -> str:
    """ "1 tick", "3 ticks", "1,024 ticks"."""
    return f"{n:,} {noun}" if n == 1 else f"{n:,} {noun}s"


def ms_or_s(ms: float, *, compact: bool = False) -> str:
    """Milliseconds up to 1 s, then seconds: "120.0 ms", "3.25 s" ("250 ms", "1 s" compact)."""
    if compact:
        return f"{ms:g} ms" if ms < 1000 else f"{ms / 1000:g} s"
    return f"{ms:.1f} ms" if ms < 1000 else f"{ms / 1000:.2f} s"
