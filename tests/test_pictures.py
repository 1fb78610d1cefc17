"""What a student sees, measured: every scene in every look (contrast of every text against what is
behind it, layout, captions in plain Unicode that can be read in time), one colour for one weight
in every scene, and the weights of the attention matrix read back by OCR in both themes. The
lecturer's examples are in test_lecturer_examples.py."""

from __future__ import annotations

import numpy as np
import pytest

import attention_core as ac
from ocr import TESSERACT, misread_matrix
from scene_checks import (
    contrast_problems,
    describe,
    on_screen,
    picture_problems,
    tip_labels_on_screen,
)
from scenes.kit import captions
from scenes.kit.base import PICTURE_FIRST
from scenes.kit.look import Look
from scenes.kit.registry import SCENES, find
from scenes.mobjects.matrix import LabelledMatrix
from scenes.mobjects.text import CLOSERS
from scenes.mobjects.theme import contrast, diverging, heat
from scenes.pipeline.stills import run_steps


def _contrast_problems(scene_info, example, look) -> list[str]:
    stills = run_steps(
        scene_info.load(), example, look=look, pixel_height=540, snapshot=contrast_problems
    )
    return [f"{scene_info.name}/{st.key}: {p}" for st in stills for p in st.snapshot]


# Every look (language × theme × aspect) on every scene, the looks taken in turn over the presets'
# scenes: each preset meets every look, each scene eight of the twelve. One run of a scene at
# 540p is checked for everything a still can show wrong (scene_checks.picture_problems) and for
# its captions.
LOOKS = [
    (lang, theme, aspect)
    for lang in ("zh", "en")
    for theme in ("dark", "light")
    for aspect in ("16:9", "4:3", "1:1")
]


def _look_cases() -> list:
    out = []
    for p, preset in enumerate(ac.PRESETS):
        for k, scene in enumerate(SCENES):
            if scene.why_not(ac.PRESETS[preset]) is None:
                look = LOOKS[(p * len(SCENES) + k) % len(LOOKS)]
                out.append(
                    pytest.param(
                        preset, scene, *look, id=f"{preset}-{scene.name}-" + "-".join(look)
                    )
                )
    return out


def _caption_problems(example, lang, text: str, seconds: float) -> list[str]:
    """Markup left in a caption ("_", "^": math is in Unicode forms), a caption shown for less
    than its reading time (15 characters a second in English, 7 in Chinese, never under 2 s),
    and in English any Chinese but the example's own labels."""
    labels = "".join(example.tokens) + "".join(example.key_tokens) + example.title
    problems = []
    if any(c in text for c in "_^" if c not in labels):
        problems.append(f"markup in caption {text!r}")
    need = captions.reading_time(text, lang)
    if seconds < need - 1e-6:
        problems.append(f"{seconds:.2f} s < {need:.2f} s to read {text!r}")
    if lang == "en" and any("\u4e00" <= c <= "\u9fff" and c not in labels for c in text):
        problems.append(f"Chinese in an English caption: {text!r}")
    return problems


def _break_problems(text: str, lines: list[str]) -> list[str]:
    """Chinese lines that break inside a word: every break must fall where jieba (a maintained
    segmenter, with this subject's words added) ends a word of the whole caption, or after a
    space or a punctuation mark."""
    from scenes.mobjects.text import _segmenter

    ends, k = set(), 0
    for word in _segmenter().lcut(text):
        k += len(word)
        ends.add(k)
    problems, pos = [], 0
    for line, following in zip(lines, lines[1:]):
        pos = text.find(line, pos) + len(line)
        ok = pos in ends or text[pos - 1] in CLOSERS or text[pos : pos + 1].isspace()
        if not ok:
            problems.append(f"line breaks inside a word: {line[-3:]!r} / {following[:3]!r}")
    return problems


def _chinese_left(scene, labels: str) -> list[str]:
    words = " ".join(getattr(m, "source_text", "") for m in on_screen(scene))
    left = [c for c in words if "\u4e00" <= c <= "\u9fff" and c not in labels]
    return [f"Chinese on an English screen: {''.join(left)!r}"] if left else []


LABEL_STAYS = 0.05  # WeightedSum: a value's label moves no more than this from step to step


def _value_label_places(scene) -> dict[str, np.ndarray]:
    """WeightedSum's value labels on screen, v(token) → where its text is."""
    if scene.scene_name != "WeightedSum":
        return {}
    return {
        describe(m): m.get_center()[:2]
        for m in tip_labels_on_screen(scene)
        if describe(m).startswith("v(")
    }


def _moved_labels(stills) -> list[str]:
    """A value's label on two steps in a row, in two places (issue 38: in Chinese v(早) and
    v(上) moved as the chain formed): a label stays put on its arrow."""
    out = []
    for before, after in zip(stills, stills[1:]):
        was, now = before.snapshot[2], after.snapshot[2]
        for name in was.keys() & now.keys():
            if np.linalg.norm(was[name] - now[name]) > LABEL_STAYS:
                out.append(f"{name} moved from {before.key} to {after.key}")
    return out


@pytest.mark.slow
@pytest.mark.parametrize("preset,scene,lang,theme,aspect", _look_cases())
def test_every_scene_in_every_look(preset, scene, lang, theme, aspect):
    """At the end of every step: no text outside the frame, overlapping another or too small,
    every number the core's, no label on an arrow, every text in contrast with what is behind
    it, every weight and score cell on its one fixed scale (:func:`colour_problems`; the
    heatmap drawn at all in Overview); every caption plain Unicode, coming after its
    step's picture (at least ``PICTURE_FIRST`` after the step starts), held long enough to read
    from then, and in English free of Chinese (but the example's own labels); WeightedSum's
    value labels stay put from step to step."""
    ex = ac.PRESETS[preset]
    labels = "".join(ex.tokens) + "".join(ex.key_tokens) + ex.title

    def snapshot(s):
        found = picture_problems(s) + (_chinese_left(s, labels) if lang == "en" else [])
        lines = [getattr(m, "source_text", "") for m in s.caption_mob]
        found += _break_problems(s.steps[-1]["caption"], lines)
        found += colour_problems(s)
        weights = any(c[0] == "weights" for c in _cell_colours(s))
        return found, dict(s.steps[-1]), _value_label_places(s), weights

    look = Look.for_example(ex, lang=lang, theme=theme, aspect=aspect)
    stills = run_steps(scene.load(), ex, look=look, pixel_height=540, snapshot=snapshot)
    assert stills, "the scene has no steps"
    problems = []
    if scene.name == "Overview":  # the one 0–1 scale of every weight, drawn at all
        assert any(st.snapshot[3] for st in stills), "no weight heatmap drawn at all"
    for st in stills:
        found, rec, *_ = st.snapshot
        found += _caption_problems(ex, lang, st.caption, rec["end"] - rec["shown"])
        if rec["shown"] - rec["start"] < PICTURE_FIRST - 1e-6:  # the caption after its picture
            found.append(f"caption {rec['shown'] - rec['start']:.2f} s after the step's start")
        problems += [f"{st.key}: {p}" for p in found]
    problems += _moved_labels(stills)
    assert not problems, "\n".join(problems[:20])


def test_the_contrast_measure_can_fail(monkeypatch):
    """Text coloured like its background measures about 1:1: with muted text as dark as the
    background, the rendered AttentionMatrix fails on its muted labels."""
    from dataclasses import replace

    from scenes.mobjects import theme

    assert contrast("#FFD166", "#FFD166") == pytest.approx(1.0)
    assert contrast("#FFFFFF", "#F2A541") < 4.5  # the old white-on-orange cells
    monkeypatch.setitem(theme.THEMES, "dark", replace(theme.DARK, muted=theme.DARK.background))
    ex = ac.PRESETS["zao-shang-hao"]
    problems = _contrast_problems(find("AttentionMatrix"), ex, Look.for_example(ex))
    assert any("注意力权重" in p for p in problems), problems  # the muted matrix title


def _matrices(scene):
    seen = []
    for top in scene.mobjects:
        for mob in top.get_family():
            if isinstance(mob, LabelledMatrix) and mob not in seen:
                seen.append(mob)
    return seen


def _cell_colours(scene):
    """(scale, value, limit, fill hex) of every coloured cell on screen: its background's fill,
    or on a grid of squares (its background the panel's) its square's."""
    out = []
    for m in _matrices(scene):
        if not m.scale:
            continue
        for rect in m.backgrounds:
            i, j = rect.cell_index
            v = float(m.values[i, j])
            if np.isfinite(v):
                shape = m.squares.get((i, j), rect)
                out.append((m.scale, v, m.limit, shape.get_fill_color().to_hex().upper()))
    return out


def colour_problems(scene) -> list[str]:
    """Every weight cell on screen coloured by the one fixed 0–1 scale (and every score cell by
    the diverging scale), never stretched to the matrix's own range: one colour for one weight
    in every scene. Checked on every run of test_every_scene_in_every_look (each preset's every
    scene, at one look: the colours do not depend on the look) and, for the scenes that do not
    apply, in test_scene_layout.py's test_presets_lay_out_cleanly."""
    wrong = []
    for scale, v, limit, fill in _cell_colours(scene):
        want = (heat(v) if scale == "weights" else diverging(v, limit)).to_hex().upper()
        if fill != want:
            wrong.append(f"{scale} {v:.3f} drawn {fill}, scale says {want}")
    return wrong


def test_near_uniform_weights_look_near_uniform():
    """早上好's weights span 0.297–0.367: on the fixed scale their colours are close."""
    w = ac.trace_example(ac.PRESETS["zao-shang-hao"]).attention.weights
    lo, hi = heat(float(w.min())).to_rgb(), heat(float(w.max())).to_rgb()
    assert max(abs(a - b) for a, b in zip(lo, hi)) < 0.2
    assert max(abs(a - b) for a, b in zip(heat(0.0).to_rgb(), heat(1.0).to_rgb())) > 0.6


def test_reading_time_rates():
    assert captions.reading_time("x" * 36, "en") == pytest.approx(3.0)
    assert captions.reading_time("字" * 18, "zh") == pytest.approx(3.0)
    assert captions.reading_time("ok", "en") == 2.0


@pytest.mark.slow
@pytest.mark.parametrize("theme", ["dark", "light"])
@pytest.mark.parametrize("preset", ["zao-shang-hao", "two-heads", "causal"])
def test_attention_matrix_weights_read_back_by_ocr(preset, theme):
    assert TESSERACT, "tesseract-ocr is not installed (make test installs it)"
    ex = ac.PRESETS[preset]
    truth = ac.trace_example(ex).attention.weights
    look = Look.for_example(ex, theme=theme)
    misread = misread_matrix(find("AttentionMatrix").load(), ex, truth, 3, look=look)
    assert not misread, misread


def test_right_to_left_and_repeated_labels_are_drawn_and_told_apart():
    """Arabic and Hebrew labels are drawn (Manim's Text alone draws nothing for them), with
    their row's numbers; repeated labels carry a subscript; long ones keep their distinct end."""
    from scene_checks import on_screen

    ex = ac.Example(
        name="labels",
        tokens=["مرحبا", "שלום", "a", "a", "WWWWWWWWWW01", "WWWWWWWWWW03"],
        embeddings=[[1, 0.2], [0.3, 1], [0.5, 0.5], [0.4, 0.6], [1, 1], [0.2, -0.4]],
    )

    def shown(scene):
        return {
            getattr(m, "source_text", ""): (m.width, len(m.submobjects)) for m in on_screen(scene)
        }

    last = run_steps(find("AttentionMatrix").load(), ex, frames=False, snapshot=shown)[-1]
    drawn = last.snapshot
    for word in ("مرحبا", "שלום"):
        found = [v for k, v in drawn.items() if word in k]
        assert found and all(w > 0.1 and n >= len(word) for w, n in found), (word, found)
    assert any("a₁" in k for k in drawn) and any("a₂" in k for k in drawn)
    assert any(k.endswith("01") for k in drawn) and any(k.endswith("03") for k in drawn)


def test_emoji_labels_are_refused_with_one_clear_line(cli, write_example):
    path = write_example({"tokens": ["hi", "😀"], "embeddings": [[1, 0], [0, 1]]}, name="e.json")
    r = cli("numbers", path)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert r.stderr.strip().splitlines() == [
        "attn-explain: error: tokens[1]: '😀' contains emoji, which the videos cannot draw "
        "(colour emoji have no outlines); use a word instead"
    ]
