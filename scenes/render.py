"""Rendering scenes to files: the jobs of a request, and running one job (in a worker process).

``plan`` runs without Manim: it validates the request, knows every output path and decides,
from content keys (:mod:`scenes.cache`), which outputs are already up to date. ``execute`` runs
one job with Manim; it is what a worker process calls. Every file is made in a hidden temporary
folder beside the outputs and renamed into place only when complete, then its record is written:
an interrupted or failed render leaves no partial file under a final name.

Kinds of job
    ``video``  one scene as mp4/webm/mov/gif (with ``captions``: .srt and .vtt beside it);
    ``png``    a scene's final frame;
    ``stills`` every step's final frame, ``stills/NN-Scene-KK-step.png`` (no video encoding);
    ``slides`` a scene as manim-slides slides (one per step), for the deck (:mod:`scenes.slides`);
    a ``video`` job with ``part=(k, K)`` renders only the steps ``i`` with ``i % K == k``, one
    file per step; :func:`join_parts` concatenates them in order without re-encoding.
"""

from __future__ import annotations

import os
import shutil
import time
from dataclasses import dataclass, replace
from pathlib import Path

from attention_core import Example
from scenes import cache, subtitles
from scenes.look import Look
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
        base = {"video": f"{s}.{self.fmt}", "png": f"{s}.png", "stills": f"stills-{s}",
                "slides": f"slides-{s}"}[self.kind]
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
        return cache.content_key(example=self.example.to_dict(), scene=self.scene.name,
                                 look=self.look.as_dict(), kind=self.kind, fmt=self.fmt)

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
        if record and complete and self.captions and not all(
                (self.out_dir / f"{self.scene.name}{x}").is_file() for x in (".srt", ".vtt")):
            written = subtitles.write(record["steps"], self.out_dir / self.scene.name,
                                      self.out_dir)
            record["files"] = sorted(set(record["files"]) | {p.name for p in written})
            cache.write_record(self.out_dir, self.name, record)
        return record

    def parts_dir(self) -> Path:
        return (self.out_dir / f"{TMP_PREFIX}parts-{self.scene.name}.{self.fmt}-{self.key[:12]}"
                f"-{self.run_id or os.getpid()}")


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
        raise ValueError(f"--transparent: {fmt} has no alpha channel; use --format webm or mov "
                         "(or png)")
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
            jobs.append(Job(s, request.example, request.look, d, kind, request.fmt,
                            captions=request.captions and kind == "video"))
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


# ---------------------------------------------------------------------------------------------
# Running one job (in a worker process)

def tmp_dir_for(job: Job, pid: int | None = None) -> Path:
    """The job's scratch folder; named by job and process, so a supervisor can remove it."""
    return job.out_dir / f"{TMP_PREFIX}{job.name}-{pid or os.getpid()}"


def execute(job: Job) -> dict:
    """Render ``job`` with Manim in this process; return its record (files, seconds, steps)."""
    fault = os.environ.get("ATTN_FAULT", "")  # test hook: "hang:<Scene>" or "fail:<Scene>"
    if fault.partition(":")[2] == job.scene.name:
        if fault.startswith("hang:"):
            time.sleep(10_000)
        elif fault.startswith("fail:"):
            raise RuntimeError("injected failure (ATTN_FAULT)")
    started = time.perf_counter()
    job.out_dir.mkdir(parents=True, exist_ok=True)
    tmp = tmp_dir_for(job)
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    try:
        run = {"video": _video, "png": _png, "stills": _stills, "slides": _slides}[job.kind]
        record = run(job, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    record.update(key=job.key, seconds=round(time.perf_counter() - started, 3))
    if job.part is None:
        cache.write_record(job.out_dir, job.name, record)
    return record


def _manim_config(job: Job, tmp: Path) -> dict:
    cfg = {**job.look.manim_config(), "media_dir": str(tmp), "disable_caching": True,
           "verbosity": "ERROR", "notify_outdated_version": False,
           "progress_bar": "display" if job.show_bars else "none",
           "output_file": job.scene.name}
    return cfg


def _scene(job: Job, cls=None, **kw):
    cls = cls or job.scene.load()
    return cls(example=job.example, lang=job.look.lang, theme=job.look.theme,
               font=job.look.font, **kw)


def _steps_of(scene) -> list[dict]:
    return [{k: (round(v, 4) if isinstance(v, float) else v) for k, v in r.items()}
            for r in scene.steps]


def _video(job: Job, tmp: Path) -> dict:
    from manim import tempconfig

    cfg = _manim_config(job, tmp)
    cfg.update({"format": job.fmt, "write_to_movie": True})
    if job.part:
        cfg["save_sections"] = True
    with tempconfig(cfg):
        k, parts = job.part or (0, 1)
        scene = _scene(job, sections=(lambda i: i % parts == k) if job.part else None)
        scene.render()
        writer = scene.renderer.file_writer
        produced = Path(writer.gif_file_path if job.fmt == "gif" else writer.movie_file_path)
        sections_dir = Path(writer.sections_output_dir) if job.part else None
    steps = _steps_of(scene)
    if job.part:
        return _keep_part(job, sections_dir, steps)
    _expect(job, produced)
    files = [_place(produced, job.out_dir / job.name)]
    if job.captions:
        files += subtitles.write(steps, job.out_dir / job.scene.name, job.out_dir)
    return {"files": [f.name for f in files], "steps": steps}


def _keep_part(job: Job, sections_dir: Path, steps: list[dict]) -> dict:
    """Move this part's one-file-per-step videos into the job's parts folder.

    Sections are named ``NNN-<step key>`` by ``ExplainerScene.step``; anything before the first
    step (Manim's first section) is kept by part 0 only and goes first.
    """
    import json

    k, _ = job.part
    dest = job.parts_dir()
    dest.mkdir(parents=True, exist_ok=True)
    done = []
    for entry in json.loads((sections_dir / f"{job.scene.name}.json").read_text()):
        head = entry["name"][:3]
        number = int(head) + 1 if head.isdigit() else 0
        if number == 0 and k != 0:
            continue
        target = dest / f"{number:04d}{Path(entry['video']).suffix}"
        os.replace(sections_dir / entry["video"], target)
        done.append(target.name)
    return {"files": done, "steps": steps}


def join_parts(job: Job, records: list[dict]) -> dict:
    """Concatenate the parts' step videos, in step order, into the final file (stream copy)."""
    started = time.perf_counter()
    steps = records[0]["steps"]
    src = job.parts_dir()
    pieces = sorted(src.glob("[0-9][0-9][0-9][0-9].*"))
    have = {int(p.stem) for p in pieces}
    missing = [i for i in range(1, len(steps) + 1) if i not in have]
    if missing:
        shutil.rmtree(src, ignore_errors=True)
        raise RuntimeError(f"{job.scene.name}: no video for step(s) {missing} of the parts")
    tmp = job.out_dir / f"{TMP_PREFIX}{job.name}-join-{os.getpid()}{Path(job.name).suffix}"
    try:
        spans = dict(zip((int(p.stem) for p in pieces), concat_videos(pieces, tmp)))
        files = [_place(tmp, job.out_dir / job.name)]
    finally:
        tmp.unlink(missing_ok=True)
        shutil.rmtree(src, ignore_errors=True)
    # a part's skipped steps were timed by their nominal length, the video by whole frames
    steps = [dict(s, start=round(spans[i + 1][0], 4), end=round(spans[i + 1][1], 4))
             for i, s in enumerate(steps)]
    if job.captions:
        files += subtitles.write(steps, job.out_dir / job.scene.name, job.out_dir)
    record = {"files": [f.name for f in files], "steps": steps, "key": job.key,
              "seconds": round(sum(r.get("seconds", 0) for r in records)
                               + time.perf_counter() - started, 3), "parts": len(records)}
    cache.write_record(job.out_dir, job.name, record)
    return record


def concat_videos(pieces: list[Path], out: Path) -> list[tuple[float, float]]:
    """Join videos of one encoding end to end by copying packets (no re-encoding); return each
    piece's (start, end) in seconds in the joined video."""
    import av

    spans = []
    with av.open(str(out), "w", format=_container(out)) as dst:
        stream_out = None
        offset = 0
        for piece in pieces:
            with av.open(str(piece)) as src:
                stream = src.streams.video[0]
                if stream_out is None:
                    stream_out = dst.add_stream_from_template(stream)
                last = offset
                for packet in src.demux(stream):
                    if packet.dts is None:
                        continue
                    packet.pts = packet.pts + offset if packet.pts is not None else None
                    packet.dts = packet.dts + offset
                    last = max(last, (packet.pts or packet.dts) + (packet.duration or 0))
                    packet.stream = stream_out
                    dst.mux(packet)
                spans.append((float(offset * stream.time_base), float(last * stream.time_base)))
                offset = last
    return spans


def _container(path: Path) -> str:
    return {".mp4": "mp4", ".mov": "mov", ".webm": "webm"}[path.suffix]


def _png(job: Job, tmp: Path) -> dict:
    from manim import tempconfig

    cfg = _manim_config(job, tmp)
    cfg.update({"save_last_frame": True, "write_to_movie": False, "format": "png"})
    with tempconfig(cfg):
        scene = _scene(job, skip_animations=True)
        scene.render()
        produced = Path(scene.renderer.file_writer.image_file_path)
    _expect(job, produced)
    return {"files": [_place(produced, job.output).name], "steps": _steps_of(scene)}


def still_name(job: Job, k: int, key: str) -> str:
    return f"{job.index + 1:02d}-{job.scene.name}-{k + 1:02d}-{key}.png"


def _stills(job: Job, tmp: Path) -> dict:
    from scenes.stills import run_steps, save_png

    stills = run_steps(job.scene.load(), job.example, lang=job.look.lang, theme=job.look.theme,
                       font=job.look.font, pixel_height=job.look.pixel_height,
                       extra_config=_manim_config(job, tmp))
    folder = job.out_dir / "stills"
    folder.mkdir(parents=True, exist_ok=True)
    old = cache.read_record(job.out_dir, job.name) or {}
    files = []
    for k, still in enumerate(stills):
        name = still_name(job, k, still.key)
        staged = tmp / name
        save_png(still.frame, staged, alpha=job.look.transparent)
        files.append(f"stills/{_place(staged, folder / name).name}")
    for stale in set(old.get("files", [])) - set(files):  # steps that no longer exist
        (job.out_dir / stale).unlink(missing_ok=True)
    steps = [{"key": s.key, "caption": s.caption} for s in stills]
    return {"files": files, "steps": steps}


def _slides(job: Job, tmp: Path) -> dict:
    import json

    from manim import tempconfig
    from manim_slides import Slide

    base = job.scene.load()
    slide_cls = type(base.__name__, (base, Slide), {"skip_reversing": True})
    cfg = _manim_config(job, tmp)
    cfg.update({"format": "mp4", "write_to_movie": True})
    staged = tmp / "slides"
    with tempconfig(cfg):
        scene = _scene(job, slide_cls, output_folder=staged)
        scene.render()
    name = job.scene.name
    final = job.out_dir / "slides-src"
    files_dir = final / "files" / name
    shutil.rmtree(files_dir, ignore_errors=True)
    files_dir.parent.mkdir(parents=True, exist_ok=True)
    os.replace(staged / "files" / name, files_dir)
    deck = json.loads((staged / f"{name}.json").read_text())
    for slide in deck["slides"]:  # point the slide files at their final place
        for field_name in ("file", "rev_file"):
            slide[field_name] = str(files_dir / Path(slide[field_name]).name)
    staged_json = staged / f"{name}.json"
    staged_json.write_text(json.dumps(deck, indent=2))
    _place(staged_json, final / f"{name}.json")
    files = [f"slides-src/{name}.json"] + sorted(
        f"slides-src/files/{name}/{p.name}" for p in files_dir.iterdir())
    return {"files": files, "steps": _steps_of(scene)}


def _expect(job: Job, produced: Path) -> None:
    if not produced.exists():
        raise RuntimeError(f"{job.scene.name}: Manim wrote no file (expected {produced})")


def _place(src: Path, dst: Path) -> Path:
    """Rename ``src`` to ``dst`` (atomic on one file system)."""
    dst.parent.mkdir(parents=True, exist_ok=True)
    os.replace(src, dst)
    return dst


