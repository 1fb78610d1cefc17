"""Every sentence a scene says about the numbers is decided by readings.claims and checked
here against the trace, over random examples (causal, padding and explicit masks, one-hot rows,
ties, one token, d = 1, a W_O narrower than d_model, cross-attention, trained heads), and in the
captions the scenes actually show."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import attention_core as ac
from attention_core.readings.claims import ALIKE, PEAKED, TIE
from scenes.kit import captions
from scenes.kit.registry import find
from scenes.pipeline.stills import run_steps

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


# -- random examples -----------------------------------------------------------------------
@st.composite
def examples(draw, cross=None, heads=None, max_n=12):
    n = draw(st.integers(1, max_n))
    d = draw(st.integers(1, 4))
    shape = draw(st.sampled_from(["plain", "one-hot", "ties"]))
    rng = np.random.default_rng(draw(st.integers(0, 2**31)))
    emb = rng.normal(size=(n, d)).round(2)
    if shape == "one-hot":
        emb *= 40.0
    elif shape == "ties":
        emb[: max(1, n // 2)] = emb[0]
    tokens = [f"t{i % max(1, n - 2)}" for i in range(n)]  # some labels repeated
    kw: dict = {"tokens": tokens, "embeddings": emb, "name": "random"}
    is_cross = draw(st.booleans()) if cross is None else cross
    n_keys = n
    if is_cross:
        n_keys = draw(st.integers(1, 12))
        kw["source_tokens"] = [f"s{j}" for j in range(n_keys)]
        kw["source_embeddings"] = rng.normal(size=(n_keys, d)).round(2)
    h = draw(st.sampled_from([h for h in (1, 2, 4) if d % h == 0])) if heads is None else heads
    weights = draw(st.sampled_from(["identity", "seed", "narrow_o"]))
    if h > 1 and weights == "identity":
        weights = "seed"
    if weights == "seed":
        d_k = draw(st.sampled_from([None, 1, 3]))  # d_k = 3 with 2 heads: not d_model split
        kw.update(heads=h, seed=int(rng.integers(0, 1000)), d_k=d_k)
    elif weights == "narrow_o":
        width = draw(st.integers(1, 4))
        kw.update(
            heads=h,
            weights={
                "W_q": rng.normal(size=(d, d)),
                "W_k": rng.normal(size=(d, d)),
                "W_v": rng.normal(size=(d, d)),
                "W_o": rng.normal(size=(d, width)),
            },
        )
    mask = draw(st.sampled_from(["none", "causal", "padding", "explicit"]))
    if mask == "causal" and not is_cross:
        kw["mask"] = "causal"
    elif mask == "padding":
        keep = [int(v) for v in rng.integers(0, 2, n_keys)]
        keep[int(rng.integers(0, n_keys))] = 1
        kw["padding"] = keep
    elif mask == "explicit":
        m = rng.integers(0, 2, (n, n_keys))
        m[np.arange(n), rng.integers(0, n_keys, n)] = 1
        kw["mask"] = m.tolist()
    return ac.Example(**kw)


def trained():
    return ac.load_example(EXAMPLES / "minilm-cat.toml")


SETTINGS = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)


# -- the core's claims against the trace ------------------------------------------------------
def check_row_choice(choice: ac.RowChoice, weights, blocked, every):
    tops = {r: float(np.max(weights[r])) for r in choice.candidates}
    assert choice.row in choice.candidates
    assert choice.top == pytest.approx(tops[choice.row])
    assert choice.blocked == int(np.sum(blocked[choice.row]))
    seeing = [r for r in choice.candidates if not blocked[r].any()]
    if choice.kind == "only":
        assert len(choice.candidates) == 1
    elif choice.kind == "peaked":  # "every query puts nearly all its attention on one key"
        assert all(float(np.max(weights[r])) >= PEAKED for r in every)
    elif choice.kind == "alike":  # "every query's largest weight is within 0.05 of the others'"
        every_top = [float(np.max(weights[r])) for r in every]
        assert max(every_top) - min(every_top) < ALIKE and choice.row == choice.candidates[0]
    elif choice.kind == "widest":  # "no query spreads its attention more widely"
        assert sorted(choice.candidates) == sorted(every)
        assert all(choice.top <= t + TIE for t in tops.values())
    elif choice.kind == "widest_seeing_all":  # "…which sees every key: of such, none wider"
        assert not blocked[choice.row].any() and len(seeing) < len(choice.candidates)
        assert all(choice.top <= tops[r] + TIE for r in seeing)
    elif choice.kind == "seeing_all":  # "the only one that sees every key"
        assert seeing == [choice.row] and len(choice.candidates) > 1
    elif choice.kind == "widest_among":
        assert all(choice.top <= t + TIE for t in tops.values())
    else:
        raise AssertionError(choice.kind)


def real_rows(ex):
    rows = list(range(ex.n))
    if ex.padding is not None and not ex.is_cross:
        rows = [r for r in rows if ex.padding[r]] or rows
    return rows


@SETTINGS
@given(examples())
def test_row_choice_claims_hold(ex):
    tr = ac.trace_example(ex)
    head = tr.heads[0]
    blocked = np.zeros(head.weights.shape, bool) if head.mask is None else ~head.mask
    after = ac.head_demo_row(tr)
    check_row_choice(after, head.weights, blocked, real_rows(ex))
    before = ac.head_demo_row(tr, before_mask=True)
    check_row_choice(before, ac.softmax(head.scaled), blocked, real_rows(ex))
    if not blocked[before.row].any():  # Softmax shows the weights WeightedSum uses
        np.testing.assert_allclose(ac.softmax(head.scaled[before.row]), head.weights[before.row])
    if any(not blocked[r].any() for r in real_rows(ex)):  # both follow the same query
        assert before.row == after.row


@SETTINGS
@given(examples())
def test_sum_mask_and_width_claims_hold(ex):
    tr = ac.trace_example(ex)
    head = tr.heads[0]
    for i in range(ex.n):
        terms = ac.sum_terms(head, i)
        allowed = np.ones(ex.n_keys, bool) if head.mask is None else head.mask[i]
        assert terms.allowed == int(allowed.sum()) and terms.total == ex.n_keys
        assert (terms.kind == "all") == bool(allowed.all())
        assert np.all(head.weights[i][~allowed] == 0.0)  # blocked terms add nothing
    claim = ac.mask_claim(head.mask, head.weights.shape)
    if ex.mask_matrix is None:
        assert claim.kind == "none"
    else:
        assert claim.blocked == int(np.sum(~ex.mask_matrix))
        assert (claim.kind == "blocks_nothing") == bool(ex.mask_matrix.all())
    split = ac.readings.claims.head_split(tr)
    assert split.width == sum(h.d_k for h in tr.heads)
    assert (split.kind == "even") == (split.width == ex.d_model)
    width = ac.output_width(tr)
    assert width.width == tr.output.shape[1]
    assert (width.kind == "model") == (tr.output.shape[1] == ex.d_model)


def reference_shuffle(ex, pe: bool):
    """The largest change of the outputs when the tokens are reversed, written out directly:
    the example's mask kept (a causal mask is a fact about positions; padding and explicit
    masks belong to the tokens)."""
    from dataclasses import replace

    p = list(range(ex.n - 1, -1, -1))
    base = replace(ex, positional_encoding=pe)
    kw = {"tokens": [ex.tokens[k] for k in p], "embeddings": ex.embeddings[p]}
    if not isinstance(ex.mask, str):
        kw["mask"] = np.asarray(ex.mask)[np.ix_(p, p)]
    if ex.padding is not None:
        kw["padding"] = [ex.padding[k] for k in p]
    a = ac.trace_example(base).output
    b = ac.trace_example(replace(base, **kw)).output[np.argsort(p)]
    return float(np.max(np.abs(a - b)))


@SETTINGS
@given(examples(cross=False))
def test_order_claim_holds(ex):
    check = ac.order_check(ex)
    assert check.diff_without == pytest.approx(reference_shuffle(ex, False), abs=1e-9)
    assert check.diff_with == pytest.approx(reference_shuffle(ex, True), abs=1e-9)
    scale = max(1.0, float(np.max(np.abs(ac.trace_example(ex).output))))
    causal = isinstance(ex.mask, str) and ex.mask == "causal"
    if not causal:  # attention without positions is permutation-equivariant
        assert check.diff_without <= 1e-7 * scale and check.kind != "mask_orders"
    if check.kind == "pe_orders":  # "without it, shuffling only shuffles the outputs"
        assert check.diff_without <= 1e-7 * scale < check.diff_with
    if check.kind == "mask_orders":
        assert causal and check.diff_without > 1e-9 * scale


@SETTINGS
@given(examples(cross=False))
def test_order_argument_holds(ex):
    """PositionalEncoding's shuffle argument: the example's own check, except where a causal
    mask already makes order matter; then the same shuffle with that mask off (a padding mask
    kept), which never lets the mask decide the case it argues."""

    check, argument = ac.order_check(ex), ac.order_argument(ex)
    assert argument.mask_off == (check.kind == "mask_orders")
    assert argument.kind != "mask_orders" and argument.perm == check.perm
    base = replace(ex, mask="none") if argument.mask_off else ex
    assert argument.diff_without == pytest.approx(reference_shuffle(base, False), abs=1e-9)
    assert argument.diff_with == pytest.approx(reference_shuffle(base, True), abs=1e-9)
    if not argument.mask_off:
        assert argument == check
    scale = max(1.0, float(np.max(np.abs(ac.trace_example(base).output))))
    if argument.kind == "pe_orders":  # "without it, shuffling only shuffles the outputs"
        assert argument.diff_without <= 1e-7 * scale < argument.diff_with


def test_a_causal_examples_order_argument_is_made_with_the_mask_off():
    """On `causal` the mask already makes order matter (13.2 changed "by the mask" on the
    limits): the argument is shown with the mask off, where the code alone orders."""
    argument = ac.order_argument(ac.PRESETS["causal"])
    assert argument.mask_off and argument.kind == "pe_orders" and argument.diff_without < 1e-9


@SETTINGS
@given(examples())
def test_matrix_reading_holds(ex):
    """AttentionMatrix's reading: "q attends most to k (a > b), not to itself", "every token
    attends most to itself", "no token attends clearly more to another than to itself", and
    "not symmetric: w(a→b) ≠ w(b→a)"."""
    from attention_core.readings.claims import comparable_pairs, matrix_reading, self_first

    head = ac.trace_example(ex).heads[0]
    W = head.weights
    allowed = np.ones(W.shape, bool) if head.mask is None else head.mask
    real = ex.padding if ex.padding is not None and not ex.is_cross else None
    rows = [i for i in range(ex.n) if real is None or real[i]]
    other, pair = matrix_reading(W, ex.is_cross, head.mask, real)
    square = not ex.is_cross
    if other is not None:
        i, j = other
        assert square and i in rows and i != j and allowed[i, j] and allowed[i, i]
        assert W[i, j] - W[i, i] > TIE and W[i, j] == W[i][allowed[i]].max()
    elif square:
        for i in rows:
            if allowed[i, i]:
                off = [W[i, j] for j in range(ex.n) if j != i and allowed[i, j]]
                assert not off or max(off) - W[i, i] <= TIE
    for p in rows if square else ():  # the followed row read first where it says something
        best = int(np.argmax(np.where(allowed[p], W[p], -1.0)))
        says = best != p and allowed[p, p] and W[p, best] - W[p, p] > TIE
        preferred, _ = matrix_reading(W, ex.is_cross, head.mask, real, prefer=p)
        assert preferred == ((p, best) if says else other)
    if pair is not None:
        a, b = pair
        assert square and a in rows and b in rows and allowed[a, b] and allowed[b, a]
        assert abs(W[a, b] - W[b, a]) > TIE
    if square and self_first(W, head.mask, real):
        for i in rows:
            off = [W[i, j] for j in range(ex.n) if j != i and allowed[i, j]]
            assert not off or W[i, i] - max(off) > TIE
    if square and pair is None and comparable_pairs(head.mask, real):  # "happens to be symmetric"
        both = allowed & allowed.T
        for a in rows:
            for b in rows:
                assert not both[a, b] or abs(W[a, b] - W[b, a]) <= TIE


@SETTINGS
@given(examples())
def test_sharpening_claim_holds(ex):
    """Softmax's "sharper" step: "falls from … to …" only when it falls; "little change" only
    when unscaled moves Σ s(1−s) by under 5 %; "stays" only when nothing changes."""
    from attention_core.readings.claims import LITTLE, sharpening

    tr = ac.trace_example(ex)
    head = tr.heads[0]
    i = ac.head_demo_row(tr, before_mask=True).row
    claim = sharpening(head.scaled[i], head.d_k)
    g = claim.g
    for name, f in (("×1", 1.0), ("×10", 10.0), ("×100", 100.0)):
        assert g[name] == pytest.approx(ac.saturation(ac.softmax(head.scaled[i] * f)), abs=1e-12)
    if claim.kind == "flat":
        assert max(g.values()) - min(g.values()) <= 1e-9
    if claim.kind in ("one", "more"):  # "falls from g1 to …", zh "降到"
        assert claim.falls, g
    if claim.kind == "little":
        assert abs(g["×1"] - g["√d_k"]) < LITTLE * g["×1"]
    assert (claim.kind == "one") == (head.d_k == 1 and claim.kind != "flat")


@SETTINGS
@given(examples(), st.data())
def test_exp_claim_holds(ex, data):
    """Softmax's exp step: "every share is positive" only where no key is blocked; "every key it
    may see gets a positive share, the n later keys (−∞) get 0" only where the blocked keys are
    exactly the ones after the query, n of them, their e^s and weights 0 and every other
    positive (the 24-token causal sentence drew the 12 later keys as positive bars)."""
    tr = ac.trace_example(ex)
    head = tr.heads[0]
    i = data.draw(st.integers(0, head.masked.shape[0] - 1))
    row = head.masked[i]
    claim = ac.exp_claim(row, i)
    e, w = ac.exponentials(row), ac.softmax(row)
    blocked = np.isneginf(row)
    assert claim.blocked == int(blocked.sum()) and claim.seen == len(row) - claim.blocked
    if claim.kind != "underflow":  # every key it may see: e^s and share positive
        assert np.all(e[~blocked] > 0) and np.all(w[~blocked] > 0)
    assert np.all(e[blocked] == 0) and np.all(w[blocked] == 0)
    if claim.kind == "positive":
        assert not blocked.any()
    if claim.kind == "later":
        assert np.array_equal(blocked, np.arange(len(row)) > i) and blocked.any()
    if claim.kind == "blocked":
        assert blocked.any() and not np.array_equal(blocked, np.arange(len(row)) > i)


def test_exp_claim_of_a_causal_row_and_an_underflow():
    row = np.array([1.0, 2.0, -np.inf, -np.inf])
    assert ac.exp_claim(row, 1) == ac.ExpClaim("later", 2, 2)
    assert ac.exp_claim(row, 0).kind == "blocked"  # key 1 is later but seen: not a causal row
    assert ac.exp_claim(np.array([0.0, -1000.0]), 0).kind == "underflow"
    assert ac.exp_claim(np.array([0.3, 0.1]), 0).kind == "positive"


@SETTINGS
@given(st.integers(1, 24), st.integers(0, 2**31), st.booleans())
def test_labelled_keys_are_every_key_or_the_followed_and_the_named(m, seed, causal):
    """A picture labels every key where a caption names them all, else the followed key and
    the caption's largest (never a blocked one); it counts the keys with a share it leaves."""
    rng = np.random.default_rng(seed)
    w = rng.random(m) ** 3
    if causal:
        w[rng.integers(0, m) + 1 :] = 0.0
    w /= w.sum()
    key = int(rng.integers(0, m))
    got = ac.labelled_keys(w, key)
    named = ac.named_weights(w)
    if named.kind == "all":
        assert got.keys == tuple(range(m))
    else:
        want = {j for j in (*named.keys, key) if w[j] > 0}
        assert set(got.keys) == want and list(got.keys) == sorted(want)
    assert got.blocked == int(np.sum(w <= 0))
    assert got.unlabelled == sum(1 for j in range(m) if w[j] > 0 and j not in got.keys)


@SETTINGS
@given(st.integers(1, 24), st.integers(0, 2**31), st.booleans(), st.booleans())
def test_worked_keys_are_the_followed_key_and_the_heaviest_seen(m, seed, causal, followed):
    """DotProducts works the followed key, then the keys its query weighs most, never one the
    mask blocks, at most four, after the followed key in column order (issue 38)."""
    rng = np.random.default_rng(seed)
    w = rng.random(m) ** 3
    seen = np.ones(m, bool)
    if causal:
        seen[rng.integers(0, m) + 1 :] = False
    w = np.where(seen, w, 0.0)
    w /= w.sum()
    key = int(rng.choice(np.flatnonzero(seen))) if followed else None
    got = ac.worked_keys(w, key, seen)
    assert len(got) == min(4, int(seen.sum()))
    assert all(seen[j] for j in got) and len(set(got)) == len(got)
    rest = got[1:] if followed else got
    if followed:
        assert got[0] == key
    assert list(rest) == sorted(rest)
    others = [j for j in range(m) if seen[j] and j not in got]
    assert all(w[j] <= min(w[k] for k in rest) for j in others) if rest else True


@SETTINGS
@given(examples())
def test_saturation_claim_holds(ex):
    """Softmax's last step shows the followed row saturating unscaled only where it does:
    Σ s(1−s) below SATURATED unscaled (× √d_k), not below it scaled, d_k > 1."""
    from attention_core.readings.claims import SATURATED

    tr = ac.trace_example(ex)
    head = tr.heads[0]
    row = head.scaled[ac.head_demo_row(tr, before_mask=True).row]
    claim = ac.saturation_claim(row, head.d_k)
    raw = ac.saturation(ac.softmax(row * np.sqrt(head.d_k)))
    assert claim.raw == pytest.approx(raw, abs=1e-12)
    assert claim.scaled == pytest.approx(ac.saturation(ac.softmax(row)), abs=1e-12)
    assert (claim.kind == "saturated") == (head.d_k > 1 and raw < SATURATED <= claim.scaled)


def test_the_trophy_row_saturates_unscaled():
    ex = ac.load_example(EXAMPLES / "smollm2-trophy.toml")
    tr = ac.trace_example(ex)
    i = ac.followed_choice(tr, before_mask=True).row
    assert ac.saturation_claim(tr.heads[0].masked[i], tr.heads[0].d_k).kind == "saturated"


def test_one_key_does_not_fall():
    """One token: Σ s(1−s) is 0 at every factor; the caption said it "falls from 0.000 to 0.000"."""
    from attention_core.readings.claims import sharpening

    assert sharpening(np.array([0.7]), 1).kind == "flat"


def test_trained_head_claims():
    ex = trained()
    tr = ac.trace_example(ex)
    choice = ac.head_demo_row(tr)
    head = tr.heads[0]
    check_row_choice(choice, head.weights, np.zeros(head.weights.shape, bool), real_rows(ex))
    assert ac.order_check(ex).kind in ("pe_orders", "alike")


# -- each false claim of issue 20, with the example that showed it -----------------------------
def test_causal_order_is_not_called_a_mere_reordering():
    """PositionalEncoding on `causal` said "only reorders (0.000)", computed without the mask."""
    check = ac.order_check(ac.PRESETS["causal"])
    assert check.kind == "mask_orders" and check.diff_without > 0.3


def test_dot_products_query_is_the_widest():
    """`informative_row` took a row with largest weight 0.54 while another's was 0.38."""
    w = np.array([[0.54, 0.23, 0.23], [0.38, 0.37, 0.25], [0.9, 0.05, 0.05]])
    choice = ac.demo_row(w)
    assert choice.row == 1 and choice.kind == "widest"
    alike = np.array([[0.36, 0.33, 0.31], [0.34, 0.33, 0.33], [0.37, 0.33, 0.30]])
    assert ac.demo_row(alike).kind == "alike" and ac.demo_row(alike).row == 0


def test_near_one_hot_rows_are_not_called_spread():
    w = np.array([[0.999, 0.001], [0.001, 0.999]])
    assert ac.demo_row(w).kind == "peaked"
    assert "nearly" in captions.caption("DotProducts", "query_peaked", "en", q="q", top="0.999")


def test_masked_weighted_sum_names_only_the_allowed_values():
    ex = ac.Example(tokens=list("abcd"), embeddings=np.eye(4), mask="causal")
    terms = ac.sum_terms(ac.trace_example(ex).heads[0], 1)
    assert terms.kind == "allowed" and terms.allowed == 2 and terms.blocked == 2


def test_softmax_and_weighted_sum_follow_one_row_with_one_set_of_weights():
    tr = ac.trace_example(ac.PRESETS["causal"])
    before, after = ac.head_demo_row(tr, before_mask=True), ac.head_demo_row(tr)
    assert before.row == after.row
    np.testing.assert_allclose(
        ac.softmax(tr.heads[0].scaled[before.row]), tr.heads[0].weights[after.row]
    )


def test_one_token_under_a_causal_mask_is_masked_but_blocks_nothing():
    ex = ac.Example(tokens=["a"], embeddings=[[1.0, 0.5]], mask="causal")
    assert ac.mask_claim(ac.trace_example(ex).heads[0].mask).kind == "blocks_nothing"


def test_narrow_w_o_is_not_back_to_d_model():
    ex = ac.Example(
        tokens=list("abc"),
        embeddings=np.arange(12.0).reshape(3, 4) / 10,
        heads=2,
        weights={"W_q": np.eye(4), "W_k": np.eye(4), "W_v": np.eye(4), "W_o": np.ones((4, 1))},
    )
    width = ac.output_width(ac.trace_example(ex))
    assert width.kind == "other" and width.width == 1 and width.d_model == 4


def test_one_symbol_form_for_each_weight_matrix():
    """Captions wrote "Wq" beside "Wₖ": one form for every W."""
    for scene, steps in captions.CAPTIONS.items():
        for step in steps:
            for lang in captions.LANGS:
                text = captions.plain(captions.pick(steps[step], lang))
                assert not re.search(r"W[ₖᵥₒₐ]", text), (scene, step, text)


def test_every_claim_kind_has_its_caption():
    """DotProducts follows one of the rows it draws ("widest_among" when not all are); Softmax
    and WeightedSum choose among every query."""
    assert "query_widest_among" in captions.CAPTIONS["DotProducts"]
    for kind in ("widest", "widest_seeing_all", "seeing_all", "alike", "peaked", "only"):
        assert f"query_{kind}" in captions.CAPTIONS["DotProducts"]
        assert f"values_{kind}" in captions.CAPTIONS["WeightedSum"]
        assert kind == "only" or f"exp_{kind}" in captions.CAPTIONS["Softmax"]
    for kind in ("pe_orders", "alike", "pe_undoes"):  # order_argument's kinds
        assert f"order_{kind}" in captions.CAPTIONS["PositionalEncoding"]
        assert f"order_{kind}_mask_off" in captions.CAPTIONS["PositionalEncoding"]


# -- the captions the scenes show, against the trace ------------------------------------------
def shown_captions(scene: str, ex) -> dict[str, str]:
    stills = run_steps(find(scene).load(), ex, frames=False, lang="en")
    return {s.key: s.caption for s in stills}


# the scenes whose captions check_scene_captions checks against the trace
CAPTION_SCENES = (
    "WeightedSum",
    "Softmax",
    "PositionalEncoding",
    "MultiHeadSplit",
    "AttentionMatrix",
)


def check_scene_captions(ex, only=CAPTION_SCENES, shown=shown_captions):
    """Run the per-query and mask scenes on ``ex`` (those in ``only``) and check every claim
    they make; ``shown(scene, ex)``: the scene's captions by step."""
    tr = ac.trace_example(ex)
    head = tr.heads[0]
    blocked = np.zeros(head.weights.shape, bool) if head.mask is None else ~head.mask
    tops = [float(np.max(head.weights[r])) for r in real_rows(ex)]
    ws = shown("WeightedSum", ex)["values"] if "WeightedSum" in only else ""
    if "sum of all value vectors" in ws:
        row = ac.head_demo_row(tr).row
        assert not blocked[row].any(), ws
    if "no row's weights are spread more widely" in ws:
        top = float(re.search(r"largest is (\S+)\)", ws).group(1))
        assert top <= min(tops) + 1e-3, (ws, tops)
    sm = shown("Softmax", ex)["exp"] if "Softmax" in only else ""
    if "no row's weights are spread more widely" in sm:  # the row it takes, from the trace
        unmasked = ac.softmax(head.scaled)
        top = float(np.max(unmasked[ac.head_demo_row(tr, before_mask=True).row]))
        assert top <= min(float(np.max(unmasked[r])) for r in real_rows(ex)) + 1e-3, sm
    if "PositionalEncoding" in only and not ex.is_cross and ex.n > 1:
        pe = shown("PositionalEncoding", ex)["order"]
        if "only shuffles the outputs" in pe:  # with the causal mask off where it says so
            base = replace(ex, mask="none") if "take it off" in pe else ex
            scale = max(1.0, np.abs(ac.trace_example(base).output).max())
            assert reference_shuffle(base, False) <= 1e-7 * scale, pe
    if "MultiHeadSplit" in only and len(tr.heads) > 1:
        mix = shown("MultiHeadSplit", ex).get("mix", "")
        if "back to the" in mix:
            assert tr.output.shape[1] == ex.d_model, mix
    if "AttentionMatrix" in only:
        am = shown("AttentionMatrix", ex)["heatmap"]
        assert ("masked" in am) == bool(blocked.any()), am


@pytest.mark.slow
@settings(max_examples=4, deadline=None, derandomize=True)
@given(examples(cross=False, max_n=6))  # rendering 24 tokens is the limits example's test
def test_scene_captions_hold_on_random_examples(ex):
    check_scene_captions(ex)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["causal", "padding", "zao-shang-hao", "two-heads"])
def test_scene_captions_hold_on_presets(name):
    check_scene_captions(ac.PRESETS[name])


def _limits_run(scene: str) -> tuple:
    """test_scene_ocr.py's run of the limits' ``scene`` (English, 16:9, as shown_captions)."""
    from lecturer_examples import OCR_LOOK

    return ("at-the-limits", scene, *OCR_LOOK)


def _limits_cases() -> list:
    from lecturer_examples import shared_case

    return [
        shared_case(_limits_run(scene), "captions", None, scene, id=scene)
        for scene in CAPTION_SCENES
    ]


@pytest.mark.slow
@pytest.mark.parametrize("scene", _limits_cases())
def test_scene_captions_hold_at_the_limits(scene):
    """The example at the limits (lecturer_examples), each scene's captions read off the run
    test_scene_ocr.py makes of it (lecturer_examples.stills_of): no run of its own."""
    import lecturer_examples
    from lecturer_examples import stills_of

    def shown(name, ex):
        return {s.key: s.caption for s in stills_of(_limits_run(name), "captions")}

    check_scene_captions(lecturer_examples.load("at-the-limits"), only=(scene,), shown=shown)


@pytest.mark.slow
def test_scene_captions_of_the_issue_examples():
    """The captions issue 20 found false, as the scenes now say them."""
    pe = shown_captions("PositionalEncoding", ac.PRESETS["causal"])["order"]
    assert "causal mask alone already makes order matter, so take it off" in pe
    one = ac.Example(tokens=["a"], embeddings=[[1.0, 0.5]], mask="causal")
    assert "no mask" not in shown_captions("CausalMask", one)["unmasked"]
    narrow = ac.Example(
        tokens=list("abc"),
        embeddings=np.arange(12.0).reshape(3, 4) / 10,
        heads=2,
        weights={"W_q": np.eye(4), "W_k": np.eye(4), "W_v": np.eye(4), "W_o": np.ones((4, 1))},
    )
    mix = shown_captions("MultiHeadSplit", narrow)["mix"]
    assert "back to the 4" not in mix and "width 1" in mix, mix
    assert "masked" in shown_captions("AttentionMatrix", ac.PRESETS["causal"])["heatmap"]
    ws = shown_captions("WeightedSum", trained())["values"]
    assert "spread most widely" not in ws


# -- the one query and key an explanation follows (attention_core.followed_pair) ---------------
def check_followed(ex, pair, weights):
    """What every followed pair must be: a real query, a key it may look at (weight > 0 unless
    the row has none), the key it weighs most when not chosen by the head's pattern."""
    assert pair.query in range(ex.n) and pair.key in range(ex.n_keys)
    allowed = ex.mask_matrix
    if allowed is not None and allowed[pair.query].any():
        assert allowed[pair.query, pair.key]
    if pair.kind in ("demo", "asked") and ex.key is None:
        assert weights[pair.query, pair.key] == weights[pair.query].max()


@SETTINGS
@given(examples())
def test_followed_pair_of_a_made_up_example_is_the_demo_row(ex):
    """Not trained: the row the per-query steps follow (head_demo_row), and its heaviest key."""
    tr = ac.trace_example(ex)
    pair = ac.followed_pair(tr)
    assert pair.kind == "demo" and pair.query == ac.head_demo_row(tr).row
    check_followed(ex, pair, tr.heads[0].weights)


@SETTINGS
@given(examples(), st.data())
def test_followed_pair_is_the_query_and_key_asked(ex, data):
    from dataclasses import replace

    from attention_core.readings.head_search import label_ref

    q = data.draw(st.integers(0, ex.n - 1))
    asked = replace(ex, query=label_ref(ex.tokens, q))
    tr = ac.trace_example(asked)
    pair = ac.followed_pair(tr)
    assert (pair.query, pair.kind) == (q, "asked")
    check_followed(asked, pair, tr.heads[0].weights)
    allowed = asked.mask_matrix
    keys = [k for k in range(ex.n_keys) if allowed is None or allowed[q, k]]
    if keys:
        k = data.draw(st.sampled_from(keys))
        with_key = replace(asked, key=label_ref(ex.key_tokens, k))
        assert ac.followed_pair(ac.trace_example(with_key)) == ac.FollowedPair(q, k, "asked")


@SETTINGS
@given(st.integers(3, 12), st.integers(0, 2**31), st.sampled_from(["previous", "sink"]))
def test_followed_pair_of_a_trained_like_head_follows_its_pattern(n, seed, pattern):
    """A previous-token head follows a middle token and the one before it, a sink head a
    middle token and the first (made-up weights with noise, under a causal mask; from 3 tokens:
    with 2 the previous token is the first)."""
    from attention_core.readings.followed import _from_reading

    rng = np.random.default_rng(seed)
    scores = np.where(np.tril(np.ones((n, n))) > 0, rng.normal(size=(n, n)), -np.inf)
    if pattern == "previous":
        scores[np.arange(1, n), np.arange(n - 1)] += 8.0
    else:
        scores[:, 0] += 8.0
    W = ac.softmax(scores, axis=-1)
    pair = _from_reading(W, tuple(f"w{i}" for i in range(n)))
    assert pair.kind == pattern and pair.query == n // 2
    assert pair.key == (pair.query - 1 if pattern == "previous" else 0)


def test_followed_pair_of_the_committed_trained_heads():
    ind = ac.load_example(EXAMPLES / "smollm2-induction.toml")
    pair = ac.followed_pair(ac.trace_example(ind))
    assert pair.kind == "induction"
    t = ind.tokens
    assert any(t[p] == t[pair.query] and p + 1 == pair.key for p in range(pair.query - 1))
    prev = ac.load_example(EXAMPLES / "smollm2-previous.toml")
    pair = ac.followed_pair(ac.trace_example(prev))
    assert (pair.kind, pair.query, pair.key) == ("previous", prev.n // 2, prev.n // 2 - 1)
    cat = ac.followed_pair(ac.trace_example(trained()))
    assert cat.kind == "previous" and cat.key == cat.query - 1
    check_followed(ind, pair, ac.trace_example(prev).heads[0].weights)


# -- the followed query in every scene, and the head's story (AttentionMatrix's reading) -------
@SETTINGS
@given(examples(), st.booleans(), st.data())
def test_followed_choice_is_the_demo_row_or_the_followed_query(ex, ask, data):
    """Made up: exactly head_demo_row's choice (so the preset stills stay); asked: the query
    asked, with its own largest weight and blocked keys, before or after the mask."""
    from dataclasses import replace

    from attention_core.readings.head_search import label_ref

    if ask:
        ex = replace(ex, query=label_ref(ex.tokens, data.draw(st.integers(0, ex.n - 1))))
    tr = ac.trace_example(ex)
    head = tr.heads[0]
    for before in (False, True):
        choice = ac.followed_choice(tr, before_mask=before)
        if not ask:
            assert choice == ac.head_demo_row(tr, before_mask=before)
            continue
        q = ac.followed_pair(tr).query
        w = ac.softmax(head.scaled) if before else head.weights
        blocked = 0 if head.mask is None else int(np.sum(~np.asarray(head.mask, bool)[q]))
        assert (choice.row, choice.kind, choice.blocked) == (q, "asked", blocked)
        assert choice.top == w[q].max()


def pattern_key(kind, i, j, W, tokens) -> bool:
    """Whether key j is the key of query i under the story's kind."""
    n = len(tokens)
    return {
        "induction": lambda: 0 < j < i and tokens[j - 1] == tokens[i],
        "duplicate": lambda: j < i and tokens[j] == tokens[i],
        "previous": lambda: j == i - 1,
        "next": lambda: j == i + 1,
        "self": lambda: j == i,
        "sink": lambda: j == 0,
        "sep": lambda: j == n - 1 and tokens[j] == "[SEP]",
        "fixed": lambda: j == ac.readings.heads.fixed_key(W, tokens),
    }[kind]()


def check_story(story, W, tokens, mask=None):
    """What AttentionMatrix's reading says: "q → k w", w the weight of that cell; k the key the
    head's reading names for q (the token after the earlier e, the previous token, the first
    …); the head reads as that pattern; every framed row's largest weight on its own such key."""
    from attention_core.readings.followed import STORY_KINDS

    q, k = story.query, story.key
    assert story.weight == W[q, k]
    if mask is not None and np.asarray(mask, bool)[q].any():
        assert np.asarray(mask, bool)[q, k]
    if story.kind == "asked":
        check_asked_story(story, W, tokens)
        return
    pattern = ac.read_head(W, tokens).pattern
    assert STORY_KINDS.get(pattern, pattern) == story.kind
    assert pattern_key(story.kind, q, k, W, tokens)
    if story.kind == "induction":
        assert story.earlier == k - 1 and tokens[story.earlier] == tokens[q] and k < q
    else:
        assert story.earlier is None
    for i, j in story.fits:
        assert W[i, j] == W[i].max() and pattern_key(story.kind, i, j, W, tokens)


def check_asked_story(story, W, tokens):
    """An asked pair's story: its rank in the row (1: the row's largest weight), the runner-up
    (or the top) with its weight, none where every other key gets 0; a habit exactly where the
    head's reading names this key for this query, and then its frames are the reading's rows."""
    from attention_core.readings.followed import STORY_KINDS

    q, k = story.query, story.key
    row = np.asarray(W)[q]
    assert story.earlier == (k - 1 if story.habit == "induction" else None)
    assert story.rank == 1 + int(np.sum(row > row[k]))
    others = [j for j in range(row.size) if j != k]
    if not others or max(row[others]) == 0:
        assert story.other is None
    else:
        assert story.other != k and story.other_weight == row[story.other] == max(row[others])
        assert (story.rank == 1) == (row[k] >= story.other_weight)
    square = W.shape[0] == W.shape[1] > 1
    reading = ac.read_head(W, tokens) if square else None
    pattern = reading.pattern if reading is not None else "diffuse"
    habitual = (
        reading is not None
        and reading.habitual
        and pattern_key(STORY_KINDS.get(pattern, pattern), q, k, W, tokens)
    )
    assert (story.habit is not None) == bool(habitual)
    others = [i for i in range(W.shape[0]) if i != q and W[i, k] > 0]
    top = [i for i in others if int(np.argmax(W[i])) == k]
    many = len(top) >= 3 and 3 * len(top) >= len(others)
    if story.habit is None and story.rank == 1 and story.other is not None and many:
        # many of the queries that see k look most at it: a head looking at k, not q's link
        assert story.telling == "asked_column" and story.peer in top
        assert story.peer_weight == W[story.peer, k] == max(W[i, k] for i in top)
        assert set(story.fits) == {(q, k), *((i, k) for i in top)}
    elif story.habit is None and story.rank == 1 and story.other is not None:
        # a few other queries put their largest weight, at least 0.5, on k: the head's
        # strongest links here share the pair's key, and the story says so
        linked = [i for i in top if W[i, k] >= 0.5]
        if linked:
            assert story.telling in ("asked_linked", "asked_also") and story.peer == max(
                linked, key=lambda i: (W[i, k], -i)
            )
            assert story.fits[0] == (q, k) and {i for i, _ in story.fits[1:]} <= set(linked)
        else:
            assert story.peer is None and story.fits == ((q, k),)
            assert story.telling in ("asked", "asked_top")
    elif story.habit is None:
        assert story.peer is None and story.fits == ((q, k),)
        assert story.telling in ("asked", "asked_top", "asked_lower")
    else:
        assert story.habit == STORY_KINDS.get(pattern, pattern) and story.telling == "asked_habit"
        for i, j in story.fits:
            assert W[i, j] == W[i].max() and pattern_key(story.habit, i, j, W, tokens)


@SETTINGS
@given(
    st.integers(4, 12),
    st.integers(0, 2**31),
    st.sampled_from(["previous", "next", "sink", "induction"]),
    st.data(),
)
def test_an_asked_pair_on_a_trained_like_head_says_rank_and_habit(n, seed, pattern, data):
    """Issue 30: an asked pair said only "the pair asked for: it₁ → trophy 0.563"; now its
    place in the row, the runner-up, and whether it is only the head's habit (the previous
    token of a previous-token head …), on heads whose reading is known."""
    from attention_core.readings.followed import asked_story

    W, tokens, _ = trained_like(n, seed, pattern)
    q = data.draw(st.integers(1, n - 1))
    k = data.draw(st.integers(0, q))
    story = asked_story(W, tokens, q, k)
    assert story.kind == "asked" and (story.query, story.key) == (q, k)
    check_asked_story(story, W, tokens)
    if pattern == "previous" and k == q - 1 and ac.read_head(W, tokens).pattern == "previous":
        assert story.telling == "asked_habit"


def trained_like(n, seed, pattern):
    """Made-up weights of a head with ``pattern`` (noise, a causal mask), and its tokens: an
    induction head on a repeated text, a previous-token, next-token or sink head."""
    rng = np.random.default_rng(seed)
    half = max(2, n // 2)
    tokens = tuple(f"w{i % half}" for i in range(n)) if pattern == "induction" else None
    tokens = tokens or tuple(f"w{i}" for i in range(n))
    causal = pattern != "next"
    allowed = np.tril(np.ones((n, n))) > 0 if causal else np.ones((n, n), bool)
    scores = np.where(allowed, rng.normal(size=(n, n)), -np.inf)
    if pattern == "previous":
        scores[np.arange(1, n), np.arange(n - 1)] += 8.0
    elif pattern == "next":
        scores[np.arange(n - 1), np.arange(1, n)] += 8.0
    elif pattern == "sink":
        scores[:, 0] += 8.0
    else:
        for i, ts in ac.readings.copy_heads.induction_targets(tokens).items():
            scores[i, ts] += 8.0
    return ac.softmax(scores, axis=-1), tokens, (allowed if causal else None)


@SETTINGS
@given(
    st.integers(4, 12),
    st.integers(0, 2**31),
    st.sampled_from(["previous", "next", "sink", "induction"]),
)
def test_head_story_of_a_trained_like_head_holds(n, seed, pattern):
    from attention_core.readings.followed import _from_reading, story_of

    W, tokens, mask = trained_like(n, seed, pattern)
    pair = _from_reading(W, tokens)
    if pair is None:  # noise can leave a short head without a habit: then no story to tell
        assert not ac.read_head(W, tokens).habitual
        return
    story = story_of(W, tokens, pair)
    check_story(story, W, tokens, mask)
    if pattern in ("previous", "sink", "next"):
        assert story.kind == pattern


@SETTINGS
@given(examples(), st.booleans(), st.data())
def test_head_story_of_a_random_example(ex, ask, data):
    """A made-up example tells no story (the plain reading stays); one asked tells its pair."""
    from dataclasses import replace

    from attention_core.readings.head_search import label_ref

    if ask:
        ex = replace(ex, query=label_ref(ex.tokens, data.draw(st.integers(0, ex.n - 1))))
    tr = ac.trace_example(ex)
    story = ac.head_story(tr)
    assert (story is None) == (not ask)
    if ask:
        check_story(story, tr.heads[0].weights, tuple(ex.tokens), tr.heads[0].mask)
        assert story.query == ac.followed_pair(tr).query


@SETTINGS
@given(examples(), st.booleans(), st.data())
def test_choice_story_is_told_of_the_followed_query_only(ex, ask, data):
    """The story DotProducts, Softmax and WeightedSum tell (issue 30): none for a made-up
    example's row (its caption says why that row), the head's story of exactly the row the
    scene follows for an asked one, before or after the mask."""
    from dataclasses import replace

    from attention_core.readings.head_search import label_ref

    if ask:
        ex = replace(ex, query=label_ref(ex.tokens, data.draw(st.integers(0, ex.n - 1))))
    tr = ac.trace_example(ex)
    for before in (False, True):
        choice = ac.followed_choice(tr, before_mask=before)
        story = ac.choice_story(tr, choice)
        assert (story is None) == (choice.kind not in ("followed", "asked"))
        if story is not None:
            assert story == ac.head_story(tr) and story.query == choice.row


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        ("smollm2-induction", "induction"),
        ("smollm2-previous", "previous"),
        ("minilm-cat", "previous"),
    ],
)
def test_head_story_of_the_committed_trained_heads(name, kind):
    ex = ac.load_example(EXAMPLES / f"{name}.toml")
    tr = ac.trace_example(ex)
    story = ac.head_story(tr)
    assert story.kind == kind and len(story.fits) >= 3
    check_story(story, tr.heads[0].weights, tuple(ex.tokens), tr.heads[0].mask)
    assert ac.followed_choice(tr).row == story.query
    for before in (False, True):  # the story the per-query scenes tell is this one
        assert ac.choice_story(tr, ac.followed_choice(tr, before_mask=before)) == story


# -- RotaryPositions: the pairs it draws, and where a rotary head's score lives ------------------
@settings(max_examples=40, deadline=None)
@given(
    n=st.integers(1, 10),
    half=st.integers(1, 8),
    base=st.floats(2.0, 1e6),
    gap=st.integers(1, 400),
    seed=st.integers(0, 2**31),
)
def test_rotary_reading_says_where_the_score_lives(n, half, base, gap, seed):
    """The pairs RotaryPositions draws (fastest first: the pair with the largest term, and the
    fastest pair with a visible share, or the slowest when they are one), each angle printed
    non-zero; and the reading: CONTENT exactly when the pair where the score lives turns less
    than a quarter turn over the text, and then its part at every offset the text holds stays
    within |q||k|·2 sin(ω·span/2) of its part at offset 0."""
    from attention_core.readings.rotary_view import (
        CONTENT,
        POSITION,
        VISIBLE,
        rotary_view,
        score_reading,
    )
    from attention_core.rotary import pair_scores
    from scenes.mobjects.numfmt import fmt

    rng = np.random.default_rng(seed)
    d = 2 * half
    positions = np.concatenate([[0], np.cumsum(rng.integers(1, gap + 1, size=n - 1))])
    ex = ac.Example(
        tokens=[f"t{i}" for i in range(n)], embeddings=rng.normal(size=(n, d)).tolist(),
        weights={"W_q": rng.normal(size=(d, d)), "W_k": rng.normal(size=(d, d)),
                 "W_v": rng.normal(size=(d, d))},
        mask="causal", rotary_base=base, positions=[int(p) for p in positions],
    )  # fmt: skip
    tr = ac.trace_example(ex)
    v = rotary_view(tr)
    terms = pair_scores(tr.heads[0].Q[v.query], tr.heads[0].K[v.key])  # turned q and k
    size = np.abs(terms)
    shown = [t.pair for t in v.shown]
    assert shown == sorted(set(shown)) and v.pair in shown and 1 <= len(shown) <= 2
    visible = [p for p in range(half) if p != v.pair and size[p] >= VISIBLE * size.max()]
    assert (len(shown) == 1) == (not visible)
    if len(shown) == 2:
        other = shown[0] if shown[1] == v.pair else shown[1]
        assert other in visible
        assert other == (min(visible) if min(visible) < v.pair else max(visible))
    for t in v.shown:
        assert float(fmt(t.degrees, t.decimals)) != 0.0
        assert t.term == pytest.approx(terms[t.pair], rel=1e-9, abs=1e-9)
    main = next(t for t in v.shown if t.pair == v.pair)
    span = int(positions[-1])
    assert v.span == span
    sweep = main.frequency * span
    assert score_reading(v) == (CONTENT if sweep < np.pi / 2 else POSITION)
    if score_reading(v) == CONTENT:
        qk = np.linalg.norm(main.q) * np.linalg.norm(main.k)

        def part(offset):  # the pair's part with the query `offset` positions after the key
            a = offset * main.frequency
            turned = np.array([[np.cos(a), np.sin(a)], [-np.sin(a), np.cos(a)]])
            return float(main.q @ turned @ main.k)

        bound = qk * 2 * np.sin(sweep / 2) + 1e-9
        assert all(abs(part(o) - part(0)) <= bound for o in range(0, span + 1, max(1, span // 50)))
        assert bound < qk * np.sqrt(2) + 1e-9


def test_rotary_reading_of_the_committed_heads():
    """The induction head's score lives in a slow pair (content), the previous-token head's in
    the fastest (position)."""
    from attention_core.readings.rotary_view import rotary_view, score_reading

    ind = rotary_view(ac.trace_example(ac.load_example(EXAMPLES / "smollm2-induction.toml")))
    prev = rotary_view(ac.trace_example(ac.load_example(EXAMPLES / "smollm2-previous.toml")))
    assert (score_reading(ind), score_reading(prev)) == ("content", "position")
    assert prev.pair == 0 and ind.shown[-1].pair == ind.pair
