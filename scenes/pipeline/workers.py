"""Bounded worker processes: every render runs in one, under a wall-clock limit.

A :class:`Pool` keeps ``size`` long-lived processes (each imports Manim once and keeps its text
caches warm across tasks). A task that runs past ``timeout`` seconds — a hung Typst, Pango or
encoder — is killed with its process, reported by name, and its scratch files are removed; a
fresh process takes the next task. A process that dies (killed from outside, out of memory)
costs only the task it was running. Warming up (starting and importing Manim) has its own limit,
:data:`WARM_UP_LIMIT`: a worker that does not get ready in time fails the tasks still waiting
with one message instead of being replaced forever. Each worker's private media folder
(``attn-media-<pid>-…`` in the temp folder) is removed when the worker ends or is killed, and
those of vanished processes are swept when a pool starts. The supervisor never imports Manim.
"""

from __future__ import annotations

import contextlib
import multiprocessing as mp
import os
import signal
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.connection import wait
from typing import Any

from scenes.pipeline.files import remove, remove_media, sweep_media

DEFAULT_TIMEOUT = 1800.0  # seconds per task: generous (a 4K scene on 2 cores takes minutes)
WARM_UP_LIMIT = 300.0  # seconds a new worker may take to start and import Manim (not --timeout)


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


def first_line(exc: BaseException) -> str:
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
    """The worker's loop: warm up, say "ready", then run each task sent and send back
    ("ok", value) or ("error", one line)."""
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, signal.SIG_IGN)  # the supervisor handles these, and kills us
    with contextlib.suppress(OSError):
        os.dup2(2, 1)  # whatever a render prints goes to stderr: stdout carries only paths
    die_with_parent()  # a supervisor killed with SIGKILL takes its workers along
    if warm is not None:
        with contextlib.suppress(Exception):  # a failing import shows up as the task's own error
            warm()
    try:
        conn.send(("ready", None))
    except (EOFError, OSError):
        return
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
            reply = ("error", first_line(exc))
        try:
            conn.send(reply)
        except (EOFError, OSError):
            return


@dataclass
class _Worker:
    process: Any
    conn: Any
    ready: bool = False
    task: Task | None = None
    started: float = 0.0
    deadline: float = float("inf")


@dataclass
class Pool:
    size: int
    timeout: float = DEFAULT_TIMEOUT
    warm: Callable[[], None] | None = None
    retries: int = 0
    warm_limit: float | None = None  # default: WARM_UP_LIMIT
    _workers: list = field(default_factory=list)
    _stuck: str = ""  # why no worker got ready (then the waiting tasks fail with it)

    def __enter__(self) -> Pool:
        sweep_media()  # what workers killed before their supervisor could clean up left behind
        return self

    def __exit__(self, *exc) -> None:
        self.close(force=exc[0] is not None)

    def _spawn(self) -> _Worker:
        ctx = mp.get_context("fork")
        parent, child = ctx.Pipe()
        process = ctx.Process(target=_serve, args=(child, self.warm), daemon=True)
        process.start()
        child.close()
        # warming up (importing Manim) has a limit of its own; the task's starts when it is sent
        limit = WARM_UP_LIMIT if self.warm_limit is None else self.warm_limit
        worker = _Worker(process, parent, deadline=time.monotonic() + limit)
        self._workers.append(worker)
        return worker

    def _kill(self, worker: _Worker) -> None:
        if worker.process.is_alive():
            os.kill(worker.process.pid, signal.SIGKILL)
        worker.process.join(5)
        worker.conn.close()
        if worker in self._workers:
            self._workers.remove(worker)
        if worker.task is not None and worker.task.scratch is not None:
            for path in worker.task.scratch(worker.process.pid):
                remove(path)
        remove_media(worker.process.pid)

    def map(self, tasks: list[Task], on_start=None, on_done=None) -> list[Outcome]:
        """Run ``tasks`` (at most ``size`` at once); call ``on_start(task)``/``on_done(outcome)``
        as each starts and ends. Failed tasks are retried up to ``retries`` times (not those
        that timed out)."""
        pending = deque(tasks)
        outcomes: list[Outcome] = []
        self._stuck = ""
        try:
            while pending or any(w.task for w in self._workers):
                self._grow(len(pending))
                self._hand_out(pending, on_start)
                found = self._collect()
                if self._stuck and not any(w.ready for w in self._workers):
                    # no worker gets ready: what waits fails with why, and none is started again
                    found += [Outcome(t, False, error=self._stuck, timed_out=True) for t in pending]
                    pending.clear()
                for outcome in found:
                    task = outcome.task
                    if not outcome.ok and not outcome.timed_out and task.attempts <= self.retries:
                        pending.append(task)
                        continue
                    outcomes.append(outcome)
                    if on_done:
                        on_done(outcome)
        except BaseException:
            for worker in list(self._workers):
                if worker.task is not None:
                    self._kill(worker)
            raise
        return outcomes

    def _grow(self, pending: int) -> None:
        """Start workers up to ``size``, no more than the tasks pending and running need."""
        while (
            pending
            and len(self._workers) < self.size
            and len(self._workers) < pending + sum(1 for w in self._workers if w.task)
        ):
            self._spawn()

    def _hand_out(self, pending: deque, on_start) -> None:
        """Send the next pending task to each ready, idle worker."""
        for worker in self._workers:
            if pending and worker.ready and worker.task is None:
                task = pending.popleft()
                task.attempts += 1
                worker.task, worker.started = task, time.monotonic()
                worker.deadline = worker.started + self.timeout
                worker.conn.send((task.fn, task.arg))
                if on_start:
                    on_start(task)

    def _collect(self) -> list[Outcome]:
        """Wait for the next message or deadline of a busy or warming worker; its outcomes."""
        watched = [w for w in self._workers if w.task or not w.ready]
        if not watched:
            return []
        next_deadline = min(w.deadline for w in watched)
        ready = wait([w.conn for w in watched], timeout=max(0.0, next_deadline - time.monotonic()))
        now = time.monotonic()
        found = (self._check(w, w.conn in ready, now) for w in watched)
        return [outcome for outcome in found if outcome is not None]

    def _check(self, worker: _Worker, readable: bool, now: float) -> Outcome | None:
        """What ``worker`` has to say: ready, a result, death, or a passed deadline."""
        task = worker.task
        if readable:
            try:
                status, value = worker.conn.recv()
            except (EOFError, OSError):
                worker.process.join(1)
                code = worker.process.exitcode
                self._kill(worker)
                if task is None:
                    return None
                return Outcome(
                    task,
                    False,
                    error=f"its worker process died (exit code {code})",
                    seconds=now - worker.started,
                )
            if status == "ready":
                worker.ready, worker.deadline = True, float("inf")
                return None
            worker.task, worker.deadline = None, float("inf")
            return Outcome(
                task,
                status == "ok",
                value if status == "ok" else None,
                "" if status == "ok" else value,
                now - worker.started,
            )
        if now >= worker.deadline:
            self._kill(worker)
            if task is None:  # stuck warming up: its own message, and no endless replacements
                limit = WARM_UP_LIMIT if self.warm_limit is None else self.warm_limit
                self._stuck = (
                    f"no worker got ready within {limit:g} s (starting Python and importing "
                    "Manim; not --timeout): the machine is overloaded or the install is broken"
                )
                return None
            return Outcome(
                task,
                False,
                error=f"timed out after {self.timeout:g} s (--timeout); the worker was killed",
                seconds=now - worker.started,
                timed_out=True,
            )
        return None

    def close(self, force: bool = False) -> None:
        for worker in list(self._workers):
            if force or worker.task is not None:
                self._kill(worker)
                continue
            with contextlib.suppress(OSError):
                worker.conn.send(None)
            worker.process.join(5)
            if worker.process.is_alive():
                self._kill(worker)
            else:
                worker.conn.close()
                self._workers.remove(worker)
                remove_media(worker.process.pid)  # a forked worker never runs its atexit
