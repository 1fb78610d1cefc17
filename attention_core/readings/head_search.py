"""Which head links one word to another: words as token pieces, heads ranked, habits told apart.

What ``attn-explain heads TEXT --find SRC->DST`` computes once a model has run (pure NumPy; the
model's pass is :mod:`attention_core.models.model_heads`).

**Words.** A word of the text is a run of letters and digits (``\\w+``) or one other visible
character; its pieces are the tokens whose character spans overlap it (``suitcase`` may be
``suit`` + ``case``); ``word₂`` or ``word#2`` picks its second occurrence. A word is looked for
as written first (``The`` is not ``the``), then in any case. A name that is no word may be a
token label (``[CLS]``, ``[SEP]``).

**The weight of a pair.** The query is SRC's last piece (the piece that has read the whole
word); the key weight sums DST's pieces (the weight the query puts on the word).

**Habit.** A head's reading (:func:`attention_core.read_head`) says where each query looks by
habit: the previous token, the first token (an attention sink), the token after an earlier
occurrence … When that habit's key for SRC's query is one of DST's pieces, the weight says what
the head always does rather than anything about this pair: ``habit`` names the reading.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from ..example.references import NotFound, numbered, pick_occurrence
from .heads import READINGS, HeadReading, read_head

_WORD = re.compile(r"\w+|[^\w\s]")


@dataclass(frozen=True)
class Word:
    """A word of the text: ``text``, its character span, and the token pieces it is cut into."""

    text: str
    start: int
    end: int
    pieces: tuple[int, ...]


def text_words(text: str, spans) -> list[Word]:
    """The words of ``text`` with their token pieces; ``spans`` is each token's (start, end) in
    the text (a special token such as [CLS] has an empty span and belongs to no word)."""
    spans = [(int(s), int(e)) for s, e in spans]
    out = []
    for m in _WORD.finditer(text):
        a, b = m.span()
        pieces = tuple(t for t, (s, e) in enumerate(spans) if s < e and s < b and e > a)
        if pieces:
            out.append(Word(m.group(), a, b, pieces))
    return out


def word_pieces(words, tokens, ref: str, field: str = "--find") -> tuple[int, ...]:
    """The token pieces of the word ``ref`` names (as written when that names one, else in any
    case; ``word₂``/``word#2`` for a later occurrence), or of the token label it names
    (``[CLS]``) when it names no word."""
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
    shown = " ".join(w.text for w in words)
    raise ValueError(f"{field}: {ref!r} is not a word of TEXT ({shown})")


@dataclass(frozen=True)
class Pair:
    """What ``--find SRC->DST`` asks: SRC's pieces and query (its last piece), DST's pieces."""

    src: str
    dst: str
    query: int
    keys: tuple[int, ...]


def parse_find(spec) -> tuple[str, str]:
    """``"it->trophy"`` → ``("it", "trophy")``; ``ValueError`` naming ``--find`` otherwise."""
    parts = [] if not isinstance(spec, str) else [p.strip() for p in spec.split("->")]
    if len(parts) != 2 or not all(parts):
        raise ValueError(f"--find: {spec!r} is not SRC->DST; write e.g. --find 'it->trophy'")
    return parts[0], parts[1]


def find_pair(spec: str, words, tokens, causal: bool = False) -> Pair:
    """The pair ``--find SRC->DST`` names in these words and tokens. Under a causal mask a DST
    wholly after SRC gets no weight from any head: refused."""
    src, dst = parse_find(spec)
    query = word_pieces(words, tokens, src)[-1]
    keys = word_pieces(words, tokens, dst)
    if causal and min(keys) > query:
        raise ValueError(
            f"--find: {dst!r} comes after {src!r}, and under the causal mask a query sees only "
            "earlier tokens; name the earlier word second (SRC->DST: DST is looked at)"
        )
    return Pair(src, dst, query, keys)


@dataclass(frozen=True)
class HeadHit:
    """One head: ``layer`` and ``head`` (from 1), its ``reading``; with a pair, the ``weight``
    its query puts on the pair's key pieces and ``habit`` (the reading's key, e.g.
    ``"previous"``, when its habitual key for the query is among them; else None)."""

    layer: int
    head: int
    reading: HeadReading
    weight: float | None = None
    habit: str | None = None


def habit_of(weights, tokens, reading: HeadReading, query: int, keys) -> str | None:
    """The reading's key when the head's habitual key for ``query`` is among ``keys``."""
    if reading.pattern == "spread":
        return None
    targets = next(r for r in READINGS if r.key == reading.pattern).targets(weights, tokens)
    if targets is None or targets[query] < 0:
        return None
    return reading.pattern if int(targets[query]) in set(keys) else None


def search_heads(layers, tokens, pair: Pair | None = None) -> list[HeadHit]:
    """Every head of every layer (``layers``: one (H, n, n) array of weights per layer) with its
    reading; ranked best first: by the weight on the pair when given, else by the reading's
    strength (ties: the earlier layer, then head)."""
    tokens = tuple(tokens)
    hits = []
    for ly, stack in enumerate(layers):
        for h, W in enumerate(np.asarray(stack, dtype=np.float64)):
            r = read_head(W, tokens)
            if pair is None:
                hits.append(HeadHit(ly + 1, h + 1, r))
                continue
            weight = float(W[pair.query, list(pair.keys)].sum())
            habit = habit_of(W, tokens, r, pair.query, pair.keys)
            hits.append(HeadHit(ly + 1, h + 1, r, weight, habit))
    score = (lambda x: x.weight) if pair is not None else (lambda x: x.reading.mass)
    return sorted(hits, key=lambda x: (-score(x), x.layer, x.head))


def best_link(hits) -> HeadHit:
    """The head that best links the pair: the heaviest whose weight is not its habit (the
    heaviest of all when every head's is)."""
    return next((x for x in hits if x.habit is None), hits[0])


def label_ref(tokens, i: int) -> str:
    """How an example file names token ``i``: its label, numbered (``it₂``) when repeated."""
    tokens = list(tokens)
    same = [j for j, t in enumerate(tokens) if t == tokens[i]]
    return tokens[i] if len(same) == 1 else numbered(tokens[i], same.index(i) + 1)
