"""The jobs of a render request, planned without Manim.

``plan`` validates the request, knows every output path and decides, from content keys
(:mod:`scenes.pipeline.cache`), which outputs are already up to date. Running a job is
:mod:`scenes.pipeline.execute`'s business (in a worker process).

Kinds of job
    ``video``  one scene as mp4/webm/mov/gif (with ``captions``: .srt and .vtt beside it);
    ``png``    a scene's final frame;
    ``stills`` every step's final frame, ``stills/NN-Scene-KK-step.png`` (no video encoding);
    ``slides`` a scene as manim-slides slides (one per step), for the deck
    (:mod:`scenes.outputs.slides`); a ``video`` job with ``part=(k, K)`` renders only the steps
    ``i`` with ``i % K == k``, one file per step, which are then joined without re-encoding.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from pathlib import Path

from attention_core import Example
from scenes.look import Look
from scenes.outputs import subtitles
from scenes.pipeline import cache
from scenes.registry import SCENES, SceneInfo

FORMATS = ("mp4", "webm", "mov", "gif", "png")
ALPHA_FORMATS = ("webm", "mov", "png")
SPLITTABLE = ("mp4", "webm", "mov")  # stream copy joins these; gif is converted by Manim at the end
TMP_PREFIX = ".tmp-"


@dataclass(frozen=True)
class Job:
    """One output (or part of one) for one scene of one example."""

    scene: SceneInfo
    example: Example
    look: Look
    out_dir: Path  # renders/<example>/<look folder>
    kind: str = "video"  # video | png | stills | slides
    fmt: str = "mp4"
    captions: bool = False
    part: tuple[int, int] | None = None
    show_bars: bool = False  # Manim's own progress bars (one worker, a terminal)
    run_id: int = 0  # the supervising process: parts of one run never meet another run's

    @property
    def name(self) -> str:
        """The record name: also the final file name for videos and png."""
        s = self.scene.name
        base = {
            "video": f"{s}.{self.fmt}",
            "png": f"{s}.png",
            "stills": f"stills-{s}",
            "slides": f"slides-{s}",
        }[self.kind]
        return base if self.part is None else f"{base}.part{self.part[0]}of{self.part[1]}"

    @property
    def label(self) -> str:
        extra = "" if self.kind == "video" else f" ({self.kind})"
        if self.part:
            extra += f" [part {self.part[0] + 1}/{self.part[1]}]"
        return self.scene.name + extra

    @property
    def output(self) -> Path:
        """The main file (or folder) a user opens."""
        if self.kind == "stills":
            return self.out_dir / "stills"
        if self.kind == "slides":
            return self.out_dir / "slides-src" / f"{self.scene.name}.json"
        return self.out_dir / self.name

    @property
    def key(self) -> str:
        # captions are not in the key: they are written from the record's steps (see fresh)
        return cache.content_key(
            example=self.example.to_dict(),
            scene=self.scene.name,
            look=self.look.as_dict(),
            kind=self.kind,
            fmt=self.fmt,
        )

    @property
    def index(self) -> int:
        return [s.name for s in SCENES].index(self.scene.name) if self.scene in SCENES else 0

    def fresh(self, complete: bool = True) -> dict | None:
        """Its record, if the output is already up to date (parts are never cached alone).

        A video asked for with captions whose subtitles are missing gets them here, from the
        steps its record kept: the video itself does not change.
        """
        if self.part:
            return None
        record = cache.fresh_record(self.out_dir, self.name, self.key)
        if (
            record
            and complete
            and self.captions
            and not all(
                (self.out_dir / f"{self.scene.name}{x}").is_file() for x in (".srt", ".vtt")
            )
        ):
            written = subtitles.write(record["steps"], self.out_dir / self.scene.name, self.out_dir)
            record["files"] = sorted(set(record["files"]) | {p.name for p in written})
            cache.write_record(self.out_dir, self.name, record)
        return record

    def parts_dir(self) -> Path:
        return (
            self.out_dir / f"{TMP_PREFIX}parts-{self.scene.name}.{self.fmt}-{self.key[:12]}"
            f"-{self.run_id or os.getpid()}"
        )


@dataclass
class Request:
    """What the user asked for: the example, the scenes, the look and the kinds of output."""

    example: Example
    scenes: list
    look: Look
    out: Path
    fmt: str = "mp4"
    videos: bool = True  # one file per scene in ``fmt`` (mp4 … or png)
    captions: bool = False
    stills: bool = False
    slides: bool = False

    @property
    def out_dir(self) -> Path:
        return Path(self.out) / self.example.name / self.look.folder(self.example)


def validate(fmt: str, look: Look, out: Path) -> None:
    """ValueError naming the option when the request cannot be made."""
    if fmt not in FORMATS:
        raise ValueError(f"--format: {fmt!r} is not one of {', '.join(FORMATS)}")
    if look.transparent and fmt not in ALPHA_FORMATS:
        raise ValueError(
            f"--transparent: {fmt} has no alpha channel; use --format webm or mov (or png)"
        )
    check_writable(Path(out))


def plan(request: Request) -> list[Job]:
    """Every job of ``request``, in teaching order (videos first, then stills, then slides)."""
    validate(request.fmt, request.look, request.out)
    d = request.out_dir
    jobs = []
    kinds = []
    if request.videos:
        kinds.append("png" if request.fmt == "png" else "video")
    if request.stills:
        kinds.append("stills")
    if request.slides:
        kinds.append("slides")
    for kind in kinds:
        for s in request.scenes:
            jobs.append(
                Job(
                    s,
                    request.example,
                    request.look,
                    d,
                    kind,
                    request.fmt,
                    captions=request.captions and kind == "video",
                )
            )
    return jobs


def split(jobs: list[Job], workers: int) -> list[Job]:
    """With more workers than videos to render, render each video in parts (by steps)."""
    videos = [j for j in jobs if j.kind == "video" and j.fmt in SPLITTABLE]
    if workers < 2 or not videos or len(jobs) >= workers:
        return jobs
    k = max(1, workers // len(jobs))
    if k < 2:
        return jobs
    out = []
    for j in jobs:
        if j in videos:
            out.extend(replace(j, part=(p, k)) for p in range(k))
        else:
            out.append(j)
    return out


def check_writable(out: Path) -> None:
    """ValueError naming --out when the folder cannot be created or written."""
    probe = out
    while not probe.exists():
        probe = probe.parent
    if not probe.is_dir():
        raise ValueError(f"--out: {str(probe)!r} is a file, not a folder")
    if not os.access(probe, os.W_OK | os.X_OK):
        raise ValueError(f"--out: cannot write to {str(probe)!r}; choose another folder with --out")
