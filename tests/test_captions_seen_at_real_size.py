"""Issue 38, "seen at real size": the captions every scene shares, from a review of stills of a
real 22-token sentence.

- "this head's strongest links" was said in about nine steps across the scenes, in steps that
  showed no other row: it is said once, in AttentionMatrix's reading, whose heatmap frames
  those rows (``HeadStory.pair_telling``); every other scene says the pair's own fact;
- formulas written as plain text in a template ("√d", "√64") beside typeset ones ($sqrt(d_k)$):
  every formula of every template, in both languages, is in ``$…$``;
- Σ s(1−s) was used and never said: the first caption of a scene that names it says what it is.

Cheap: templates are read, not rendered; the peers' test runs five scenes without frames, each
up to the step that tells the pair.
"""

from __future__ import annotations

import contextlib
import re
from dataclasses import replace
from pathlib import Path

import pytest

import attention_core as ac
from scenes.kit import captions
from scenes.kit.look import Look
from scenes.kit.registry import find
from scenes.pipeline.stills import run_steps

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"

# a formula's signs written as plain text: a root, a weight matrix (Wq, W_O, Wₒ), X W, d_k / dₖ,
# a transpose — each belongs in $…$, typeset on screen, in Unicode forms in the subtitles
UNTYPESET = re.compile(r"√|\bW_?[qkvoO]\b|\bW[ₒₖᵥ]|\bX W\b|\bd_k\b|dₖ|\b[QK]\^|[QK]ᵀ")
MATH = re.compile(r"\$[^$]+\$")
PLACEHOLDER = re.compile(r"\{\w*\}")  # a value's name ({d_k}) is no formula


def _untypeset(template: str) -> list[str]:
    return UNTYPESET.findall(PLACEHOLDER.sub("", MATH.sub("", template)))


def _templates():
    for scene, pair in captions.TITLES.items():
        yield f"{scene} title", pair
    for scene, steps in captions.CAPTIONS.items():
        for key, pair in steps.items():
            yield f"{scene}.{key}", pair
    yield from captions.WORDS.items()


def test_no_template_writes_a_formula_outside_math():
    """Before: Scaling's "Divided by √d", Softmax's "scores × √64" beside "÷$sqrt(d_k)$"."""
    plain = [
        (name, lang, found)
        for name, pair in _templates()
        for lang in captions.LANGS
        if (found := _untypeset(captions.pick(pair, lang)))
    ]
    assert not plain, plain


def test_the_formula_rule_can_fail():
    for bad in ("Q = X Wq", "through WO", "÷√64", "d_k = 64", "$d_k$ and dₖ", "W_O mixes"):
        assert _untypeset(bad), bad
    for good in ("$Q = X W_q$", "÷$sqrt({d})$", "$d_k$ = {d_k}", "Wait, a word", "{H} × {d_k}"):
        assert not _untypeset(good), good


TYPST_NAMES = re.compile(r"\b(?:alpha|beta|gamma|delta|epsilon|lambda|mu|sigma|theta|omega)\b")


def test_no_caption_shows_a_typst_name_for_a_greek_letter():
    """HeadMoved's terms read "tⱼ = alphaⱼ · vⱼ" in both languages (an English word in the
    Chinese): the letter itself, α, in the formula; its subtitle form is αⱼ."""
    from scenes.mobjects.unimath import plain

    named = [
        (name, lang)
        for name, pair in _templates()
        for lang in captions.LANGS
        if TYPST_NAMES.search(plain(captions.pick(pair, lang)))
    ]
    assert not named, named
    terms = captions.pick(captions.CAPTIONS["HeadMoved"]["terms_w_o"], "zh")
    assert "tⱼ = αⱼ · vⱼ" in plain(terms)


GRADIENT_WORDS = {"en": "how much the weights can still move", "zh": "权重还能变动多少"}


@pytest.mark.parametrize("lang", captions.LANGS)
def test_sigma_s_one_minus_s_is_said_in_words_where_a_scene_first_names_it(lang):
    """Scaling names it once (the random row at d = 64); Softmax first at its "sharper" step,
    whichever claim it tells (the saturation steps come after)."""
    first = [("Scaling", "softmax64")]
    first += [("Softmax", k) for k in captions.CAPTIONS["Softmax"] if k.startswith("sharper_")]
    assert len(first) == 5
    for scene, key in first:
        text = captions.pick(captions.CAPTIONS[scene][key], lang)
        assert "Σ s(1−s)" in text and GRADIENT_WORDS[lang] in text, (scene, key, text)


# -- the peer rows: said once, where they are seen ----------------------------------------------
PEER = {"en": "strongest links", "zh": "最强的连接"}


@pytest.mark.parametrize("lang", captions.LANGS)
def test_only_attention_matrix_has_words_for_the_heads_strongest_links(lang):
    found = [n for n, pair in _templates() if PEER[lang] in captions.pick(pair, lang)]
    assert found and all(n.startswith("AttentionMatrix.") for n in found), found


class _Enough(Exception):
    """Raised after the step a test reads: the scene's later steps are not run."""


# each scene up to the step that tells what the head does with its pair
PAIR_STEPS = {
    "Projections": "pair",
    "DotProducts": "query",
    "Softmax": "exp",
    "AttentionMatrix": "reading",
    "RotaryPositions": "score",
}


@pytest.mark.slow
def test_the_heads_strongest_links_are_said_in_one_scene_only():
    """SmolLM2's trophy sentence asked about home → it₂ (its largest weight, 0.280) while
    at → it₂ 0.787 looks most at it₂ too ("asked_also": not "this head's strongest links",
    did → trophy 0.911 is brighter, issue 38): AttentionMatrix says so and frames it; the other
    scenes, which show no other row, say the pair's own fact."""
    from attention_core.readings.head_search import label_ref

    ex = ac.load_example(EXAMPLES / "smollm2-trophy.toml")
    ex = replace(ex, query=label_ref(ex.tokens, 22), key=label_ref(ex.tokens, 20))
    assert ac.head_story(ac.trace_example(ex)).telling == "asked_also"
    told = {}
    for scene, until in PAIR_STEPS.items():

        def record(sc, until=until, scene=scene):
            if sc.steps[-1]["key"] == until:
                told[scene] = sc.steps[-1]["caption"]
                raise _Enough

        with contextlib.suppress(_Enough):
            look = Look.for_example(ex, lang="en", aspect="16:9")
            run_steps(find(scene).load(), ex, look=look, frames=False, snapshot=record)
    assert set(told) == set(PAIR_STEPS), told
    peers = [s for s, c in told.items() if PEER["en"] in c or "at looks most at it₂" in c]
    assert peers == ["AttentionMatrix"], told
    assert "Not only home: at looks most at it₂ too, 0.787 (framed)." in told[peers[0]]
    assert PEER["en"] not in told[peers[0]]  # did → trophy 0.911 is brighter
    for scene in ("DotProducts", "Softmax", "RotaryPositions"):
        assert "the pair asked about, home → it₂, is its largest weight" in told[scene], told
    # the head's resting place named before the pair (summarise_head: The, 0.263 of a row on
    # average), not "This pair: the one asked about", which said nothing of the head
    assert told["Projections"].endswith(
        "What this head does: on average a row rests a quarter of its weight or more on "
        "The, the first token, and it links home → it₂."
    ), told
