"""Running one job with Manim (in a worker process), and joining split videos.

Every file is made in a hidden temporary folder beside the outputs and renamed into place only
when complete, then its record is written: an interrupted or failed render leaves no partial file
under a final name.
"""

from __future__ import annotations

import os
import shutil
import sys
import time
from pathlib import Path

from scenes.pipeline import cache, soundtrack, step_notes, subtitles
from scenes.pipeline.files import TMP_PREFIX, atomic_write, place
from scenes.pipeline.jobs import Job


def execute(job: Job) -> dict:
    """Render ``job`` with Manim in this process; return its record (files, seconds, steps).

    The function that makes the output is the one its kind names (:mod:`scenes.pipeline.kinds`).
    """
    started = time.perf_counter()
    job.out_dir.mkdir(parents=True, exist_ok=True)
    tmp = job.tmp_dir()
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    try:
        record = job.spec.maker()(job, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    record.update(key=job.key, seconds=round(time.perf_counter() - started, 3))
    if job.part is None:
        cache.write_record(job.out_dir, job.name, record)
    return record


def _manim_config(job: Job, tmp: Path) -> dict:
    cfg = {
        **job.look.manim_config(),
        "media_dir": str(tmp),
        "disable_caching": True,
        "verbosity": "ERROR",
        "notify_outdated_version": False,
        "progress_bar": "display" if job.show_bars else "none",
        "output_file": job.scene.name,
    }
    return cfg


def _scene(job: Job, cls=None, **kw):
    cls = cls or job.scene.load()
    scene = cls(example=job.example, look=job.look, **kw)
    scene.adds_own_sound = False  # narrated: the voice is mixed after the video (soundtrack)
    scene.step_listeners.append(step_notes.collect)  # each step's record keeps its numbers' roles
    return scene


def _steps_of(scene) -> list[dict]:
    return [
        {k: (round(v, 4) if isinstance(v, float) else v) for k, v in r.items()} for r in scene.steps
    ]


def make_video(job: Job, tmp: Path) -> dict:
    """A scene as a video file (or, for a part, its steps' videos in the parts folder)."""
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
    if job.captions and (job.part or (0, 1))[0] == 0:  # for the lecture page's notes
        others = step_notes.other_captions(job.scene, job.example, job.look)
        step_notes.add_other_captions(steps, others)
    if job.part:
        return _keep_part(job, sections_dir, steps)
    _expect(job, produced)
    if job.look.narrate and job.fmt in soundtrack.SOUND_FORMATS:  # the voice, index first
        produced = soundtrack.add_voice(
            produced, steps, tmp / f"voiced{produced.suffix}", job.look.frame_rate
        )
    elif job.fmt in FASTSTART:
        fast = tmp / f"faststart{produced.suffix}"
        remux(produced, fast)
        produced = fast
    steps = soundtrack.without_clips(steps)
    files = [place(produced, job.out_dir / job.name)]
    if job.captions:
        files += subtitles.write(steps, job.out_dir / job.scene.name)
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


def _rendered_record(records: list[dict], number: int, fallback: dict) -> dict:
    """Step ``number``'s record from the part that rendered its video (its times in whole
    frames), else ``fallback``."""
    for r in records:
        if f"{number:04d}" in {Path(f).stem for f in r.get("files", ())}:
            return r["steps"][number - 1]
    return fallback


def _retimed(step: dict, span: tuple[float, float], fps: float) -> dict:
    """``step`` at the joined video's ``span``: its start and end, and when its caption came
    (``shown``) and each page was said (``speech``), on whole frames at the same offsets from
    its start."""

    def on_frame(t: float) -> float:  # a joined piece's packets may end a few ticks short
        return round(round(t * fps) / fps, 4)  # of a frame (25.66602 s for 385 frames at 15)

    out = dict(step, start=on_frame(span[0]), end=on_frame(span[1]))

    def moved(t) -> float:
        return on_frame(span[0] + float(t) - float(step["start"]))

    if "shown" in step:
        out["shown"] = moved(step["shown"])
    if "speech" in step:
        out["speech"] = [dict(p, at=moved(p["at"])) for p in step["speech"]]
    return out


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
    voiced = tmp.with_name(f"{tmp.stem}-voiced{tmp.suffix}")
    try:
        spans = dict(zip((int(p.stem) for p in pieces), concat_videos(pieces, tmp)))
        # a part's skipped steps were timed by their nominal length, the video by whole
        # frames: each step keeps the times of the part that rendered it, moved to where its
        # video starts
        fps = job.look.frame_rate
        steps = [
            _retimed(_rendered_record(records, i + 1, s), spans[i + 1], fps)
            for i, s in enumerate(steps)
        ]
        made = tmp
        if job.look.narrate and job.fmt in soundtrack.SOUND_FORMATS:
            made = soundtrack.add_voice(tmp, steps, voiced, fps)
        files = [place(made, job.out_dir / job.name)]
    finally:
        tmp.unlink(missing_ok=True)
        voiced.unlink(missing_ok=True)
        shutil.rmtree(src, ignore_errors=True)
    steps = soundtrack.without_clips(steps)
    if job.captions:
        files += subtitles.write(steps, job.out_dir / job.scene.name)
    record = {
        "files": [f.name for f in files],
        "steps": steps,
        "key": job.key,
        "seconds": round(
            sum(r.get("seconds", 0) for r in records) + time.perf_counter() - started, 3
        ),
        "parts": len(records),
    }
    cache.write_record(job.out_dir, job.name, record)
    return record


def concat_videos(pieces: list[Path], out: Path) -> list[tuple[float, float]]:
    """Join videos of one encoding end to end by copying packets (no re-encoding); return each
    piece's (start, end) in seconds in the joined video."""
    import av

    spans = []
    with av.open(str(out), "w", format=_container(out), options=_muxer_options(out)) as dst:
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


FASTSTART = ("mp4", "mov")  # the index (moov) first: a browser plays while it downloads


def _muxer_options(path: Path) -> dict:
    return {"movflags": "+faststart"} if path.suffix[1:] in FASTSTART else {}


def remux(src: Path, dst: Path) -> None:
    """Copy ``src``'s packets into ``dst`` (no re-encoding), with the index at the front for
    MP4 and MOV (Manim writes it at the end)."""
    import av

    with (
        av.open(str(src)) as inp,
        av.open(str(dst), "w", format=_container(dst), options=_muxer_options(dst)) as out,
    ):
        streams = {
            s.index: out.add_stream_from_template(s)
            for s in inp.streams
            if s.type in ("video", "audio")
        }
        for packet in inp.demux(*[inp.streams[i] for i in streams]):
            if packet.dts is None:
                continue
            packet.stream = streams[packet.stream.index]
            out.mux(packet)


def make_png(job: Job, tmp: Path) -> dict:
    """A scene's final frame."""
    from manim import tempconfig

    cfg = _manim_config(job, tmp)
    cfg.update({"save_last_frame": True, "write_to_movie": False, "format": "png"})
    with tempconfig(cfg):
        scene = _scene(job, skip_animations=True)
        scene.render()
        produced = Path(scene.renderer.file_writer.image_file_path)
    _expect(job, produced)
    return {"files": [place(produced, job.output).name], "steps": _steps_of(scene)}


def still_name(job: Job, k: int, key: str) -> str:
    return f"{job.index + 1:02d}-{job.scene.name}-{k + 1:02d}-{key}.png"


def make_stills(job: Job, tmp: Path) -> dict:
    """Every step's final frame, without video."""
    from scenes.pipeline.stills import run_steps, save_png

    stills = run_steps(
        job.scene.load(),
        job.example,
        look=job.look,
        pixel_height=job.look.pixel_height,
        extra_config=_manim_config(job, tmp),
        pages=True,  # a caption in pages: a still for each page, named -page1, -page2 …
    )
    folder = job.out_dir / "stills"
    folder.mkdir(parents=True, exist_ok=True)
    old = cache.read_record(job.out_dir, job.name) or {}
    files = []
    steps = [s for s in stills if s.page is None]
    k = 0
    for still in stills:
        page = f"-page{still.page}" if still.page else ""
        name = still_name(job, k, still.key + page)
        k += still.page is None
        staged = tmp / name
        save_png(still.frame, staged, alpha=job.look.transparent)
        files.append(f"stills/{place(staged, folder / name).name}")
    for stale in set(old.get("files", [])) - set(files):  # steps that no longer exist
        (job.out_dir / stale).unlink(missing_ok=True)
    return {"files": files, "steps": [{"key": s.key, "caption": s.caption} for s in steps]}


def make_slides(job: Job, tmp: Path) -> dict:
    """A scene as manim-slides slides (one per step), for the deck."""
    import json
    import logging

    from manim import tempconfig
    from manim_slides import Slide

    # its own INFO lines come twice (two handlers), wrapped, naming the scratch folder: they are
    # said once below, unwrapped, with the final paths (to stderr, unless --quiet)
    logging.getLogger("manim-slides").setLevel(logging.WARNING)

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
    atomic_write(final / f"{name}.json", json.dumps(deck, indent=2))
    if not job.quiet:
        print(
            f"manim-slides: {len(deck['slides'])} slides of {name} in {files_dir}; "
            f"configuration {final / f'{name}.json'}",
            file=sys.stderr,
            flush=True,
        )
    files = [f"slides-src/{name}.json"] + sorted(
        f"slides-src/files/{name}/{p.name}" for p in files_dir.iterdir()
    )
    # the speaker notes' facts; the deck writes the notes from them (scenes.outputs.slides)
    steps = step_notes.add_other_captions(
        _steps_of(scene), step_notes.other_captions(job.scene, job.example, job.look)
    )
    if len(deck["slides"]) != len(steps):
        raise RuntimeError(f"{name}: {len(deck['slides'])} slides for {len(steps)} steps")
    if job.look.narrate:  # each slide's video says its step (the deck plays it with its sound)
        videos = [Path(slide["file"]) for slide in deck["slides"]]
        soundtrack.voice_slides(videos, steps, job.look.frame_rate)
    return {"files": files, "steps": soundtrack.without_clips(steps)}


def _expect(job: Job, produced: Path) -> None:
    if not produced.exists():
        raise RuntimeError(f"{job.scene.name}: Manim wrote no file (expected {produced})")
