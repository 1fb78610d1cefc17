"""One render request from start to end: plan, skip what is up to date, render in bounded worker
processes, join split videos, build the slide deck, report progress.

This module never imports Manim: an unchanged re-run is decided from content keys alone and
returns in a fraction of a second. ``jobs`` processes render at once (default: one per core);
with more processes than videos, each video is split at its steps across processes and joined
without re-encoding.
"""

from __future__ import annotations

import os
import sys
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

from scenes.outputs import slides
from scenes.pipeline import cache
from scenes.pipeline.execute import execute, join_parts, tmp_dir_for
from scenes.pipeline.jobs import TMP_PREFIX, Job, Request, plan, split
from scenes.pipeline.workers import DEFAULT_TIMEOUT, Outcome, Pool, Task


def _warm() -> None:
    import manim  # noqa: F401 - imported once per worker, while the supervisor plans

    import scenes.base  # noqa: F401


@dataclass
class Report:
    """What a request produced: the outputs (rendered or reused) and the failures."""

    outputs: list = field(default_factory=list)  # (label, Path, reused)
    failures: list = field(default_factory=list)  # (label, one line)
    rendered: int = 0
    reused: int = 0

    @property
    def ok(self) -> bool:
        return not self.failures


class Progress:
    """Lines on stderr: what is being rendered, each result with its time, scene i of n."""

    def __init__(self, total: int, quiet: bool = False, stream=None):
        self.total, self.quiet, self.done = total, quiet, 0
        self.stream = stream or sys.stderr
        self.started = time.monotonic()

    def line(self, text: str) -> None:
        if not self.quiet:
            print(text, file=self.stream, flush=True)

    def start(self, task: Task) -> None:
        self.line(f"      … {task.label}")

    def finish(self, label: str, status: str) -> None:
        self.done += 1
        width = len(str(self.total))
        self.line(f"[{self.done:>{width}}/{self.total}] {label}: {status}")


def default_jobs() -> int:
    return max(
        1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    )


def _scratch(job: Job):
    def paths(pid: int) -> list:
        out = [tmp_dir_for(job, pid)]
        if job.kind == "slides":
            out.append(job.out_dir / "slides-src" / "files" / job.scene.name)
        return out

    return paths


def clean_stale_scratch(folder: Path) -> None:
    """Remove scratch folders left by processes that no longer exist (a killed render)."""
    if not folder.is_dir():
        return
    for p in folder.glob(f"{TMP_PREFIX}*"):
        pid = p.name.rsplit("-", 1)[-1].split(".")[0]
        if pid.isdigit() and not _alive(int(pid)):
            import shutil

            shutil.rmtree(p, ignore_errors=True) if p.is_dir() else p.unlink(missing_ok=True)


def _alive(pid: int) -> bool:
    """Whether ``pid`` is a running process (a zombie, killed but not yet reaped, is not)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return True
    return state not in ("Z", "X")


def run_request(
    request: Request | list[Request],
    *,
    jobs: int | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    force: bool = False,
    quiet: bool = False,
    slide_formats=("html",),
    progress: Progress | None = None,
) -> Report:
    """Render everything ``request`` (or a list of them: e.g. one per language) asks for, in one
    pool of workers; never raises for a failed render (see Report)."""
    requests = request if isinstance(request, list) else [request]
    planned = [job for r in requests for job in plan(r)]
    workers = jobs or default_jobs()
    for r in requests:
        clean_stale_scratch(r.out_dir)
    report = Report()
    deck = [d for r in requests for d in _deck_jobs(r, slide_formats)]
    progress = progress or Progress(len(planned) + len(deck), quiet)
    todo = []
    for job in planned:
        if not force and job.fresh():
            report.outputs.append((job.label, job.output, True))
            report.reused += 1
            progress.finish(job.label, f"up to date → {job.output}")
        else:
            todo.append(job)
    # the longest first (by the last run's time, if any), so no process is left with a long tail
    todo.sort(key=lambda j: -((cache.read_record(j.out_dir, j.name) or {}).get("seconds") or 10.0))
    show_bars = workers == 1 and not quiet and sys.stderr.isatty()
    todo = [replace(j, show_bars=show_bars, run_id=os.getpid()) for j in todo]
    tasks = [Task(j.label, execute, j, _scratch(j)) for j in split(todo, workers)]
    parts: dict[tuple, list[Outcome]] = {}

    def done(outcome: Outcome) -> None:
        job: Job = outcome.task.arg
        if job.part is not None:  # reported when its scene is joined
            parts.setdefault((job.out_dir, job.name.rsplit(".part", 1)[0]), []).append(outcome)
            return
        _report(report, progress, job.label, job.output, outcome)

    if tasks or any(not j.fresh() or force for j in deck):
        with Pool(min(workers, max(1, len(tasks))), timeout, _warm) as pool:
            pool.map(tasks, on_start=progress.start if workers > 1 else None, on_done=done)
            for job in todo:
                if job.kind == "video" and (job.out_dir, job.name) in parts:
                    _join(report, progress, job, parts[job.out_dir, job.name])
            if deck and not report.failures:
                _build_decks(report, progress, pool, deck, force)
            elif deck:
                for d in deck:
                    report.failures.append((d.label, "not built: a scene's slides failed"))
    elif deck:
        for d in deck:
            report.outputs.append((d.label, d.dest, True))
            report.reused += 1
            progress.finish(d.label, f"up to date → {d.dest}")
    return report


def _report(report: Report, progress: Progress, label: str, output: Path, outcome) -> None:
    if outcome.ok:
        report.outputs.append((label, output, False))
        report.rendered += 1
        progress.finish(label, f"{outcome.seconds:.1f} s → {output}")
    else:
        report.failures.append((label, outcome.error))
        progress.finish(label, f"FAILED: {outcome.error}")


def _join(report: Report, progress: Progress, job: Job, outcomes: list[Outcome]) -> None:
    failed = [o for o in outcomes if not o.ok]
    if failed:
        _report(report, progress, job.label, job.output, failed[0])
        import shutil

        shutil.rmtree(job.parts_dir(), ignore_errors=True)
        return
    started = time.monotonic()
    try:
        join_parts(job, [o.value for o in sorted(outcomes, key=lambda o: o.task.arg.part)])
        ok = Outcome(
            outcomes[0].task,
            True,
            seconds=max(o.seconds for o in outcomes) + time.monotonic() - started,
        )
    except Exception as exc:  # noqa: BLE001 - one line per failure
        ok = Outcome(outcomes[0].task, False, error=f"joining the parts failed: {exc}")
    _report(report, progress, f"{job.label} ({len(outcomes)} parts)", job.output, ok)


@dataclass(frozen=True)
class DeckJob:
    scenes: tuple
    src: Path
    dest: Path
    fmt: str
    key: str

    @property
    def label(self) -> str:
        return f"slide deck ({self.fmt})"

    def fresh(self) -> bool:
        return cache.fresh_record(self.dest.parent, self.dest.name, self.key) is not None


def _deck_jobs(request: Request, formats) -> list[DeckJob]:
    if not request.slides:
        return []
    folder = request.look.folder(request.example)
    src = request.out_dir / "slides-src"
    names = tuple(s.name for s in request.scenes)
    scene_keys = [
        Job(s, request.example, request.look, request.out_dir, "slides").key for s in request.scenes
    ]
    out = []
    for fmt in formats:
        dest = slides.deck_path(request.out_dir.parent, request.example.name, folder, fmt)
        out.append(DeckJob(names, src, dest, fmt, cache.content_key(deck=fmt, scenes=scene_keys)))
    return out


def _build_decks(report, progress, pool: Pool, deck: list[DeckJob], force) -> None:
    todo = [d for d in deck if force or not d.fresh()]
    for d in deck:
        if d not in todo:
            report.outputs.append((d.label, d.dest, True))
            report.reused += 1
            progress.finish(d.label, f"up to date → {d.dest}")
    tasks = [
        Task(d.label, slides.convert_deck, (d.scenes, str(d.src), str(d.dest), d.fmt)) for d in todo
    ]

    def done(outcome: Outcome) -> None:
        d = next(d for d in todo if str(d.dest) == outcome.task.arg[2])
        if outcome.ok:
            cache.write_record(d.dest.parent, d.dest.name, {"key": d.key, "files": [d.dest.name]})
        _report(report, progress, d.label, d.dest, outcome)

    pool.map(tasks, on_done=done)
