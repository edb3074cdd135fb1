"""`collector_paused`: Python's cyclic garbage collector, off for the length of a headless run.

A run makes hundreds of thousands of small objects (a report per frame, its plan, its ledger)
and keeps them all; the collector would walk them again and again, and find nothing.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector, off for the length of a run, then back as it was.

    A run keeps every frame it reports (and, with a display, each frame's trip through it):
    some 500,000 objects in 10 minutes at 144 fps, which every full collection walks again,
    about a sixth of the run's CPU time. It finds nothing: a run makes no reference cycles, its
    garbage goes by reference counting alone (`tests/test_workshop_runner.py` checks).

    Back on, the collector would look at all of them at once: with it off, every object the run
    made is still counted in its youngest generation, and the first allocation after the run
    walks them all (a tenth of a second for 10 minutes at 144 fps). So they go straight to the
    oldest generation, unwalked: frozen (set aside), the collector on, then unfrozen (put back
    in the oldest), as `gc.freeze` and `gc.unfreeze` do in constant time."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.freeze()
            gc.enable()
            gc.unfreeze()
