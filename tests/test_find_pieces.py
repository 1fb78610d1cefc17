"""Issue 39: what is taught is what was computed, and one rule for untrusted text in `heads`.

A key word cut into pieces is one key whose weight sums its pieces everywhere (heads, the file
from-model writes with ``key_pieces``, numbers --json's ``followed``, the head's story); a
weight the causal mask forces is never ranked as a link; TEXT, SRC and DST get from-model's text
check; words match in NFC; a bad occurrence number blames the number; a message quotes at most
about 40 characters of what the user gave. Core properties first (hypothesis, no model), then
the real entry point (the console script), grouped per model as the model tests are."""

from __future__ import annotations

import json
import unicodedata

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import attention_core as ac
from attention_core.example import references as refs
from attention_core.example.validation import SHOWN, listed, shown
from attention_core.models.model_example import check_model_text
from attention_core.readings import followed as fw
from attention_core.readings import head_search as hs
from attention_core.softmax import softmax

letters = st.text(st.sampled_from("abcdefghijklmnopqrstuvwxyzé"), min_size=1, max_size=6)


# -- a key word cut into pieces ------------------------------------------------------------------
@settings(max_examples=80, deadline=None)
@given(st.lists(letters, min_size=1, max_size=6))
def test_the_word_of_wordpiece_pieces_is_their_letters(parts):
    """MiniLM's pieces: the first as is, each later one marked ##; the word is their letters."""
    labels = [parts[0], *("##" + p for p in parts[1:])]
    assert hs.pieces_word(labels) == "".join(parts)
    text = hs.pieces_text(labels)
    assert text == labels[0] if len(parts) == 1 else text.endswith(" + ".join(labels))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from("早上好猫a"), min_size=1, max_size=5), st.integers(2, 4))
def test_a_character_cut_into_byte_pieces_is_whole_in_the_word(chars, cut):
    """SmolLM2's labels show a character cut over tokens with superscripts (早¹ 早²): the word
    of the pieces is the characters again."""
    from attention_core.models.token_labels import SUPERSCRIPTS

    assert hs.SUPERSCRIPTS == SUPERSCRIPTS  # the same marks as the labels' (a core edge apart)
    labels = [c + SUPERSCRIPTS[k] for c in chars for k in range(cut)]
    assert hs.pieces_word(labels) == "".join(chars)


@st.composite
def rows_with_a_word(draw):
    """Random weights (causal or not) of n tokens, a query, and a key word of 1–3 pieces it
    may see."""
    n = draw(st.integers(3, 8))
    scores = np.array(draw(st.lists(st.floats(-4, 4), min_size=n * n, max_size=n * n)))
    scores = scores.reshape(n, n)
    causal = draw(st.booleans())
    if causal:
        scores = np.where(np.tril(np.ones((n, n))) > 0, scores, -np.inf)
    q = draw(st.integers(1, n - 1))
    last = q if causal else n - 1
    size = draw(st.integers(1, 3))
    start = draw(st.integers(0, max(0, last - size + 1)))
    pieces = tuple(range(start, min(start + size, last + 1)))
    return softmax(scores, axis=-1), q, pieces


@settings(max_examples=150, deadline=None)
@given(rows_with_a_word())
def test_an_asked_word_is_one_key_whose_weight_sums_its_pieces(case):
    """The story of an asked key word: its weight the sum of its pieces' weights; its rank, the
    runner-up and the largest weight read over the word as one key; one piece: as before."""
    W, q, pieces = case
    tokens = [f"t{i}" for i in range(W.shape[0])]
    k = max(pieces, key=lambda j: (W[q, j], -j))
    pair = fw.FollowedPair(q, k, "asked", pieces if len(pieces) > 1 else ())
    story = fw.story_of(W, tokens, pair)
    total = float(W[q, list(pieces)].sum())
    assert story.weight == pytest.approx(total, abs=1e-12) == pair.weight(W)
    assert story.pieces == pieces and story.key == (k if story.habit is None else story.key)
    assert story.key in pieces
    others = [float(W[q, j]) for j in range(W.shape[1]) if j not in pieces]
    assert story.rank == 1 + sum(w > story.weight for w in others)
    if story.other is not None:
        assert story.other not in pieces and story.other_weight == max(others)
    if story.habit is None and story.peer is None:
        assert set(story.fits) == {(q, p) for p in pieces}  # each piece of the word framed
    if story.peer is not None and len(pieces) > 1:  # other queries look most at the word
        assert story.peer not in pieces and {(q, p) for p in pieces} <= set(story.fits)
        assert {j for _, j in story.fits} == set(pieces)
        assert story.peer_weight == pytest.approx(W[story.peer, list(pieces)].sum(), abs=1e-12)
    if len(pieces) == 1:  # a key of one token: the story as it always was
        assert story == fw.asked_story(W, tokens, q, k)


def test_key_pieces_name_one_word_and_the_followed_pair_sums_them():
    tokens = ["[CLS]", "the", "fish", "##erman", "sat", "[SEP]"]
    ex = ac.Example(tokens=tokens, embeddings=np.eye(6)[:, :3], seed=3, d_k=2,
                    query="sat", key_pieces=["fish", "##erman"])  # fmt: skip
    assert ex.key_piece_indices == (2, 3) and ex.key_index is None
    again = ac.Example.from_dict(ex.to_dict())
    assert again.key_pieces == ("fish", "##erman") and again.key_piece_indices == (2, 3)
    trace = ac.trace_example(ex)
    W = trace.heads[0].weights
    pair = ac.followed_pair(trace)
    assert pair.pieces == (2, 3) and pair.key == 2 + int(W[4, 3] > W[4, 2])
    story = ac.head_story(trace)
    assert story.weight == pytest.approx(W[4, 2] + W[4, 3]) and story.keys == (2, 3)
    named = ac.Example(tokens=tokens, embeddings=np.eye(6)[:, :3], seed=3, d_k=2,
                       query="sat", key="##erman", key_pieces=["fish", "##erman"])  # fmt: skip
    assert ac.followed_pair(ac.trace_example(named)).key == 3


@pytest.mark.parametrize(
    "kw, match",
    [
        ({"key_pieces": ["a", "b"]}, "key_pieces: needs query"),
        ({"query": "c", "key_pieces": "ab"}, "key_pieces: expected a list of the key word's"),
        ({"query": "c", "key_pieces": ["a"]}, "key_pieces: 1 labels; a word cut into pieces"),
        ({"query": "c", "key_pieces": ["a", "c"]}, "key_pieces[1]: 'c' is not the token after"),
        ({"query": "c", "key_pieces": ["b", "a"]}, "key_pieces[1]: 'a' is not the token after"),
        ({"query": "c", "key_pieces": ["a", "zz"]}, "key_pieces[1]: 'zz' is not one of the"),
        ({"query": "c", "key": "c", "key_pieces": ["a", "b"]}, "key: 'c' is not one of key_"),
        ({"query": "b", "key_pieces": ["b", "c"], "mask": "causal"}, "key_pieces: the mask "),
    ],
)
def test_bad_key_pieces_are_one_line_naming_the_field(kw, match):
    with pytest.raises(ValueError) as exc:
        ac.Example(tokens=["a", "b", "c", "d"], embeddings=np.eye(4)[:, :2], **kw)
    assert str(exc.value).startswith(match) and "\n" not in str(exc.value), str(exc.value)


# -- a weight the mask forces ------------------------------------------------------------------
LABELS = ["cat", "sat", "on", "the", "mat"]
SPANS = [(0, 3), (3, 7), (7, 10), (10, 14), (14, 18)]
TEXT = "cat sat on the mat"


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 4), st.integers(0, 4), st.booleans())
def test_a_pair_whose_weight_the_mask_forces_is_refused(i, j, causal):
    """Under a causal mask the first token sees only itself: cat->cat is 1 in every head, and
    refused (ForcedWeight, one line naming --find); every other pair it may see is a pair."""
    words = hs.text_words(TEXT, SPANS)
    spec = f"{LABELS[i]}->{LABELS[j]}"
    if causal and j > i:
        with pytest.raises(ValueError, match="comes after"):
            hs.find_pair(spec, words, LABELS, causal=causal)
    elif causal and i == j == 0:
        with pytest.raises(hs.ForcedWeight) as exc:
            hs.find_pair(spec, words, LABELS, causal=causal)
        assert str(exc.value).startswith("--find: 'cat' is token 1, and under the causal mask")
        assert "forced by the mask" in str(exc.value) and "\n" not in str(exc.value)
    else:
        assert hs.find_pair(spec, words, LABELS, causal=causal).query == i


def test_a_word_holding_every_key_its_query_sees_is_forced_too():
    """早 cut into two tokens, first in the text: its last piece sees only 早¹ 早²."""
    labels, spans = ["早¹", "早²", "上"], [(0, 1), (0, 1), (1, 2)]
    words = hs.text_words("早 上", [(0, 1), (0, 1), (2, 3)])
    with pytest.raises(hs.ForcedWeight, match="sees only 早¹ 早²"):
        hs.find_pair("早->早", words, labels, causal=True)
    assert hs.find_pair("上->早", words, labels, causal=True).keys == (0, 1)
    assert spans  # the labels' own spans: one character in two tokens


# -- one text check, NFC, occurrence numbers, quoting ------------------------------------------
HOSTILE = ["\u202e", "\u200b", "\ufeff", "\u2028", "\x07", "\u2066"]


@pytest.mark.parametrize("c", HOSTILE)
def test_text_and_find_get_the_text_check_from_model_makes(c):
    with pytest.raises(ValueError, match=r"^TEXT: 'the cat\\") as exc:
        check_model_text(f"the cat{c}sat")
    assert "\n" not in str(exc.value) and c not in str(exc.value)
    with pytest.raises(ValueError, match="^--find: ") as exc:
        hs.parse_find(f"cat->th{c}e")
    assert c not in str(exc.value)


@settings(max_examples=100, deadline=None)
@given(st.text(st.sampled_from("aeiouçcñn\u0301\u0303\u0327"), min_size=1, max_size=8))
def test_words_match_in_nfc(word):
    """A word typed in NFD matches its NFC spelling in the text, and the other way round; the
    combining accents stay in their word."""
    nfc, nfd = unicodedata.normalize("NFC", word), unicodedata.normalize("NFD", word)
    for written, asked in ((nfc, nfd), (nfd, nfc)):
        text = f"x {written} y"
        words = hs.text_words(text, [(i, i + 1) for i in range(len(text))])
        if not any(w.text == written for w in words):  # a word starting with a lone accent
            continue
        assert refs.pick_occurrence([w.text for w in words], asked, "a word", "--find") == 1


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(["#0", "#-1", "#1.5", "##2", "#", "₀", "#1e3", "#+2", "#٣x1"]))
def test_an_occurrence_number_that_is_not_one_blames_the_number(suffix):
    names = ["the", "cat", "saw", "the", "dog"]
    with pytest.raises(ValueError) as exc:
        refs.pick_occurrence(names, "the" + suffix, "a word", "--find")
    message = str(exc.value)
    assert "is not an occurrence number" in message and "is not a word" not in message
    assert "the₁ … the₂" in message


@settings(max_examples=50, deadline=None)
@given(st.text(min_size=1, max_size=20), st.integers(1, 20_000))
def test_messages_quote_at_most_about_forty_characters(part, times):
    """Of any text (repeated up to 400,000 characters) a message quotes at most SHOWN
    characters, each escaped at most as \\U0001xxxx, and says how long the rest is."""
    text = part * times
    assert len(shown(text)) <= 10 * SHOWN + 30
    if text.isascii() and text.isalnum():
        assert len(shown(text)) <= SHOWN + 30
    assert len(listed(text.split() or [text])) <= 10 * SHOWN + 40


def test_a_long_word_is_quoted_short():
    big = "a" * 120_000
    for spec in (f"cat->{big}", f"{big}->cat"):
        with pytest.raises(ValueError) as exc:
            hs.find_pair(spec, hs.text_words(TEXT, SPANS), LABELS)
        assert len(str(exc.value)) < 150 and "120,000 characters" in str(exc.value)


# -- the real entry point ------------------------------------------------------------------------
def _one_line(r) -> str:
    assert r.returncode == 2, (r.returncode, r.stderr)
    assert len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr, r.stderr
    assert r.stdout == ""
    return r.stderr


@pytest.mark.parametrize("c", HOSTILE)
def test_heads_refuses_what_from_model_refuses(cli, tmp_path, c):
    """Before: heads accepted U+202E, U+200B, U+FEFF, U+2028 and printed them raw."""
    text = f"the cat{c}sat"
    heads = _one_line(cli("heads", text))
    made = _one_line(cli("from-model", text, "--layer", "1", "--head", "1", cwd=tmp_path))
    assert heads == made and c not in heads and list(tmp_path.iterdir()) == []


@pytest.mark.xdist_group("minilm_find")
def test_minilm_find_messages(cli):
    """NFC and NFD spellings of café match each other; a bad occurrence number blames the
    number; a 120,000-character word is quoted short."""
    nfc, nfd = "caf\u00e9", "cafe\u0301"
    for text, asked in ((f"the {nfc} is open", nfd), (f"the {nfd} is open", nfc)):
        r = cli("heads", text, "--find", f"{asked}->the", "--json")
        assert r.returncode == 0, r.stderr
    for suffix, number in (("#-1", "'-1'"), ("#1.5", "'1.5'"), ("##2", "'#2'"), ("#0", "'0'")):
        err = _one_line(cli("heads", "the cat saw the dog", "--find", f"the{suffix}->cat"))
        assert f"--find: 'the{suffix}': {number} is not an occurrence number" in err, err
    err = _one_line(cli("heads", "the cat", "--find", "cat->" + "a" * 120_000))
    assert len(err) < 150 and "(120,000 characters) is not a word of TEXT" in err, err


@pytest.mark.xdist_group("minilm_find")
def test_minilm_word_in_pieces_is_one_key_everywhere(cli, tmp_path):
    """Before: heads and from-model's stderr said 0.877 (the 6 pieces summed), the file and
    numbers --json followed ##tic alone (0.259), and nothing said why. Now the file names the
    pieces, numbers --json gives their sum and AttentionMatrix's caption says it."""
    text, find = "supercalifragilistic word", "word->supercalifragilistic"
    hits = json.loads(cli("heads", text, "--find", find, "--json").stdout)
    best = next(h for h in hits if h["habit"] is None)
    r = cli("from-model", text, "--find", find, "-o", "s.toml", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert f"(weight {best['weight']:.3f}, the sum of its pieces)" in r.stderr, r.stderr
    assert "key 'supercalifragilistic = super + ##cal + ##if + ##rag + ##ilis + ##tic'" in r.stderr
    ex = ac.load_example(tmp_path / "s.toml")
    assert ex.key_pieces == ("super", "##cal", "##if", "##rag", "##ilis", "##tic")
    data = json.loads(cli("numbers", "s.toml", "--json", cwd=tmp_path).stdout)
    followed = data["followed"]
    assert followed["key_pieces"] == [1, 2, 3, 4, 5, 6] and followed["query"] == 7
    assert followed["weight"] == pytest.approx(best["weight"], abs=1e-6)
    assert followed["weight"] == pytest.approx(sum(data["weights"][7][1:7]), abs=1e-12)
    story = ac.head_story(ac.trace_example(ex))
    assert story.weight == pytest.approx(followed["weight"], abs=1e-12)


@pytest.mark.xdist_group("decoder_model")
def test_smollm2_forced_weight_is_refused_by_heads_and_from_model(cli, tmp_path):
    """Before: heads ranked all 270 heads at 1.000 and from-model wrote layer 1 head 1 as the
    best link, for a weight the causal mask forces."""
    args = ("cat sat on the mat", "--model", "smollm2", "--find", "cat->cat")
    heads = _one_line(cli("heads", *args))
    assert "under the causal mask it sees only itself" in heads and "not a link" in heads
    made = _one_line(cli("from-model", *args, cwd=tmp_path))
    assert made == heads and list(tmp_path.iterdir()) == []


# -- the scenes say the word and its summed weight -----------------------------------------------
def _pieced(**kw):
    tokens = ["[CLS]", "the", "fish", "##erman", "sat", "[SEP]"]
    return ac.Example(tokens=tokens, embeddings=np.eye(6)[:, :4] + 0.3, seed=5, d_k=3,
                      query="sat", key_pieces=["fish", "##erman"], **kw)  # fmt: skip


@pytest.mark.parametrize("aspect", ["16:9", "1:1"])
def test_attention_matrix_says_the_key_word_and_its_summed_weight_and_shows_it(aspect):
    """Before: the reading said "sat → ##erman 0.xxx", the last piece alone. Now "sat →
    fisherman = fish + ##erman: <sum>", and the sum is on the still (a line under the grid or in
    the heading's place), every number there the core's."""
    from scene_checks import numbers_problems, unshown_caption_numbers
    from scenes.kit.look import Look
    from scenes.kit.registry import find
    from scenes.pipeline.stills import run_steps

    ex = _pieced()
    W = ac.trace_example(ex).heads[0].weights
    total = f"{W[4, 2] + W[4, 3]:.3f}"
    look = Look.for_example(ex, lang="en", aspect=aspect)

    def snap(s):
        return s.steps[-1]["caption"], unshown_caption_numbers(s) + numbers_problems(s)

    stills = run_steps(find("AttentionMatrix").load(), ex, look=look, pixel_height=360,
                       snapshot=snap)  # fmt: skip
    caption, problems = next(st.snapshot for st in stills if st.key == "reading")
    assert f"sat → fisherman = fish + ##erman: {total}" in caption, caption
    assert not problems, problems


def test_a_score_step_names_its_piece_as_one_piece_of_the_word():
    """Scaling's pair step speaks of one piece's score (scores do not add up): it says that
    piece is one piece of the pair asked about, whose weight sums the pieces."""
    from scenes.kit.look import Look
    from scenes.kit.registry import find
    from scenes.pipeline.stills import run_steps

    ex = _pieced()
    look = Look.for_example(ex, lang="en")
    stills = run_steps(find("Scaling").load(), ex, look=look, frames=False)
    pair = next(st.caption for st in stills if st.key == "pair")
    assert "is one piece of the pair asked about, sat → fisherman = fish + ##erman" in pair, pair
