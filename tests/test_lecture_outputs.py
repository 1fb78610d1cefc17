"""What lands in a lecture, read back: captions (.srt/.vtt) timed within the video in both
languages, a video split across processes equal to the whole, the slide deck as HTML/PDF/PPTX
with one slide per step, the lecture page in a real browser (hostile labels shown as text, no
script run), transparent video, and the notebook helper."""

import html.parser
import json
import re
import tomllib

import av
import numpy as np
import pytest
import srt
from test_checked_outputs import top_level_boxes

from browser import MEDIA_STATE, chromium_page

CJK = re.compile(r"[\u4e00-\u9fff]")


def video_frames(path):
    with av.open(str(path)) as c:
        return [f.to_ndarray(format="rgb24") for f in c.decode(c.streams.video[0])]


def video_seconds(path) -> float:
    with av.open(str(path)) as c:
        return float(c.duration) / av.time_base


def steps_of(folder, name):
    return json.loads((folder / ".keys" / f"{name}.json").read_text(encoding="utf-8"))["steps"]


@pytest.mark.slow
def test_captions_in_both_languages_timed_within_the_video(cli, tmp_path):
    for lang in ("zh", "en"):
        r = cli("render", "--scene", "Embeddings", "--captions", "--lang", lang, "--out", tmp_path)
        assert r.returncode == 0, r.stderr
    zh = tmp_path / "zao-shang-hao" / "480p15"
    en = tmp_path / "zao-shang-hao" / "480p15-en"  # never overwrites the Chinese one
    for folder, lang in ((zh, "zh"), (en, "en")):
        video = folder / "Embeddings.mp4"
        cues = list(srt.parse((folder / "Embeddings.srt").read_text(encoding="utf-8")))
        steps = steps_of(folder, "Embeddings.mp4")
        assert [c.content for c in cues] == [s["caption"] for s in steps] and len(cues) == 3
        # each cue from when its caption comes, after its step's picture (issue 38)
        for cue, step in zip(cues, steps):
            assert cue.start.total_seconds() == pytest.approx(step["shown"], abs=1e-3)
            assert step["shown"] >= step["start"] + 0.5 - 1e-6
        for a, b in zip(cues, cues[1:]):
            assert a.end <= b.start
        assert cues[-1].end.total_seconds() <= video_seconds(video) + 0.07
        text = " ".join(c.content for c in cues)
        if lang == "en":  # no Chinese but the example's own labels 早 上 好
            assert not CJK.search(re.sub("[早上好]", "", text))
        else:
            assert CJK.search(re.sub("[早上好]", "", text))
        vtt = (folder / "Embeddings.vtt").read_text(encoding="utf-8")
        assert vtt.startswith("WEBVTT\n") and vtt.count(" --> ") == 3


@pytest.mark.slow
def test_a_video_split_across_processes_equals_the_whole(cli, tmp_path):
    whole = cli("render", "--scene", "Overview", "--captions", "-j", "1", "--out", tmp_path / "a")
    split = cli("render", "--scene", "Overview", "--captions", "-j", "2", "--out", tmp_path / "b")
    assert whole.returncode == 0 and split.returncode == 0, split.stderr
    assert "(2 parts)" in split.stderr
    a, b = (tmp_path / x / "zao-shang-hao" / "480p15" for x in "ab")
    fa, fb = video_frames(a / "Overview.mp4"), video_frames(b / "Overview.mp4")
    assert len(fa) == len(fb) > 100
    assert max(int(np.abs(x.astype(int) - y.astype(int)).max()) for x, y in zip(fa, fb)) <= 2
    assert (a / "Overview.srt").read_text() == (b / "Overview.srt").read_text()
    assert not [p for p in b.iterdir() if p.name.startswith(".tmp-")]
    for mp4 in (a / "Overview.mp4", b / "Overview.mp4"):  # both web-ready: the index first
        boxes = top_level_boxes(mp4)
        assert boxes.index("moov") < boxes.index("mdat"), (mp4, boxes)


class _Sections(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.sections, self.remote = 0, []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.sections += tag == "section"
        for key in ("src", "href"):
            if (attrs.get(key) or "").startswith(("http://", "https://")):
                self.remote.append(attrs[key])


@pytest.mark.slow
def test_slide_deck_html_pdf_pptx_one_slide_per_step(cli, tmp_path):
    from pptx import Presentation
    from pypdf import PdfReader

    r = cli(
        "render",
        "--slides",
        "--slides-format",
        "html,pdf,pptx",
        "--scene",
        "Embeddings",
        "--scene",
        "Softmax",
        "--out",
        tmp_path,
        timeout=900,
    )
    assert r.returncode == 0, r.stderr
    folder = tmp_path / "zao-shang-hao" / "480p15"
    steps = len(steps_of(folder, "slides-Embeddings")) + len(steps_of(folder, "slides-Softmax"))
    assert steps == 8
    deck = tmp_path / "zao-shang-hao" / "slides" / "zao-shang-hao-480p15"
    page = _Sections()
    page.feed(deck.with_suffix(".html").read_text(encoding="utf-8"))
    assert page.sections == steps and page.remote == []  # offline: nothing from the network
    assert len(PdfReader(deck.with_suffix(".pdf")).pages) == steps
    assert len(Presentation(str(deck.with_suffix(".pptx"))).slides) == steps
    check_speaker_notes(deck, folder, ["Embeddings", "Softmax"])
    again = cli(
        "render",
        "--slides",
        "--slides-format",
        "html,pdf,pptx",
        "--scene",
        "Embeddings",
        "--scene",
        "Softmax",
        "--out",
        tmp_path,
    )
    assert again.returncode == 0 and "0 rendered" in again.stderr


def pptx_notes(path) -> list[str]:
    from pptx import Presentation

    return [s.notes_slide.notes_text_frame.text for s in Presentation(str(path)).slides]


def html_deck_notes(path) -> tuple[list[str], str]:
    """The speaker notes of each slide as reveal.js shows them (its markdown plugin run), and
    what the deck's own markdown makes of a hostile note."""
    from scenes.outputs.notes import as_markdown

    with chromium_page() as page:
        page.goto(path.as_uri())
        page.wait_for_function("window.Reveal && Reveal.isReady()")
        notes = page.evaluate(
            "Reveal.getSlides().map(s => [...s.querySelectorAll('aside.notes p')]"
            ".map(p => p.textContent).join('\\n'))"
        )
        hostile = as_markdown("<img src=x onerror=alert(1)> *x* [a](b) `c`\n# h &amp;")
        parsed = page.evaluate(
            "t => { const d = document.createElement('div');"
            " d.innerHTML = Reveal.getPlugin('markdown').marked.parse(t);"
            " return [d.textContent, d.querySelectorAll('*:not(p)').length]; }",
            hostile,
        )
        assert page.dialogs == [] and page.console_errors == []
    return notes, parsed


def check_speaker_notes(deck, folder, scenes):
    """Every slide of the HTML and PPTX decks has its notes: the caption in Chinese, then in
    English, then the step's numbers, each the core's value rounded."""
    import attention_core as ac
    from attention_core.example.loading import load_example
    from scenes.kit.roles import resolve
    from scenes.mobjects.numfmt import fmt

    trace = ac.trace_example(load_example("zao-shang-hao"))
    steps = [s for name in scenes for s in steps_of(folder, f"slides-{name}")]
    pptx = pptx_notes(deck.with_suffix(".pptx"))
    html, (hostile_text, hostile_tags) = html_deck_notes(deck.with_suffix(".html"))
    assert len(pptx) == len(html) == len(steps)
    assert html == pptx  # reveal.js shows exactly the PowerPoint notes
    assert hostile_text.replace("\n", "") == "<img src=x onerror=alert(1)> *x* [a](b) `c`# h &amp;"
    assert hostile_tags == 0  # no element but paragraphs: a label is never markup
    for note, step in zip(pptx, steps):
        lines = note.split("\n")
        assert lines[0] == step["caption"] and CJK.search(lines[0])
        assert lines[1] and not CJK.search(re.sub("[早上好]", "", lines[1]))  # English
        for n in step["numbers"]:  # each number on the slide, as the core computes it
            d = n["digits"] and max(n["digits"], 3)
            assert fmt(resolve(trace, tuple(n["role"])), d) in note, (n, note)
    # the weights of 早 where Softmax shows them, straight from the core
    row = ac.softmax(trace.heads[0].scaled[0])
    share = next(note for note, s in zip(pptx, steps) if s["key"] == "share")
    assert ", ".join(fmt(w) for w in row) in share  # 0.359, 0.330, 0.312


HOSTILE = {
    "title": "<script>alert(1)</script>",
    "tokens": ["<script>", "alert(1)", "</script>", "<b>x</b>", "&amp;"],
    "embeddings": [[1.0, 0.1], [0.2, 0.9], [0.5, 0.5], [-0.3, 0.8], [0.7, -0.2]],
}


@pytest.mark.slow
def test_lecture_page_works_offline_in_a_browser_and_runs_no_injected_script(
    cli, tmp_path, write_example
):
    path = write_example(HOSTILE, name="hostile.json")
    r = cli(
        "pack", path, "--scene", "Embeddings", "--scene", "Softmax", "--out", tmp_path, timeout=900
    )
    assert r.returncode == 0, r.stderr
    page = tmp_path / "hostile" / "index.html"
    assert r.stdout.strip().splitlines()[-1] == str(page)
    source = page.read_text(encoding="utf-8")
    assert "<script>alert" not in source and "&lt;script&gt;alert(1)&lt;/script&gt;" in source
    # the page's own scripts (the steps' seek, the explorable), allowed by their hashes only
    assert source.count("<script>") == 2 and "sha256-" in source
    with chromium_page() as browser:
        browser.goto(page.as_uri())
        state = browser.evaluate(MEDIA_STATE)
        assert state["videos"] == 2 and all(state["meta"]) and all(state["tracks"])
        assert all(n >= 3 for n in state["cues"])
        assert browser.console_errors == [] and browser.dialogs == []
        assert browser.inner_text("h1") == HOSTILE["title"]
        tokens = browser.inner_text("p.tokens")
        assert all(t in tokens for t in HOSTILE["tokens"])
        cells = browser.locator("section.numbers th").all_inner_texts()
        assert "<b>x</b>" in cells and "&amp;" in cells
        # the explorable draws the labels as text and copies them into TOML as themselves
        drawn = browser.locator("#ex-plane text.vlabel").all_text_contents()
        assert all(t in drawn for t in HOSTILE["tokens"])
        found = tomllib.loads(browser.evaluate("window.attnExplorer.toml()"))
        assert found["tokens"] == HOSTILE["tokens"] and found["title"] == HOSTILE["title"]
        assert browser.locator("li .notes").count() >= 3  # every step's notes, as text
        browser.locator("button.step").nth(1).click()  # jumps the first video to step 2
        t = browser.evaluate("document.getElementById('v0').currentTime")
        steps = steps_of(tmp_path / "hostile" / "480p15", "Embeddings.mp4")
        assert abs(t - steps[1]["start"]) < 0.5
        assert browser.dialogs == []


@pytest.mark.slow
def test_transparent_webm_has_an_alpha_channel(cli, tmp_path):
    r = cli(
        "render", "--transparent", "--format", "webm", "--scene", "Embeddings", "--out", tmp_path
    )
    assert r.returncode == 0, r.stderr
    video = tmp_path / "zao-shang-hao" / "480p15-alpha" / "Embeddings.webm"
    with av.open(str(video)) as c:
        stream = c.streams.video[0]
        assert stream.codec_context.name == "vp9"
        decoder = av.CodecContext.create("libvpx-vp9", "r")  # FFmpeg's own vp9 drops alpha
        frame = next(f for p in c.demux(stream) for f in decoder.decode(p))
    assert frame.format.name == "yuva420p"
    rgba = frame.to_ndarray(format="rgba")
    assert rgba[2, 2, 3] == 0  # the background is see-through


@pytest.mark.slow
def test_notebook_helper_renders_and_returns_the_file(tmp_path):
    from scenes.outputs.notebook import show

    result = show("Embeddings", fmt="png", out=str(tmp_path), jobs=1)
    path = getattr(result, "filename", result)  # IPython's Image, or the path outside Jupyter
    assert str(path).endswith("zao-shang-hao/480p15/Embeddings.png")


# the names the scenes pass to roles (the core's words for what a number is), by index name
ROLE_NAMES = {
    "name": ["X", "attention", "residual1", "norm1", "ff_relu", "ff_out", "residual2", "output",
             "illustrative", "ffn"],
    "which": ["without", "with", "W_q", "W_k", "S"],
    "field": ["frequency", "degrees", "angle_m", "angle_n", "score", "term", "score_shifted",
              "fastest", "slowest", "before", "seen", "rank"],
}  # fmt: skip
MATH_WORDS = {"rot", "ReLU", "GELU", "cos"}  # function names, as the scenes' formulas write them


def test_chinese_notes_say_every_number_in_chinese():
    """Issue 31: a Chinese note named some numbers by the code's English names ('rotary[score]',
    'q(好) 的 attention', '打乱顺序后的变化（without）'); every label of every role, with each
    name the scenes pass, is Chinese or math — and the zh captions never name a scene by its
    class name ('见 RotaryPositions')."""
    import attention_core as ac
    from attention_core.example.loading import load_example
    from scenes.kit import captions
    from scenes.kit.registry import SCENES
    from scenes.kit.roles import ROLES, indices_of
    from scenes.outputs import notes

    trace = ac.trace_example(load_example("rotary"))
    for kind in ROLES:
        names = indices_of(kind)
        choices = [ROLE_NAMES.get(n, [0]) for n in names]
        for value in {c for options in choices for c in options} or {None}:
            args = tuple(value if value in options else options[0] for options in choices)
            table = notes.ROWS if kind in notes.ROWS and args else notes.SINGLES
            label = notes._label(
                kind, args[:-1] if table is notes.ROWS else args, "zh", trace, table
            )
            english = set(re.findall(r"[A-Za-z]{3,}", label)) - MATH_WORDS
            assert not english, (kind, args, label)
    for scene in SCENES:
        for key, (zh, _en) in captions.CAPTIONS.get(scene.name, {}).items():
            assert not [s.name for s in SCENES if s.name in zh], (scene.name, key, zh)
    # and no English gloss in a Chinese caption ('词向量（embedding）', '查询（Query）', 'one-hot'):
    # only math, the names NumPy and RoPE, and a command to type
    for zh in zh_strings([captions.TITLES, captions.CAPTIONS, captions.WORDS]):
        text = re.sub(r"\$[^$]*\$|\{\w+\}|\w*_\w*|from-model --all-heads", "", zh)
        english = set(re.findall(r"[A-Za-z]{3,}", text)) - {
            "softmax",
            "Softmax",
            "NumPy",
            "RoPE",
            "SEP",
            "CLS",
            "GELU",
            "exp",
            "cos",
        }  # and token names (exp: the function, as in exp(−∞) = 0)
        assert not english, zh


def zh_strings(obj):
    """The Chinese half of every (zh, en) pair in nested tables."""
    if isinstance(obj, tuple) and len(obj) == 2 and all(isinstance(x, str) for x in obj):
        yield obj[0]
    elif isinstance(obj, dict | list | tuple):
        for value in obj.values() if isinstance(obj, dict) else obj:
            yield from zh_strings(value)


def test_the_numbers_table_of_a_chinese_page_is_in_chinese():
    """Issue 31: the Chinese page's numbers table was English ('Attention walk-through', 'mask:
    causal', 'weights = softmax(masked) — each row sums to 1'); every header line and title of
    every preset is Chinese but for the example's own name and labels and the math."""
    import html as html_lib

    import attention_core as ac
    from attention_core.example.loading import load_example
    from attention_core.example.presets import PRESETS
    from scenes.outputs import numbers_report, numbers_zh

    for name in PRESETS:
        ex = load_example(name)
        page = numbers_report.as_html(ac.trace_example(ex), 3, numbers_zh.zh)
        said = re.findall(r"<h[23]>(.*?)</h[23]>|<li>(.*?)</li>", page)
        assert len(said) >= 8
        for line in (html_lib.unescape(a or b) for a, b in said):
            for own in (ex.name, ex.title, *ex.tokens, *(ex.source_tokens or ())):
                line = line.replace(own, "")
            line = re.sub(r"\w*_\w*", "", line)  # the math's names: d_model, W_q, b_k …
            english = set(re.findall(r"[A-Za-z]{3,}", line)) - {"softmax", "rot", "json"}
            assert not english, (name, line)
