"""Issue 30, the lecture-hall review's findings: every scene that follows one query follows the
example's followed pair (``attention_core.followed_pair``) and says what the head does.

- Softmax on a masked (causal) head showed the followed row *before* the mask in its first
  steps (SmolLM2's induction head: sky₂ → green₁ 0.912 there, 0.997 everywhere else);
- DotProducts, Softmax and WeightedSum said "this head's habit" instead of what the head does;
- DotProducts' last still (16:9) showed the last query, its key arrows unlabelled;
- Projections' match step and Scaling's framed cells ignored the followed pair.

Cheap: each scene runs once, without frames (captions, numbers and labels are enough), at 270 px.
"""

from __future__ import annotations

import contextlib
from dataclasses import replace
from functools import cache
from pathlib import Path

import numpy as np
import pytest

import attention_core as ac
from scene_checks import on_screen
from scenes.kit import captions
from scenes.kit.look import Look
from scenes.kit.registry import find
from scenes.mobjects.text import Num, distinct
from scenes.pipeline.stills import run_steps

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def _snapshot(scene):
    """The numbers on screen (role, value), the labels' texts, and what a scene records of the
    pair it follows (Projections' match pair, Scaling's framed cells)."""
    return {
        "nums": [(m.role, m.value) for m in on_screen(scene, Num)],
        "texts": [getattr(m, "source_text", "") for m in on_screen(scene)],
        "match_pair": getattr(scene, "match_pair", None),
        "framed": getattr(scene, "framed", None),
    }


@cache
def _example(name: str):
    return ac.load_example(EXAMPLES / f"{name}.toml")


class _Enough(Exception):
    """Raised after the last step a test reads: the scene's later steps are not run."""


def _run(scene: str, name: str, lang: str = "en", until: str | None = None):
    """{step key: (caption, snapshot)} and the step keys in order, up to step ``until``: each
    scene run once for all the tests that read it."""
    return _run_once(scene, name, lang, until)


@cache
def _run_once(scene: str, name: str, lang: str, until: str | None):
    ex = _example(name)
    look = Look.for_example(ex, lang=lang, aspect="16:9")
    seen: dict = {}

    def record(sc):
        step = sc.steps[-1]
        seen[step["key"]] = (step["caption"], _snapshot(sc))
        if step["key"] == until:
            raise _Enough

    with contextlib.suppress(_Enough):
        run_steps(find(scene).load(), ex, look=look, frames=False, snapshot=record)
    return seen, list(seen)


def _pair(name: str):
    tr = ac.trace_example(_example(name))
    return ac.followed_pair(tr), tr.heads[0].weights


# -- 1. Softmax on a masked head: the followed row's weights are the head's ------------------------
def test_softmax_on_a_causal_head_shows_the_masked_weights():
    pair, W = _pair("smollm2-induction")
    q, k = pair.query, pair.key
    steps, _ = _run("Softmax", "smollm2-induction", until="sharper")
    for key in ("exp", "share", "sharper"):
        nums = steps[key][1]["nums"]
        row = [(r, v) for r, v in nums if r[0] == "sharpened" and r[2] == q and r[3] == 1.0]
        assert row or key != "share", key  # the share bar names the row's weights
        for role, v in row:
            assert np.isclose(v, W[q, role[4]]), (key, role, v)
        unmasked = [r for r, _ in nums if r[0].endswith("_scaled") or r[0] == "scaled"]
        assert not unmasked, (key, unmasked)  # no number of the row before the mask
    gauge = [v for r, v in steps["sharper"][1]["nums"] if r == ("gradient_sum", 0, q, 1.0)]
    assert gauge and np.isclose(gauge[0], ac.saturation(W[q]))  # Σ s(1 − s) of the head's row
    assert f"{W[q, k]:.3f}" in steps["share"][0]  # 0.997, as AttentionMatrix shows it


# -- 2. DotProducts, Softmax and WeightedSum say what the head does -------------------------------
@pytest.mark.parametrize(
    ("scene", "step", "until"),
    [
        ("DotProducts", "query", None),
        ("Softmax", "exp", "sharper"),
        ("WeightedSum", "values", "values"),
    ],
)
def test_per_query_scenes_say_what_an_induction_head_does(scene, step, until):
    pair, _ = _pair("smollm2-induction")
    tokens = _example("smollm2-induction").tokens
    caption = _run(scene, "smollm2-induction", until=until)[0][step][0]
    assert "habit" not in caption
    assert "an induction head" in caption
    labels = distinct(tokens)  # as the scenes label tokens: sky₂, green₁
    assert f"{labels[pair.query]} looks at {labels[pair.key]}" in caption


def test_softmax_says_what_a_previous_token_head_does_in_chinese():
    caption = _run("Softmax", "smollm2-previous", "zh", until="exp")[0]["exp"][0]
    assert "前一词元头" in caption and "习惯" not in caption


def test_softmax_names_the_pair_asked_for():
    from attention_core.readings.head_search import label_ref

    ex = ac.PRESETS["zao-shang-hao"]
    ex = replace(ex, query=label_ref(ex.tokens, 1), key=label_ref(ex.tokens, 0))
    look = Look.for_example(ex, lang="en")
    seen = []

    def first(scene):
        seen.append(scene.steps[-1]["caption"])
        raise _Enough

    with pytest.raises(_Enough):
        run_steps(find("Softmax").load(), ex, look=look, frames=False, snapshot=first)
    assert "the pair asked about, 上 → 早, is" in seen[0]


def test_every_story_kind_has_words_in_both_languages():
    from attention_core.readings.followed import STORY_KINDS
    from attention_core.readings.heads import READINGS

    kinds = {STORY_KINDS.get(r.key, r.key) for r in READINGS if r.habitual} | {
        "asked",
        "asked_top",
        "asked_lower",
    }
    for kind in kinds:
        for lang in ("zh", "en"):
            text = captions.word(f"does_{kind}", lang, q="Q1", k="K1", e="E1", nth="N1")
            assert "Q1" in text and "{" not in text, (kind, lang)


# -- 3. DotProducts ends on the followed query, its keys labelled ---------------------------------
def test_dot_products_last_still_is_the_followed_query_with_labelled_keys():
    pair, _ = _pair("smollm2-induction")
    steps, keys = _run("DotProducts", "smollm2-induction")
    texts = steps[keys[-1]][1]["texts"]
    q_label = f"q({_label('smollm2-induction', pair.query)})"
    k_label = f"k({_label('smollm2-induction', pair.key)})"
    assert q_label in texts and k_label in texts, [t for t in texts if t[:2] in ("q(", "k(")]
    others = [t for t in texts if t.startswith("q(") and t != q_label]
    assert not others, others


def _label(name: str, i: int) -> str:
    return distinct(_example(name).tokens)[i]


# -- 4. Projections' match step and Scaling's framed cells use the followed pair -----------------
def test_projections_match_step_is_the_followed_pair():
    pair, _ = _pair("smollm2-induction")
    steps, keys = _run("Projections", "smollm2-induction")
    assert steps["match"][1]["match_pair"] == (pair.query, pair.key)


def test_scaling_frames_the_followed_pair():
    pair, _ = _pair("smollm2-induction")
    steps, _ = _run("Scaling", "smollm2-induction", until="divide")
    assert (pair.query, pair.key) in steps["divide"][1]["framed"]


# -- 5. Readable numbers and named keys ----------------------------------------------------------
def test_softmax_shows_e_to_the_shifted_scores_where_e_s_needs_an_exponent():
    """MiniLM's on → sat scores 25.79: e^s printed "1.58e+11"; now e^(s − max), said so."""
    steps, _ = _run("Softmax", "minilm-cat", until="exp")
    nums = steps["exp"][1]["nums"]
    exps = [(r, v) for r, v in nums if r[0].startswith("exp")]
    assert exps and not [r for r, _ in exps if r[0].startswith("exp_plain")], exps  # shifted
    assert all(v <= 1.0 for _, v in exps)  # e^(s − max) ≤ 1: printed without an exponent
    assert any("subtracted first" in t for t in steps["exp"][1]["texts"])


def test_an_elided_score_matrix_names_its_columns_where_asked():
    """DotProducts on a `--find` example (10 tokens, elided) labelled its columns 1 2 3 10.
    Since 6d7bace an elided matrix names its kept columns flat by default where their names
    fit flat ('a', 'fluffy', 'forest'); where they do not ('fluffiest', 'forests'), the default
    numbers them and ``name_columns`` names them upright."""
    from scenes.mobjects.layout import Box
    from scenes.mobjects.matrix import LabelledMatrix
    from scenes.mobjects.theme import get_theme

    tokens = ["a", "fluffy", "blue", "creature", "roamed", "the", "ver", "d", "ant", "forest"]
    values = np.random.default_rng(0).normal(0, 40, (10, 10))
    box = Box(0, 0, 6.6, 3.0)
    kw = dict(sizes=(40, 36, 32, 28, 25, 22), keep_rows=[3], keep_cols=[1])
    theme = get_theme("dark")
    flat = LabelledMatrix.fitted(values, ("scores", 0), theme, tokens, tokens, box, **kw)
    assert not flat.indexed and not flat.upright and 1 in flat.shown_columns
    assert [c.source_text for c in flat.col_labels] == [tokens[j] for j in flat.shown_columns]
    assert flat.width <= box.width + 1e-6 and flat.height + 0.45 <= box.height + 1e-6
    tokens = [*tokens[:1], "fluffiest", *tokens[2:9], "forests"]  # too wide to stand flat
    args = (values, ("scores", 0), theme, tokens, tokens, box)
    numbered = LabelledMatrix.fitted(*args, **kw)
    named = LabelledMatrix.fitted(*args, name_columns=True, **kw)
    assert numbered.indexed  # the default stays: numbers where labels are too wide
    assert not named.indexed and named.upright
    assert len(named.shown_columns) >= len(numbered.shown_columns) and 1 in named.shown_columns
    assert [c.source_text for c in named.col_labels] == [tokens[j] for j in named.shown_columns]
    assert named.width <= box.width + 1e-6 and named.height + 0.45 <= box.height + 1e-6


# -- 4. an asked pair on a head with no habit: what its weight is ---------------------------------
@pytest.mark.parametrize("lang", ("en", "zh"))
def test_an_asked_pair_on_a_head_without_a_habit_says_what_its_weight_is(lang):
    """On the 24-token sentence's head (no habit: it reads "diffuse") AttentionMatrix's reading
    said only "The pair asked for: it₁ → trophy 0.563"; then, wrongly, "a link in this
    sentence" (a review: did → trophy 0.911, and 10 other tokens look most at trophy). Now: its
    largest weight, but not it₁'s alone, the strongest such row's number on screen, every such
    row framed."""
    words = {
        "en": "it₁ → trophy 0.563, its largest weight. Not it₁'s alone: many tokens look most at"
        " trophy (framed), did → trophy 0.911 most strongly.",
        "zh": "it₁ → trophy 0.563，是它最大的权重。但不只是 it₁：很多词元都最看重 trophy"
        "（已框出），did → trophy 0.911 最强。",
    }
    steps, _ = _run("AttentionMatrix", "smollm2-trophy", lang, until="reading")
    caption, snap = steps["reading"]
    assert words[lang] in caption, caption
    shown = {role: value for role, value in snap["nums"]}
    W = ac.trace_example(_example("smollm2-trophy")).heads[0].weights
    for row in (11, 2):  # it₁ → trophy and did → trophy, each with its number
        assert shown[("weights", 0, row, 1)] == W[row, 1]


def test_projections_of_a_head_with_biases_says_so():
    """A review: MiniLM's Projections wrote q·k = x W_q W_kᵀ xᵀ beside q(on)·k(sat) = 145.87,
    which only the biases make (x W_q W_kᵀ xᵀ is 128.17): its maps and match now carry them."""
    steps, _ = _run("Projections", "minilm-cat", "en", until="match")
    caption, snap = steps["maps_nd"]
    assert caption.startswith("Q = X Wq + bq") and "plus the model's own bias" in caption, caption
    # its caption too (a review: it wrote x Wq Wkᵀ xᵀ under the formula with the biases)
    assert "qᵢ · kⱼ = (xᵢ Wq + bq)(xⱼ Wk + bk)ᵀ" in steps["match"][0], steps["match"][0]
    ex = _example("minilm-cat")
    h = ac.trace_example(ex).heads[0]
    w = ex.weights
    (W_q, W_k, _), b = w.head(0, ex.heads), (w.b_q, w.b_k)
    assert b[0] is not None and b[1] is not None
    X = np.asarray(ex.embeddings)
    Q = X @ W_q + np.asarray(b[0]).reshape(-1)[: W_q.shape[1]]
    K = X @ W_k + np.asarray(b[1]).reshape(-1)[: W_k.shape[1]]
    assert np.allclose(Q @ K.T, h.scores, atol=1e-6)
    plain, _ = _run("Projections", "smollm2-previous", "en", until="match")
    assert "bias" not in plain["maps_nd"][0] and "bq" not in plain["match"][0]
