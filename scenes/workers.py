"""Bounded worker processes: every render runs in one, under a wall-clock limit.

A :class:`Pool` keeps ``size`` long-lived processes (each imports Manim once and keeps its text
caches warm across tasks). A task that runs past ``timeout`` seconds — a hung Typst, Pango or
encoder — is killed with its process, reported by name, and its scratch files are removed; a
fresh process takes the next task. A process that dies (killed from outside, out of memory)
costs only the task it was running. The supervisor never imports Manim.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import signal
import time
from collections import deque
from dataclasses import dataclass, field
from multiprocessing.connection import wait
from typing import Any, Callable

DEFAULT_TIMEOUT = 1800.0  # seconds per task: generous (a 4K scene on 2 cores takes minutes)


@dataclass
class Task:
    """``fn(arg)`` in a worker; ``scratch(pid)`` lists what to delete if that worker is killed."""

    label: str
    fn: Callable[[Any], Any]
    arg: Any
    scratch: Callable[[int], list] | None = None
    attempts: int = 0


@dataclass
class Outcome:
    task: Task
    ok: bool
    value: Any = None
    error: str = ""
    seconds: float = 0.0
    timed_out: bool = False


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0]}" if text else type(exc).__name__


def die_with_parent() -> None:
    """Ask Linux to kill this process when its parent dies (also a ``preexec_fn``)."""
    try:
        import ctypes

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def _serve(conn, warm: Callable[[], None] | None) -> None:
    """The worker's loop: run each task sent, send back ("ok", value) or ("error", line)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the supervisor handles Ctrl-C and kills us
    die_with_parent()  # a supervisor killed with SIGKILL takes its workers along
    if warm is not None:
        try:
            warm()
        except Exception:  # a failing import shows up as the task's own error
            pass
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        if message is None:
            return
        fn, arg = message
        try:
            reply = ("ok", fn(arg))
        except BaseException as exc:  # noqa: BLE001 - everything is reported, one line
            reply = ("error", _first_line(exc))
        try:
            conn.send(reply)
        except (EOFError, OSError):
            return


@dataclass
class _Worker:
    process: Any
    conn: Any
    task: Task | None = None
    started: float = 0.0
    deadline: float = float("inf")


@dataclass
class Pool:
    size: int
    timeout: float = DEFAULT_TIMEOUT
    warm: Callable[[], None] | None = None
    retries: int = 0
    _workers: list = field(default_factory=list)

    def __enter__(self) -> Pool:
        return self

    def __exit__(self, *exc) -> None:
        self.close(force=exc[0] is not None)

    def _spawn(self) -> _Worker:
        ctx = mp.get_context("fork")
        parent, child = ctx.Pipe()
        process = ctx.Process(target=_serve, args=(child, self.warm), daemon=True)
        process.start()
        child.close()
        worker = _Worker(process, parent)
        self._workers.append(worker)
        return worker

    def _kill(self, worker: _Worker) -> None:
        if worker.process.is_alive():
            os.kill(worker.process.pid, signal.SIGKILL)
        worker.process.join(5)
        worker.conn.close()
        self._workers.remove(worker)
        if worker.task is not None and worker.task.scratch is not None:
            for path in worker.task.scratch(worker.process.pid):
                _remove(path)

    def map(self, tasks: list[Task], on_start=None, on_done=None) -> list[Outcome]:
        """Run ``tasks`` (at most ``size`` at once); call ``on_start(task)``/``on_done(outcome)``."""
        pending = deque(tasks)
        outcomes: list[Outcome] = []
        busy: list[_Worker] = []
        idle = [w for w in self._workers if w.task is None]
        try:
            while pending or busy:
                while pending and (idle or len(self._workers) < self.size):
                    worker = idle.pop() if idle else self._spawn()
                    task = pending.popleft()
                    task.attempts += 1
                    worker.task, worker.started = task, time.monotonic()
                    worker.deadline = worker.started + self.timeout
                    worker.conn.send((task.fn, task.arg))
                    busy.append(worker)
                    if on_start:
                        on_start(task)
                next_deadline = min(w.deadline for w in busy)
                ready = wait([w.conn for w in busy],
                             timeout=max(0.0, next_deadline - time.monotonic()))
                now = time.monotonic()
                for worker in list(busy):
                    task = worker.task
                    outcome = None
                    if worker.conn in ready:
                        try:
                            status, value = worker.conn.recv()
                            outcome = Outcome(task, status == "ok",
                                              value if status == "ok" else None,
                                              "" if status == "ok" else value,
                                              now - worker.started)
                            worker.task = None
                            idle.append(worker)
                        except (EOFError, OSError):
                            code = worker.process.exitcode
                            worker.process.join(1)
                            code = worker.process.exitcode if code is None else code
                            outcome = Outcome(task, False, error=f"its worker process died "
                                              f"(exit code {code})", seconds=now - worker.started)
                            self._kill(worker)
                    elif now >= worker.deadline:
                        outcome = Outcome(task, False, error=f"timed out after "
                                          f"{self.timeout:g} s (--timeout); the worker was killed",
                                          seconds=now - worker.started, timed_out=True)
                        self._kill(worker)
                    if outcome is None:
                        continue
                    busy.remove(worker)
                    if not outcome.ok and not outcome.timed_out and task.attempts <= self.retries:
                        pending.append(task)
                        continue
                    outcomes.append(outcome)
                    if on_done:
                        on_done(outcome)
        except BaseException:
            for worker in busy:
                self._kill(worker)
            raise
        return outcomes

    def close(self, force: bool = False) -> None:
        for worker in list(self._workers):
            if force or worker.task is not None:
                self._kill(worker)
                continue
            try:
                worker.conn.send(None)
            except OSError:
                pass
            worker.process.join(5)
            if worker.process.is_alive():
                self._kill(worker)
            else:
                worker.conn.close()
                self._workers.remove(worker)


def _remove(path) -> None:
    import shutil
    from pathlib import Path

    p = Path(path)
    if p.is_dir():
        shutil.rmtree(p, ignore_errors=True)
    else:
        p.unlink(missing_ok=True)
