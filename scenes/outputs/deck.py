"""The slide deck as a stage of a render: after the scenes' slides, one deck per format.

``render --slides`` renders each scene as manim-slides slides (``slides`` jobs of the pipeline);
:class:`Decks` is then run by :func:`scenes.pipeline.run.run_request` in the same pool of
workers: each deck (:func:`scenes.outputs.slides.convert_deck`) is made unless it is up to date,
and is reported as one more output. Nothing is built when a scene's slides failed.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from scenes.outputs import slides
from scenes.pipeline import cache
from scenes.pipeline.jobs import Job, Request
from scenes.pipeline.run import Entry, Report, add
from scenes.pipeline.workers import Outcome, Task


@dataclass(frozen=True)
class DeckJob:
    scenes: tuple
    src: Path
    dest: Path
    fmt: str
    key: str
    example: tuple = ()  # (Example, lecture language, narrated): the notes' trace and words

    @property
    def label(self) -> str:
        return f"slide deck ({self.fmt})"

    def fresh(self) -> bool:
        return cache.fresh_record(self.dest.parent, self.dest.name, self.key) is not None


def deck_jobs(request: Request, formats) -> list[DeckJob]:
    """The slide decks ``request`` asks for (one per format), all its scenes in one deck."""
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
        key = cache.content_key(deck=fmt, scenes=scene_keys)
        lecture = (request.example, request.look.lang, bool(request.look.narrate))
        out.append(DeckJob(names, src, dest, fmt, key, lecture))
    return out


class Decks:
    """The decks of ``requests`` in ``formats``: a stage of :func:`run_request`."""

    def __init__(self, requests: list[Request], formats) -> None:
        self.decks = [d for r in requests for d in deck_jobs(r, formats)]

    def __len__(self) -> int:
        return len(self.decks)

    def run(self, report: Report, progress, pool, force: bool) -> None:
        if not self.decks:
            return
        if report.failures:
            for d in self.decks:
                error = "not built: a scene's slides failed"
                report.entries.append(Entry(d.label, d.key, str(d.dest), "failed", error=error))
            return
        _build(report, progress, pool, self.decks, force)


def _build(report, progress, pool, deck: list[DeckJob], force) -> None:
    todo = [d for d in deck if force or not d.fresh()]
    for d in deck:
        if d not in todo:
            add(report, progress, Entry(d.label, d.key, str(d.dest), "reused"), False)
    tasks = [
        Task(d.label, slides.convert_deck, (d.scenes, str(d.src), str(d.dest), d.fmt, d.example))
        for d in todo
    ]

    def done(outcome: Outcome) -> None:
        d = next(d for d in todo if str(d.dest) == outcome.task.arg[2])
        if outcome.ok:
            cache.write_record(d.dest.parent, d.dest.name, {"key": d.key, "files": [d.dest.name]})
        status = "rendered" if outcome.ok else "failed"
        size = d.dest.stat().st_size if outcome.ok else 0
        entry = Entry(
            d.label,
            d.key,
            str(d.dest),
            status,
            size,
            round(outcome.seconds, 3),
            outcome.task.attempts,
            outcome.error,
        )
        add(report, progress, entry)

    if tasks:
        pool.map(tasks, on_start=progress.start, on_done=done)
