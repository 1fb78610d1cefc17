"""The lecture page: one static, offline HTML file with every scene's video, its captions track,
each step's caption (a click jumps the video there) and the example's numbers.

Every user string (title, tokens, captions built from token labels) is HTML-escaped; the page's
Content-Security-Policy lets only its own inline script run (by hash), so even a label such as
``<script>alert(1)</script>`` that got through could not execute. The videos show each caption
on screen, so their tracks (for screen readers, players and translation) start switched off.
Tracks are embedded as ``data:`` URLs: browsers refuse ``<track>`` files from ``file://`` pages,
and the page must work when opened straight from the disk.

Under each step the page lists its speaker notes (:mod:`scenes.outputs.notes`): the caption in
the other language and the numbers the step shows, from the core. For an example with 2-D
embeddings the page also carries the explorable (:mod:`scenes.outputs.explorer`), its script
allowed by hash like the page's own, and a skip link to it as the first thing Tab reaches; for
any other example the page says, in its place, why there is none.
"""

from __future__ import annotations

import base64
import hashlib
from pathlib import Path

from attention_core import trace_example
from scenes.kit import captions
from scenes.outputs import explorer, html, notes, numbers_report, numbers_zh
from scenes.pipeline.files import atomic_write
from scenes.pipeline.jobs import Job, Request

SEEK_SCRIPT = """
document.querySelectorAll("button.step").forEach(function (b) {
  b.addEventListener("click", function () {
    var v = document.getElementById(b.dataset.video);
    v.currentTime = parseFloat(b.dataset.t);
    v.play();
  });
});
""".strip()

STYLE = """
body { font-family: "Noto Sans CJK SC", "Noto Sans", sans-serif; max-width: 60rem;
       margin: 2rem auto; padding: 0 1rem; line-height: 1.5; color: #111; background: #fff; }
video { width: 100%; background: #000; }
ol.steps { padding-left: 1.2rem; }
button.step { font: inherit; text-align: left; background: none; border: 0; padding: 0.2rem 0;
              cursor: pointer; color: #1f4f8a; }
button.step:hover { text-decoration: underline; }
.time { color: #555; font-variant-numeric: tabular-nums; margin-right: 0.5rem; }
table { border-collapse: collapse; margin: 0.5rem 0 1rem; }
th, td { border: 1px solid #ccc; padding: 0.15rem 0.5rem; }
td { text-align: right; font-variant-numeric: tabular-nums; }
.notes { margin: 0 0 0.4rem 3rem; color: #4A5260; font-size: 0.9rem; }
.notes p { margin: 0; }
.notes .other { font-style: italic; }
.notes .numbers { font-variant-numeric: tabular-nums; }
""".strip()


def page_path(request: Request) -> Path:
    folder = request.look.folder(request.example)
    name = "index.html" if folder == "480p15" else f"index-{folder}.html"
    return request.out_dir.parent / name


def _hash(script: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(script.encode()).digest()).decode() + "'"


def _csp(scripts) -> str:
    """Only the page's own scripts run: each allowed by its hash, nothing else."""
    return (
        "default-src 'none'; media-src * data: blob:; img-src * data:; "
        f"style-src 'unsafe-inline'; script-src {' '.join(_hash(s) for s in scripts)}; "
        "object-src 'none'; base-uri 'none'; form-action 'none'"
    )


PAGE_WORDS = {"notes": ("讲稿", "Notes")}


def _step(trace, step: dict, lang: str) -> dict:
    """A step of a scene's list: its start, caption and notes (the caption in the other
    language, then the numbers it shows)."""
    return {
        "start": step["start"],
        "clock": _clock(step["start"]),
        "caption": step["caption"],
        "other": step.get("caption_other") or "",
        "numbers": [
            line.text() for line in notes.number_lines(trace, step.get("numbers", []), lang)
        ],
    }


def _clock(seconds: float) -> str:
    m, s = divmod(int(seconds), 60)
    return f"{m}:{s:02d}"


def _on_page(request: Request) -> list:
    """The scenes of the page: those asked for, and every other scene of the example whose video
    is already up to date in this look (a ``pack`` of a subset updates the page, never
    replaces a fuller one), in teaching order."""
    from scenes.kit.registry import SCENES
    from scenes.pipeline import cache

    asked = {s.name for s in request.scenes}
    out = []
    for scene in [*SCENES, *(s for s in request.scenes if s not in SCENES)]:
        if scene in out:
            continue
        job = Job(scene, request.example, request.look, request.out_dir, "video", request.fmt)
        captioned = (job.out_dir / f"{scene.name}.vtt").is_file()
        if scene.name in asked or (
            captioned and cache.fresh_record(job.out_dir, job.name, job.key)
        ):
            out.append(scene)
    return out


def _scene_section(request: Request, k: int, scene, trace) -> dict:
    """One scene on the page (templates/lecture_scene.html): its video (captions track, poster)
    and its steps with notes."""
    from scenes.pipeline import cache

    ex, lang = request.example, request.look.lang
    folder = request.look.folder(ex)
    job = Job(scene, ex, request.look, request.out_dir, "video", request.fmt, captions=True)
    record = cache.fresh_record(job.out_dir, job.name, job.key)
    if record is None:
        raise RuntimeError(f"{scene.name}: no up-to-date video to put on the page")
    png = Job(scene, ex, request.look, request.out_dir, "png", "png")
    poster = ""
    if cache.fresh_record(png.out_dir, png.name, png.key):
        poster = f"{folder}/{png.name}"
    if not (job.out_dir / f"{scene.name}.vtt").is_file():
        raise RuntimeError(f"{scene.name}: its captions (.vtt) are missing")
    vtt = (job.out_dir / f"{scene.name}.vtt").read_text(encoding="utf-8")
    track = "data:text/vtt;base64," + base64.b64encode(vtt.encode()).decode()
    steps = notes.complete(record["steps"], scene, ex, request.look)
    return {
        "name": scene.name,
        "number": k + 1,
        "title": captions.title(scene.name, lang),
        "vid": f"v{k}",
        "poster": poster,
        "src": f"{folder}/{job.name}",
        "track": track,
        "steps": [_step(trace, step, lang) for step in steps],
    }


def build(request: Request, digits: int = 3) -> Path:
    """Write the page for ``request``'s videos (already rendered with captions); return it.

    Each video's poster is the scene's final frame (its last step, a png job) when rendered."""
    ex, lang = request.example, request.look.lang
    trace = trace_example(ex)
    sections = [
        _scene_section(request, k, scene, trace) for k, scene in enumerate(_on_page(request))
    ]
    explorable = explorer.why_not(ex) is None
    scripts = [SEEK_SCRIPT, explorer.SCRIPT] if explorable else [SEEK_SCRIPT]
    page = html.render(
        "lecture_page.html",
        lang=lang,
        csp=html.trusted(_csp(scripts)),
        title=ex.title or ex.name,
        style=html.trusted(f"{STYLE}\n{explorer.STYLE}"),
        explorable=explorable,
        tokens_label=captions.word("tokens_label", lang),
        tokens=ex.tokens,
        sections=sections,
        notes_label=PAGE_WORDS["notes"][0 if lang == "zh" else 1],
        other_lang=notes.other_lang(lang),
        words=explorer.words(lang, ex),
        data_json=html.trusted(explorer.data_json(ex, lang)) if explorable else "",
        numbers=numbers_report.html_values(trace, digits, numbers_zh.zh if lang == "zh" else None),
        scripts=[html.trusted(script) for script in scripts],  # exactly the hashed text
    )
    return atomic_write(page_path(request), page)
