"""The jobs on a Dask distributed cluster: `--cluster ADDRESS`, the second engine of `game.jobs`.

A sweep of hours of CPU belongs on a lab's machines: a scheduler (`dask scheduler`) and its
workers (`dask worker ADDRESS`, on each machine), all with this project installed. The command
is the client: it connects (`CONNECT_TIMEOUT_S`, else one line and exit 2), hands each item to
the scheduler as a task, and takes the results back as they finish, as the local pool's are.

- **Optional.** Dask is the `[cluster]` extra; nothing imports it but this module, and this
  module is imported only under `--cluster`. Without it, `--cluster` is one line saying how to
  install it (`pip install "timestep-lab[cluster]"`), exit 2.
- **The same program everywhere.** A worker whose `digest()` (the installed project's source,
  the Python version, the numpy version) differs from the client's is refused in one line
  naming it, exit 2: every worker up when the command connects is asked first, and every job
  checks the worker it lands on before it runs (a worker that joined later). Results then equal
  the local pool's byte for byte, on workers of the client's platform.
- **Stops and losses.** A stop signal cancels the jobs not finished and closes the client; the
  command stops as with the local pool. A worker lost mid-run has its jobs run again elsewhere by
  the scheduler (its own retries); a job that still cannot finish ends the command in one line,
  exit 1 (`WorkerDied`).
- **Quiet.** Dask's own logging is kept off the terminal: every outcome is still one line.
"""

from __future__ import annotations

import functools
import hashlib
import logging
import platform
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Generic, TypeVar

from game.errors import BadInput
from game.stopping import no_stop_points
from game.worker_pool import WorkerDied

CONNECT_TIMEOUT_S = 10
"""How long the client waits for the scheduler to answer before it gives up (exit 2)."""
INSTALL = 'pip install "timestep-lab[cluster]"'
QUIET_LOGGERS = ("distributed", "dask", "tornado", "bokeh")
"""Dask's loggers (and its web stack's), silenced: their lines would break the one-line rule."""

Item = TypeVar("Item")
Result = TypeVar("Result")


class WrongWorker(Exception):
    """A worker runs another build of the project (or another Python, another numpy)."""


@functools.cache
def digest() -> str:
    """What makes two processes give the same bytes: every source file of the installed
    project (its path and contents, in path order), the Python version and the numpy version."""
    import numpy

    import timestep_lab

    hashed = hashlib.sha256()
    for root in (Path(__file__).resolve().parent, Path(timestep_lab.__file__ or "").parent):
        for path in sorted(root.rglob("*.py")):
            hashed.update(path.relative_to(root.parent).as_posix().encode() + b"\0")
            hashed.update(path.read_bytes() + b"\0")
    hashed.update(f"python {platform.python_version()} numpy {numpy.__version__}".encode())
    return hashed.hexdigest()[:16]


def worker_digest() -> str:
    """`digest()` as a worker's own copy of this module computes it (run there by name)."""
    return digest()


def checked_job(expected: str, job: Callable[[Item], Result], item: Item) -> Result:
    """`job(item)`, on a worker whose digest is the client's (`WrongWorker` otherwise). A
    worker waits at no stop point (`game.stopping`): the command's own process does."""
    no_stop_points()
    if digest() != expected:
        from distributed import get_worker

        raise WrongWorker(f"worker {get_worker().address} runs another build (digest {digest()})")
    return job(item)


def quiet_dask() -> None:
    """Keep Dask's log lines off the terminal (before it is imported, and after)."""
    for name in QUIET_LOGGERS:
        logger = logging.getLogger(name)
        logger.setLevel(logging.CRITICAL + 1)
        logger.propagate = False


class ClusterJobs(Generic[Item, Result]):
    """`game.jobs.Jobs` on a Dask client (see the module)."""

    def __init__(self, client: Any, job: Callable[[Item], Result]) -> None:
        from distributed import as_completed

        self.client = client
        self.job = functools.partial(checked_job, digest(), job)
        self._numbers: dict[str, int] = {}
        self._futures: list[Any] = []
        self._done = as_completed(loop=client.loop)  # type: ignore[no-untyped-call]

    def submit(self, item: Item) -> int:
        number = len(self._futures)
        future = self.client.submit(self.job, item, pure=False)
        self._numbers[future.key] = number
        self._futures.append(future)
        self._done.add(future)  # type: ignore[no-untyped-call]
        return number

    def finished(self) -> Iterator[tuple[int, Result]]:
        from distributed import KilledWorker

        for future in self._done:
            try:
                result = future.result()
            except KilledWorker as lost:
                raise WorkerDied(f"a job failed on every worker that took it ({lost})") from None
            except WrongWorker as wrong:
                raise BadInput(
                    f"error: --cluster: {wrong}; the client's digest is {digest()}"
                ) from None
            yield self._numbers[future.key], result

    def stop(self) -> None:
        self.client.cancel(self._futures)


@contextmanager
def cluster_jobs(
    address: str, job: Callable[[Item], Result]
) -> Iterator[ClusterJobs[Item, Result]]:
    """Connect to the scheduler at `address`, check its workers, and yield the jobs; on the way
    out (however the block ends) cancel what has not finished and close the client."""
    client = connect(address)
    try:
        refuse_other_builds(client)
        jobs: ClusterJobs[Item, Result] = ClusterJobs(client, job)
        try:
            yield jobs
        finally:
            jobs.stop()
    finally:
        client.close()


def connect(address: str) -> Any:
    """A Dask client of the scheduler at `address`: one line and exit 2 without Dask, or when
    nothing answers there within `CONNECT_TIMEOUT_S`."""
    quiet_dask()
    try:
        from distributed import Client
    except ImportError:
        raise BadInput.error(f"--cluster needs Dask: {INSTALL}") from None
    quiet_dask()  # the import set up its own handlers
    try:
        return Client(  # type: ignore[no-untyped-call]
            address, timeout=f"{CONNECT_TIMEOUT_S}s", set_as_default=False
        )
    except (OSError, ValueError, TypeError) as problem:
        raise BadInput.error(
            f"--cluster {address}: no scheduler answered within {CONNECT_TIMEOUT_S} s ({problem})"
        ) from None


def refuse_other_builds(client: Any) -> None:
    """One line and exit 2 naming the first worker whose digest is not the client's."""
    mine = digest()
    theirs: dict[str, str] = client.run(worker_digest)
    for worker, seen in sorted(theirs.items()):
        if seen != mine:
            raise BadInput.error(
                f"--cluster: worker {worker} runs another build of the project, Python or numpy "
                f"(digest {seen}, the client's {mine}): install the same on every machine"
            )
