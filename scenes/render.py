"""Rendering scenes to files: quality and format names, output paths, atomic writes.

The planning half (``plan``) runs without Manim, so the CLI validates everything and knows each
output path before it imports Manim. Files are rendered into a hidden temporary folder beside the
outputs and renamed into place only when complete: an interrupted or failed render leaves no
partial file under a final name.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from attention_core import Example
from scenes.registry import SceneInfo

# Manim's quality flags → (manim quality name, pixel height, frame rate)
QUALITIES = {
    "l": ("low_quality", 480, 15),
    "m": ("medium_quality", 720, 30),
    "h": ("high_quality", 1080, 60),
    "p": ("production_quality", 1440, 60),
    "k": ("fourk_quality", 2160, 60),
}
FORMATS = ("mp4", "webm", "mov", "gif", "png")


@dataclass(frozen=True)
class Job:
    """One scene to render for one example, and where its file goes."""

    scene: SceneInfo
    example: Example
    quality: str
    fmt: str
    out_dir: Path  # renders/<example>/<quality folder>
    lang: str | None = None
    theme: str = "dark"

    @property
    def output(self) -> Path:
        return self.out_dir / f"{self.scene.name}.{self.fmt}"


def quality_folder(quality: str) -> str:
    _, height, fps = QUALITIES[quality]
    return f"{height}p{fps}"


def plan(example: Example, scenes, quality: str, fmt: str, out: Path, lang=None,
         theme="dark") -> list[Job]:
    """The jobs for ``scenes``, validating names and checking that ``out`` can be written."""
    if quality not in QUALITIES:
        raise ValueError(f"-q/--quality: {quality!r} is not one of {', '.join(QUALITIES)}")
    if fmt not in FORMATS:
        raise ValueError(f"--format: {fmt!r} is not one of {', '.join(FORMATS)}")
    folder = Path(out) / example.name / quality_folder(quality)
    check_writable(Path(out))
    return [Job(s, example, quality, fmt, folder, lang, theme) for s in scenes]


def check_writable(out: Path) -> None:
    """ValueError naming --out when the folder cannot be created or written."""
    probe = out
    while not probe.exists():
        probe = probe.parent
    if not probe.is_dir():
        raise ValueError(f"--out: {str(probe)!r} is a file, not a folder")
    if not os.access(probe, os.W_OK | os.X_OK):
        raise ValueError(f"--out: cannot write to {str(probe)!r}; choose another folder with --out")


def render_job(job: Job, *, progress: bool = True) -> Path:
    """Render one job with Manim in this process; return the final path."""
    from manim import tempconfig

    job.out_dir.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{job.scene.name}-", dir=job.out_dir))
    try:
        quality_name, height, fps = QUALITIES[job.quality]
        cfg = {
            "quality": quality_name, "media_dir": str(tmp), "disable_caching": True,
            "verbosity": "WARNING",
            "progress_bar": "display" if progress and sys.stderr.isatty() else "none",
            "output_file": job.scene.name, "frame_rate": fps,
        }
        if job.fmt == "png":
            cfg.update({"save_last_frame": True, "write_to_movie": False, "format": "png"})
        else:
            cfg.update({"format": job.fmt, "write_to_movie": True})
        with tempconfig(cfg):
            scene_cls = job.scene.load()
            scene = scene_cls(example=job.example, lang=job.lang, theme=job.theme,
                              skip_animations=job.fmt == "png")
            scene.render()
            writer = scene.renderer.file_writer
            produced = Path(writer.image_file_path if job.fmt == "png" else
                            writer.gif_file_path if job.fmt == "gif" else
                            writer.movie_file_path)
        if not produced.exists():
            raise RuntimeError(f"{job.scene.name}: Manim wrote no file (expected {produced})")
        os.replace(produced, job.output)  # atomic: same file system
        return job.output
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def say(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)
