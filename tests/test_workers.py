"""The bounded worker pool on its own: results, a hang killed at its limit, a worker killed from
outside costing only its task, retries, scratch files removed, Ctrl-C taking the workers along."""

import os
import time
from pathlib import Path

import pytest

from scenes.pipeline.workers import Pool, Task


def square(x):
    return x * x


def sleep_forever(_):
    time.sleep(10_000)


def die(_):
    os._exit(3)


def flaky(path):
    p = Path(path)
    if not p.exists():
        p.write_text("tried")
        raise RuntimeError("first try fails")
    return "second try"


def write_scratch(path):
    Path(path).mkdir()
    time.sleep(10_000)


def test_results_come_back_in_any_order_all_present():
    with Pool(2, timeout=30) as pool:
        outcomes = pool.map([Task(str(i), square, i) for i in range(6)])
    assert sorted(o.value for o in outcomes) == [0, 1, 4, 9, 16, 25]
    assert all(o.ok for o in outcomes)


def test_a_hang_is_killed_at_the_limit_and_its_scratch_removed(tmp_path):
    scratch = tmp_path / "scratch"
    t0 = time.monotonic()
    with Pool(2, timeout=2) as pool:
        outcomes = pool.map(
            [
                Task("hang", write_scratch, str(scratch), scratch=lambda pid: [scratch]),
                Task("fine", square, 3),
            ]
        )
    assert time.monotonic() - t0 < 20
    by = {o.task.label: o for o in outcomes}
    assert by["fine"].ok and by["fine"].value == 9
    assert not by["hang"].ok and by["hang"].timed_out and "timed out after 2 s" in by["hang"].error
    assert not scratch.exists()


def test_a_worker_that_dies_costs_only_its_task():
    with Pool(1, timeout=30) as pool:
        outcomes = pool.map([Task("dies", die, None), Task("after", square, 4)])
    by = {o.task.label: o for o in outcomes}
    assert not by["dies"].ok and "died (exit code 3)" in by["dies"].error
    assert by["after"].ok and by["after"].value == 16


def test_failures_are_retried(tmp_path):
    with Pool(1, timeout=30, retries=1) as pool:
        [outcome] = pool.map([Task("flaky", flaky, str(tmp_path / "mark"))])
    assert outcome.ok and outcome.value == "second try" and outcome.task.attempts == 2
    with Pool(1, timeout=30, retries=0) as pool:
        [outcome] = pool.map([Task("flaky", flaky, str(tmp_path / "other"))])
    assert not outcome.ok and outcome.error == "RuntimeError: first try fails"


def test_an_interrupt_kills_the_running_workers():
    pool = Pool(2, timeout=60)

    def interrupt(task):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt), pool:
        pool.map(
            [Task("a", sleep_forever, None), Task("b", sleep_forever, None)], on_start=interrupt
        )
    assert pool._workers == []
