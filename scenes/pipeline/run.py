"""The one runner: from planned jobs to files, for ``render``, ``pack``, ``watch`` and ``batch``.

:func:`run_jobs` is the loop every command shares: skip what is up to date (content keys,
:mod:`scenes.pipeline.cache`), remove scratch that killed processes left, render the rest on an
executor (the local :class:`scenes.pipeline.workers.Pool`, or Dask's, :mod:`scenes.pipeline.batch`),
join videos that were split at their steps, and report each outcome as one :class:`Entry` of one
:class:`Report`, with one :class:`Progress` line on stderr. :func:`run_request` runs a request's
jobs and then its later stages (``render``'s slide deck, :mod:`scenes.outputs.deck`); ``batch``
adds the manifest. The pipeline never imports :mod:`scenes.outputs`: outputs are made from what
it rendered, and the commands hand them in as stages.

This module never imports Manim: an unchanged re-run is decided from content keys alone and
returns in a fraction of a second. ``jobs`` processes render at once (default: one per core);
with more processes than videos, each video is split at its steps across processes and joined
without re-encoding.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Protocol

from scenes.pipeline import cache, subtitles
from scenes.pipeline.execute import execute, join_parts
from scenes.pipeline.files import TMP_PREFIX, alive, remove
from scenes.pipeline.jobs import Job, Request, plan, split
from scenes.pipeline.workers import DEFAULT_TIMEOUT, Outcome, Pool, Task


def warm_up() -> None:
    """What a worker imports once, before its first task (while the supervisor plans)."""
    import manim  # noqa: F401

    import scenes.kit.base  # noqa: F401


# -- the report --------------------------------------------------------------------------------
@dataclass
class Entry:
    """One output's outcome (a line of a batch's manifest)."""

    label: str
    key: str = ""
    output: str = ""
    status: str = "pending"  # rendered | reused | failed
    size: int = 0
    seconds: float = 0.0
    attempts: int = 0
    error: str = ""
    render_seconds: float = 0.0  # of ``seconds`` (the task's wall time), the render itself

    def as_dict(self) -> dict:
        return dict(self.__dict__)


@dataclass
class Report:
    """What a run produced: one entry per output, rendered, reused or failed, in order."""

    entries: list = field(default_factory=list)
    wall: float = 0.0

    @property
    def outputs(self) -> list[tuple[str, Path, bool]]:
        """(label, path, reused) of every output made or reused."""
        return [(e.label, Path(e.output), e.status == "reused") for e in self.ok_entries]

    @property
    def ok_entries(self) -> list[Entry]:
        return [e for e in self.entries if e.status != "failed"]

    @property
    def failed(self) -> list[Entry]:
        return [e for e in self.entries if e.status == "failed"]

    @property
    def failures(self) -> list[tuple[str, str]]:
        return [(e.label, e.error) for e in self.failed]

    @property
    def rendered(self) -> int:
        return self.counts()["rendered"]

    @property
    def reused(self) -> int:
        return self.counts()["reused"]

    def counts(self) -> dict:
        out = {"rendered": 0, "reused": 0, "failed": 0}
        for e in self.entries:
            out[e.status] = out.get(e.status, 0) + 1
        return out


class Progress:
    """Lines on stderr: what starts (with several workers), and each result: i of n, its time
    and path or its error, and while work is left how much runs, how much failed, an ETA."""

    def __init__(self, total: int, quiet: bool = False, stream=None, show_starts: bool = False):
        self.total, self.quiet, self.show_starts = total, quiet, show_starts
        self.done = self.failed = self.running = 0
        self.stream = stream or sys.stderr
        self.began = time.monotonic()

    def line(self, text: str) -> None:
        if not self.quiet:
            print(text, file=self.stream, flush=True)

    def start(self, task: Task) -> None:
        self.running += 1
        if self.show_starts:
            self.line(f"      … {task.label}")

    def finish(self, entry: Entry, ran: bool = True) -> None:
        self.done += 1
        self.running = max(0, self.running - ran)
        self.failed += entry.status == "failed"
        if entry.status == "failed":
            status = f"FAILED: {entry.error}"
        elif entry.status == "reused":
            status = f"up to date → {entry.output}"
        else:
            status = f"{entry.seconds:.1f} s → {entry.output}"
        left = self.total - self.done
        tail = ""
        if left > 0 and ran:
            eta = (time.monotonic() - self.began) / self.done * left
            tail = f"  ({self.running} running, {self.failed} failed, ETA {eta:.0f} s)"
        width = len(str(self.total))
        self.line(f"[{self.done:>{width}}/{self.total}] {entry.label}: {status}{tail}")


def default_jobs() -> int:
    return max(
        1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    )


def entry_of(job: Job, label: str, record: dict | None, status: str, **kw) -> Entry:
    """The entry of ``job`` with ``record`` (the size counts the files it lists)."""
    size = 0
    for f in (record or {}).get("files", []):
        path = job.out_dir / f
        if path.is_file():
            size += path.stat().st_size
    render = round(float((record or {}).get("seconds") or 0.0), 3) if status == "rendered" else 0.0
    return Entry(label, job.key, str(job.output), status, size, render_seconds=render, **kw)


def add(report: Report, progress: Progress, entry: Entry, ran: bool = True) -> None:
    report.entries.append(entry)
    progress.finish(entry, ran)


# -- scratch -----------------------------------------------------------------------------------
def clean_stale_scratch(folder: Path) -> None:
    """Remove scratch folders left by processes that no longer exist (a killed render)."""
    if not folder.is_dir():
        return
    for p in folder.glob(f"{TMP_PREFIX}*"):
        pid = p.name.rsplit("-", 1)[-1].split(".")[0]
        if pid.isdigit() and not alive(int(pid)):
            remove(p)


def complete(job: Job, record: dict) -> dict:
    """Make what an up-to-date output lacks without rendering: a video asked for with captions
    whose subtitles are missing gets them from the steps its record kept."""
    names = [f"{job.scene.name}{x}" for x in (".srt", ".vtt")]
    if not job.captions or all((job.out_dir / n).is_file() for n in names):
        return record
    written = subtitles.write(record["steps"], job.out_dir / job.scene.name)
    record = dict(record, files=sorted(set(record["files"]) | {p.name for p in written}))
    cache.write_record(job.out_dir, job.name, record)
    return record


# -- the loop ----------------------------------------------------------------------------------
def run_jobs(
    planned: list[Job],
    executor,
    report: Report,
    progress: Progress,
    *,
    force: bool = False,
    label: Callable[[Job], str] = lambda job: job.label,
    workers: int = 1,
    show_bars: bool = False,
    quiet: bool = False,
) -> None:
    """Render what of ``planned`` is not up to date on ``executor`` (anything with
    ``map(tasks, on_start, on_done)``); with ``workers`` > the number of videos, videos are split
    at their steps. Every outcome becomes an entry of ``report``; nothing here raises for a
    failed render."""
    todo = []
    for job in planned:
        record = None if force else job.fresh()
        if record is not None:
            add(report, progress, entry_of(job, label(job), complete(job, record), "reused"), False)
        else:
            todo.append(job)
    for folder in {j.out_dir for j in todo}:
        clean_stale_scratch(folder)
    # the longest first (by the last run's time, if any), so no process is left with a long tail
    todo.sort(key=lambda j: -((cache.read_record(j.out_dir, j.name) or {}).get("seconds") or 10.0))
    todo = [replace(j, show_bars=show_bars, quiet=quiet, run_id=os.getpid()) for j in todo]
    tasks = [Task(label(j), execute, j, j.scratch) for j in split(todo, workers)]
    parts: dict[tuple, list[Outcome]] = {}

    def done(outcome: Outcome) -> None:
        job: Job = outcome.task.arg
        if job.part is not None:  # reported when its scene is joined
            parts.setdefault((job.out_dir, job.name.rsplit(".part", 1)[0]), []).append(outcome)
            return
        _finish(report, progress, job, label(job), outcome)

    try:
        if tasks:
            executor.map(tasks, on_start=progress.start, on_done=done)
    except BaseException:  # interrupted: no part of a split video is left behind
        for job in todo:
            remove(job.parts_dir())
        raise
    for job in todo:
        if (job.out_dir, job.name) in parts:
            _join(report, progress, job, label(job), parts[job.out_dir, job.name])


def _finish(report, progress, job: Job, label: str, outcome: Outcome) -> None:
    status = "rendered" if outcome.ok else "failed"
    entry = entry_of(
        job,
        label,
        outcome.value if outcome.ok else None,
        status,
        seconds=round(outcome.seconds, 3),
        attempts=outcome.task.attempts,
        error=outcome.error,
    )
    add(report, progress, entry)


def _join(report, progress, job: Job, label: str, outcomes: list[Outcome]) -> None:
    failed = [o for o in outcomes if not o.ok]
    label = f"{label} ({len(outcomes)} parts)"
    if failed:
        remove(job.parts_dir())
        _finish(report, progress, job, label, failed[0])
        return
    started = time.monotonic()
    try:
        record = join_parts(job, [o.value for o in sorted(outcomes, key=lambda o: o.task.arg.part)])
        outcome = Outcome(
            outcomes[0].task,
            True,
            record,
            seconds=max(o.seconds for o in outcomes) + time.monotonic() - started,
        )
    except Exception as exc:  # noqa: BLE001 - one line per failure
        outcome = Outcome(outcomes[0].task, False, error=f"joining the parts failed: {exc}")
    _finish(report, progress, job, label, outcome)


# -- render: jobs, then later stages (the slide deck) ---------------------------------------------
class Stage(Protocol):
    """What runs after a request's jobs in the same pool (e.g. :class:`scenes.outputs.deck.Decks`):
    ``len()`` outputs for the progress count; ``run`` adds one entry each to the report."""

    def __len__(self) -> int: ...

    def run(self, report: Report, progress: Progress, pool: Pool, force: bool) -> None: ...


def run_request(
    request: Request | list[Request],
    *,
    jobs: int | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    force: bool = False,
    quiet: bool = False,
    stages: tuple[Stage, ...] | list[Stage] = (),
    progress: Progress | None = None,
) -> Report:
    """Render everything ``request`` (or a list of them: e.g. one per language) asks for, then
    each of ``stages``, in one pool of workers; never raises for a failed render (see Report)."""
    requests = request if isinstance(request, list) else [request]
    planned = [job for r in requests for job in plan(r)]
    workers = jobs or default_jobs()
    report = Report()
    total = len(planned) + sum(len(s) for s in stages)
    progress = progress or Progress(total, quiet, show_starts=workers > 1)
    show_bars = workers == 1 and not quiet and sys.stderr.isatty()
    with Pool(workers, timeout, warm_up) as pool:  # workers start only when there is work
        run_jobs(
            planned,
            pool,
            report,
            progress,
            force=force,
            workers=workers,
            show_bars=show_bars,
            quiet=quiet,
        )
        for stage in stages:
            stage.run(report, progress, pool, force)
    return report
