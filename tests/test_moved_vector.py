"""What a head moved into one token (issue 41): E, the terms α·v·W_Oʰ, ΔE, E + ΔE and the readout.

The core (attention_core.moved_vector) against transformers: a float64 LlamaForCausalLM built from
the config with the tensors our GGUF reader gives (as tests/test_moved.py builds its LlamaModel;
the reader itself is checked against transformers' GGUF loader in tests/test_decoder_model.py),
cut after the layer asked for. E is its ``hidden_states`` entering the layer, ΔE its attention
weights times its v_proj output (hooked) through the head's columns of o_proj, the readout
``model.model.norm`` then ``model.lm_head`` (tied to the embeddings). Then the copying story on a
repeated random sequence with the induction head of examples/smollm2-induction.toml (layer 19,
head 7): what its ΔE pushes up, and whether the reading may say it copies.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import attention_core as ac
from attention_core.models.gguf_weights import CHAR_TO_BYTE
from attention_core.readings import moved_vector as mvec

# -- the core, without a model ---------------------------------------------------------------------


def test_a_users_example_moves_its_heads_output_into_its_input_row():
    tr = ac.trace_example(ac.load_example("two-heads"))
    mv = ac.moved_vector(tr)
    h, i = mv.head, mv.query
    d_v = tr.heads[h].V.shape[1]
    rows = np.asarray(tr.multihead.W_o)[h * d_v : (h + 1) * d_v]
    assert mv.source == "input" and mv.readout is None
    assert np.allclose(mv.E, tr.X[i])
    assert np.allclose(mv.delta, np.asarray(tr.heads[h].output)[i] @ rows)
    assert np.allclose(mv.after, mv.E + mv.delta)
    assert np.allclose(mv.norms, np.linalg.norm(mv.terms, axis=1))
    assert mv.largest(2)[0] == int(np.argmax(mv.norms))


class _Lens:
    """A toy readout: d = vocab = 4, W_U the identity, gain 1."""

    gain, eps, W_U = np.ones(4), 1e-5, np.eye(4)
    spelled = ("Ġcat", "Ġdog", "ing", ".")

    @staticmethod
    def label(t):
        return ("cat", "dog", "ing", ".")[t]


def _toy(E, delta, key=1):
    terms = np.asarray([delta, np.zeros(4)], dtype=float)
    mv = mvec.MovedVector(0, key, 0, np.asarray(E, float), terms, terms.sum(0),
                          np.asarray(E, float) + terms.sum(0), "residual")  # fmt: skip
    return mvec.readout(mv, _Lens, key)


def test_the_readout_says_what_delta_pushes_and_when_it_says_little():
    r = _toy([3.0, 1.0, 0.5, 0.0], [0.0, 4.0, 0.0, 0.0], key=1)  # ΔE pushes "dog" past "cat"
    assert [t for t, _ in r.before][:2] == ["cat", "dog"] and r.after[0][0] == "dog"
    assert r.pushed[0][0] == "dog" and r.key_pushed and r.says_little is None
    assert (r.key_rank_before, r.key_rank_after) == (2, 1)
    assert sum(p for _, p in r.after) <= 1.0 and r.key_change > 0
    assert _toy([3.0, 1.0, 0.5, 0.0], [0.1, 0.0, 0.0, 0.0]).says_little == "unchanged"
    assert _toy([3.0, 1.0, 0.5, 0.0], [-9.0, -9.0, 9.0, 9.0]).says_little is None
    assert mvec.is_fragment("ing", "ing") and mvec.is_fragment("æĹ", "早¹")
    assert not mvec.is_fragment("Ġthunder", "thunder") and mvec.is_fragment(",", ",")
    assert mvec.is_fragment("Ċ", "↵") and not mvec.is_fragment("Ġ1999", "1999")


def test_a_readout_names_a_piece_of_a_word_as_a_piece():
    """Issue 38: a readout listed "ates" as if it were a word. The toy's "ing" (spelled without
    its space) is listed "‑ing"; "cat", "dog" (with their space) and "." as they are."""
    r = _toy([0.0, 0.0, 3.0, 1.0], [0.0, 0.0, 4.0, 0.0], key=2)
    listed = {t for part in (r.before, r.after, r.pushed) for t, _ in part}
    assert mvec.PIECE + "ing" in listed and "ing" not in listed, listed
    assert {"cat", "dog", "."} <= listed, listed


_BYTE_CHARS = sorted(CHAR_TO_BYTE)  # the byte-level alphabet: Ġ a space, Ċ a newline …


_LETTERS = st.text(alphabet=st.sampled_from("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"),
                   min_size=2, max_size=12)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(_LETTERS, st.sampled_from(("Ġ", "Ċ", "ĉ")), st.text(alphabet=",.;:!?()[]\"'-␣", max_size=3))
def test_a_whole_word_is_never_a_fragment_and_a_piece_always_is(word, space, marks):
    """Issue 38: a readout listing "and", "himself", "his" was said to be "mostly fragments or
    punctuation". Any run of two letters or more with its leading space (newline, tab) is a
    whole word, no fragment; the same letters glued to the text before (no space) are a piece;
    punctuation or white space alone, a lone letter other than "a", "I", "O" are fragments."""
    assert mvec.is_word(space + word, word) and not mvec.is_fragment(space + word, word)
    assert mvec.is_fragment(word, word) and not mvec.is_word(word, word)
    if marks.strip():
        assert mvec.is_fragment(space + marks, marks) and mvec.is_fragment(marks, marks)
    for one in ("a", "I", "O"):
        assert not mvec.is_fragment("Ġ" + one, one)
    if word[0].lower() not in "aio":
        assert mvec.is_fragment("Ġ" + word[0], word[0])
    joined = f"{word}'{word}"  # don't, well-known: an inner mark keeps a word whole
    assert not mvec.is_fragment(space + joined, joined)


class _SailorLens:
    """The reviewer's he → sailor head (SmolLM2 layer 17, head 6) in its readout's own
    tokens: E + ΔE reads "and" "," "." "␣" "(", ΔE pushes up "himself", "his", "�",
    "‑sectional", "get". d = vocab = 10, W_U the identity."""

    spelled = ("Ġand", ",", ".", "Ġ", "(", "Ġhimself", "Ġhis", "â", "sectional", "Ġget")
    labels = ("and", ",", ".", "␣", "(", "himself", "his", "\ufffd", "sectional", "get")
    gain, eps, W_U = np.ones(10), 1e-5, np.eye(10)

    @classmethod
    def label(cls, t):
        return cls.labels[t]


def test_a_readout_whose_delta_pushes_up_words_is_not_said_to_say_little():
    """The review's still: "the top tokens are mostly fragments or punctuation: it claims no
    meaning" beside "himself" 2.26 and "his" 1.73. E + ΔE's top 5 is four marks and "and";
    ΔE's own top 5 holds three whole words: the readout does not say little. The same E + ΔE
    with ΔE pushing up pieces and marks does (the baker sentence's case)."""
    lens = _SailorLens
    assert sum(mvec.is_fragment(lens.spelled[t], lens.label(t)) for t in range(5)) == 4
    assert mvec.says_little([0, 1, 3, 2, 4], [0, 1, 2, 3, 4], [5, 6, 7, 8, 9], lens) is None
    assert mvec.says_little([0, 1, 3, 2, 4], [0, 1, 2, 3, 4], [7, 8, 1, 2, 6], lens) == "fragments"
    E = np.array([6.0, 5.8, 5.0, 5.2, 4.0, 0.0, 0.0, 0.0, 0.0, 0.0])
    delta = np.array([0.0, 0.0, 0.4, 0.0, 0.0, 2.3, 1.7, 1.7, 1.6, 1.5])
    terms = np.stack([delta, np.zeros(10)])
    mv = mvec.MovedVector(8, 6, 0, E, terms, delta, E + delta, "residual")
    r = mvec.readout(mv, lens, 6)
    assert [t for t, _ in r.after] == ["and", ",", ".", "␣", "("], r.after
    assert [t for t, _ in r.pushed][:2] == ["himself", "his"] and r.says_little is None


def _causal(scores: np.ndarray) -> np.ndarray:
    """Softmax of ``scores`` (n, n) under a causal mask: every earlier key above 0."""
    S = np.where(np.tri(len(scores)) > 0, scores, -np.inf)
    W = np.exp(S - S.max(axis=1, keepdims=True))
    return W / W.sum(axis=1, keepdims=True)


@settings(max_examples=150, deadline=None)
@given(
    st.integers(6, 24),
    st.floats(0.0, 12.0),
    st.integers(0, 2**32 - 1),
    st.floats(0.0, 14.0),
    st.data(),
)
def test_a_head_sharp_by_its_resting_place_is_said_to_park_there(n, sink, seed, spike, data):
    """Issue 38: HeadMoved said "This head is sharp over all its rows" of a SmolLM2 head whose
    rows split their weight between the first token and one "the". ``head_does`` never calls a
    head sharp whose rows park a quarter of their weight or more on a resting place, on average;
    it says the resting place (its column, its share in words: the head's share of its whole
    weight there, the rows summing to 1) only of a head read as sharp or diffuse with no habit
    (a review: "The head is diffuse" beside a sink column and sharp links), nor calls such a
    head diffuse."""
    from attention_core.readings.heads import HABIT_AT_LEAST, read_head, summarise_head

    rng = np.random.default_rng(seed)
    S = rng.normal(size=(n, n))
    S[:, 0] += sink  # a first token that takes weight …
    S[np.arange(n), rng.integers(0, np.arange(n) + 1)] += spike  # … and one key per row
    W, tokens = _causal(S), [f"t{j}" for j in range(n)]
    q = data.draw(st.integers(0, n - 1))
    d, r, s = mvec.head_does(W, tokens, q), read_head(W, tokens), summarise_head(W, tokens)
    if d.kind == "shape" and d.pattern in ("sharp", "diffuse"):
        assert s.rest is None, (s.rest, s.rest_share)
    if d.kind == "rest":
        assert (
            r.pattern in ("sharp", "diffuse") and not r.habitual and s.rest == d.pattern == "sink"
        )
        assert d.rest_key == 0 and d.token == "t0"
        share = float(W[1:, 0].mean())  # the rows a causal head chooses in: all but the first
        assert share >= 0.25 and d.share == ("half" if share >= HABIT_AT_LEAST else "quarter")
        assert share == pytest.approx(W[1:, 0].sum() / W[1:].sum())  # the head's share there
        assert d.row is None
    else:
        assert d.kind == ("habit" if r.habitual else "shape") and d.pattern == r.pattern
        assert not (d.kind == "shape" and r.pattern in ("sharp", "diffuse") and s.rest is not None)


def test_a_head_split_between_the_first_token_and_one_key_parks_not_sharp():
    """The head of issue 38's review as its weights lie (SmolLM2 layer 5 head 9 on "The old
    farmer gave the little girl …"): rows a quarter to a half on the first token, the rest on
    one earlier key; the followed row on another key. Sharp by its entropy; said as a resting
    place, whichever row is followed."""
    from attention_core.readings.heads import read_head

    S = np.zeros((12, 12))
    S[1:, 0], S[[2, 3], 1], S[4:, 3], S[8, 6] = 9.0, 10.0, 10.0, 13.0
    W, tokens = _causal(S), list("Abcdefghijkl")
    assert read_head(W, tokens).pattern == "sharp"
    d = mvec.head_does(W, tokens, 8)
    assert (d.kind, d.pattern, d.token, d.rest_key, d.share) == ("rest", "sink", "A", 0, "quarter")
    assert mvec.head_does(W, tokens, 1) == d  # (a row whose largest weight is on the first token)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(_BYTE_CHARS), min_size=1, max_size=6))
def test_a_piece_label_is_marked_exactly_where_the_token_is_a_glued_piece(spelled):
    """Any byte-level token: its readout label is its readable label, marked "‑" at the front
    exactly where it is letters glued to the text before (no leading space, newline or tab;
    not a cut character's byte, a number or punctuation alone); a marked token is always one
    :func:`is_fragment` counts, so the mark and "says little" never disagree."""
    from attention_core.models.token_labels import byte_level_labels

    label = byte_level_labels([spelled])[0]
    got = mvec.piece_label(spelled, label)
    glued = not spelled.startswith(("Ġ", "Ċ", "ĉ"))
    letters = any(c.isalpha() for c in label)
    cut = "\ufffd" in label or any(c in "¹²³⁴⁵⁶⁷⁸⁹" for c in label)
    special = label.startswith("<") and label.endswith(">")
    assert got in (label, mvec.PIECE + label)
    assert (got != label) == (glued and letters and not cut and not special), (spelled, got)
    if got != label:
        assert mvec.is_fragment(spelled, label), (spelled, label)
    assert (
        mvec.piece_label("Ġ" + spelled, byte_level_labels(["Ġ" + spelled])[0])
        == (byte_level_labels(["Ġ" + spelled])[0])
    )


# -- against transformers ------------------------------------------------------------------------
TEXT = "The old fisherman gave the young boy a boat because he was kind."
LAYER, HEAD = 3, 3  # from 1


def _reference(torch, layers):
    """transformers' LlamaForCausalLM (float64, eager) with our GGUF reader's tensors, its first
    ``layers`` layers only, its lm_head tied to the embeddings."""
    from smollm2_reference import llama_reference

    return llama_reference(torch, layers, lm_head=True)[0]


def _reference_moved(torch, model, ids, layer, head, query):
    """E, ΔE and the readout's logits (of E, of E + ΔE, ΔE's direct effect) from transformers."""
    caught = {}
    attn = model.model.layers[layer - 1].self_attn
    hook = attn.v_proj.register_forward_hook(lambda m, i, o: caught.__setitem__("v", o[0]))
    with torch.no_grad():
        r = model(torch.tensor([ids]), output_attentions=True, output_hidden_states=True)
        hook.remove()
        E = r.hidden_states[layer - 1][0, query]
        alpha = r.attentions[layer - 1][0, head - 1, query]  # (n,)
        d, groups = 64, model.config.num_attention_heads // model.config.num_key_value_heads
        g = (head - 1) // groups
        V = caught["v"][:, g * d : (g + 1) * d]  # (n, 64)
        cols = attn.o_proj.weight[:, (head - 1) * d : head * d]  # (576, 64)
        terms = (alpha[:, None] * V) @ cols.T  # (n, 576)
        delta = terms.sum(0)
        norm, lm = model.model.norm, model.lm_head
        before, after = lm(norm(E[None]))[0], lm(norm((E + delta)[None]))[0]
        eps = norm.variance_epsilon
        scale = torch.sqrt(torch.mean((E + delta) ** 2) + eps)
        pushed = lm((delta / scale * norm.weight)[None])[0]
    return {k: v.numpy() for k, v in dict(E=E, terms=terms, delta=delta, before=before,
                                           after=after, pushed=pushed).items()}  # fmt: skip


def _softmax(z):
    e = np.exp(z - z.max())
    return e / e.sum()


def _check_readout(mv, ref, key_token):
    r = mv.readout
    before, after, pushed = ref["before"], ref["after"], ref["pushed"]
    for ids, probs, logits in ((r.before_ids, r.before, before), (r.after_ids, r.after, after)):
        assert list(ids) == list(np.argsort(-logits, kind="stable")[:5])
        assert [p for _, p in probs] == pytest.approx(_softmax(logits)[list(ids)], abs=1e-4)
    assert list(r.pushed_ids) == list(np.argsort(-pushed, kind="stable")[:5])
    assert [x for _, x in r.pushed] == pytest.approx(pushed[list(r.pushed_ids)], abs=1e-4)
    assert r.key_change == pytest.approx(pushed[key_token], abs=1e-4)
    assert r.key_rank_after == 1 + int(np.sum(after > after[key_token]))
    assert r.key_pushed == (key_token in np.argsort(-pushed)[:5])


@pytest.mark.xdist_group("moved_vector_reference")
def test_e_delta_and_readout_equal_transformers(torch, cli, tmp_path):
    """The core against transformers; then ``numbers --json``'s "moved" for the file from-model
    writes, through the real entry point (a fresh process runs the model again)."""
    from attention_core.models import smollm2_files
    from attention_core.models.from_decoder import decoder_example
    from attention_core.models.from_model import write_example

    made = decoder_example(TEXT, LAYER, HEAD)
    ex = made.example("fisherman")
    assert ex.model_text == TEXT
    mv = ac.moved_vector(ac.trace_example(ex))
    ids = smollm2_files.tokenize(TEXT).ids
    ref = _reference_moved(torch, _reference(torch, LAYER), ids, LAYER, HEAD, mv.query)
    assert mv.source == "residual"
    close = lambda a, b: np.testing.assert_allclose(a, b, rtol=0, atol=1e-4)  # noqa: E731
    close(mv.E, ref["E"])
    close(mv.terms, ref["terms"])
    close(mv.delta, ref["delta"])
    close(mv.after, ref["E"] + ref["delta"])
    _check_readout(mv, ref, ids[mv.key])
    write_example(tmp_path / "f.toml", made)
    r = cli("numbers", "f.toml", "--json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    got = json.loads(r.stdout)["moved"]
    assert (got["query"], got["key"], got["head"], got["E_is"]) == (mv.query, mv.key, 1, "residual")
    close(got["E"], ref["E"])
    close(got["delta"], ref["delta"])
    close(got["after"], ref["E"] + ref["delta"])
    assert [t["key"] for t in got["terms"]] == list(range(len(ids)))
    close([t["norm"] for t in got["terms"]], np.linalg.norm(ref["terms"], axis=1))
    words = got["readout"]
    for part in ("before", "after", "pushed"):
        want = getattr(mv.readout, part)
        assert [t for t, _ in words[part]] == [t for t, _ in want]
        assert [x for _, x in words[part]] == pytest.approx([x for _, x in want], abs=1e-9)
    assert words["key"]["token"] == mv.readout.key_label
    assert words["says_little"] == mv.readout.says_little


def test_numbers_json_moved_of_a_users_example(cli):
    """Without a model: E the followed query's input row, ΔE its head's output through the head's
    rows of W_O, no readout."""
    r = cli("numbers", "two-heads", "--json")
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    got, f = data["moved"], data["followed"]
    i, h = got["query"], got["head"] - 1
    assert (i, got["key"], got["head"]) == (f["query"], f["key"], f["head"])
    head = data["heads"][h]
    V = np.asarray(head["V"])
    rows = np.asarray(data["W_o"])[h * V.shape[1] : (h + 1) * V.shape[1]]
    terms = (np.asarray(head["weights"])[i][:, None] * V) @ rows
    assert got["E"] == pytest.approx(data["X"][i]) and got["readout"] is None
    assert got["delta"] == pytest.approx(terms.sum(axis=0))
    assert [t["norm"] for t in got["terms"]] == pytest.approx(np.linalg.norm(terms, axis=1))
    assert got["after"] == pytest.approx(np.asarray(data["X"][i]) + terms.sum(axis=0))


def _repeated_random_text(count=8, seed=0):
    """``count`` random words of one token each (a space before each), then the same again."""
    from attention_core.models import model_residual as mr
    from attention_core.models import smollm2_files

    lens = mr.decoder_lens()
    words = [s[1:] for s in lens.spelled
             if s.startswith("Ġ") and s[1:].isascii() and s[1:].isalpha() and s[1:].islower()
             and len(s) > 5]  # fmt: skip
    rng = np.random.default_rng(seed)
    while True:
        picked = list(rng.choice(words, count, replace=False))
        text = " " + " ".join(picked * 2)
        if len(smollm2_files.tokenize(text).ids) == 2 * count:
            return text


@pytest.mark.xdist_group("moved_vector_copying")  # beside the reference, on the other worker
def test_the_copying_story_on_a_repeated_random_sequence():
    """Layer 19, head 7 (examples/smollm2-induction.toml) attends, from each token of the second
    half, the token after that token's first occurrence (an induction head); ``key_pushed`` says
    whether its ΔE raises that token among the 5 it pushes most (the copying story). It does not:
    this head's direct effect leaves the attended token thousands of places down, so the reading
    must not tell the copying story for it (the scene says what ΔE pushes instead)."""
    from attention_core.models.from_decoder import decoder_example

    count, layer, head = 8, 19, 7
    text = _repeated_random_text(count)
    tr = ac.trace_example(decoder_example(text, layer, head).example("repeated"))
    for i in range(count + 2, 2 * count):  # (the first repeat rests on the first token)
        mv = ac.moved_vector(tr, query=i)
        assert mv.key == i - count + 1  # the induction target
        assert tr.heads[0].weights[i, mv.key] > 0.4
        r = mv.readout
        assert r.key_pushed == (r.key_token in r.pushed_ids)
        assert not r.key_pushed and r.key_rank_after > 100, (i, r.key_label, r.pushed)
