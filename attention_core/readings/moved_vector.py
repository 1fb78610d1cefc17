"""What a head moved into one token: E, the terms tⱼ, ΔE and E + ΔE, read back in words.

For the followed query i of head h (3Blue1Brown's "creature" moved by "fluffy", with real
numbers): **E** is the vector the token carries into the head's layer, the **terms**
tⱼ = αᵢⱼ · vⱼ · W_Oʰ (W_Oʰ: the rows of W_O that meet head h's value columns; a grouped head's
own group's values), **ΔE** = Σⱼ tⱼ (what the head writes into the residual stream, its bias left
out, as :mod:`.moved`), and **E + ΔE**. For a layer of a trained decoder, E is the residual
stream entering the layer (before the block's RMSNorm); for a user's example, the token's input
row (its embedding, with the positional encoding when on), and ΔE the head's output through its
rows of W_O, or o itself without W_O (E + ΔE only where the widths agree).

**Read in words** (a model with an unembedding, SmolLM2), the logit lens (nostalgebraist, 2020):
the model's final RMSNorm with its gain, then the unembedding W_U, applied to E and to E + ΔE;
each one's top tokens with their probabilities (softmax over the whole vocabulary). ΔE's **direct
effect**, as direct logit attribution does (TransformerLens' ``logit_attrs``): ΔE divided by the
norm's scale of E + ΔE, times the gain, times W_U: the tokens whose logits it raises most, and the
followed key's token: its rank before and after and its logit change.

**Honest**: the logit lens says little in early layers. The reading claims nothing
(``says_little``) when the readout's top tokens are mostly fragments (at least
:data:`FRAGMENTS_SAY_LITTLE` of the top 5 of E + ΔE and of the top 5 ΔE pushes up, each:
pieces of words, punctuation, white space, lone letters, bytes of a cut character:
:func:`is_fragment`; a whole word with its space, ``Ġand``, ``Ġhimself``, is none), or when
ΔE changes no rank of the top 5 (the same tokens in the same order).

**Pieces named as pieces**: a listed token that is letters glued to the text before it (spelled
without a leading space: ``ates`` of "rotates") reads with a leading non-breaking hyphen, "‑ates"
(:func:`piece_label`), so a readout never shows a piece of a word as if it were a word.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any  # a lens: models.model_residual.Lens (a reading never imports a model)

import numpy as np
from numpy.typing import ArrayLike

from .moved import moved_vectors

TOP = 5
PIECE = "\u2011"  # ‑ (a non-breaking hyphen): "‑ates", a piece glued to the text before it
_SPACES = ("Ġ", "Ċ", "ĉ", " ")  # a byte-level spelling's leading space, newline, tab
FRAGMENTS_SAY_LITTLE = 3  # of the top 5 after: this many fragments and the readout says little


@dataclass(frozen=True, eq=False)
class Readout:
    """The logit lens of E and E + ΔE: ``before``, ``after`` (label, probability) and ``pushed``
    (label, direct logit change) for the top tokens (``*_ids`` their vocabulary ids; a label
    of a piece of a word marked "‑ates": :func:`piece_label`); the key
    token's id and label, its ranks (from 1) before and after, its direct logit change;
    ``says_little`` None, ``"fragments"`` or ``"unchanged"`` (then no sentence about meaning)."""

    before: tuple[tuple[str, float], ...]
    after: tuple[tuple[str, float], ...]
    pushed: tuple[tuple[str, float], ...]
    before_ids: tuple[int, ...]
    after_ids: tuple[int, ...]
    pushed_ids: tuple[int, ...]
    key_token: int
    key_label: str
    key_rank_before: int
    key_rank_after: int
    key_change: float
    says_little: str | None

    @property
    def key_pushed(self) -> bool:
        """Whether ΔE puts the followed key's token among the tokens it pushes up most (the
        copying story: an induction head's output raising the token it attends to)."""
        return self.key_token in self.pushed_ids


@dataclass(frozen=True, eq=False)
class MovedVector:
    """Query ``query`` of head ``head`` (from 0), ``key`` the followed key; ``E`` (d,), the terms
    (n_keys, d) (row j: αᵢⱼ · vⱼ · W_Oʰ), ``delta`` their sum, ``after`` E + ΔE (None where the
    widths differ); ``source`` "residual" (a model's layer input) or "input" (the example's
    row); ``readout`` the words (None without a model's unembedding)."""

    query: int
    key: int
    head: int
    E: np.ndarray
    terms: np.ndarray
    delta: np.ndarray
    after: np.ndarray | None
    source: str
    readout: Readout | None = None

    @property
    def norms(self) -> np.ndarray:
        """‖tⱼ‖ for every key."""
        return np.linalg.norm(self.terms, axis=1)

    def largest(self, count: int) -> list[int]:
        """The keys of the ``count`` largest terms, largest first (ties: the earlier key)."""
        order = sorted(range(len(self.terms)), key=lambda j: (-self.norms[j], j))
        return order[:count]


def moved_vector(
    row: ArrayLike,
    V: ArrayLike,
    W_O: ArrayLike | None,
    E: ArrayLike,
    query: int,
    key: int,
    head: int,
    source: str,
) -> MovedVector:
    """The terms αⱼ · vⱼ · W_Oʰ of weights ``row`` (n,) over values ``V`` (n, d_v) through the
    head's rows ``W_O`` (d_v, d) (None: αⱼ · vⱼ), their sum ΔE, and E + ΔE for ``E`` (d,)."""
    terms = moved_vectors(row, V, W_O)
    delta = terms.sum(axis=0)
    E = np.asarray(E, dtype=np.float64)
    after = E + delta if E.shape == delta.shape else None
    return MovedVector(query, key, head, E, terms, delta, after, source)


def lens_logits(x: ArrayLike, gain: ArrayLike, eps: float, W_U: np.ndarray) -> np.ndarray:
    """The logit lens of ``x`` (d,): RMSNorm(x) · gain · W_U, (vocab,)."""
    x = np.asarray(x, dtype=np.float64)
    return (x / np.sqrt(np.mean(x * x) + eps) * gain) @ W_U


def direct_effect(
    delta: ArrayLike, after: ArrayLike, gain: ArrayLike, eps: float, W_U: np.ndarray
) -> np.ndarray:
    """ΔE's direct logit change, the norm's scale taken from E + ΔE (direct logit attribution)."""
    after = np.asarray(after, dtype=np.float64)
    return (np.asarray(delta) / np.sqrt(np.mean(after * after) + eps) * gain) @ W_U


def softmax(z: np.ndarray) -> np.ndarray:
    e = np.exp(z - np.max(z))
    return e / e.sum()


def _top(values: np.ndarray, count: int = TOP) -> list[int]:
    """The ids of the ``count`` largest values, largest first (ties: the smaller id)."""
    if len(values) <= count + 8:
        return sorted(range(len(values)), key=lambda t: (-values[t], t))[:count]
    idx = np.argpartition(-values, count + 8)[: count + 8]
    return sorted(idx.tolist(), key=lambda t: (-values[t], t))[:count]


def rank(values: np.ndarray, token: int) -> int:
    """The rank (from 1) of ``token`` in ``values``: 1 + how many are larger."""
    return 1 + int(np.sum(values > values[token]))


WORDS_OF_ONE = frozenset({"a", "i", "o"})  # whole English words of one letter ("Ġa", "ĠI")


def is_word(spelled: str, label: str) -> bool:
    """A whole English word as the vocabulary spells it: letters alone (an inner ``'`` or ``-``
    allowed: ``Ġdon't``, ``Ġwell-known``) after a leading space, newline or tab (``Ġand``,
    ``Ġhimself``), two letters or more or a word of one letter (:data:`WORDS_OF_ONE`: ``Ġa``,
    ``ĠI``). ``and`` without its space may be the end of "band": no word."""
    text = label.strip()
    core = text.replace("'", "").replace("’", "").replace("-", "")
    if not spelled.startswith(_SPACES) or not core.isalpha() or not text[0].isalpha():
        return False
    return len(core) >= 2 or core.lower() in WORDS_OF_ONE


def is_fragment(spelled: str, label: str) -> bool:
    """A token that is no word on its own, so a readout of it supports no claim of meaning:
    white space, punctuation alone (``,``, ``(``), a cut character's byte (``早¹``, ``�``),
    letters glued to the word before (``ing``: spelled without its leading space ``Ġ``) or a
    lone letter (``Ġb``). A whole word (:func:`is_word`: ``Ġthunder``, ``Ġand``, ``Ġa``) or a
    number (``Ġ1999``) is not."""
    text = label.strip()
    if "\ufffd" in text or any(c in "¹²³⁴⁵⁶⁷⁸⁹" for c in text):
        return True
    return not (is_word(spelled, label) or (text.isdigit() and text.isascii()))


def piece_label(spelled: str, label: str) -> str:
    """``label`` as a readout lists it: marked "‑ates" where the token is a piece of a word,
    letters glued to the text before it (spelled without a leading space, ``ates``); as it is
    where it is a word with its space (``Ġsoup``), punctuation, white space, a number, a special
    token (``<|im_end|>``) or a cut character's byte (``早¹``: its superscript says so)."""
    text = label.strip()
    if not any(c.isalpha() for c in text) or spelled.startswith(_SPACES):
        return label
    if text.startswith("<") and text.endswith(">"):
        return label
    if "\ufffd" in text or any(c in "¹²³⁴⁵⁶⁷⁸⁹" for c in text):
        return label
    return PIECE + label


def says_little(
    before_ids: Sequence[int], after_ids: Sequence[int], pushed_ids: Sequence[int], lens: Any
) -> str | None:
    """Why the readout says little ("fragments", "unchanged"), or None (see the module's note):
    "fragments" only where the top 5 of E + ΔE **and** the top 5 ΔE pushes up are each mostly
    fragments, so "the top tokens are mostly fragments or punctuation" is true of every list
    the readout shows (issue 38: a reviewer's he → sailor head, E + ΔE reading "and" "," "."
    "␣" "(" but ΔE pushing up "himself", "his", "get", was said to claim no meaning)."""

    def mostly_fragments(ids: Sequence[int]) -> bool:
        return sum(is_fragment(lens.spelled[t], lens.label(t)) for t in ids) >= FRAGMENTS_SAY_LITTLE

    if mostly_fragments(after_ids) and mostly_fragments(pushed_ids):
        return "fragments"
    if list(before_ids) == list(after_ids):
        return "unchanged"
    return None


def readout(mv: MovedVector, lens: Any, key_token: int) -> Readout:
    """The words of ``mv`` through ``lens`` (``gain``, ``eps``, ``W_U`` (d, vocab), ``spelled``,
    ``label(t)``: see :class:`attention_core.models.model_residual.Lens`); ``key_token`` the
    followed key's vocabulary id."""
    assert mv.after is not None  # a readout reads E + ΔE (a residual-stream vector)
    before = lens_logits(mv.E, lens.gain, lens.eps, lens.W_U)
    after = lens_logits(mv.after, lens.gain, lens.eps, lens.W_U)
    pushed = direct_effect(mv.delta, mv.after, lens.gain, lens.eps, lens.W_U)
    p0, p1 = softmax(before), softmax(after)
    b, a, u = _top(before), _top(after), _top(pushed)

    def name(t: int) -> str:
        return piece_label(lens.spelled[t], lens.label(t))

    return Readout(
        before=tuple((name(t), float(p0[t])) for t in b),
        after=tuple((name(t), float(p1[t])) for t in a),
        pushed=tuple((name(t), float(pushed[t])) for t in u),
        before_ids=tuple(b),
        after_ids=tuple(a),
        pushed_ids=tuple(u),
        key_token=int(key_token),
        key_label=lens.label(key_token),
        key_rank_before=rank(before, key_token),
        key_rank_after=rank(after, key_token),
        key_change=float(pushed[key_token]),
        says_little=says_little(b, a, u, lens),
    )


# -- what the head does, said once before its terms (HeadMoved's first caption) --------------------


@dataclass(frozen=True)
class HeadDoes:
    """What a self-attention head does, in the one sentence HeadMoved says of it before the
    followed row's terms (:func:`head_does`).

    ``kind``: ``"score"`` (the model-level scores name it: ``pattern``), ``"habit"`` (half the
    weight or more on average on ``pattern``'s key, ``token`` its label where it names one),
    ``"rest"`` (a head whose rows read as sharp only because they park weight on a resting place:
    ``pattern`` the resting place's reading, ``"sink"``, ``"cls"`` or ``"sep"``, ``rest_key`` its
    column, ``share`` ``"half"`` or ``"quarter"`` its average share), or ``"shape"`` (``pattern``
    ``"sharp"``, ``"diffuse"`` or a split such as ``"previous+sink"``). ``row``: for
    ``"shape"``, the followed row's own shape where it differs from the head's (``"sharp"``,
    ``"peaked"``, ``"diffuse"``: :func:`~.sharpness.row_shape`); None else. The rows' average
    share on the resting place is the head's share of its whole weight there (rows sum to 1)."""

    kind: str
    pattern: str
    token: str | None = None
    rest_key: int | None = None
    share: str = ""
    row: str | None = None


def head_does(
    weights: ArrayLike, tokens: Sequence[str], query: int, scores: Any = None
) -> HeadDoes:
    """What the head of ``weights`` (n, n) does, said of it with its followed row ``query``: the
    model-level ``scores``' name (a :class:`~.heads.HeadScores`), else its habit, else its shape
    over all its rows (mean normalised entropy, :func:`~.heads.read_head`). A head read as
    **sharp** whose rows put a quarter or more of their weight on a resting place, on average
    (:func:`~.heads.summarise_head`'s ``rest``), is said to park it there, not to be sharp: its
    low entropy is the resting place's (issue 38: "sharp over all its rows" of a SmolLM2 head
    whose rows split between the first token and one "the"); a head read as **diffuse** too
    (a review: "The head is diffuse" of a head whose rows put 0.74 on their top two keys, the
    first token and one link), as HeadGallery tells it (:func:`~.head_groups.tell_head`).

    A causal head whose rows give the first token about a quarter of their weight and the rest
    to one earlier token: sharp by its entropy, said by its resting place.

    >>> S = np.where(np.tri(12) > 0, 0.0, -np.inf)
    >>> S[1:, 0], S[[2, 3], 1], S[4:, 3] = 9.0, 10.0, 10.0
    >>> W = np.exp(S - S.max(axis=1, keepdims=True))
    >>> d = head_does(W / W.sum(axis=1, keepdims=True), list("Abcdefghijkl"), 8)
    >>> d.kind, d.pattern, d.token, d.rest_key, d.share
    ('rest', 'sink', 'A', 0, 'quarter')
    """
    from .heads import read_head, summarise_head
    from .sharpness import row_shape

    W = np.asarray(weights, dtype=np.float64)
    r = read_head(W, tokens, scores)
    if r.score is not None:
        return HeadDoes("score", r.pattern)
    if r.habitual:
        return HeadDoes("habit", r.pattern, r.token)
    row = row_shape(W, query)
    if r.pattern in ("sharp", "diffuse"):  # as a gallery tells it (head_groups.tell_head)
        s = summarise_head(W, tokens)
        if s.rest is not None and s.rest_key is not None:
            return HeadDoes("rest", s.rest, tokens[s.rest_key], s.rest_key, s.share_words)
    alike = {"sharp": ("sharp", "peaked"), "diffuse": ("diffuse",)}.get(r.pattern)
    differs = alike is not None and row not in alike  # (a split head: its two habits, whole)
    return HeadDoes("shape", r.pattern, row=row if differs else None)
