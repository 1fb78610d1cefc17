"""MultiHeadSplit with more heads than fit (issue 30 item 5): the heads drawn are those that
matter — the strongest reading's first, then one head per other reading (``rank_heads``, decided
in the core) — the others are named in a line, and each trained head's plane names its followed
query and the keys that query weighs most."""

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import attention_core as ac
from attention_core.readings.heads import _strength
from scene_checks import labels_on_arrows, layout_problems
from scenes.kit.captions import multi_head_split as words
from scenes.kit.look import Look
from scenes.kit.registry import BY_NAME
from scenes.parts.multi_head_blocks import spans
from scenes.pipeline.stills import run_steps

ROOT = Path(__file__).resolve().parent.parent
# `attn-explain from-model "violin marble tiger lemon kettle violin marble tiger lemon kettle"
#  --model smollm2 --layer 19 --all-heads`: 9 heads, head 7 an induction head
SMOLLM2_L19 = ROOT / "tests" / "data" / "smollm2-layer19.toml"
MINILM_L1 = ROOT / "examples" / "minilm-cat-layer1.toml"


def weights_of(path):
    ex = ac.load_example(path)
    tr = ac.trace_example(ex)
    return ex, tr, [h.weights for h in tr.heads]


@st.composite
def layers(draw):
    H, n = draw(st.integers(2, 6)), draw(st.integers(2, 6))
    raw = draw(st.lists(st.floats(0.0, 10.0), min_size=H * n * n, max_size=H * n * n).map(np.array))
    w = raw.reshape(H, n, n) + 1e-3
    return list(w / w.sum(axis=2, keepdims=True))


@settings(max_examples=60, deadline=None)
@given(layers())
def test_rank_heads_strongest_first_then_one_per_reading(weights):
    order = ac.rank_heads(weights)
    assert sorted(order) == list(range(len(weights)))  # every head once
    reads = [ac.read_head(w) for w in weights]
    strongest = max(_strength(r) for r in reads)
    assert _strength(reads[order[0]]) == strongest  # the strongest reading's head first

    def kind(r):
        lean = max(r.masses, key=r.masses.get) if r.pattern == "spread" else ""
        return (r.pattern, lean)

    kinds = [kind(reads[h]) for h in order]
    distinct = len(set(kinds))
    assert len(set(kinds[:distinct])) == distinct  # one head per reading before any repeat
    firsts = [_strength(reads[h]) for h in order[:distinct]]
    assert firsts == sorted(firsts, reverse=True)  # … strongest first


def test_rank_heads_on_trained_layers():
    ex, _, w = weights_of(SMOLLM2_L19)
    order = ac.rank_heads(w, ex.tokens)
    assert order[:2] == [8, 6]  # head 9, a sink at 1.00, then the induction head 7
    assert ac.read_head(w[6], ex.tokens).pattern == "induction"
    ex, _, w = weights_of(MINILM_L1)
    order = ac.rank_heads(w, ex.tokens)
    reads = [ac.read_head(x, ex.tokens) for x in w]
    assert _strength(reads[order[0]]) == max(_strength(r) for r in reads)


def test_cross_attention_heads_keep_their_order():
    w = [np.full((2, 3), 1 / 3)] * 3
    assert ac.rank_heads(w) == [0, 1, 2]


def test_spans_name_runs_of_heads():
    assert spans([3, 4, 5, 7]) == "4–6, 8"
    assert spans([0, 2]) == "1, 3"
    assert spans([0, 1, 5]) == "1, 2, 6"
    for key in ("mh_not_shown", "mh_not_shown_one"):  # both languages
        zh, en = words.WORDS[key]
        assert "{heads}" in zh and "{heads}" in en


def heads_step(path, aspect):
    """The heads step of MultiHeadSplit on ``path``: (heads drawn, {head: its plane's labels},
    every text on screen, the token labels of the queries and the keys, the still's problems)."""
    example = ac.load_example(path)

    def snap(s):
        texts = {getattr(m, "source_text", None) for top in s.mobjects for m in top.get_family()}
        labels = {h: [m.source_text for m in p.labels] for h, p in getattr(s, "panels", {}).items()}
        problems = layout_problems(s) + labels_on_arrows(s)
        return list(s.shown), labels, texts, (s.q_tokens, s.k_tokens), problems

    stills = run_steps(
        BY_NAME["MultiHeadSplit"].load(),
        example,
        frames=False,
        look=Look.for_example(example, lang="en", aspect=aspect),
        snapshot=snap,
    )
    return next(st.snapshot for st in stills if st.key == "heads")


@pytest.mark.slow
@pytest.mark.parametrize(
    "path, aspect",
    [(SMOLLM2_L19, "16:9"), (SMOLLM2_L19, "4:3"), (MINILM_L1, "16:9")],
    ids=["smollm2-l19-16:9", "smollm2-l19-4:3", "minilm-l1-16:9"],
)
def test_many_heads_draw_those_that_matter_and_name_the_rest(path, aspect):
    ex, tr, w = weights_of(path)
    order = ac.rank_heads(w, ex.tokens)
    shown, labels, texts, (q_tokens, k_tokens), problems = heads_step(path, aspect)
    assert not problems, problems[:10]
    assert len(shown) < len(w)
    assert shown == sorted(order[: len(shown)])  # the strongest reading's, then one per reading
    assert order[0] in shown
    if path == SMOLLM2_L19:
        assert 6 in shown  # the induction head
    left = [h for h in range(len(w)) if h not in shown]
    assert f"heads {spans(left)} not shown" in texts
    for h in shown:  # the followed query and its strongest key, labelled
        pair = ac.followed_pair(tr, ex, h)
        assert q_tokens[pair.query] in labels[h], (h, labels[h])
        assert k_tokens[pair.key] in labels[h], (h, labels[h])
