"""What a head's rows show (issue 40, parts 2, 4 and 7): sharp or diffuse by the rows' mean
normalised entropy, the strongest links on hand-built rows, readings named by model-level scores
where the model is known, every reading one entry of attention_core.readings.head_kinds (its test,
its score, its words in both languages, its JSON key), and `heads TEXT` grouped by what the heads
do, through the real entry point, for both models."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import attention_core as ac
from attention_core.readings import head_kinds as hk
from attention_core.readings import head_search as hs
from attention_core.readings import heads
from attention_core.readings import sharpness as sh
from attention_core.readings.copy_heads import is_causal
from attention_core.readings.head_scores import HeadScores

SETTINGS = settings(max_examples=60, deadline=None)
NONE = HeadScores(previous=0.0, duplicate=0.0, induction=0.0, copying=0.0)


def _even(m: int, keys) -> np.ndarray:
    """A row of ``m`` weights spread evenly over ``keys``."""
    row = np.zeros(m)
    row[list(keys)] = 1.0 / len(keys)
    return row


# -- sharp or diffuse ---------------------------------------------------------------------------
@SETTINGS
@given(st.integers(2, 30), st.data())
def test_an_even_split_over_k_keys_has_entropy_log_k_over_log_m(m, data):
    """A row spread evenly over k of its m keys: H = ln k / ln m exactly, so the threshold ½ is an
    even split over √m keys; sharp below it, diffuse at or above it."""
    ks = data.draw(st.lists(st.integers(1, m), min_size=m, max_size=m))
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))  # which k keys: any
    rows = [(k, _even(m, rng.permutation(m)[:k])) for k in ks]
    W = np.stack([r for _, r in rows])
    # the rows of a bidirectional head: zeros that happen to fall above the diagonal everywhere
    # would read as a causal mask, each row then seeing only the keys up to it
    assume(not is_causal(W))
    want = [math.log(k) / math.log(m) for k, _ in rows]
    np.testing.assert_allclose(sh.row_entropy(W), want, atol=1e-12)
    mean = float(np.mean(want))
    assert sh.mean_entropy(W) == pytest.approx(mean, abs=1e-12)
    if abs(mean - sh.SHARP_BELOW) > 1e-9:
        assert sh.is_sharp(W) == (mean < sh.SHARP_BELOW)


@SETTINGS
@given(st.integers(2, 24), st.integers(0, 2**31))
def test_one_hot_rows_are_sharp_and_even_rows_diffuse(n, seed):
    """Every row on one key (any key, noise below 1e-6 aside): sharp, and the head without a
    habit reads "sharp" (or split between two habits), never "diffuse"; every row even over
    what it sees: diffuse."""
    rng = np.random.default_rng(seed)
    W = np.eye(n)[rng.integers(0, n, n)] * (1 - 1e-6) + 1e-6 / n
    assert sh.mean_entropy(W) < 0.01 and sh.is_sharp(W)
    r = ac.read_head(W)
    split = hk.split_of(r.pattern) is not None
    assert r.pattern != "diffuse" and (r.habitual or r.pattern == "sharp" or split)
    even = np.full((n + 1, n + 1), 1.0 / (n + 1))  # 3 keys or more: no habit holds half
    assert sh.mean_entropy(even) == pytest.approx(1.0) and ac.read_head(even).pattern == "diffuse"


def test_causal_rows_count_only_the_keys_they_see():
    """Under a causal mask row i sees i + 1 keys: even over them is entropy 1; the first row,
    forced onto itself, is left out."""
    n = 6
    W = np.tril(np.ones((n, n))) / np.arange(1, n + 1)[:, None]
    h = sh.row_entropy(W)
    assert math.isnan(h[0]) and np.allclose(h[1:], 1.0)
    assert ac.read_head(W).pattern == "diffuse"


# -- the strongest links ------------------------------------------------------------------------
@SETTINGS
@given(st.integers(3, 16), st.integers(0, 2**31))
def test_links_group_the_queries_by_their_heaviest_key(n, seed):
    """Hand-built rows: each row puts w on one chosen key (w ≥ 0.5 for some, below for others)
    and the rest evenly elsewhere; the links are exactly the rows at or above 0.5, grouped by
    their key (a row on itself under "itself"), content links first, the most queries first."""
    rng = np.random.default_rng(seed)
    keys = rng.integers(0, n, n)
    tops = rng.choice([0.3, 0.45, 0.6, 0.8, 0.97], n)
    W = np.empty((n, n))
    for i in range(n):
        W[i] = (1 - tops[i]) / (n - 1)
        W[i, keys[i]] = tops[i]
    links = sh.strongest_links(W)
    want: dict[int, list[int]] = {}
    for i in range(n):
        if tops[i] >= 0.5:
            want.setdefault(sh.SELF if keys[i] == i else int(keys[i]), []).append(i)
    assert {g.key: list(g.queries) for g in links} == want
    for g in links:
        assert g.weights == tuple(float(W[i].max()) for i in g.queries)
        assert g.content == (g.key != sh.SELF)  # not causal, no [CLS]: no resting place
    sizes = [(not g.content, -len(g.queries)) for g in links]
    assert sizes == sorted(sizes)


def test_links_name_the_issue_s_head_as_a_lecturer_would():
    """would, soon, turn, wild → sea (0.94–0.99); gathered → clouds 0.80; the rows on the first
    token (a resting place under a causal mask) after them."""
    tokens = ["The", "sea", "would", "soon", "turn", "wild", "clouds", "gathered", "then"]
    n = len(tokens)
    top = {2: (1, 0.94), 3: (1, 0.99), 4: (1, 0.97), 5: (1, 0.95), 6: (5, 0.4), 7: (6, 0.80),
           1: (0, 0.9), 8: (0, 0.7)}  # fmt: skip
    W = np.eye(n)
    for i, (k, w) in top.items():  # w on k, the rest evenly on the other keys row i sees
        W[i, : i + 1] = (1 - w) / i
        W[i, k] = w
    links = sh.strongest_links(W, tokens)
    assert [g.content for g in links] == [True, True, False]
    text = sh.links_text(links, tokens)
    assert text.startswith("would, soon, turn, wild → sea (0.94–0.99); gathered → clouds 0.80; ")
    r = ac.read_head(W, tokens, NONE)
    assert r.pattern == "sharp" and "would, soon, turn, wild → sea" in r.text


# -- named by the model's scores where the model is known ----------------------------------------
def test_a_score_names_the_head_and_the_rows_alone_do_not():
    """A previous-token head's rows, read knowing a model whose scores are low, are not called
    previous-token (they are sharp links here); the same rows with a score of 0.9: previous-token,
    its score printed, what the rows show kept as ``here``. Without scores (a hand-made example):
    the rows' own reading."""
    n = 8
    W = np.eye(n, k=-1)
    W[0, 0] = 1.0
    assert ac.read_head(W).pattern == "previous"
    low = ac.read_head(W, None, NONE)
    assert low.pattern == "sharp" and low.score is None
    high = ac.read_head(W, None, HeadScores(0.9, 0.1, 0.6, 0.5))
    assert high.pattern == "previous" and high.score == 0.9
    assert high.text.startswith("previous-token head (score 0.90); here: attends to the previous")
    # an induction head on a sentence without a repeat rests on the first token: still induction
    sink = np.tril(np.full((n, n), 1e-4))
    sink[:, 0] = 1.0
    sink /= sink.sum(axis=1, keepdims=True)
    r = ac.read_head(sink, None, HeadScores(0.1, 0.2, 0.86, 0.9))
    assert r.pattern == "induction" and "induction head (score 0.86)" in r.text
    assert r.here.pattern == "sink"
    assert ac.read_head(sink, None, NONE).pattern == "sink"  # a sink is a sink in this sentence


# -- one entry a reading -----------------------------------------------------------------------
def test_every_reading_is_one_entry_with_its_words_and_captions():
    """Each entry: a key, words in both languages (Chinese without ASCII sentence punctuation),
    a listing group; a habit's captions (does_, story_) or the reading it is told as; a score
    reading's key among the model-level scores; the captions hold exactly these."""
    from scenes.kit import captions
    from scenes.kit.captions import attention_matrix, common

    assert len(hk.BY_KEY) == len(hk.READINGS)
    for r in hk.READINGS:
        assert r.group in hk.GROUPS
        for part in ("name", "short", "phrase", "lit", "heads"):
            zh, en = getattr(r.words, part)
            assert zh and en and not any(c in zh for c in ",;"), (r.key, part)
        if r.score is not None:
            assert r.score in ("previous", "duplicate", "induction") and r.habitual
        if r.habitual:
            told = hk.told_as(r.key)
            assert f"does_{told}" in common.WORDS and f"story_{told}" in attention_matrix.STEPS
            for lang in captions.LANGS:
                text = captions.word(f"does_{told}", lang, q="Q1", k="K1", e="E1", nth="N1")
                assert "Q1" in text and "{" not in text
    assert hk.words("does", "both", "does_").items() <= common.WORDS.items()
    assert hk.words("story", "both", "story_").items() <= attention_matrix.STEPS.items()


def test_duplicate_token_targets_the_earlier_occurrence():
    """The reading added as one entry: a head on each token's earlier occurrence reads
    duplicate on a repeated text; with no repeat the habit does not apply."""
    tokens = ["a", "b", "c", "a", "b", "c"]
    W = np.tril(np.full((6, 6), 1e-3))
    for i, j in {0: 0, 1: 0, 2: 0, 3: 0, 4: 1, 5: 2}.items():
        W[i, j] = 1.0
    W /= W.sum(axis=1, keepdims=True)
    assert list(hk.reading("duplicate").targets(W, tokens)) == [-1, -1, -1, 0, 1, 2]
    assert ac.read_head(W, tokens).pattern == "duplicate"
    assert hk.reading("duplicate").targets(W, list("abcdef")) is None


def test_heads_group_in_the_listing_s_order():
    """group_heads: the score readings (induction, then previous, then duplicate), sharp, other
    habits, diffuse, resting places last; within a group the highest score first."""
    n = 6
    prev = np.eye(n, k=-1)
    prev[0, 0] = 1.0
    sink = np.tril(np.full((n, n), 1e-4))
    sink[:, 0] = 1.0
    sink /= sink.sum(axis=1, keepdims=True)
    even = np.tril(np.ones((n, n))) / np.arange(1, n + 1)[:, None]

    class Scores:
        def of(self, layer, head):
            return {(0, 0): HeadScores(0.7, 0, 0, 0), (0, 1): HeadScores(0, 0, 0.6, 0),
                    (0, 2): HeadScores(0.9, 0, 0, 0)}.get((layer, head), NONE)  # fmt: skip

    layers = [np.stack([prev, sink, prev, sink, even])]
    groups = hs.group_heads(hs.search_heads(layers, list("abcdef"), scores=Scores()))
    assert [(g.pattern, [h.head for h in g.hits]) for g in groups] == [
        ("induction", [2]), ("previous", [3, 1]), ("diffuse", [5]), ("sink", [4])
    ]  # fmt: skip


# -- `heads TEXT` for a lecturer, through the real entry point ----------------------------------
SENTENCE = "The old fisherman knew the sea would soon turn wild, so he gathered his nets at dawn."
REPEATED = "violet anchor pencil thunder maple orbit velvet castle " * 2


@pytest.mark.parametrize("model", ["minilm", "smollm2"])
def test_heads_lists_the_groups_on_one_screen(cli, model):
    """Without --find: one screen (≤ 50 lines, none over 120 characters), the groups' headings
    in order, the resting heads collapsed to one line at the end, every head named once."""
    r = cli("heads", SENTENCE, "--model", model)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert len(lines) <= 50 and max(map(len, lines)) <= 120, r.stdout
    rest = "resting on the first token" if model == "smollm2" else "resting on [CLS]"
    assert rest in lines[-1] or rest in lines[-2], r.stdout
    counted = [ln for ln in lines if ln[:1].isdigit() and " heads " in ln]
    assert counted and all(": " in ln for ln in counted)  # "161 heads resting on …: 21/7, …"
    assert "diffuse heads (rows' mean entropy ≥ 0.5)" in r.stdout and "spread" not in r.stdout
    if model == "smollm2":  # 14/9 looks back at the subject of each clause: sharp, linked
        assert "would, soon, turn, wild → sea" in r.stdout
        assert r.stdout.index("induction heads") < r.stdout.index("previous-token heads")


def test_heads_json_gives_every_head_its_reading_and_scores(cli):
    """--json on a random word sequence said twice: all 270 heads with layer, head (from 1),
    reading, text and the four scores; the induction heads are those whose score says so, and
    most of them read induction in this sentence too."""
    r = cli("heads", REPEATED, "--model", "smollm2", "--json")
    assert r.returncode == 0, r.stderr
    heads = json.loads(r.stdout)
    assert len(heads) == 270 and {(h["layer"], h["head"]) for h in heads} == {
        (ly, h) for ly in range(1, 31) for h in range(1, 10)
    }
    scores = ac.model_scores("smollm2")
    for h in heads:
        assert set(h) >= {"layer", "head", "reading", "text", "scores"}
        assert h["reading"] in hk.BY_KEY and "spread" not in h["text"]
        want = scores.of(h["layer"] - 1, h["head"] - 1)
        assert h["scores"] == pytest.approx(
            {"previous": want.previous, "duplicate": want.duplicate,
             "induction": want.induction, "copying": want.copying}, abs=1e-12)  # fmt: skip
        assert (h["reading"] == "induction") == (
            want.induction >= 0.5 and want.induction == max(want.previous, want.duplicate,
                                                            want.induction))  # fmt: skip
    named = [h for h in heads if h["reading"] == "induction"]
    assert (named[0]["layer"], named[0]["head"]) == (19, 8)  # the listing's order: best first
    assert named[0]["text"].startswith("induction head (score 0.97); here: ")
    copying = [h for h in named if "here: attends to the token after its earlier" in h["text"]]
    assert len(copying) >= 3  # in this sentence too, most look at the token after the copy


def test_an_asked_pair_says_which_other_queries_share_its_key_as_strongly():
    """A review: the asked it → soup was told while the head's strongest link, that₁ → soup
    0.980, was never said. Another query whose largest weight (≥ 0.5) is on the pair's key
    makes the story "asked_linked", framed with the pair; below 0.5 it does not."""
    from attention_core.readings.followed import asked_story

    def rows(linked: float) -> np.ndarray:
        W = np.full((6, 6), 1 / 6)
        W[0] = (1 - linked) / 5
        W[0, 2] = linked
        W[5] = 0.3 / 5
        W[5, 2] = 0.7
        return W

    tokens = ["a", "b", "c", "d", "e", "f"]
    s = asked_story(rows(0.8), tokens, 5, 2)
    assert (s.telling, s.peer, s.peer_weight) == ("asked_linked", 0, pytest.approx(0.8))
    assert s.fits == ((5, 2), (0, 2))
    assert asked_story(rows(0.45), tokens, 5, 2).telling == "asked_top"


def _farmer_like(bright: float) -> np.ndarray:
    """Issue 38's farmer sentence in 8 causal rows: each row rests a share on the first token
    (the sink), he (row 7) → farmer (3) 0.55 its largest, sold (5) → farmer 0.64, and to (6) →
    tractor (4) ``bright`` (0.96 on the real head)."""
    W = np.tril(np.full((8, 8), 1.0))
    W[:, 0] += 3.0
    W /= W.sum(axis=1, keepdims=True)
    for i, j, w in ((7, 3, 0.55), (5, 3, 0.64), (6, 4, bright)):
        rest = (np.arange(8) != j) & (np.arange(8) <= i)
        W[i, rest] *= (1 - w) / W[i, rest].sum()
        W[i, j] = w
    return W


def test_the_peers_are_called_the_heads_strongest_links_only_where_they_are():
    """Issue 38, the farmer sentence (SmolLM2 L14 H9, he → farmer 0.547): "sold → farmer 0.635
    too, this head's strongest links here" while to → tractor 0.96 is brighter, off the
    resting column. Told "asked_also" ("sold looks most at farmer too") there; "asked_linked"
    (the strongest) only where no link off the sink and the diagonal is brighter."""
    from attention_core.readings.followed import asked_story

    tokens = ["When", "the", "old", "farmer", "tractor", "sold", "to", "he"]
    s = asked_story(_farmer_like(0.96), tokens, 7, 3)
    assert (s.peer, s.linked, s.strongest, s.telling) == (5, True, False, "asked_also")
    assert s.pair_telling == "asked_top"
    s = asked_story(_farmer_like(0.6), tokens, 7, 3)
    assert (s.peer, s.strongest, s.telling) == (5, True, "asked_linked")
    # the head step's "where it links most strongly" names to → tractor first, then the two
    # rows on farmer (by number of queries, the farmer group came first)
    links = heads.summarise_head(_farmer_like(0.96), tokens).links
    assert [(g.key, g.queries) for g in links] == [(4, (6,)), (3, (5, 7))]


@settings(max_examples=60, deadline=None)
@given(st.integers(4, 9), st.booleans(), st.integers(0, 2**31 - 1))
def test_strongest_links_are_said_only_when_no_other_link_is_brighter(n, causal, seed):
    """Whenever the story calls its framed links the head's strongest ("asked_linked"), no cell
    off a resting place and off the diagonal, in a row that sees two keys or more, weighs more
    than the heaviest framed one; where it does not, one does."""
    from attention_core.readings.followed import asked_story

    rng = np.random.default_rng(seed)
    W = rng.dirichlet(np.full(n, 0.3), size=n)
    if causal:
        W = np.tril(W) + np.tril(np.full((n, n), 1e-3))
        W /= W.sum(axis=1, keepdims=True)
    k = int(rng.integers(0, n - 1 if causal else n))
    for i in rng.choice(np.arange(k, n), size=min(3, n - k), replace=False):
        W[i] *= 0.3 / W[i].sum()  # a few rows put 0.7 or so on k
        W[i, k] += 0.7
        W[i] /= W[i].sum()
    q = int(rng.choice([i for i in range(n) if int(np.argmax(W[i])) == k] or [k]))
    tokens = [f"t{i}" for i in range(n)]
    s = asked_story(W, tokens, q, int(np.argmax(W[q])))
    may = sh.link_cells(W, tokens)
    if s.linked:
        framed = max(W[i, j] for i, j in s.fits)
        brighter = bool((W[may] > framed).any())
        assert s.strongest == (not brighter and all(may[i, j] for i, j in s.fits))
    assert (s.telling == "asked_linked") == (s.linked and s.strongest)


# -- rows split between two habits (issue 38: "diffuse" over a clear diagonal, 0.34 + 0.36) -------
def _split_rows(n: int, a: float, b: float, causal: bool, seed: int) -> np.ndarray:
    """``a`` of each row on the previous token, ``b`` on the first, the rest at random over the
    keys a row sees (row 0 and, under a causal mask, row 1 forced as far as they go)."""
    rng = np.random.default_rng(seed)
    W = rng.dirichlet(np.ones(n), size=n)
    if causal:
        W = np.tril(W)
        W /= W.sum(axis=1, keepdims=True)
    first = W[0].copy()
    W *= 1 - a - b
    W[np.arange(1, n), np.arange(n - 1)] += a
    W[1:, 0] += b
    W[0] = first
    return W


@SETTINGS
@given(
    st.integers(4, 24), st.floats(0, 0.6), st.floats(0, 0.6), st.booleans(), st.integers(0, 2**31)
)
def test_a_split_head_is_named_by_two_habits_and_a_diffuse_one_has_no_such_pair(
    n, a, b, causal, seed
):
    """A head read as split between two habits puts at least PAIR_AT_LEAST (and twice an even
    row's share) on each and HABIT_AT_LEAST on the two together; a head read as diffuse (or
    sharp) has no such pair among its habits, and no single habit holding HABIT_AT_LEAST."""
    assume(a + b <= 1)
    W = _split_rows(n, a, b, causal, seed)
    r = ac.read_head(W)
    pair = hk.split_of(r.pattern)
    floor = {k: max(heads.PAIR_AT_LEAST, 2 * heads.even_share(W, None, k)) for k in r.masses}
    if pair is not None:
        assert not r.habitual and hk.split_key(*pair) == r.pattern
        assert all(r.masses[k] >= floor[k] for k in pair)
        assert r.mass == pytest.approx(heads.pair_mass(W, None, *pair))
        assert r.mass >= heads.HABIT_AT_LEAST
    elif r.pattern in ("sharp", "diffuse"):
        assert max(r.masses.values()) < heads.HABIT_AT_LEAST
        held = [k for k in r.masses if r.masses[k] >= floor[k]]
        for i, x in enumerate(held):
            for y in held[i + 1 :]:
                assert heads.pair_mass(W, None, x, y) < heads.HABIT_AT_LEAST


def test_rows_on_the_previous_and_the_first_token_read_prev_plus_sink():
    """A 22-token causal head with 0.36 of each row on the previous token and 0.36 on the first
    (mine-layer's head 9: entropy 0.69, read "diffuse" before): "prev+sink", in both languages,
    its text naming both averages."""
    W = _split_rows(22, 0.36, 0.36, True, 0)
    r = ac.read_head(W)
    assert r.pattern == "previous+sink" and not r.habitual
    assert hk.words("name", "en")[r.pattern] == "prev+sink"
    assert hk.words("name", "zh")[r.pattern] == "前词元+首词元"
    assert hk.words("phrase", "en")[r.pattern] == (
        "split between the previous token and the first token"
    )
    assert r.text.startswith("split between the previous token (0.") and "first token (" in r.text
    even = np.full((4, 4), 0.25)  # an even row is diffuse, never split
    assert ac.read_head(even).pattern == "diffuse"
