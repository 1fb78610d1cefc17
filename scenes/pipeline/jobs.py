"""The jobs of a render request, planned without Manim.

``plan`` validates the request, knows every output path and decides, from content keys
(:mod:`scenes.pipeline.cache`), which outputs are already up to date. Running a job is
:mod:`scenes.pipeline.execute`'s business (in a worker process).

Kinds of job (the table is :mod:`scenes.pipeline.kinds`)
    ``video``  one scene as mp4/webm/mov/gif (with ``captions``: .srt and .vtt beside it);
    ``png``    a scene's final frame;
    ``stills`` every step's final frame, ``stills/NN-Scene-KK-step.png`` (no video encoding);
    ``slides`` a scene as manim-slides slides (one per step), for the deck
    (:mod:`scenes.outputs.slides`); a ``video`` job with ``part=(k, K)`` renders only the steps
    ``i`` with ``i % K == k``, one file per step, which are then joined without re-encoding.
"""

from __future__ import annotations

import os
import tempfile
import unicodedata
from dataclasses import dataclass, replace
from functools import cached_property
from pathlib import Path

from attention_core import Example
from attention_core.example.user_files import display, length_problem
from scenes.kit.look import Look
from scenes.kit.registry import SCENES, SceneInfo
from scenes.pipeline import cache, kinds
from scenes.pipeline.files import TMP_PREFIX
from scenes.pipeline.kinds import Kind

__all__ = [
    "TMP_PREFIX",
    "Job",
    "Request",
    "check_out_name",
    "check_writable",
    "plan",
    "split",
    "up_to_date",
    "validate",
]


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
    quiet: bool = False  # --quiet: no log lines from the tools (manim-slides) either
    run_id: int = 0  # the supervising process: parts of one run never meet another run's

    @property
    def spec(self) -> Kind:
        """This job's entry in the table of output kinds."""
        return kinds.of(self.kind, self.fmt)

    @property
    def name(self) -> str:
        """The record name: also the final file name for videos and png."""
        base = self.spec.file_name(self.scene.name)
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
        if self.part is not None:
            return self.out_dir / self.name
        return self.spec.output(self.out_dir, self.scene.name)

    @cached_property  # once per job: a course of 60,000 examples asks it several times
    def key(self) -> str:
        # captions are not in the key: they are written from the record's steps (run.complete)
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

    def fresh(self, verify: bool = False) -> dict | None:
        """Its record, if the output is already up to date (parts are never cached alone).

        Only a check: it writes nothing. Subtitles missing beside an up-to-date video are made
        from the record's steps by the runner (:func:`scenes.pipeline.run.complete`).
        """
        if self.part or not cache.has_record(self.out_dir, self.name):
            return None  # never rendered: no key to compute (a course's dry run is quick)
        return cache.fresh_record(self.out_dir, self.name, self.key, verify)

    def scratch(self, pid: int) -> list[Path]:
        """What a worker ``pid`` killed while running this job may leave behind."""
        return [self.tmp_dir(pid), *self.spec.extra_scratch(self.out_dir, self.scene.name)]

    def tmp_dir(self, pid: int | None = None) -> Path:
        """The job's scratch folder; named by job and process, so a supervisor can remove it."""
        return self.out_dir / f"{TMP_PREFIX}{self.name}-{pid or os.getpid()}"

    def parts_dir(self) -> Path:
        return (
            self.out_dir / f"{TMP_PREFIX}parts-{self.scene.name}.{self.fmt}-{self.key[:12]}"
            f"-{self.run_id or os.getpid()}"
        )


def up_to_date(jobs: list[Job]) -> list[bool]:
    """``job.fresh() is not None`` for each job, looked up per folder: the folder that holds
    the example folders (``renders/``) is listed once, and a job whose example folder is not
    there has no record to read (a course never rendered looks at no file per task)."""
    listed: dict[str, set[str]] = {}
    out = []
    for job in jobs:
        top, example_dir = os.path.split(os.path.dirname(job.out_dir))
        if top not in listed:
            listed[top] = _folder_names(top)
        out.append(_folded(example_dir) in listed[top] and job.fresh() is not None)
    return out


def _folder_names(folder: str) -> set[str]:
    """The names in ``folder`` as :func:`_folded` compares them (none when it is not there)."""
    try:
        return {_folded(name) for name in os.listdir(folder or ".")}
    except OSError:
        return set()


def _folded(name: str) -> str:
    """A name as a file system that ignores case or Unicode normalisation may match it (a name
    found this way that is not there only costs the look-up it would have had anyway)."""
    return unicodedata.normalize("NFC", name).casefold()


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
    kind = kinds.for_format(fmt)
    if look.transparent and not kind.alpha:
        videos = " or ".join(k for k in kinds.ALPHA_FORMATS if kinds.KINDS[k].job == "video")
        raise ValueError(
            f"--transparent: {fmt} has no alpha channel; use --format {videos} (or png)"
        )
    if look.narrate and fmt == "gif":
        raise ValueError("--narrate: a gif has no sound; use --format mp4, webm or mov")
    check_writable(Path(out))


def plan(request: Request) -> list[Job]:
    """Every job of ``request``, in teaching order (videos first, then stills, then slides)."""
    validate(request.fmt, request.look, request.out)
    wanted = []
    if request.videos:
        wanted.append(kinds.for_format(request.fmt))
    if request.stills:
        wanted.append(kinds.KINDS["stills"])
    if request.slides:
        wanted.append(kinds.KINDS["slides"])
    jobs = [
        Job(
            s,
            request.example,
            request.look,
            request.out_dir,
            kind.job,
            request.fmt,  # (part of every key, stills and slides included)
            captions=request.captions and kind.job == "video",
        )
        for kind in wanted
        for s in request.scenes
    ]
    check_records(jobs)
    return jobs


def check_records(jobs: list[Job]) -> None:
    """ValueError naming --out when a folder of records that ``jobs`` would write is damaged
    so that writing would fail after rendering (:func:`scenes.pipeline.cache.check_folder`):
    each output folder's ``.keys`` and records, and its example folder's (the page's record,
    the ``source`` marker). Only folders that exist are looked at (a course never rendered
    looks at none)."""
    names: dict[str, list[str]] = {}
    for job in jobs:
        names.setdefault(os.fspath(job.out_dir), []).append(f"{job.name}.json")
    listed: dict[str, set[str]] = {}
    for folder, records in names.items():
        example_dir = os.path.dirname(folder)
        top, example = os.path.split(example_dir)
        if top not in listed:
            listed[top] = _folder_names(top)
        if _folded(example) in listed[top]:
            cache.check_folder(example_dir, [os.path.basename(SOURCE_FILE)])
            cache.check_folder(folder, records)


def split(jobs: list[Job], workers: int) -> list[Job]:
    """With more workers than videos to render, render each video in parts (by steps)."""
    videos = [j for j in jobs if j.spec.splittable]
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


# bytes kept below --out for what a render makes in it: the example's folder (a name of at most
# 64 characters), the look's, a file, a record, a worker's scratch with Manim's media folders
OUT_ROOM = 1095


def check_out_name(out) -> None:
    """ValueError naming --out for a name that cannot be shown or meant: empty (it would write
    into the current folder), holding a control character (a line break splits every path
    printed), or too long for the file system once a render's folders and files are in it (a
    name over 255 bytes, a path over 3,000: refused before any work, not after rendering)."""
    text = os.fspath(out)
    if not text.strip():
        raise ValueError(
            "--out: give a folder name (an empty one would write into the current folder)"
        )
    if any(ord(c) < 32 or ord(c) == 127 for c in text):
        raise ValueError(
            f"--out: {display(text, 40)} holds a control character (a line break?); choose a "
            "plain name"
        )
    why = length_problem(text, room=OUT_ROOM)
    if why:
        raise ValueError(f"--out: {why}; choose a shorter --out")


def check_writable(out: Path) -> None:
    """ValueError naming --out unless a folder can be made there: checked by making one (and
    removing it) in the nearest folder that exists, not by ``access()``, which says yes to root
    under ``/proc`` and on a read-only file system; a link to nowhere (dangling, or a loop) on
    the way is named as such."""
    check_out_name(out)
    probe = Path(out)
    while not os.path.lexists(probe):
        probe = probe.parent
    if probe.is_symlink() and not probe.exists():
        raise ValueError(
            f"--out: {str(probe)!r} is a link to nowhere (dangling, or a loop); "
            "remove it or choose another folder"
        )
    if not probe.is_dir():
        raise ValueError(f"--out: {str(probe)!r} is a file, not a folder")
    try:
        os.rmdir(
            tempfile.mkdtemp(prefix=f"{TMP_PREFIX}probe-", suffix=f"-{os.getpid()}", dir=probe)
        )
    except OSError as exc:
        raise ValueError(
            f"--out: cannot write to {str(probe)!r} ({exc.strerror or exc}); "
            "choose another folder with --out"
        ) from None


# in <out>/<example>/, beside no output: which example file (or preset) renders there
SOURCE_FILE = ".keys/source"


def claim(example_dir: Path, source: str, *, write: bool = True, force: bool = False) -> None:
    """Make ``example_dir`` (``<out>/<example name>``) the folder of ``source`` (an example
    file's resolved path, or ``preset:<name>``). Two files with one name (``a b.toml`` and
    ``a-b.toml``; ``A/lesson.toml`` and ``B/lesson.toml``) would overwrite each other's
    renders: the second is refused (ValueError naming --out and both), unless ``force``. With
    ``write`` False only checks (``--preview``, ``--verify``). A marker that is not one this
    tool wrote (a link, a FIFO, NUL bytes, garbage, unreadable) names no file: it is replaced,
    never followed, read or quoted; one that is a folder is refused (:func:`check_records`)."""
    cache.check_folder(example_dir, [os.path.basename(SOURCE_FILE)])
    marker = Path(example_dir) / SOURCE_FILE
    held = _held(marker)
    if held and held != source and not force:
        name = Path(example_dir).name
        # the file to rename: this one, or (a preset cannot be renamed) the one there
        other = "that file" if source.startswith("preset:") else display(source, 40)
        raise ValueError(
            f"--out: {display(example_dir, 40)} holds the renders of {display(held, 40)}, also "
            f"named {display(name, 40)}; rename {other}, choose another --out, or add --force "
            "to render over them"
        )
    if write and held != source:
        from scenes.pipeline.files import atomic_write

        atomic_write(marker, source + "\n")  # a rename: a link there is replaced, not followed


def _held(marker: Path) -> str:
    """The source the marker names, or "" when there is none or it is damaged: the tool writes
    ``preset:<name>`` or an absolute path, one line of text, nothing else."""
    from scenes.pipeline.files import read_own

    data = read_own(marker, 4 * 4096)
    try:
        held = (data or b"").decode("utf-8").strip()
    except UnicodeDecodeError:
        return ""
    if any(ord(c) < 32 or ord(c) == 127 for c in held):
        return ""
    return held if held.startswith(("preset:", "/")) else ""
