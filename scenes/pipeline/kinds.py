"""The table of output kinds: one entry per kind of file the pipeline makes. No Manim here.

Each :class:`Kind` says what its output is called (the record name, also the file name of a
video or png), where the user finds it, which function makes it (a ``module:function`` name,
imported only in the worker that runs it), what scratch a killed worker leaves, whether a video
of this kind can be rendered in parts split at its steps and joined without re-encoding, and
whether it can carry an alpha channel. Adding a kind is one entry here plus its function.

A video kind is chosen with ``--format`` (and a course's ``formats``), as is ``png``; ``stills``
and ``slides`` have their own options.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Kind:
    name: str  # the table's key: a --format value, or "stills" / "slides"
    job: str  # the job kind in content keys: video | png | stills | slides
    file_name: Callable[[str], str]  # scene name → record name (a video's or png's file name)
    output: Callable[[Path, str], Path]  # (output folder, scene name) → what the user opens
    make: str  # "module:function" that makes it in a worker: fn(job, scratch folder) → record
    extra_scratch: Callable[[Path, str], list] = lambda out_dir, scene: []  # noqa: ARG005
    splittable: bool = False  # parts rendered at steps, joined by stream copy
    alpha: bool = False  # can have a transparent background
    is_format: bool = False  # a value of --format / a course's formats

    def maker(self) -> Callable:
        module, _, function = self.make.partition(":")
        return getattr(importlib.import_module(module), function)


def _video(fmt: str, **kw) -> Kind:
    return Kind(
        fmt,
        "video",
        lambda scene: f"{scene}.{fmt}",
        lambda out_dir, scene: out_dir / f"{scene}.{fmt}",
        "scenes.pipeline.execute:make_video",
        is_format=True,
        **kw,
    )


KINDS: dict[str, Kind] = {
    k.name: k
    for k in (
        _video("mp4", splittable=True),
        _video("webm", splittable=True, alpha=True),
        _video("mov", splittable=True, alpha=True),
        _video("gif"),  # Manim converts to gif at the end: parts cannot be joined by copying
        Kind(
            "png",
            "png",
            lambda scene: f"{scene}.png",
            lambda out_dir, scene: out_dir / f"{scene}.png",
            "scenes.pipeline.execute:make_png",
            alpha=True,
            is_format=True,
        ),
        Kind(
            "stills",
            "stills",
            lambda scene: f"stills-{scene}",
            lambda out_dir, scene: out_dir / "stills",  # noqa: ARG005
            "scenes.pipeline.execute:make_stills",
            alpha=True,
        ),
        Kind(
            "slides",
            "slides",
            lambda scene: f"slides-{scene}",
            lambda out_dir, scene: out_dir / "slides-src" / f"{scene}.json",
            "scenes.pipeline.execute:make_slides",
            # the slide videos are moved into place before the deck's JSON is written
            extra_scratch=lambda out_dir, scene: [out_dir / "slides-src" / "files" / scene],
        ),
    )
}
FORMATS = tuple(k.name for k in KINDS.values() if k.is_format)
ALPHA_FORMATS = tuple(k.name for k in KINDS.values() if k.is_format and k.alpha)


def of(job_kind: str, fmt: str) -> Kind:
    """The kind of a job (``video`` jobs are their format's kind)."""
    return KINDS[fmt if job_kind == "video" else job_kind]


def for_format(fmt: str) -> Kind:
    """The kind that ``--format fmt`` asks for (ValueError naming the option if none)."""
    kind = KINDS.get(fmt)
    if kind is None or not kind.is_format:
        raise ValueError(f"--format: {fmt!r} is not one of {', '.join(FORMATS)}")
    return kind
