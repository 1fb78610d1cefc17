"""Batch rendering of a course: a local process pool, or a Dask cluster; resumable; a manifest.

Every task is one :class:`scenes.pipeline.jobs.Job` with the content key of
:mod:`scenes.pipeline.cache`; a task whose output is up to date is skipped before anything runs,
so a re-run after a crash does only what is left. Both executors run the same task function,
:func:`scenes.pipeline.execute.execute`:

- ``local`` — the bounded :class:`scenes.pipeline.workers.Pool` (``--jobs`` processes,
  ``--timeout``);
- ``dask`` — ``distributed.Client(scheduler)``: each Dask worker keeps one warm render process
  (``python -m scenes.pipeline.task_runner``, started on every worker when the batch begins), which
  imports Manim once and runs ``execute`` for each task sent to it under the same time limit, so a
  task costs its render, not an import, and a hang is killed there too.
  Workers write into the shared ``--out`` folder, or with ``collect`` render into a scratch folder
  and return the finished bytes, which the client writes (workers without a shared disk).

A failed task is retried (``retries``, default 2) and then reported; a worker lost mid-task only
costs its task a retry (Dask reschedules it). ``<out>/<course>/manifest.json`` records every
task: key, output, size, seconds, status, error, attempts.
"""

from __future__ import annotations

import contextlib
import json
import os
import pickle
import select
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, replace
from pathlib import Path

from scenes.pipeline import cache, task_runner
from scenes.pipeline.files import atomic_write, remove
from scenes.pipeline.jobs import Job
from scenes.pipeline.run import (
    Entry,
    Progress,
    Report,
    add,
    default_jobs,
    run_jobs,
    warm_up,
)
from scenes.pipeline.workers import DEFAULT_TIMEOUT, Outcome, Pool, Task, first_line


def label_of(job: Job) -> str:
    return f"{job.example.name}/{job.out_dir.name}/{job.name}"


# -- the task function on Dask: one warm render process per Dask worker ---------------------------
_RENDERER: subprocess.Popen | None = None
_RENDERER_LOCK = threading.Lock()


def start_renderer() -> int:
    """Start this Dask worker's render process if it has none (it imports Manim while the client
    plans); return its pid. Run on every worker with ``client.run`` before the tasks."""
    global _RENDERER
    from scenes.pipeline.workers import die_with_parent

    if _RENDERER is None or _RENDERER.poll() is not None:
        _RENDERER = subprocess.Popen(
            [sys.executable, "-m", "scenes.pipeline.task_runner"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            preexec_fn=die_with_parent,
        )
    return _RENDERER.pid


def dask_setup(worker=None) -> None:  # noqa: ARG001 - Dask's preload hook
    """``dask worker --preload scenes.pipeline.batch``: start the render process with the
    worker, so even a batch's first task finds Manim imported."""
    start_renderer()


def _stop_renderer() -> None:
    global _RENDERER
    if _RENDERER is not None:
        with contextlib.suppress(OSError):
            _RENDERER.kill()
        _RENDERER.wait()
        _RENDERER = None


def _read_exact(fd: int, n: int, deadline: float) -> bytes | None:
    data = b""
    while len(data) < n:
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([fd], [], [], left)[0]:
            raise TimeoutError
        chunk = os.read(fd, n - len(data))
        if not chunk:
            return None
        data += chunk
    return data


def _ask(job: Job, deadline: float):
    """Send ``job`` to the render process; its reply, or None if the process died."""
    proc = _RENDERER
    try:
        proc.stdin.write(task_runner.frame(job))
        proc.stdin.flush()
    except (BrokenPipeError, OSError):
        return None
    fd = proc.stdout.fileno()
    header = _read_exact(fd, task_runner.HEADER.size, deadline)
    body = header and _read_exact(fd, task_runner.HEADER.unpack(header)[0], deadline)
    return pickle.loads(body) if body else None


def render_on_worker(job: Job, timeout: float = DEFAULT_TIMEOUT, collect: bool = False):
    """Render ``job`` in this Dask worker's warm render process, under a time limit.

    With ``collect`` the job renders into a scratch folder and returns ``(record, {name:
    bytes}, seconds)`` for the client to write; otherwise it writes into ``job.out_dir`` (a shared
    disk) and returns ``(record, None, seconds)``; ``seconds`` is the task's wall time here.
    """
    started = time.monotonic()
    scratch = None
    if collect:
        scratch = Path(tempfile.mkdtemp(prefix="attn-collect-"))
        job = replace(job, out_dir=scratch / job.out_dir.name)
    try:
        with _RENDERER_LOCK:
            reply = None
            for _ in range(2):  # a render process found dead (idle) is replaced once
                start_renderer()
                pid = _RENDERER.pid
                try:
                    reply = _ask(job, started + timeout)
                except TimeoutError:
                    _stop_renderer()
                    for path in job.scratch(pid):
                        remove(path)
                    raise TimeoutError(
                        f"timed out after {timeout:g} s (--timeout); its process was killed"
                    ) from None
                if reply is not None:
                    break
                code = _RENDERER.poll()
                _stop_renderer()
                for path in job.scratch(pid):
                    remove(path)
            if reply is None:
                raise RuntimeError(f"its render process died (exit code {code})")
        status, value = reply
        if status != "ok":
            raise RuntimeError(value)
        files = None
        if collect:
            files = {name: (job.out_dir / name).read_bytes() for name in value["files"]}
        return value, files, time.monotonic() - started
    finally:
        if scratch is not None:
            remove(scratch)


def _write_collected(job: Job, record: dict, files: dict) -> None:
    for name, data in files.items():
        atomic_write(job.out_dir / name, data)
    cache.write_record(job.out_dir, job.name, record)


@dataclass
class DaskExecutor:
    """Runs tasks on a Dask cluster with the :class:`~scenes.pipeline.workers.Pool` interface:
    ``map(tasks, on_start, on_done)``. Dask retries a failed task ``retries`` times and
    reschedules the task of a lost worker."""

    scheduler: str | None = None
    client: object = None
    timeout: float = DEFAULT_TIMEOUT
    retries: int = 2
    collect: bool = False

    def __enter__(self) -> DaskExecutor:
        return self

    def __exit__(self, *exc) -> None:
        pass

    def map(self, tasks: list[Task], on_start=None, on_done=None) -> list[Outcome]:
        from distributed import as_completed

        own = self.client is None
        client = self.client or connect(self.scheduler)
        outcomes = []
        try:
            client.run(start_renderer)  # warm: each worker imports Manim once, now
            futures = {}
            for task in tasks:
                job = task.arg
                f = client.submit(
                    render_on_worker,
                    job,
                    self.timeout,
                    self.collect,
                    retries=self.retries,
                    pure=False,
                    key=f"render-{job.key[:16]}-{label_of(job)}",
                )
                futures[f] = (task, time.monotonic())
                if on_start:
                    on_start(task)
            for future in as_completed(futures):
                task, t0 = futures[future]
                try:
                    record, files, seconds = future.result()
                    if files is not None:
                        _write_collected(task.arg, record, files)
                    outcome = Outcome(task, True, record, seconds=seconds)
                    task.attempts = 1
                except Exception as exc:  # noqa: BLE001 - reported, the others go on
                    outcome = Outcome(
                        task, False, error=first_line(exc), seconds=time.monotonic() - t0
                    )
                    task.attempts = self.retries + 1
                outcomes.append(outcome)
                if on_done:
                    on_done(outcome)
        finally:
            if own:
                client.close()
        return outcomes


# -- running a batch -------------------------------------------------------------------------------
def run_batch(
    course_name: str,
    jobs: list[Job],
    broken: list,
    out: Path,
    *,
    executor: str = "local",
    scheduler: str | None = None,
    workers: int | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    retries: int = 2,
    collect: bool = False,
    force: bool = False,
    quiet: bool = False,
    client=None,
) -> Report:
    """Render ``jobs`` (skipping the up-to-date ones), write the manifest, return the report."""
    started = time.monotonic()
    report = Report()
    size = min(workers or default_jobs(), max(1, len(jobs)))
    progress = Progress(len(jobs) + len(broken), quiet, show_starts=size > 1)
    for label, error in broken:
        add(report, progress, Entry(label, status="failed", error=error), ran=False)
    if executor == "local":
        runner = Pool(size, timeout, warm_up, retries)
    else:
        runner = DaskExecutor(scheduler, client, timeout, retries, collect)
    try:
        with runner:
            run_jobs(jobs, runner, report, progress, force=force, label=label_of)
    finally:  # an interrupted batch records what finished
        report.wall = time.monotonic() - started
        write_manifest(Path(out) / course_name / "manifest.json", course_name, report)
    return report


def write_manifest(path: Path, course: str, report: Report) -> None:
    """Write the manifest of ``report``; a re-run that rendered nothing and found the same
    tasks (keys, failures) leaves the manifest of the run that made them as it is, and an
    output reused from an earlier run keeps the render time that run recorded."""
    old = _read_manifest(path)
    if old is not None and _same_tasks(old, report):
        return
    before = {(t.get("label"), t.get("key")): t for t in (old or {}).get("tasks", [])}
    tasks = []
    for e in sorted(report.entries, key=lambda e: e.label):
        task = e.as_dict()
        earlier = before.get((e.label, e.key))
        if e.status == "reused" and earlier and not task["render_seconds"]:
            task["render_seconds"] = earlier.get("render_seconds", 0.0)
        tasks.append(task)
    data = {
        "course": course,
        "counts": report.counts(),
        "wall_seconds": round(report.wall, 3),
        "tasks": tasks,
    }
    atomic_write(path, json.dumps(data, ensure_ascii=False, indent=1))


def _read_manifest(path: Path) -> dict | None:
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) and isinstance(data.get("tasks"), list) else None


def _same_tasks(old: dict, report: Report) -> bool:
    """Nothing rendered, and every task (its key, its error if it failed) as in ``old``."""
    if report.counts()["rendered"]:
        return False

    def error(status, text) -> str:
        return text if status == "failed" else ""

    was = {
        t.get("label"): (t.get("key"), error(t.get("status"), t.get("error")))
        for t in old["tasks"]
        if isinstance(t, dict)
    }
    now = {e.label: (e.key, error(e.status, e.error)) for e in report.entries}
    return was == now


class SchedulerError(Exception):
    """The Dask scheduler ``--scheduler`` names cannot be used: one line saying why."""


def connect(scheduler: str, timeout: str = "30s"):
    """A ``distributed.Client`` of ``scheduler``, or SchedulerError naming --scheduler (an
    address distributed refuses, or one nothing answers at within ``timeout``): never a
    traceback."""
    from distributed import Client

    try:
        return Client(scheduler, timeout=timeout)
    except Exception as exc:  # noqa: BLE001 - OSError, TimeoutError, ValueError … from distributed
        why = (str(exc).strip().splitlines() or [type(exc).__name__])[0][:200]
        raise SchedulerError(
            f"--scheduler: cannot use the Dask scheduler {scheduler[:80]!r} ({why}); start "
            "`dask scheduler` there, or give its address as tcp://HOST:PORT"
        ) from None
