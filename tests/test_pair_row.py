"""Issue 30 (item 3 of the review): Scaling, Projections and CausalMask say what the head does
with its followed pair, decided in the core (``attention_core.pair_row``): the pair's score,
scaled score and weight, its rank among the keys its query may see, and how much of the row the
mask lets the query see. Checked here against the trace over random examples (masks, ties, one
token, cross-attention, asked pairs) and on the committed trained heads."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_claims import SETTINGS, examples

import attention_core as ac

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def check_pair_row(p, tr):
    """Every field of ``p`` against the trace: the sentences Scaling ("the highest scaled score
    of the keys it may see"), Projections ("the largest match") and CausalMask ("may see only the
    n tokens before it, and itself") state."""
    h = tr.attention
    q, k = p.query, p.key
    m = np.shape(h.weights)[1]
    allowed = np.ones(m, bool) if h.mask is None else np.asarray(h.mask, bool)[q]
    assert (p.score, p.scaled, p.weight) == (h.scores[q, k], h.scaled[q, k], h.weights[q, k])
    assert p.seen == int(allowed.sum()) and p.keys == m
    if not allowed[k]:
        assert p.sight == "blocked" and p.rank == 0 and p.weight == 0.0
        return
    assert p.sight == (
        "all"
        if allowed.all()
        else "before"
        if list(allowed) == [j <= q for j in range(m)]
        else "some"
    )
    if p.sight == "before":
        assert p.before == q  # the tokens before the query, all of them, and itself
    larger = [j for j in range(m) if allowed[j] and h.scaled[q, j] > h.scaled[q, k]]
    assert p.rank == 1 + len(larger)
    # dividing by √d_k keeps the order: the raw scores rank the pair the same
    assert p.rank == 1 + sum(1 for j in range(m) if allowed[j] and h.scores[q, j] > h.scores[q, k])
    seen_weights = np.asarray(h.weights[q])[allowed]
    if p.rank == 1:  # the largest match gets the most weight
        assert h.weights[q, k] == pytest.approx(seen_weights.max(), abs=1e-12)
    else:
        assert h.weights[q, k] <= seen_weights.max()


@SETTINGS
@given(examples(), st.booleans(), st.data())
def test_pair_row_holds(ex, ask, data):
    """A made-up example has no pair row (its scenes keep their words); an asked one's holds."""
    from attention_core.readings.head_search import label_ref

    if ask:
        ex = replace(ex, query=label_ref(ex.tokens, data.draw(st.integers(0, ex.n - 1))))
        if data.draw(st.booleans()):  # a key asked too: one the mask blocks is refused
            key = label_ref(ex.key_tokens, data.draw(st.integers(0, ex.n_keys - 1)))
            try:
                ex = replace(ex, key=key)
            except ValueError as exc:
                assert str(exc).startswith("key: the mask blocks"), exc
                return
    tr = ac.trace_example(ex)
    p = ac.pair_row(tr)
    assert (p is None) == (ac.head_story(tr) is None) == (not ask)
    if p is not None:
        story = ac.head_story(tr)
        assert (p.query, p.key, p.story) == (story.query, story.key, story.kind)
        check_pair_row(p, tr)


@pytest.mark.parametrize(
    ("name", "story", "before"),
    [("smollm2-trophy", "asked", 11), ("smollm2-induction", "induction", 9)],
)
def test_pair_row_of_the_committed_heads(name, story, before):
    """it₁ may see the 11 tokens before it and gives 0.563 to trophy, its largest match."""
    tr = ac.trace_example(ac.load_example(EXAMPLES / f"{name}.toml"))
    p = ac.pair_row(tr)
    assert p.story == story and p.sight == "before" and p.before == before and p.rank == 1
    check_pair_row(p, tr)
    if name == "smollm2-trophy":
        assert (p.query, p.key) == (11, 1) and f"{p.weight:.3f}" == "0.563"
