"""`game.jobs`: one interface for running jobs (issue 33, part 2). The local engine hands back
every job's result with its number, whatever order the jobs finish in, the same on one worker
(here) as on two processes; a failed job's error comes back from `finished`; `stop` cancels the
jobs not run."""

from __future__ import annotations

import os

import pytest

from game.jobs import InProcessJobs, local_jobs


def squared_with_pid(item: int) -> tuple[int, int]:
    if item < 0:
        raise ValueError(f"no square for {item}")
    return item * item, os.getpid()


@pytest.mark.parametrize("workers", [1, 2])
def test_every_job_comes_back_once_with_its_number(workers: int) -> None:
    with local_jobs(squared_with_pid, workers) as jobs:
        numbers = [jobs.submit(item) for item in range(10)]
        found = {number: result[0] for number, result in jobs.finished()}
    assert numbers == list(range(10))
    assert found == {number: number * number for number in range(10)}


def test_one_worker_runs_the_jobs_here_in_order() -> None:
    with local_jobs(squared_with_pid, 1) as jobs:
        for item in (3, 1, 2):
            jobs.submit(item)
        assert list(jobs.finished()) == [
            (0, (9, os.getpid())),
            (1, (1, os.getpid())),
            (2, (4, os.getpid())),
        ]


def test_two_workers_run_the_jobs_in_other_processes() -> None:
    with local_jobs(squared_with_pid, 2) as jobs:
        jobs.submit(4)
        [(number, (square, pid))] = list(jobs.finished())
    assert (number, square) == (0, 16)
    assert pid != os.getpid()


@pytest.mark.parametrize("workers", [1, 2])
def test_a_failed_job_raises_its_error_from_finished(workers: int) -> None:
    with (
        pytest.raises(ValueError, match="no square for -1"),
        local_jobs(squared_with_pid, workers) as jobs,
    ):
        jobs.submit(-1)
        list(jobs.finished())


def test_stop_cancels_the_jobs_not_run() -> None:
    jobs: InProcessJobs[int, tuple[int, int]] = InProcessJobs(squared_with_pid)
    for item in range(3):
        jobs.submit(item)
    finished = jobs.finished()
    assert next(finished)[0] == 0
    jobs.stop()
    assert list(finished) == []
