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
