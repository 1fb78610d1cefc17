"""The cast (issue 38): the few tokens the story is about, decided in the core
(``attention_core.story_cast``) and drawn in colour by every scene, every other token in one
quiet tone (23 token colours in one frame could not be told apart: The vs he, four greens in
one share bar)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import attention_core as ac

ROOT = Path(__file__).resolve().parent.parent


@st.composite
def examples(draw):
    n = draw(st.integers(1, 24))
    d = draw(st.integers(2, 4))
    seed = draw(st.integers(0, 2**16))
    rng = np.random.default_rng(seed)
    mask = draw(st.sampled_from(["none", "causal"]))
    asked = draw(st.booleans())
    fields = {}
    if asked and n > 1:
        q = draw(st.integers(0, n - 1))
        k = draw(st.integers(0, q if mask == "causal" else n - 1))
        fields = {"query": f"t{q}", "key": f"t{k}"}
    return ac.Example(
        name="cast",
        tokens=[f"t{i}" for i in range(n)],
        embeddings=(rng.standard_normal((n, d)) * 2).round(3).tolist(),
        mask=mask,
        **fields,
    )


@settings(max_examples=120, deadline=None)
@given(examples())
def test_the_cast_is_the_story_first_and_at_most_eight(ex):
    trace = ac.trace_example(ex)
    cast = ac.story_cast(trace)
    assert len(set(cast)) == len(cast) and all(0 <= t < ex.n for t in cast)
    if ex.n <= ac.CAST_ALL:
        assert cast == tuple(range(ex.n))  # a small example: every token its own colour
        return
    pair = ac.followed_pair(trace)
    assert len(cast) == ac.CAST_SIZE
    assert cast[0] == pair.query and (cast[1] == pair.key or pair.key == pair.query)
    # the rest are the story's cells, then the keys the query weighs most: no key weighed
    # more than every cast key of the query's row is left out
    row = trace.attention.weights[pair.query]
    outside = [j for j in range(ex.n) if j not in cast]
    assert max(row[outside]) <= max(row[list(cast)]) + 1e-12


def test_the_cast_of_a_real_sentence():
    trace = ac.trace_example(ac.load_example(ROOT / "examples" / "smollm2-baker.toml"))
    tokens = trace.example.tokens
    cast = [tokens[i] for i in ac.story_cast(trace)]
    assert cast[:2] == ["she", "baker"] and len(cast) == 8
