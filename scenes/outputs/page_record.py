"""The lecture page's content key: a ``pack`` with nothing to render and nothing changed does
not write the page again.

A page is made from the example, the look, ``--digits``, this code (the content key's code
digest), and the records of the videos and posters it can show — every scene's, on the page or
not, and whether its ``.vtt`` is there: a superset of its inputs, so any change is seen. Its
record (``<example>/.keys/index….html.json``, like every output's) is written after the page;
the page is reused while its key matches and its file is as recorded. No Manim import here.
"""

from __future__ import annotations

from pathlib import Path

from scenes.kit.registry import SCENES
from scenes.pipeline import cache
from scenes.pipeline.jobs import Job, Request


def _inputs(request: Request) -> list:
    ex, look, out_dir = request.example, request.look, request.out_dir
    found = []
    for scene in [*SCENES, *(s for s in request.scenes if s not in SCENES)]:
        vtt = out_dir / f"{scene.name}.vtt"
        try:
            st = vtt.stat()
            found.append([scene.name, "vtt", st.st_size, st.st_mtime_ns])
        except OSError:
            found.append([scene.name, "vtt", None])
        for kind, fmt in (("video", request.fmt), ("png", "png")):
            rec = cache.read_record(out_dir, Job(scene, ex, look, out_dir, kind, fmt).name) or {}
            found.append([scene.name, kind, rec.get("key"), rec.get("digests"), rec.get("steps")])
    return found


def page_key(request: Request, digits: int) -> str:
    """The content key of ``request``'s lecture page."""
    return cache.content_key(
        kind="lecture-page",
        example=request.example.to_dict(),
        look=request.look.as_dict(),
        fmt=request.fmt,
        digits=digits,
        scenes=[s.name for s in request.scenes],
        inputs=_inputs(request),
    )


def fresh(page: Path, key: str) -> bool:
    """Whether ``page`` was written with ``key`` and is as its record says."""
    return cache.fresh_record(page.parent, page.name, key) is not None


def keep(page: Path, key: str) -> None:
    """Record ``page`` (written) under ``key``."""
    cache.write_record(page.parent, page.name, {"key": key, "files": [page.name]})
