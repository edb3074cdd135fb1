"""A progress bar for long headless work, on stderr when it is a terminal, and nothing otherwise
(logs, pipes and tests see no bar). `sweep` counts runs with it; `simulate` counts wall time."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager


def on_a_terminal() -> bool:
    return sys.stderr.isatty() and os.environ.get("TERM") != "dumb"


@contextmanager
def progress_bar(total: float, label: str) -> Iterator[Callable[[float], None]]:
    """Yield `done(completed)`, which moves the bar to `completed` of `total`."""
    if not on_a_terminal():
        yield lambda completed: None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    columns = (label, BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True) as progress:
        task = progress.add_task(label, total=total)
        yield lambda completed: progress.update(task, completed=completed)
