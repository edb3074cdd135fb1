"""One way to run many independent jobs, whatever runs them: `Jobs`.

A sweep's cells and a batch's capture files are jobs that share nothing: each is one call,
`job(item)`, whose result says which item it was for. The commands need three things of
whatever runs them, and only these:

- `submit(item)`: hand over one more item, numbered in the order handed over (0, 1, ...);
- `finished()`: each submitted job's `(number, result)`, in whatever order the jobs finish;
- `stop()`: cancel the jobs not finished and let go of whatever ran them.

`local_jobs(job, workers)` runs them here: in this process for one worker (nothing to start),
else on the worker processes of `game.worker_pool` (its stop handling, its `WorkerDied`).
`cluster_jobs(address, job)` (`game.cluster`) runs them on a Dask distributed cluster; `jobs_on`
chooses between the two by `--cluster`. A command that leaves its `with` block early (a stop
signal, an error) has its jobs stopped, as a command that owns a `worker_pool` always had.
Because every job is deterministic and its result names its item, what a command prints cannot
depend on the order the jobs finish in, nor on what ran them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from concurrent.futures import Future, as_completed
from contextlib import contextmanager
from typing import Generic, Protocol, TypeVar

from game.worker_pool import WorkerPool, stop_pool, worker_pool

Item = TypeVar("Item")
Result = TypeVar("Result")
ItemIn = TypeVar("ItemIn", contravariant=True)
ResultOut = TypeVar("ResultOut", covariant=True)


class Jobs(Protocol[ItemIn, ResultOut]):
    """Jobs of one kind (one `job` function), run by whatever implements this."""

    def submit(self, item: ItemIn) -> int:
        """Hand over `item`; its number (the count of items handed over before it)."""
        ...

    def finished(self) -> Iterator[tuple[int, ResultOut]]:
        """Each job submitted so far, `(number, result)`, as it finishes (any order); a job
        that failed raises its error here."""
        ...

    def stop(self) -> None:
        """Cancel what has not finished; nothing more is run."""
        ...


class InProcessJobs(Generic[Item, Result]):
    """One worker: the jobs run here, one at a time, in the order handed over, as their
    results are asked for (no process to start, nothing to fork)."""

    def __init__(self, job: Callable[[Item], Result]) -> None:
        self.job = job
        self._waiting: list[tuple[int, Item]] = []
        self._count = 0

    def submit(self, item: Item) -> int:
        number, self._count = self._count, self._count + 1
        self._waiting.append((number, item))
        return number

    def finished(self) -> Iterator[tuple[int, Result]]:
        while self._waiting:
            number, item = self._waiting.pop(0)
            yield number, self.job(item)

    def stop(self) -> None:
        self._waiting.clear()


class PoolJobs(Generic[Item, Result]):
    """The jobs on a `WorkerPool`'s processes (`game.worker_pool`)."""

    def __init__(self, pool: WorkerPool, job: Callable[[Item], Result]) -> None:
        self.pool = pool
        self.job = job
        self._numbers: dict[Future[Result], int] = {}

    def submit(self, item: Item) -> int:
        number = len(self._numbers)
        self._numbers[self.pool.submit(self.job, item)] = number
        return number

    def finished(self) -> Iterator[tuple[int, Result]]:
        for future in as_completed(self._numbers):
            yield self._numbers[future], future.result()

    def stop(self) -> None:
        stop_pool(self.pool)


@contextmanager
def local_jobs(job: Callable[[Item], Result], workers: int) -> Iterator[Jobs[Item, Result]]:
    """`job` run on this machine: here for one worker, else on `workers` processes. Enter it
    (and submit) before starting any thread: worker processes are forked from a single thread.
    A block left early stops every worker (`game.worker_pool.worker_pool`)."""
    if workers <= 1:
        yield InProcessJobs(job)
        return
    with worker_pool(workers) as pool:
        yield PoolJobs(pool, job)


@contextmanager
def jobs_on(
    job: Callable[[Item], Result], workers: int, cluster: str | None
) -> Iterator[Jobs[Item, Result]]:
    """`job` run on the cluster at `cluster` (`--cluster ADDRESS`: Dask is imported only then),
    or here on `workers` processes."""
    if cluster is None:
        with local_jobs(job, workers) as jobs:
            yield jobs
        return
    from game.cluster import cluster_jobs

    with cluster_jobs(cluster, job) as remote:
        yield remote
