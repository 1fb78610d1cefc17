"""Which head links one word to another: words as token pieces, heads ranked, habits told apart.

What ``attn-explain heads TEXT --find SRC->DST`` computes once a model has run (pure NumPy; the
model's pass is :mod:`attention_core.models.model_heads`).

**Words.** A word of the text is a run of letters, marks and digits (``\\w+``, combining accents
included) or one other visible character; its pieces are the tokens whose character spans
overlap it (``suitcase`` may be ``suit`` + ``case``); ``word₂`` or ``word#2`` picks its second
occurrence. A word is looked for as written first (``The`` is not ``the``), then in any case;
both after NFC normalisation (``café`` as one character or as ``e`` + U+0301 is one word). A
name that is no word may be a token label (``[CLS]``, ``[SEP]``). SRC and DST are refused, as
TEXT is, when they hold control, bidirectional or invisible characters.

**Text without spaces.** Where words are not parted by spaces (Chinese, Japanese, Thai …), a
``\\w+`` run is a whole clause (``小狗饿了``), so SRC or DST written only in such a script
(``它``, ``小狗``) names a run of characters anywhere in the text instead: its pieces are the
tokens whose spans overlap that run (``狗`` may be three byte pieces, ``狗¹ 狗² 狗³``); ``狗₂`` or
``狗#2`` picks its second occurrence. One that occurs several times without a number, or not at
all, is refused in one line naming what would work (``狗₁ … 狗₂``; the tokens' labels).

**The weight of a pair.** The query is SRC's last piece (the piece that has read the whole
word); the key weight sums DST's pieces (the weight the query puts on the word): one query and
one key everywhere — ``heads``, the file ``from-model`` writes (``key_pieces``), the followed
pair of ``numbers --json`` and the scenes' captions (:func:`pieces_word`: "fisherman = fish +
##erman"). A weight the mask forces — every key the query may see is one of DST's pieces (the
first token of a decoder sees only itself) — is the same 1 in every head and links nothing:
refused (:class:`ForcedWeight`).

**What the weight moves** (:mod:`.moved`): with the model's value vectors and W_O, each row
also gives the weight without the first token and the size and share of what the pair moves.

**Habit.** A head's reading (:func:`attention_core.read_head`) says where each query looks by
habit: the previous token, the first token (an attention sink), the token after an earlier
occurrence … When that habit's key for SRC's query is one of DST's pieces, the weight says what
the head always does rather than anything about this pair: ``habit`` names the reading.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import regex
from numpy.typing import ArrayLike

from ..example.references import SUBSCRIPTS, NotFound, nfc, numbered, pick_occurrence
from ..example.validation import listed, shown
from ..example.visible_text import refusal
from .head_kinds import GROUPS, reading
from .heads import HeadReading, read_head
from .moved import pair_moved, weight_without_first

if TYPE_CHECKING:
    from .head_scores import ModelScores
from .sharpness import link_strength

# a word: letters, marks (a combining accent stays in its word) and digits; or one other
# visible character (regex's \w is Unicode's word character, marks included)
_WORD = regex.compile(r"\w+|[^\w\s]")
# a character a byte-level label shows cut into pieces: 早¹ 早² (models.token_labels' marks)
SUPERSCRIPTS = "¹²³⁴⁵⁶⁷⁸⁹"
# the scripts written without spaces between words: a name in them is a run of characters
_UNSPACED = regex.compile(
    r"[\p{Han}\p{Hiragana}\p{Katakana}\p{Thai}\p{Lao}\p{Khmer}\p{Myanmar}\p{Tibetan}\p{Yi}ー々〆]+"
)


@dataclass(frozen=True)
class Word:
    """A word of the text: ``text``, its character span, the token pieces it is cut into and
    their spans (``spans``, each (start, end) in the text).

    Attributes
    ----------
    text : str
    start, end : int
        Its characters in the text.
    pieces : tuple of int
        Its tokens.
    spans : tuple of (int, int)
        Their characters.

    Examples
    --------
    >>> text_words("a cat", [(0, 1), (2, 3), (3, 5)])[1]
    Word(text='cat', start=2, end=5, pieces=(1, 2), spans=((2, 3), (3, 5)))
    """

    text: str
    start: int
    end: int
    pieces: tuple[int, ...]
    spans: tuple[tuple[int, int], ...] = ()


def text_words(text: str, spans: Iterable[tuple[int, int]]) -> list[Word]:
    """The words of ``text`` with their token pieces; ``spans`` is each token's (start, end) in
    the text (a special token such as [CLS] has an empty span and belongs to no word).

    Parameters
    ----------
    text : str
    spans : iterable of (int, int)
        Each token's characters.

    Returns
    -------
    list of Word

    Examples
    --------
    >>> [w.text for w in text_words("The cat sat.", [(0, 3), (4, 7), (8, 11), (11, 12)])]
    ['The', 'cat', 'sat', '.']
    """
    spans = [(int(s), int(e)) for s, e in spans]
    out = []
    for m in _WORD.finditer(text):
        a, b = m.span()
        pieces = tuple(t for t, (s, e) in enumerate(spans) if s < e and s < b and e > a)
        if pieces:
            out.append(Word(m.group(), a, b, pieces, tuple(spans[t] for t in pieces)))
    return out


def word_pieces(
    words: Sequence[Word], tokens: Sequence[str], ref: str, field: str = "--find"
) -> tuple[int, ...]:
    """The token pieces of the word ``ref`` names (as written when that names one, else in any
    case; ``word₂``/``word#2`` for a later occurrence), or of the token label it names
    (``[CLS]``) when it names no word. A name written only in a script without spaces
    (``它``, ``狗₂``) is a run of characters of the text (:func:`run_pieces`)."""
    if unspaced_name(ref) is not None:
        return run_pieces(words, tokens, ref, field)
    texts = [w.text for w in words]
    try:  # as written ("The" is not "the") …
        return words[pick_occurrence(texts, ref, "a word", field)].pieces
    except ValueError:
        pass
    try:  # … else in any case, whose complaints (ambiguous, too few) stand
        return words[pick_occurrence(texts, ref, "a word", field, fold=True)].pieces
    except NotFound:
        pass
    try:
        return (pick_occurrence(tokens, ref, "a token", field),)
    except NotFound:
        pass
    raise ValueError(
        f"{field}: {shown(ref)} is not a word of TEXT ({listed([w.text for w in words], ' ')})"
    )


def unspaced_name(ref: str) -> str | None:
    """The run of characters ``ref`` names when it is written in a script without spaces,
    with perhaps an occurrence number after it (``狗₂``, ``狗#2``); else None."""
    m = _UNSPACED.match(nfc(ref))
    if m is None:
        return None
    rest = nfc(ref)[m.end() :]
    return m.group() if not rest or rest[0] == "#" or rest[0] in SUBSCRIPTS else None


def _runs(words: Iterable[Word], run: str) -> list[tuple[int, ...]]:
    """The pieces of every occurrence of ``run`` in the words' text, in order."""
    out = []
    for w in words:
        hay = nfc(w.text) if len(nfc(w.text)) == len(w.text) else w.text
        i = hay.find(run)
        while i >= 0:
            a, b = w.start + i, w.start + i + len(run)
            out.append(tuple(p for p, (s, e) in zip(w.pieces, w.spans) if s < b and e > a))
            i = hay.find(run, i + 1)
    return out


def run_pieces(
    words: Sequence[Word], tokens: Sequence[str], ref: str, field: str = "--find"
) -> tuple[int, ...]:
    """The token pieces of the run of characters ``ref`` names (:func:`unspaced_name`): its
    one occurrence, or the k-th for ``run₂``/``run#k``; ``ValueError`` naming ``field`` and
    what would work where it occurs several times without a number, or not at all."""
    run = unspaced_name(ref)
    assert run is not None  # word_pieces calls this for a name without spaces
    found = _runs(words, run)
    if not found:
        labels = [label_ref(tokens, i) for i in range(len(tokens))]
        raise ValueError(
            f"{field}: {shown(ref)} is not in TEXT; name characters of it "
            f"({listed([w.text for w in words], ' ')}) or a token: {listed(labels, ' ')}"
        )
    if len(found) > 1 and nfc(ref) == run:
        picks = [f"{numbered(run, k)} ({_tokens_at(p)})" for k, p in enumerate(found, 1)]
        raise ValueError(
            f"{field}: {shown(run)} occurs {len(found)} times in TEXT; pick one: "
            f"{listed(picks)} (or {run}#1 … {run}#{len(found)})"
        )
    return found[pick_occurrence([run] * len(found), nfc(ref), "in TEXT", field)]


def _tokens_at(pieces: Sequence[int]) -> str:
    """Where a run's pieces are: "token 3" or "tokens 3–5" (from 1)."""
    a, b = min(pieces) + 1, max(pieces) + 1
    return f"token {a}" if a == b else f"tokens {a}–{b}"


@dataclass(frozen=True)
class Pair:
    """What ``--find SRC->DST`` asks: SRC's pieces and query (its last piece), DST's pieces.

    Attributes
    ----------
    src, dst : str
        The words named.
    query : int
        SRC's last piece.
    keys : tuple of int
        DST's pieces.

    Examples
    --------
    >>> Pair("sat", "cat", 2, (1,)).keys
    (1,)
    """

    src: str
    dst: str
    query: int
    keys: tuple[int, ...]


class ForcedWeight(ValueError):
    """A pair whose weight the mask forces: every key the query may see is one of the key's
    pieces, so every head gives it exactly 1 (a decoder's first token sees only itself).

    Attributes
    ----------
    args : tuple
        The message, naming the pair.

    Examples
    --------
    >>> issubclass(ForcedWeight, ValueError)
    True
    """


def parse_find(spec: object) -> tuple[str, str]:
    """``"it->trophy"`` → ``("it", "trophy")``; ``ValueError`` naming ``--find`` otherwise
    (not SRC->DST, or a part holding what TEXT may not: control, bidirectional or invisible
    characters)."""
    parts = [] if not isinstance(spec, str) else [p.strip() for p in spec.split("->")]
    if len(parts) != 2 or not all(parts):
        raise ValueError(f"--find: {shown(spec)} is not SRC->DST; write e.g. --find 'it->trophy'")
    for part in parts:
        why = refusal(part, fonts=False)
        if why:
            raise ValueError(f"--find: {shown(part)} {why}")
    return parts[0], parts[1]


def find_pair(
    spec: str, words: Sequence[Word], tokens: Sequence[str], causal: bool = False
) -> Pair:
    """The pair ``--find SRC->DST`` names in these words and tokens. Under a causal mask a DST
    wholly after SRC gets no weight from any head, and a DST holding every key SRC's query may
    see gets all of it from every head (:class:`ForcedWeight`): both refused.

    Parameters
    ----------
    spec : str
        ``SRC->DST``.
    words : sequence of Word
        :func:`text_words`'s.
    tokens : sequence of str
        The tokens' labels.
    causal : bool, default False
        Under a causal mask.

    Returns
    -------
    Pair

    Examples
    --------
    >>> words = text_words("The cat sat.", [(0, 3), (4, 7), (8, 11), (11, 12)])
    >>> find_pair("sat->cat", words, ["The", "cat", "sat", "."])
    Pair(src='sat', dst='cat', query=2, keys=(1,))
    """
    src, dst = parse_find(spec)
    query = word_pieces(words, tokens, src)[-1]
    keys = word_pieces(words, tokens, dst)
    if causal and min(keys) > query:
        raise ValueError(
            f"--find: {shown(dst)} comes after {shown(src)}, and under the causal mask a query "
            "sees only earlier tokens; name the earlier word second (SRC->DST: DST is looked at)"
        )
    seen = range(query + 1) if causal else range(len(tokens))
    if set(seen) <= set(keys):
        tokens = list(tokens)
        sees = "itself" if len(seen) == 1 else " ".join(tokens[k] for k in seen)
        raise ForcedWeight(
            f"--find: {shown(src)} is token {query + 1}, and under the causal mask it sees only "
            f"{sees}: every head gives {shown(dst)} weight 1.000, forced by the mask, not a "
            "link; pick a SRC later in TEXT"
        )
    return Pair(src, dst, query, keys)


def pair_weight(W: np.ndarray, query: int, keys: Sequence[int]) -> float:
    """The weight ``query`` puts on a key word: the sum over its pieces ``keys``."""
    return float(np.asarray(W)[query, list(keys)].sum())


def pieces_word(labels: Sequence[str]) -> str:
    """The word a key's pieces spell, from their labels: a piece's ``##`` (WordPiece's mark of
    a word's later piece) dropped, a character cut into byte pieces (``早¹ 早²``) whole again:
    ``["fish", "##erman"]`` → ``"fisherman"``, ``["早¹", "早²上"]`` → ``"早上"``."""
    labels = [str(t) for t in labels]
    text = labels[0] + "".join(t[2:] if t.startswith("##") and len(t) > 2 else t
                               for t in labels[1:])  # fmt: skip
    later = regex.escape(SUPERSCRIPTS[1:])
    return regex.sub(rf"(.){SUPERSCRIPTS[0]}(?:\1[{later}])+", r"\1", text)


def pieces_text(labels: Sequence[str]) -> str:
    """A key word and its pieces, as every caption and message says it: ``"fisherman = fish +
    ##erman"``; a key of one piece is its label alone.

    Parameters
    ----------
    labels : sequence of str
        The pieces' labels.

    Returns
    -------
    str

    Examples
    --------
    >>> pieces_text(["fish", "##erman"])
    'fisherman = fish + ##erman'
    >>> pieces_text(["cat"])
    'cat'
    """
    labels = [str(t) for t in labels]
    if len(labels) == 1:
        return labels[0]
    return f"{pieces_word(labels)} = " + " + ".join(labels)


@dataclass(frozen=True)
class HeadHit:
    """One head: ``layer`` and ``head`` (from 1), its ``reading``; with a pair, the ``weight``
    its query puts on the pair's key pieces and ``habit`` (the reading's key, e.g.
    ``"previous"``, when its habitual key for the query is among them; else None); with the
    model's value vectors too, ``weight_without_first`` (renormalised over keys 2 … n; None
    where the first key holds the whole row), ``moved`` (‖Σ α · v · W_Oʰ‖ over the pieces) and
    ``moved_share`` (of the row's Σⱼ ‖αⱼ · vⱼ · W_Oʰ‖): :mod:`.moved`; ``scores`` the head's
    model-level :class:`~.head_scores.HeadScores` where the model is known.

    Attributes
    ----------
    layer, head : int
        From 1.
    reading : HeadReading
    weight, weight_without_first, moved, moved_share : float or None
        With a pair, as above.
    habit : str or None
    scores : HeadScores or None

    Examples
    --------
    >>> hit = search_heads([np.eye(3)[None]], ["a", "b", "c"])[0]
    >>> hit.layer, hit.head, hit.reading.pattern
    (1, 1, 'self')
    """

    layer: int
    head: int
    reading: HeadReading
    weight: float | None = None
    habit: str | None = None
    weight_without_first: float | None = None
    moved: float | None = None
    moved_share: float | None = None
    scores: object = None


def habit_of(
    weights: np.ndarray, tokens: Sequence[str], head: HeadReading, query: int, keys: Iterable[int]
) -> str | None:
    """The reading's key when the head's habitual key for ``query`` is among ``keys``; for a
    head its model-level score names, also what its rows show here (``here``: an induction head
    resting on the first token of a sentence without a repeat has that for its habit here)."""
    for r in (head, head.here):
        if r is None or not r.habitual:
            continue
        targets = reading(r.pattern).habit_rows(weights, tokens)
        if targets is not None and targets[query] >= 0 and int(targets[query]) in set(keys):
            return r.pattern
    return None


def search_heads(
    layers: Iterable[ArrayLike],
    tokens: Iterable[str],
    pair: Pair | None = None,
    values: Callable[[int, int], tuple[np.ndarray, np.ndarray]] | None = None,
    scores: ModelScores | None = None,
) -> list[HeadHit]:
    """Every head of every layer (``layers``: one (H, n, n) array of weights per layer) with its
    reading; ranked best first: by the weight on the pair when given, else by the reading's
    strength (ties: the earlier layer, then head). ``values(layer, head)`` (both from 0; e.g.
    :meth:`~attention_core.models.model_heads.ModelHeads.head_values`) gives a head's value
    vectors and rows of W_O: then each pair's hit says what its weight moves too. ``scores``:
    the model's :class:`~.head_scores.ModelScores`, so that each head is read knowing the model
    (:func:`~.heads.read_head`) and each hit carries its own (``scores``).

    Parameters
    ----------
    layers : iterable of array_like
        One (H, n, n) array of weights a layer.
    tokens : iterable of str
        The tokens' labels.
    pair : Pair, optional
        The pair that ranks the heads.
    values : callable, optional
        ``values(layer, head)`` → (value vectors, rows of W_O).
    scores : ModelScores, optional
        The model's head scores.

    Returns
    -------
    list of HeadHit
        Best first.

    Examples
    --------
    >>> layer = np.stack([np.eye(3), np.full((3, 3), 1 / 3)])
    >>> hits = search_heads([layer], ["a", "b", "c"], Pair("c", "a", 2, (0,)))
    >>> [(h.head, round(h.weight, 2)) for h in hits]
    [(2, 0.33), (1, 0.0)]
    """
    tokens = tuple(tokens)
    hits = []
    for ly, stack in enumerate(layers):
        for h, W in enumerate(np.asarray(stack, dtype=np.float64)):
            own = scores.of(ly, h) if scores is not None else None
            r = read_head(W, tokens, own)
            if pair is None:
                hits.append(HeadHit(ly + 1, h + 1, r, scores=own))
                continue
            weight = pair_weight(W, pair.query, pair.keys)
            habit = habit_of(W, tokens, r, pair.query, pair.keys)
            moved = {}
            if values is not None:
                row = W[pair.query]
                m = pair_moved(row, *values(ly, h), pair.keys)
                moved = {"weight_without_first": weight_without_first(row, pair.keys),
                         "moved": m.size, "moved_share": m.share}  # fmt: skip
            hits.append(HeadHit(ly + 1, h + 1, r, weight, habit, **moved, scores=own))
    score = (lambda x: x.weight) if pair is not None else (lambda x: x.reading.mass)
    return sorted(hits, key=lambda x: (-score(x), x.layer, x.head))


@dataclass(frozen=True)
class HeadGroup:
    """Heads that do one thing, as the grouped listing shows them: ``group`` (one of
    :data:`~.head_kinds.GROUPS`), ``pattern`` (the reading's key; for the positional and resting
    groups, each habit its own group), ``hits`` best first."""

    group: str
    pattern: str
    hits: tuple[HeadHit, ...]


def _order(hit: HeadHit) -> tuple:
    """Best first within a group: by the score that names the head, the links it makes, the
    rows' sharpness (diffuse: the least spread first) or the habit's mass."""
    r = hit.reading
    if r.score is not None:
        first = -r.score
    elif r.pattern == "sharp":
        first = -link_strength(r.links)
    elif r.pattern == "diffuse":
        first = r.entropy
    else:
        first = -r.mass
    return (first, hit.layer, hit.head)


def group_heads(hits: Iterable[HeadHit]) -> list[HeadGroup]:
    """The heads grouped by what they do, in the listing's order (:data:`~.head_kinds.GROUPS`:
    the heads a model-level score names — induction, previous-token, duplicate-token, in the
    registry's order — then the sharp heads by their strongest links, the heads with another
    habit in this sentence, the diffuse heads, the heads resting on the first token, [CLS] or
    [SEP] last), each best first."""
    from .head_kinds import READINGS

    by_key: dict[str, list[HeadHit]] = {}
    for hit in hits:
        by_key.setdefault(hit.reading.pattern, []).append(hit)
    out = []
    for group in GROUPS:
        for r in sorted(READINGS, key=lambda r: r.order):  # stable: the table's order on ties
            if r.group == group and r.key in by_key:
                out.append(HeadGroup(group, r.key, tuple(sorted(by_key[r.key], key=_order))))
    return out


def best_link(hits: Sequence[HeadHit]) -> HeadHit:
    """The head that best links the pair: the heaviest whose weight is not its habit (the
    heaviest of all when every head's is).

    Parameters
    ----------
    hits : sequence of HeadHit
        :func:`search_heads`'s, with a pair.

    Returns
    -------
    HeadHit

    Examples
    --------
    >>> layer = np.stack([np.eye(3), np.full((3, 3), 1 / 3)])
    >>> best_link(search_heads([layer], ["a", "b", "c"], Pair("c", "a", 2, (0,)))).head
    2
    """
    return next((x for x in hits if x.habit is None), hits[0])


def label_ref(tokens: Iterable[str], i: int) -> str:
    """How an example file names token ``i``: its label, numbered (``it₂``) when repeated."""
    tokens = list(tokens)
    same = [j for j, t in enumerate(tokens) if t == tokens[i]]
    return tokens[i] if len(same) == 1 else numbered(tokens[i], same.index(i) + 1)


def followed_fields(tokens: Iterable[str], pair: Pair, W: ArrayLike) -> dict:
    """The fields an example file names its followed pair by, for weights ``W`` (n, n) of the
    head written: ``query`` (SRC's last piece), ``key`` (DST's piece the query weighs most) and,
    for a DST cut into pieces, ``key_pieces`` (their labels: the pair's weight is their sum)."""
    W = np.asarray(W)
    key = max(pair.keys, key=lambda k: (W[pair.query, k], -k))
    fields: dict[str, str | list[str]] = {"query": label_ref(tokens, pair.query)}
    fields["key"] = label_ref(tokens, key)
    if len(pair.keys) > 1:
        fields["key_pieces"] = [label_ref(tokens, k) for k in pair.keys]
    return fields
