"""Which head links two words (attention_core.readings.head_search), without a model: words as token
pieces, numbered occurrences, the pair's weight, habits, the ranking; and the refusals of
`heads` and `from-model --find` that need no forward pass. The model runs (against transformers)
are in tests/test_model.py and tests/test_decoder_model.py."""

from __future__ import annotations

import numpy as np
import pytest

import attention_core as ac
from attention_core.example import references as refs
from attention_core.readings import head_search as hs
from attention_core.softmax import softmax

TEXT = "The trophy did not fit in the suitcase because it was too big"
# SmolLM2's cut of TEXT: 'suitcase' is two pieces
SPANS = [(0, 3), (3, 10), (10, 14), (14, 18), (18, 22), (22, 25), (25, 29), (29, 34), (34, 38),
         (38, 46), (46, 49), (49, 53), (53, 57), (57, 61)]  # fmt: skip
LABELS = ["The", "trophy", "did", "not", "fit", "in", "the", "suit", "case", "because", "it",
          "was", "too", "big"]  # fmt: skip


def test_words_are_their_pieces_and_a_split_word_sums_its_pieces():
    words = hs.text_words(TEXT, SPANS)
    assert [w.text for w in words][:3] == ["The", "trophy", "did"]
    suitcase = next(w for w in words if w.text == "suitcase")
    assert suitcase.pieces == (7, 8)
    pair = hs.find_pair("it->suitcase", words, LABELS, causal=True)
    assert pair.query == 10 and pair.keys == (7, 8)
    W = np.zeros((1, 14, 14))
    W[0, 10, [7, 8, 1]] = [0.25, 0.5, 0.25]
    (hit,) = hs.search_heads([W], LABELS, pair)
    assert hit.weight == 0.75 and (hit.layer, hit.head) == (1, 1)


def test_a_word_cut_in_pieces_is_queried_at_its_last_piece_and_cls_is_a_token():
    text = "the cat was unbelievably fluffy"
    spans = [(0, 0), (0, 3), (4, 7), (8, 11), (12, 14), (14, 17), (17, 19), (19, 21), (21, 24),
             (25, 31), (0, 0)]  # fmt: skip
    labels = ["[CLS]", "the", "cat", "was", "un", "##bel", "##ie", "##va", "##bly", "fluffy",
              "[SEP]"]  # fmt: skip
    words = hs.text_words(text, spans)
    pair = hs.find_pair("Unbelievably->[CLS]", words, labels)
    assert pair.query == 8 and pair.keys == (0,)
    assert hs.find_pair("fluffy->unbelievably", words, labels).keys == (4, 5, 6, 7, 8)


@pytest.mark.parametrize(
    "spec, match",
    [
        ("it->zebra", "--find: 'zebra' is not a word of TEXT (The trophy did"),
        ("THE->it", "--find: 'THE' occurs 2 times; pick one as THE₁ … THE₂ (or THE#1 … THE#2)"),
        ("the#3->it", "--find: 'the#3' asks for occurrence 3, but 'the' occurs 2 times"),
        ("it trophy", "--find: 'it trophy' is not SRC->DST"),
        ("it->", "--find: 'it->' is not SRC->DST"),
        ("->it", "--find: '->it' is not SRC->DST"),
        ("trophy->it", "--find: 'it' comes after 'trophy', and under the causal mask"),
    ],
)
def test_bad_find_is_one_line_naming_find(spec, match):
    with pytest.raises(ValueError) as exc:
        hs.find_pair(spec, hs.text_words(TEXT, SPANS), LABELS, causal=True)
    assert str(exc.value).startswith(match) and "\n" not in str(exc.value)


def test_numbered_occurrences_pick_the_later_word():
    words = hs.text_words(TEXT, SPANS)
    assert hs.find_pair("the₂->trophy", words, LABELS).query == 6
    assert hs.find_pair("the#2->The#1", words, LABELS).keys == (0,)
    assert hs.find_pair("the->The", words, LABELS).keys == (0,)  # as written: one each
    assert hs.find_pair("the->trophy", words, LABELS).query == 6
    assert hs.find_pair("IT->TROPHY", words, LABELS).keys == (1,)  # else in any case
    assert refs.numbered("it", 12) == "it₁₂" and refs.split_numbered("it₁₂") == ("it", 12)
    assert hs.label_ref(["a", "it", "it"], 2) == "it₂" and hs.label_ref(["a", "it"], 1) == "it"


def _previous_head(n: int) -> np.ndarray:
    scores = np.where(np.tril(np.ones((n, n))) > 0, 0.0, -np.inf)
    scores[np.arange(1, n), np.arange(n - 1)] += 6.0
    return softmax(scores, axis=-1)


def _sink_head(n: int) -> np.ndarray:
    scores = np.where(np.tril(np.ones((n, n))) > 0, 0.0, -np.inf)
    scores[:, 0] += 6.0
    return softmax(scores, axis=-1)


def test_habits_are_told_apart_from_the_pair():
    """DST is the previous token of a previous-token head, or the first token of a sink head:
    the weight is the head's habit; another pair in the same head is not."""
    labels = ["a", "fluffy", "blue", "creature", "sat", "down"]
    spans = [(0, 1), (2, 8), (9, 13), (14, 22), (23, 26), (27, 31)]
    words = hs.text_words("a fluffy blue creature sat down", spans)
    prev, sink = _previous_head(6), _sink_head(6)
    layers = [np.stack([prev, sink])]
    to_blue = hs.search_heads(layers, labels, hs.find_pair("creature->blue", words, labels))
    assert [(h.head, h.habit) for h in to_blue] == [(1, "previous"), (2, None)]
    to_a = hs.search_heads(layers, labels, hs.find_pair("creature->a", words, labels))
    assert [(h.head, h.habit) for h in to_a] == [(2, "sink"), (1, None)]
    to_fluffy = hs.search_heads(layers, labels, hs.find_pair("creature->fluffy", words, labels))
    assert all(h.habit is None for h in to_fluffy)
    assert hs.best_link(to_blue).head == 2 and hs.best_link(to_a).head == 1
    assert to_blue[0].weight == pytest.approx(prev[3, 2]) and to_a[0].weight == sink[3, 0]


def test_without_find_heads_rank_by_the_readings_strength():
    labels = list("abcdef")
    layers = [np.stack([_sink_head(6), _previous_head(6)]), np.stack([np.tril(np.ones((6, 6)))
              / np.arange(1, 7)[:, None]])]  # fmt: skip
    hits = hs.search_heads(layers, labels)
    masses = [h.reading.mass for h in hits]
    assert masses == sorted(masses, reverse=True) and len(hits) == 3
    assert {h.reading.pattern for h in hits[:2]} == {"sink", "previous"}
    assert hits[-1].reading.pattern == "diffuse" and hits[-1].weight is None


def test_heads_help_says_how_words_are_named(cli):
    r = cli("heads", "--help")
    assert r.returncode == 0
    out = " ".join(r.stdout.split())
    for phrase in ("last piece", "sums its pieces", "word₂ or word#2", "--json", "64 tokens"):
        assert phrase in out, phrase


@pytest.mark.parametrize(
    "args, match",
    [
        (["hi", "--find", "hi"], "--find: 'hi' is not SRC->DST"),
        (["  "], "TEXT: give a sentence"),
        (["hi", "--model", "gpt"], "Invalid value for '--model'"),
        (["word " * 70], "TEXT: 72 tokens with [CLS] and [SEP]; at most 64"),
        (["the cat sat", "--find", "cat->dog"], "--find: 'dog' is not a word of TEXT"),
        (["the cat the dog", "--find", "dog->the"], "--find: 'the' occurs 2 times"),
    ],
)
def test_heads_refuses_with_one_line(cli, args, match):
    r = cli("heads", *args)
    assert r.returncode == 2, r.stderr
    assert match in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert "Traceback" not in r.stderr and r.stdout == ""


def test_sixty_four_tokens_are_searched(cli):
    r = cli("heads", "word " * 62, "--json")  # 62 words + [CLS] + [SEP]
    assert r.returncode == 0, r.stderr
    import json

    assert len(json.loads(r.stdout)) == 72


@pytest.mark.parametrize(
    "args, match",
    [
        (["a fluffy blue creature"], "--layer: give the layer, 1–6, or --find SRC->DST"),
        (["a fluffy creature", "--find", "creature->fluffy", "--layer", "7"], "--layer: 7 is"),
        (
            ["a fluffy creature", "--find", "creature->fluffy", "--layer", "1", "--head", "13"],
            "--head: 13 is outside 1 … 12",
        ),  # fmt: skip
        (["a fluffy creature", "--find", "creature->dog"], "--find: 'dog' is not a word"),
        (
            [
                "the trophy did not fit in the suitcase because it was too big, so we left the"
                " trophy at home and took the small bag",
                "--find",
                "it->trophy#1",
            ],
            "TEXT: 28 tokens with [CLS] and [SEP]; at most 24",
        ),  # fmt: skip
    ],
)
def test_from_model_find_refuses_with_one_line(cli, tmp_path, args, match):
    r = cli("from-model", *args, cwd=tmp_path)
    assert r.returncode == 2, r.stderr
    assert match in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert list(tmp_path.iterdir()) == []


# -- the followed query and key as example fields ------------------------------------------------
def _example(**kw):
    return ac.Example(tokens=["a", "it", "b", "it"], embeddings=np.eye(4)[:, :2], **kw)


def test_query_and_key_fields_name_tokens_and_round_trip():
    ex = _example(query="it₂", key="b", mask="causal")
    assert (ex.query_index, ex.key_index) == (3, 2)
    again = ac.Example.from_dict(ex.to_dict())
    assert (again.query, again.key, again.query_index) == ("it₂", "b", 3)
    two = _example(heads=2, seed=1, head=2, query="it₂")  # the head the scenes explain
    assert two.head_index == 1 and ac.Example.from_dict(two.to_dict()).head == 2
    trace = ac.trace_example(two)
    assert trace.attention is trace.heads[1] and _example().head_index == 0
    pair = ac.followed_pair(trace)
    assert pair.key == int(np.argmax(trace.heads[1].weights[3]))  # head 2's heaviest key
    assert _example(query="it#1").query_index == 1 and _example(query="a").key_index is None


@pytest.mark.parametrize(
    "kw, match",
    [
        ({"query": "it"}, "query: 'it' occurs 2 times; pick one as it₁ … it₂ (or it#1 … it#2)"),
        ({"query": "zz"}, "query: 'zz' is not one of the tokens (a it b it)"),
        ({"query": "it₃"}, "query: 'it₃' asks for occurrence 3, but 'it' occurs 2 times"),
        ({"query": 3}, 'query: expected a token label such as "it", got 3'),
        ({"key": "a"}, "key: needs query"),
        ({"query": "a", "key": "zz"}, "key: 'zz' is not one of the tokens"),
        ({"query": "it#1", "key": "b", "mask": "causal"}, "key: the mask blocks 'b' for query"),
        ({"head": 2}, "head: 2 is outside 1 … 1 (the head the scenes explain"),
        ({"head": True}, "head: expected a whole number 1 … 1, got True"),
    ],
)
def test_bad_query_or_key_is_one_line_naming_the_field(kw, match):
    with pytest.raises(ValueError) as exc:
        _example(**kw)
    assert str(exc.value).startswith(match) and "\n" not in str(exc.value)


def test_a_file_with_an_unknown_query_is_refused_by_numbers(cli, write_example):
    path = write_example('tokens = ["a", "b"]\nembeddings = [[1, 0], [0, 1]]\nquery = "c"\n')
    r = cli("numbers", path)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.strip().endswith("query: 'c' is not one of the tokens (a b)"), r.stderr


def test_order_check_of_an_example_naming_its_followed_pair():
    """The shuffled copy keeps the causal mask; the followed pair is no part of it (a key
    before its query would come after it, blocked)."""
    ex = _example(query="it₂", key="a", mask="causal")
    assert ac.order_check(ex).kind == "mask_orders"
    assert ac.shuffle_check(ex).perm == (3, 2, 1, 0)


def test_scenes_explain_the_head_the_example_names():
    """An example naming ``head = 2`` (as `from-model --find --all-heads` writes the best head):
    a single-head scene's title says head 2 and its reading is head 2's weight."""
    from scenes.kit.look import Look
    from scenes.kit.registry import find
    from scenes.pipeline.stills import run_steps

    ex = _example(heads=2, seed=1, head=2, query="it₂", key="a")
    w = ac.trace_example(ex).heads[1].weights[3, 0]

    def snap(s):
        title = [getattr(m, "source_text", "") for m in s.title_mob.get_family()]
        return " ".join(title), s.steps[-1]["caption"]

    look = Look.for_example(ex, lang="en")
    stills = run_steps(find("AttentionMatrix").load(), ex, look=look, frames=False, snapshot=snap)
    assert "head 2 of 2" in stills[0].snapshot[0]
    reading = next(st.snapshot[1] for st in stills if st.key == "reading")
    assert f"{w:.3f}" in reading, reading
