"""Batch rendering of a course: a local process pool, or a Dask cluster; resumable; a manifest.

Every task is one :class:`scenes.pipeline.jobs.Job` with the content key of
:mod:`scenes.pipeline.cache`; a task whose output is up to date is skipped before anything runs,
so a re-run after a crash does only what is left. Both executors run the same task function,
:func:`scenes.pipeline.execute.execute`:

- ``local`` — the bounded :class:`scenes.pipeline.workers.Pool` (``--jobs`` processes,
  ``--timeout``);
- ``dask`` — ``distributed.Client(scheduler)``: each task runs ``execute`` in a child process
  (``python -m scenes.pipeline.task_runner``) under the same time limit, so a hang is killed
  there too.
  Workers write into the shared ``--out`` folder, or with ``collect`` render into a scratch folder
  and return the finished bytes, which the client writes (workers without a shared disk).

A failed task is retried (``retries``, default 2) and then reported; a worker lost mid-task only
costs its task a retry (Dask reschedules it). ``<out>/<course>/manifest.json`` records every
task: key, output, size, seconds, status, error, attempts.
"""

from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

from scenes.pipeline import cache
from scenes.pipeline.execute import execute, tmp_dir_for
from scenes.pipeline.jobs import Job
from scenes.pipeline.workers import DEFAULT_TIMEOUT, Pool, Task


@dataclass
class Entry:
    """One task's line in the manifest."""

    label: str
    key: str = ""
    output: str = ""
    status: str = "pending"  # rendered | reused | failed
    size: int = 0
    seconds: float = 0.0
    attempts: int = 0
    error: str = ""

    def as_dict(self) -> dict:
        return dict(self.__dict__)


@dataclass
class BatchReport:
    course: str
    entries: list = field(default_factory=list)
    wall: float = 0.0

    @property
    def failed(self) -> list:
        return [e for e in self.entries if e.status == "failed"]

    def counts(self) -> dict:
        out = {"rendered": 0, "reused": 0, "failed": 0}
        for e in self.entries:
            out[e.status] = out.get(e.status, 0) + 1
        return out


def label_of(job: Job) -> str:
    return f"{job.example.name}/{job.out_dir.name}/{job.name}"


class BatchProgress:
    """One line per finished task: done / running / failed of the total, and an ETA."""

    def __init__(self, total: int, quiet: bool = False, stream=None):
        self.total, self.quiet = total, quiet
        self.done = self.failed = self.running = 0
        self.started = time.monotonic()
        self.stream = stream or sys.stderr

    def start(self, _=None) -> None:
        self.running += 1

    def finish(self, entry: Entry, ran: bool = True) -> None:
        self.done += 1
        self.running = max(0, self.running - (1 if ran else 0))
        self.failed += entry.status == "failed"
        if self.quiet:
            return
        elapsed = time.monotonic() - self.started
        left = self.total - self.done
        eta = f"{elapsed / self.done * left:.0f} s" if self.done and left else "0 s"
        what = entry.error if entry.status == "failed" else entry.output
        print(
            f"[{self.done}/{self.total}] {entry.status:<8} {entry.label}  ({self.running} "
            f"running, {self.failed} failed, ETA {eta}) {what}",
            file=self.stream,
            flush=True,
        )


def _entry_from(
    job: Job, record: dict | None, status: str, seconds=0.0, attempts=0, error=""
) -> Entry:
    size = 0
    if record:
        size = sum(
            (job.out_dir / f).stat().st_size
            for f in record.get("files", [])
            if (job.out_dir / f).is_file()
        )
    return Entry(
        label_of(job), job.key, str(job.output), status, size, round(seconds, 3), attempts, error
    )


# -- the task function on Dask ---------------------------------------------------------------------
def run_in_child(job: Job, timeout: float = DEFAULT_TIMEOUT, collect: bool = False):
    """Run ``execute(job)`` in a child process with a time limit (on a Dask worker).

    With ``collect`` the job renders into a scratch folder and returns ``(record, {name:
    bytes})`` for the client to write; otherwise it writes into ``job.out_dir`` (a shared disk)
    and returns ``(record, None)``.
    """
    from scenes.pipeline.workers import die_with_parent

    scratch = None
    if collect:
        scratch = Path(tempfile.mkdtemp(prefix="attn-collect-"))
        job = replace(job, out_dir=scratch / job.out_dir.name)
    proc = subprocess.Popen(
        [sys.executable, "-m", "scenes.pipeline.task_runner"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=die_with_parent,
    )
    try:
        out, err = proc.communicate(pickle.dumps(job), timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        _remove(tmp_dir_for(job, proc.pid))
        raise TimeoutError(
            f"timed out after {timeout:g} s (--timeout); its process was killed"
        ) from None
    try:
        if proc.returncode != 0:
            lines = err.decode("utf-8", "replace").strip().splitlines()
            raise RuntimeError(lines[-1] if lines else f"exit code {proc.returncode}")
        record = pickle.loads(out)
        files = None
        if collect:
            files = {name: (job.out_dir / name).read_bytes() for name in record["files"]}
        return record, files
    finally:
        if scratch is not None:
            _remove(scratch)


def _remove(path: Path) -> None:
    import shutil

    shutil.rmtree(path, ignore_errors=True) if Path(path).is_dir() else Path(path).unlink(
        missing_ok=True
    )


def _write_collected(job: Job, record: dict, files: dict) -> None:
    job.out_dir.mkdir(parents=True, exist_ok=True)
    for name, data in files.items():
        final = job.out_dir / name
        final.parent.mkdir(parents=True, exist_ok=True)
        staged = final.with_name(f".tmp-{final.name}-{os.getpid()}")
        staged.write_bytes(data)
        os.replace(staged, final)
    cache.write_record(job.out_dir, job.name, record)


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
) -> BatchReport:
    """Render ``jobs`` (skipping the up-to-date ones), write the manifest, return the report."""
    from scenes.pipeline.run import _warm, clean_stale_scratch, default_jobs

    started = time.monotonic()
    report = BatchReport(course_name)
    progress = BatchProgress(len(jobs) + len(broken), quiet)
    for label, error in broken:
        entry = Entry(label, status="failed", error=error)
        report.entries.append(entry)
        progress.finish(entry, ran=False)
    todo = []
    for job in jobs:
        record = None if force else job.fresh()
        if record is not None:
            entry = _entry_from(job, record, "reused")
            report.entries.append(entry)
            progress.finish(entry, ran=False)
        else:
            todo.append(job)
    for folder in {j.out_dir for j in todo}:
        clean_stale_scratch(folder)
    if todo and executor == "local":

        def done(outcome):
            job = outcome.task.arg
            entry = _entry_from(
                job,
                outcome.value if outcome.ok else None,
                "rendered" if outcome.ok else "failed",
                outcome.seconds,
                outcome.task.attempts,
                outcome.error,
            )
            report.entries.append(entry)
            progress.finish(entry)

        tasks = [
            Task(label_of(j), execute, j, (lambda job: lambda pid: [tmp_dir_for(job, pid)])(j))
            for j in todo
        ]
        with Pool(min(workers or default_jobs(), len(tasks)), timeout, _warm, retries) as pool:
            pool.map(tasks, on_start=progress.start, on_done=done)
    elif todo:
        _run_dask(report, progress, todo, scheduler, client, timeout, retries, collect)
    report.wall = time.monotonic() - started
    write_manifest(Path(out) / course_name / "manifest.json", report)
    return report


def _run_dask(report, progress, todo, scheduler, client, timeout, retries, collect) -> None:
    from distributed import Client, as_completed

    own = client is None
    client = client or Client(scheduler, timeout="30s")
    try:
        futures = {}
        for job in todo:
            f = client.submit(
                run_in_child,
                job,
                timeout,
                collect,
                retries=retries,
                pure=False,
                key=f"render-{job.key[:16]}-{label_of(job)}",
            )
            futures[f] = (job, time.monotonic())
            progress.start()
        for future in as_completed(futures):
            job, t0 = futures[future]
            try:
                record, files = future.result()
                if files is not None:
                    _write_collected(job, record, files)
                entry = _entry_from(job, record, "rendered", time.monotonic() - t0)
            except Exception as exc:  # noqa: BLE001 - reported, the others go on
                from scenes.pipeline.workers import _first_line

                entry = _entry_from(
                    job, None, "failed", time.monotonic() - t0, error=_first_line(exc)
                )
            entry.attempts = retries + 1 if entry.status == "failed" else 1
            report.entries.append(entry)
            progress.finish(entry)
    finally:
        if own:
            client.close()


def write_manifest(path: Path, report: BatchReport) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    data = {
        "course": report.course,
        "counts": report.counts(),
        "wall_seconds": round(report.wall, 3),
        "tasks": [e.as_dict() for e in sorted(report.entries, key=lambda e: e.label)],
    }
    staged = path.with_name(f".tmp-{path.name}-{os.getpid()}")
    staged.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
    os.replace(staged, path)
