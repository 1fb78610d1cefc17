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
from html import escape
from pathlib import Path

from attention_core import trace_example
from scenes.kit import captions
from scenes.outputs import explorer, notes, numbers_report, numbers_zh
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


def _notes_html(trace, step: dict, lang: str) -> str:
    """A step's notes under its caption: the caption in the other language, then its numbers."""
    parts = []
    if step.get("caption_other"):
        other = notes.other_lang(lang)
        parts.append(f'<p class="other" lang="{other}">{escape(step["caption_other"])}</p>')
    parts += [
        f'<p class="numbers">{escape(line.text())}</p>'
        for line in notes.number_lines(trace, step.get("numbers", []), lang)
    ]
    if not parts:
        return ""
    label = escape(PAGE_WORDS["notes"][0 if lang == "zh" else 1])
    return f'<div class="notes" aria-label="{label}">{"".join(parts)}</div>'


def _steps_html(vid: str, trace, steps: list[dict], lang: str) -> str:
    return "\n".join(
        f'<li><button class="step" data-video="{vid}" data-t="{s["start"]:.3f}">'
        f'<span class="time">{_clock(s["start"])}</span>{escape(s["caption"])}</button>'
        f"{_notes_html(trace, s, lang)}</li>"
        for s in steps
    )


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


def _scene_section(request: Request, k: int, scene, trace) -> str:
    """One scene on the page: its video (captions track, poster) and its steps with notes."""
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
        poster = f' poster="{escape(folder)}/{escape(png.name)}"'
    if not (job.out_dir / f"{scene.name}.vtt").is_file():
        raise RuntimeError(f"{scene.name}: its captions (.vtt) are missing")
    vtt = (job.out_dir / f"{scene.name}.vtt").read_text(encoding="utf-8")
    track = "data:text/vtt;base64," + base64.b64encode(vtt.encode()).decode()
    vid = f"v{k}"
    steps = _steps_html(vid, trace, notes.complete(record["steps"], scene, ex, request.look), lang)
    return (
        f'<section class="scene" id="{escape(scene.name)}">\n'
        f"<h2>{k + 1}. {escape(captions.title(scene.name, lang))}</h2>\n"
        f'<video id="{vid}" controls preload="metadata"{poster} '
        f'src="{escape(folder)}/{escape(job.name)}">\n'
        f'<track kind="captions" srclang="{lang}" label="{escape(lang)}" src="{track}"'
        ">\n</video>\n"
        f'<ol class="steps">\n{steps}\n</ol>\n</section>'
    )


def build(request: Request, digits: int = 3) -> Path:
    """Write the page for ``request``'s videos (already rendered with captions); return it.

    Each video's poster is the scene's final frame (its last step, a png job) when rendered."""
    ex, lang = request.example, request.look.lang
    trace = trace_example(ex)
    sections = [
        _scene_section(request, k, scene, trace) for k, scene in enumerate(_on_page(request))
    ]
    title = ex.title or ex.name
    numbers = numbers_report.as_html(trace, digits, numbers_zh.zh if lang == "zh" else None)
    explorable = explorer.why_not(ex) is None
    scripts = [SEEK_SCRIPT, explorer.SCRIPT] if explorable else [SEEK_SCRIPT]
    html = "\n".join(
        [
            "<!doctype html>",
            f'<html lang="{lang}">',
            "<head>",
            '<meta charset="utf-8">',
            f'<meta http-equiv="Content-Security-Policy" content="{_csp(scripts)}">',
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            f"<title>{escape(title)} · Attention Explainer</title>",
            f"<style>\n{STYLE}\n{explorer.STYLE}\n</style>",
            "</head>",
            "<body>",
            explorer.skip_link(lang) if explorable else "",  # the first thing Tab reaches
            f"<h1>{escape(title)}</h1>",
            f'<p class="tokens">{escape(captions.word("tokens_label", lang))}: '
            + " ".join(f"<code>{escape(t)}</code>" for t in ex.tokens)
            + "</p>",
            *sections,
            explorer.section(ex, lang) if explorable else explorer.unavailable(ex, lang),
            numbers,
            *(f"<script>{script}</script>" for script in scripts),  # exactly the hashed text
            "</body>",
            "</html>",
            "",
        ]
    )
    return atomic_write(page_path(request), html)
