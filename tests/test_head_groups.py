"""The heads of a layer read together (attention_core/readings/head_groups.py): HeadGallery's title
says "each its own pattern" only where no two heads read alike (issue 38: it stood over eight
heads resting on the first token)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import attention_core as ac
from attention_core.readings.head_groups import group_heads, layer_reading
from attention_core.readings.heads import HeadReading

PATTERNS = ("sink", "previous", "self", "fixed", "sharp", "diffuse")


def _reading(pattern: str, key: int | None = None) -> HeadReading:
    return HeadReading(pattern, 0.7, {}, key=key if pattern == "fixed" else None)


readings = st.lists(
    st.tuples(st.sampled_from(PATTERNS), st.integers(1, 3)).map(lambda t: _reading(*t)),
    min_size=1,
    max_size=16,
)


@given(readings)
def test_each_its_own_only_where_no_two_heads_read_alike(rs):
    layer = layer_reading(rs)
    shared = len({(r.pattern, r.key) for r in rs}) < len(rs)
    assert (layer.kind == "each_own") == (not shared)
    # the groups: every head once, the largest first, each group's heads read alike
    heads = sorted(h for g in layer.groups for h in g.heads)
    assert heads == list(range(len(rs)))
    sizes = [len(g.heads) for g in layer.groups]
    assert sizes == sorted(sizes, reverse=True)
    for g in layer.groups:
        assert {(rs[h].pattern, rs[h].key) for h in g.heads} == {(g.pattern, g.key)}
    top = sizes[0]
    if layer.kind == "alike":
        assert len(layer.groups) == 1 and layer.others == 0
    if layer.kind == "most":
        assert len(layer.groups) > 1 and 2 * top > len(rs) and layer.others == len(rs) - top
    if layer.kind == "mixed":
        assert top > 1 and 2 * top <= len(rs)


@settings(deadline=None, max_examples=40)
@given(st.integers(2, 6), st.integers(2, 9), st.integers(0, 2**31 - 1))
def test_a_layer_whose_heads_repeat_a_head_never_reads_each_its_own(n, H, seed):
    """Real weights: a layer with a head repeated (the same weights, so the same reading) is
    never "each its own pattern"; its most common reading holds at least the two copies."""
    rng = np.random.default_rng(seed)
    weights = [ac.softmax(rng.normal(scale=3.0, size=(n, n))) for _ in range(H - 1)]
    weights.append(weights[0])
    tokens = [f"t{i}" for i in range(n)]
    layer = layer_reading([ac.read_head(w, tokens) for w in weights])
    assert layer.kind != "each_own"
    assert len(layer.common.heads) >= 2


def test_the_kinds_and_how_a_group_is_said():
    sink, prev, diffuse = _reading("sink"), _reading("previous"), _reading("diffuse")
    eight = layer_reading([sink] * 8 + [diffuse])
    assert (eight.kind, eight.common.pattern, eight.others) == ("most", "sink", 1)
    assert eight.common.verb == "rest"
    assert layer_reading([prev] * 3).kind == "alike"
    assert layer_reading([prev, prev, sink, sink, diffuse]).kind == "mixed"
    assert layer_reading([prev, sink, diffuse]).kind == "each_own"
    # two fixed heads on different tokens differ; on the same token, alike
    assert layer_reading([_reading("fixed", 1), _reading("fixed", 2)]).kind == "each_own"
    assert layer_reading([_reading("fixed", 1), _reading("fixed", 1)]).kind == "alike"
    assert [g.verb for g in group_heads([prev, diffuse])] == ["attend", "are"]


@settings(deadline=None, max_examples=60)
@given(st.integers(3, 7), st.integers(1, 6), st.floats(0.0, 4.0), st.integers(0, 2**31 - 1))
def test_a_head_without_a_habit_is_told_by_its_resting_place_as_attention_matrix_tells_it(
    n, H, lean, seed
):
    """Issue 38: HeadGallery called a head "diffuse" that rests 0.45 of a row on the first token
    on average, while AttentionMatrix's head step (summarise_head) tells the same head by that
    resting place from a quarter of a row (REST_AT_LEAST). Property over causal heads leaning on
    the first token: the gallery's reading (tell_head) keeps every habit; a head without one is
    told by its resting place exactly where summarise_head names one, with its share; the
    resting heads, sinks and not, read alike, and the group counts its sinks (half or more)."""
    from attention_core.readings.head_groups import tell_head
    from attention_core.readings.heads import HABIT_AT_LEAST, REST_AT_LEAST, summarise_head

    rng = np.random.default_rng(seed)
    tokens = [f"t{i}" for i in range(n)]
    mask = np.tril(np.ones((n, n), bool))
    told = []
    for _ in range(H):
        logits = rng.normal(scale=1.5, size=(n, n))
        logits[:, 0] += rng.uniform(0, lean)
        W = ac.softmax(np.where(mask, logits, -np.inf))
        s, r = summarise_head(W, tokens), tell_head(W, tokens)
        told.append(r)
        if s.rows.pattern not in ("sharp", "diffuse"):  # a habit (or a split): as read_head
            assert (r.pattern, r.mass, r.rests) == (s.rows.pattern, s.rows.mass, False)
        elif s.rest is not None:
            assert (r.pattern, r.key, r.rests) == (s.rest, s.rest_key, True)
            assert REST_AT_LEAST <= r.mass == s.rest_share < HABIT_AT_LEAST
            assert r.text.startswith("rests on the first token")
        else:
            assert r == s.rows and s.rest_share < REST_AT_LEAST
    for g in layer_reading(told).groups:
        assert g.resting == (g.pattern in ("sink", "cls", "sep"))
        if g.resting:  # one group for the first token, sinks and resting heads alike
            assert g.key == 0 and g.span == (min(g.masses), max(g.masses))
            assert g.sinks == sum(not told[h].rests for h in g.heads)
            assert all(told[h].mass >= REST_AT_LEAST for h in g.heads)


def test_a_trained_layer_rests_on_its_first_token():
    """SmolLM2 layer 19 (9 heads): read_head calls heads 1, 2, 3, 6 "diffuse"; they rest
    0.36–0.40 of a row on the first token, as heads 4, 5, 8, 9 do as a sink (0.83–1.00): 8 of
    9 heads rest there, 4 of them as a sink; head 7 (induction) does something else."""
    from pathlib import Path

    from attention_core.readings.head_groups import tell_head

    path = Path(__file__).parent / "data" / "smollm2-layer19.toml"
    ex = ac.load_example(path)
    tr = ac.trace_example(ex)
    layer = layer_reading([tell_head(h.weights, ex.tokens) for h in tr.heads])
    g = layer.common
    assert (g.pattern, g.key, g.resting) == ("sink", 0, True)
    assert len(g.heads) == 8 and g.sinks == 4 and layer.kind == "most"
