"""Slide decks with manim-slides: every step a slide, converted to offline HTML, PDF or PPTX.

Each scene is rendered as a manim-slides ``Slide`` (a ``slides`` job,
:mod:`scenes.pipeline.execute`): ``ExplainerScene.step`` opens a section, which a ``Slide``
turns into a new slide, so the deck pauses at the end of every step. ``manim-slides convert``
then joins the scenes into one deck.

The offline HTML deck embeds reveal.js, which manim-slides downloads from a CDN that is not
reachable here. It first looks in its cache (``platformdirs.user_cache_path("manim-slides") /
"revealjs6.0.1"``), which :func:`fetch_assets` fills from the npm registry (``npm pack``);
``make setup`` runs it. No third-party file is committed.

Every slide carries its step's speaker notes (:mod:`scenes.outputs.notes`), made when the deck
is converted from the facts the ``slides`` job kept in each step's record: the deck is converted
from copies of the scenes' slide JSON with the notes filled in (:func:`sources_with_notes`). As
plain text for PowerPoint's notes pane; for the HTML deck, where manim-slides puts them into
the page unescaped and reveal.js reads them as markdown, escaped for both, so a label such as
``<img onerror=…>`` is shown, never run.

A narrated deck speaks: each slide's video carries its step's speech
(:func:`scenes.pipeline.soundtrack.voice_slides`), and the HTML deck plays every slide's video
with its sound (:func:`with_sound`: manim-slides mutes the first slide's; reveal.js plays a
video the browser will not yet play aloud muted, with a button to turn the sound on). The
speaker notes keep their text.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

from scenes.pipeline.files import atomic_write, place

REVEAL_VERSION = "6.0.1"
# the file manim-slides looks for → its place in the npm package
REVEAL_FILES = {
    "reveal.css": "package/dist/reveal.css",
    "reveal.js": "package/dist/reveal.js",
    "black.css": "package/dist/theme/black.css",
    "zenburn.css": "package/dist/plugin/highlight/zenburn.css",
    "notes.js": "package/dist/plugin/notes.js",
    "markdown.js": "package/dist/plugin/markdown.js",  # the speaker notes are markdown
}
SLIDE_FORMATS = ("html", "pdf", "pptx")


def assets_dir() -> Path:
    import platformdirs

    return Path(platformdirs.user_cache_path("manim-slides")) / f"revealjs{REVEAL_VERSION}"


def missing_assets() -> list[str]:
    d = assets_dir()
    return [name for name in REVEAL_FILES if not (d / name).is_file()]


def fetch_assets(quiet: bool = False) -> Path:
    """Fill the reveal.js cache from the npm registry (``npm pack reveal.js@6.0.1``)."""
    d = assets_dir()
    if not missing_assets():
        return d
    npm = shutil.which("npm")
    if npm is None:
        raise RuntimeError("npm is not installed: `apt-get install npm`, then run `make setup`")
    with tempfile.TemporaryDirectory() as work:
        done = subprocess.run(
            [npm, "pack", f"reveal.js@{REVEAL_VERSION}", "--silent"],
            cwd=work,
            capture_output=True,
            text=True,
            timeout=300,
        )
        if done.returncode != 0:
            raise RuntimeError(
                f"npm pack reveal.js@{REVEAL_VERSION} failed: "
                f"{(done.stderr or done.stdout).strip()[:300]}"
            )
        tarball = next(Path(work).glob("reveal.js-*.tgz"))
        d.mkdir(parents=True, exist_ok=True)
        with tarfile.open(tarball) as tar:
            for name, member in REVEAL_FILES.items():
                source = tar.extractfile(member)
                if source is None:
                    raise RuntimeError(f"{member} is missing from {tarball.name}")
                atomic_write(d / name, source.read())
    if not quiet:
        print(f"slides: reveal.js {REVEAL_VERSION} assets in {d}", file=sys.stderr)
    return d


def deck_path(example_dir: Path, example_name: str, look_folder: str, fmt: str) -> Path:
    return Path(example_dir) / "slides" / f"{example_name}-{look_folder}.{fmt}"


def sources_with_notes(scene_names, slides_src: Path, folder: Path, example, fmt: str) -> Path:
    """Copies of the scenes' slide JSON in ``folder``, each slide with its step's notes (escaped
    for markdown and HTML in an HTML deck) and its files' absolute paths. Returns ``folder``."""
    from html import escape

    from attention_core import trace_example
    from scenes.outputs import notes
    from scenes.pipeline import cache

    slides_src, trace = Path(slides_src), trace_example(example[0])
    folder.mkdir(parents=True, exist_ok=True)
    for name in scene_names:
        deck = json.loads((slides_src / f"{name}.json").read_text(encoding="utf-8"))
        record = cache.read_record(slides_src.parent, f"slides-{name}") or {}
        steps = record.get("steps", [])
        if len(steps) != len(deck["slides"]):
            raise RuntimeError(f"{name}: its slides have no record of their steps; render again")
        for slide, step in zip(deck["slides"], steps):
            for field_name in ("file", "rev_file"):  # manim-slides reads them from ../
                slide[field_name] = str((slides_src.parent / slide[field_name]).resolve())
            note = notes.step_note(trace, step, example[1])
            slide["notes"] = escape(notes.as_markdown(note), quote=False) if fmt == "html" else note
        atomic_write(folder / f"{name}.json", json.dumps(deck, indent=2))
    return folder


def with_sound(html: Path) -> None:
    """The HTML deck ``html`` with no slide's video muted (manim-slides mutes the first)."""
    text = Path(html).read_text(encoding="utf-8")
    atomic_write(Path(html), re.sub(r"\s+data-background-video-muted\b", "", text))


def convert_deck(arg: tuple) -> dict:
    """Convert the scenes' slides into one deck (runs in a worker: it may take a while)."""
    scene_names, slides_src, dest, fmt, example = arg  # (Example, lecture language, narrated)
    dest = Path(dest)
    dest.parent.mkdir(parents=True, exist_ok=True)
    staged = dest.parent / f".tmp-{dest.stem}-{os.getpid()}{dest.suffix}"
    sources = dest.parent / f".tmp-{dest.stem}-{os.getpid()}-src"
    slides_src = sources_with_notes(scene_names, Path(slides_src), sources, example, fmt)
    cmd = [
        sys.executable,
        "-m",
        "manim_slides",
        "convert",
        *scene_names,
        str(staged),
        "--folder",
        str(slides_src),
        "--to",
        fmt,
        "-v",
        "error",
    ]
    if fmt == "html":
        cmd += ["--one-file", "--offline"]
    try:
        from scenes.pipeline.workers import die_with_parent

        done = subprocess.run(cmd, capture_output=True, text=True, preexec_fn=die_with_parent)
        if done.returncode != 0 or not staged.exists():
            tail = (done.stderr or done.stdout).strip().splitlines()
            raise RuntimeError(
                f"manim-slides convert to {fmt} failed: {tail[-1] if tail else 'no output'}"
            )
        if fmt == "html" and example[2:3] == (True,):
            with_sound(staged)
        place(staged, dest)
    finally:
        staged.unlink(missing_ok=True)
        shutil.rmtree(sources, ignore_errors=True)
        if fmt == "html":  # --offline may leave an assets folder beside a missing file
            shutil.rmtree(staged.parent / f"{staged.stem}_assets", ignore_errors=True)
    return {"files": [dest.name]}
