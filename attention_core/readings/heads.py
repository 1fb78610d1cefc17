"""Reading one head: the plane that best keeps its queries and keys, and what it does in a line.

For a head of a real model (d_k = 32) a scene needs a faithful 2-D picture and an honest one-line
summary of what the head does — both computed here from the head's own numbers (and, where the
model is known, its model-level scores). The readings themselves, one entry each, are
:mod:`.head_kinds`; the rows' sharpness and strongest links, :mod:`.sharpness`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from .._checks import ArrayLike, as_matrix, same_width
from ..geometry import plane_view
from . import head_kinds
from .copy_heads import induction_targets
from .head_kinds import PATTERNS, READINGS, fixed_key
from .sharpness import (
    LINK_AT_LEAST,
    SELF,
    SHARP_BELOW,
    LinkGroup,
    links_text,
    mean_entropy,
    strongest_links,
)

if TYPE_CHECKING:
    from ..example.model import Example
    from .head_scores import HeadScores

HABIT_AT_LEAST = 0.5  # the one threshold: a head reads as a habit when its queries put, on
# average, at least half their weight on that habit's key; else it is sharp or diffuse
PAIR_AT_LEAST = 0.3  # or split between two habits: each 0.3 or more, together half (issue 38)


@dataclass(frozen=True)
class QKPlane:
    """A head's queries and keys seen in one plane through the origin.

    ``q`` (m, 2) and ``k`` (n, 2) are their coordinates, ``basis`` (d_k, 2) the plane's
    orthonormal axes, ``kept`` the share of the stacked vectors' total squared length the plane
    keeps (1.0 when d_k ≤ 2). Dot products in the plane are those of the projected vectors, not
    the true q·k unless the view is exact.

    Attributes
    ----------
    q, k : ndarray
        (m, 2) and (n, 2) coordinates.
    basis : ndarray
        (d_k, 2) the plane's axes.
    kept : float
        The share of squared length kept.

    Examples
    --------
    >>> p = qk_plane([[1.0, 0.0]], [[0.0, 2.0]])
    >>> p.q.tolist(), p.k.tolist(), p.kept
    ([[1.0, 0.0]], [[0.0, 2.0]], 1.0)
    """

    q: np.ndarray
    k: np.ndarray
    basis: np.ndarray
    kept: float

    @property
    def exact(self) -> bool:
        return self.kept >= 1.0 - 1e-12


def qk_plane(Q: ArrayLike, K: ArrayLike) -> QKPlane:
    """The plane that best keeps a head's queries and keys together: uncentred PCA of the rows of
    Q (m, d_k) stacked on K (n, d_k), as :func:`attention_core.plane_view` computes it.

    Parameters
    ----------
    Q, K : array_like
        (m, d_k) queries and (n, d_k) keys.

    Returns
    -------
    QKPlane

    Examples
    --------
    >>> p = qk_plane([[1.0, 0.0, 0.0]], [[0.0, 1.0, 0.0], [0.0, 0.0, 0.1]])
    >>> p.q.shape, p.k.shape, round(p.kept, 4)
    ((1, 2), (2, 2), 0.995)
    """
    Q, K = as_matrix("Q", Q), as_matrix("K", K)
    same_width("Q", Q, "K", K)
    view = plane_view(np.vstack([Q, K]))  # (m + n, 2)
    m = Q.shape[0]
    return QKPlane(q=view.coords[:m], k=view.coords[m:], basis=view.basis, kept=view.kept)


@dataclass(frozen=True)
class HeadReading:
    """What a head's weights do, in one line.

    ``pattern`` is the key of its :class:`~.head_kinds.Reading` (``"previous"``, ``"sink"``,
    ``"induction"`` …, ``"sharp"`` or ``"diffuse"``); ``mass`` the average weight a query puts on
    that habit's key in this sentence (for ``"sharp"`` and ``"diffuse"``, or a habit the rows do
    not show here: the largest average among the habits); ``masses`` every applicable habit's
    average; ``key`` the key a ``"fixed"`` head looks at (else None) and ``token`` its label when
    tokens were given. ``entropy`` the rows' mean normalised entropy and ``links`` their
    strongest links (:mod:`.sharpness`), ``said`` the links as the text says them. Where the
    model is known and its score names the head: ``score`` (that model-level score) and
    ``here`` (what the rows of this sentence show, read without scores). ``rests``: a head
    without a habit told by its resting place (:func:`~.head_groups.tell_head`: ``pattern`` that
    place's reading, ``mass`` the rows' average share there, at least :data:`REST_AT_LEAST`
    and under half).

    Attributes
    ----------
    pattern : str
        The reading's key.
    mass : float
        The habit's average weight (or the largest such).
    masses : dict of str to float
        Every habit's.
    key, token : int or None, str or None
        A fixed head's key and its label.
    entropy : float
        The rows' mean normalised entropy.
    links : tuple of LinkGroup
        The strongest links.
    said : str
        The links as the text says them.
    score : float or None
        The model-level score that names the head.
    here : HeadReading or None
        What the rows show, read without scores.
    rests : bool
        Told by its resting place, without a habit.

    Examples
    --------
    >>> import numpy as np
    >>> r = read_head(np.full((3, 3), 1 / 3))
    >>> r.pattern, r.habitual, round(r.entropy, 2)
    ('diffuse', False, 1.0)
    """

    pattern: str
    mass: float
    masses: dict[str, float]
    key: int | None = None
    token: str | None = None
    entropy: float = 0.0
    links: tuple[LinkGroup, ...] = ()
    said: str = ""
    score: float | None = None
    here: HeadReading | None = None
    rests: bool = False  # no habit: told by the resting place it parks weight on (tell_head)

    @property
    def habitual(self) -> bool:
        """Whether a habit names the head (not its rows' shape, sharp or diffuse)."""
        return head_kinds.reading(self.pattern).habitual

    @property
    def text(self) -> str:
        """E.g. ``"attends to the previous token (0.98)"``, ``"attends to one token, 'mat'
        (0.61)"``, ``"sharp (entropy 0.31): would, soon → sea (0.94–0.99)"``, ``"diffuse
        (entropy 0.82)"`` or ``"induction head (score 0.86); here: attends to the first token
        (attention sink) (0.99)"``."""
        if self.score is not None:
            name = head_kinds.reading(self.pattern).words.heads[1].removesuffix("s")
            here = f"; here: {self.here.text}" if self.here is not None else ""
            return f"{name} (score {self.score:.2f}){here}"
        if self.rests:
            return f"rests on {PATTERNS[self.pattern]} ({self.mass:.2f})"
        if self.pattern == "sharp":
            said = self.said or f"no key holds {LINK_AT_LEAST:g} of a row"
            return f"sharp (entropy {self.entropy:.2f}): {said}"
        if self.pattern == "diffuse":
            said = f"; strongest: {self.said}" if self.said else ""
            return f"diffuse (entropy {self.entropy:.2f}){said}"
        pair = head_kinds.split_of(self.pattern)
        if pair is not None:
            token = repr(self.token) if self.token is not None else f"key {(self.key or 0) + 1}"
            lits = [head_kinds.reading(k).words.lit or ("", PATTERNS[k]) for k in pair]
            a, b = (f"{lit[1]} ({self.masses[k]:.2f})" for lit, k in zip(lits, pair))
            return f"split between {a} and {b}".replace("{token}", token)
        if self.pattern == "fixed":
            if self.token is not None:
                name = repr(self.token)
            else:
                assert self.key is not None  # a fixed head names its key
                name = f"key {self.key + 1}"
            return f"attends to one token, {name} ({self.mass:.2f})"
        return f"attends to {PATTERNS[self.pattern]} ({self.mass:.2f})"


def _masses(W: np.ndarray, tokens: Sequence[str] | None) -> dict[str, float]:
    """Every habit's average weight on its key, over the queries that have one."""
    masses = {}
    for r in READINGS:
        t = r.targets(W, tokens) if r.targets is not None else None  # r.habitual
        if t is None:
            continue
        rows = np.flatnonzero(t >= 0)
        if len(rows):
            masses[r.key] = float(W[rows, t[rows]].mean())
    return masses


def pair_mass(W: np.ndarray, tokens: Sequence[str] | None, a: str, b: str) -> float:
    """The average weight a query puts on habits ``a`` and ``b``'s keys together (a key both
    name counted once), over the queries that have both; 0.0 where none has."""
    ta, tb = (head_kinds.reading(k).habit_rows(W, tokens) for k in (a, b))
    if ta is None or tb is None:
        return 0.0
    rows = np.flatnonzero((ta >= 0) & (tb >= 0))
    if not len(rows):
        return 0.0
    both = W[rows, ta[rows]] + np.where(ta[rows] != tb[rows], W[rows, tb[rows]], 0.0)
    return float(both.mean())


def even_share(W: np.ndarray, tokens: Sequence[str] | None, key: str) -> float:
    """The average weight habit ``key``'s queries would put on its key were each row even over
    the keys it sees (its weights above zero): what a diffuse head gives any habit."""
    t = head_kinds.reading(key).habit_rows(W, tokens)
    rows = np.flatnonzero(t >= 0) if t is not None else np.arange(0)
    if not len(rows):
        return 1.0
    return float(np.mean(1.0 / np.maximum((W[rows] > 0).sum(axis=1), 1)))


def split_pair(
    W: np.ndarray,
    tokens: Sequence[str] | None,
    masses: dict[str, float],
    keys: Sequence[str],
    at_least: float = HABIT_AT_LEAST,
) -> tuple[str, str] | None:
    """The two habits of ``keys`` the rows split between: each at least :data:`PAIR_AT_LEAST`
    and twice its :func:`even_share` (an even row is diffuse, not split), together
    (:func:`pair_mass`) at least ``at_least``; the heaviest such pair, else None."""
    each = [k for k in keys
            if masses[k] >= max(PAIR_AT_LEAST, 2 * even_share(W, tokens, k))]  # fmt: skip
    pairs = [(pair_mass(W, tokens, a, b), a, b) for i, a in enumerate(each) for b in each[i + 1 :]]
    best = max(pairs, default=None, key=lambda p: p[0])  # the first of equals: table order
    return None if best is None or best[0] < at_least else (best[1], best[2])


def _rows_reading(
    W: np.ndarray,
    tokens: Sequence[str] | None,
    masses: dict[str, float],
    keys: Sequence[str],
    at_least: float,
) -> HeadReading:
    """The reading the rows give among the habits ``keys``: the heaviest at ``at_least`` or
    more, else sharp or diffuse by their entropy, with their strongest links."""
    n = W.shape[0]
    entropy, links = mean_entropy(W), strongest_links(W, tokens)
    content = tuple(g for g in links if g.content)
    shape: dict[str, Any] = dict(entropy=entropy, links=links)
    best = max(keys, key=masses.__getitem__) if keys else None  # the first of equals: table order
    if best is not None and masses[best] >= at_least:
        key = fixed_key(W, tokens) if best == "fixed" else None
        token = tokens[key] if key is not None and tokens is not None else None
        return HeadReading(best, masses[best], masses, key, token, **shape)
    pair = split_pair(W, tokens, masses, keys, at_least)
    if pair is not None:  # two habits share the rows: named by them, never sharp or diffuse
        key = fixed_key(W, tokens) if "fixed" in pair else None
        token = tokens[key] if key is not None and tokens is not None else None
        mass = pair_mass(W, tokens, *pair)
        return HeadReading(head_kinds.split_key(*pair), mass, masses, key, token, **shape)
    sharp = entropy < SHARP_BELOW
    said = links_text(links if sharp else content, tokens or [f"#{j + 1}" for j in range(n)])
    largest = max(masses.values())
    return HeadReading("sharp" if sharp else "diffuse", largest, masses, said=said, **shape)


def read_head(
    weights: ArrayLike,
    tokens: Sequence[str] | None = None,
    scores: HeadScores | None = None,
    at_least: float = HABIT_AT_LEAST,
) -> HeadReading:
    """Read a self-attention head from its weights (n, n), rows summing to 1.

    For each habit of :data:`~.head_kinds.READINGS` that applies (the previous token, the next,
    the first key or [CLS] when ``tokens`` start with it, [SEP] when they end with it, itself,
    one fixed token that most rows look at most, the first token under a causal mask, the token
    after an earlier occurrence, that earlier occurrence), the average weight a query puts on
    that habit's key (over the queries that have one); the largest wins (the earlier reading on
    a tie) when it is at least ``at_least`` (:data:`HABIT_AT_LEAST`, half the weight). Else the
    head is "sharp" or "diffuse" by its rows' mean normalised entropy (:mod:`.sharpness`: sharp
    below 0.5), read by its strongest links.

    ``scores``: the head's model-level :class:`~.head_scores.HeadScores` where the model is known.
    Then a reading with a model-level score (induction, previous, duplicate) is given only by
    that score — at least its ``score_at_least``, the highest such score winning — never by this
    sentence's rows, and ``here`` keeps what the rows show.

    Parameters
    ----------
    weights : array_like
        (n, n) the head's weights.
    tokens : sequence of str, optional
        The tokens' labels (some readings need them: [CLS], [SEP], repeats).
    scores : HeadScores, optional
        The head's model-level scores.
    at_least : float, default 0.5
        The weight a habit needs.

    Returns
    -------
    HeadReading

    Examples
    --------
    >>> import numpy as np
    >>> read_head(np.eye(3)).text
    'attends to itself (1.00)'
    """
    W = as_matrix("weights", weights)
    n = W.shape[0]
    if W.shape != (n, n):
        raise ValueError(
            f"weights: expected a square (n, n) matrix of self-attention, got {W.shape}"
        )
    tokens = None if tokens is None else tuple(tokens)
    if tokens is not None and len(tokens) != n:
        raise ValueError(f"tokens: {len(tokens)} labels for {n} rows of weights")
    masses = _masses(W, tokens)
    here = _rows_reading(W, tokens, masses, list(masses), at_least)
    if scores is None:
        return here
    named = [(getattr(scores, r.score), r.key) for r in READINGS
             if r.score is not None and getattr(scores, r.score) >= r.score_at_least]  # fmt: skip
    if not named:
        rows = [k for k in masses if head_kinds.reading(k).score is None]
        return _rows_reading(W, tokens, masses, rows, at_least)
    score, key = max(named, key=lambda x: x[0])  # the first of equals: table order
    mass = masses.get(key, max(masses.values()))
    return HeadReading(key, mass, masses, entropy=here.entropy, links=here.links, score=score,
                       here=here)  # fmt: skip


def example_head_scores(example: Example, head: int) -> HeadScores | None:
    """Head ``head``'s (from 0) model-level :class:`~.head_scores.HeadScores` as the example
    carries them (``head_scores``, written by ``from-model``), None where it carries none: what
    :func:`read_head` takes as ``scores``, so a scene names an induction head by the model's
    measure on any sentence.

    Parameters
    ----------
    example : Example
    head : int
        The head (from 0).

    Returns
    -------
    HeadScores or None

    Examples
    --------
    >>> import attention_core as ac
    >>> example_head_scores(ac.PRESETS["zao-shang-hao"], 0) is None
    True
    """
    from .head_scores import HeadScores

    rows = getattr(example, "head_scores", None)
    return None if rows is None else HeadScores(**rows[head])


def _strength(r: HeadReading) -> tuple:
    """A reading's strength: a habit before sharp or diffuse, then its mass."""
    return (r.habitual, r.mass)


def rank_heads(
    weights: Iterable[ArrayLike], tokens: Sequence[str] | None = None, first: int | None = None
) -> list[int]:
    """The order in which to draw a layer's heads (``weights``: one (n, n) matrix a head) where
    only some fit: the head with the strongest reading (:func:`read_head`; a habit before
    sharp or diffuse, then the larger mass; the lower head on a tie) first — the head an
    explanation of the layer follows — then one head for each other reading, strongest first,
    then the rest, strongest first (heads without a habit differ by the habit they lean to
    most). Heads that are not square (cross-attention) keep their order. ``first``: the head an
    explanation follows (an example's ``head``, from 0), drawn first whatever its reading.

    Parameters
    ----------
    weights : iterable of array_like
        One (n, n) matrix a head.
    tokens : sequence of str, optional
        The tokens' labels.
    first : int, optional
        The head drawn first (from 0).

    Returns
    -------
    list of int
        The heads (from 0) in drawing order.

    Examples
    --------
    >>> import numpy as np
    >>> rank_heads([np.full((3, 3), 1 / 3), np.eye(3)])
    [1, 0]
    >>> rank_heads([np.full((3, 3), 1 / 3), np.eye(3)], first=0)
    [0, 1]
    """
    mats = [as_matrix("weights", w) for w in weights]
    if any(W.shape[0] != W.shape[1] for W in mats):
        return list(range(len(mats)))
    reads = [read_head(W, tokens) for W in mats]
    order = sorted(range(len(mats)), key=lambda h: (_strength(reads[h]), -h), reverse=True)
    seen: set[tuple[str, str]] = set()
    lead: list[int] = []
    rest: list[int] = []
    for h in order:
        r = reads[h]
        kind = (r.pattern, "") if r.habitual else ("", max(r.masses, key=r.masses.__getitem__))
        (rest if kind in seen else lead).append(h)
        seen.add(kind)
    order = lead + rest
    return order if first is None else [first] + [h for h in order if h != first]


# -- what a head does over all its rows, said before any one pair (issue 38) ----------------------
REST_AT_LEAST = 0.25  # a resting place is named from a quarter of the rows' weight, on average
RESTING = ("sink", "cls", "sep")  # the readings of a resting place (sharpness.resting_keys)
LINKS_SAID = 2  # the strongest link groups a sentence names


@dataclass(frozen=True)
class HeadSummary:
    """What a head's rows show, over all of them (:func:`summarise_head`): the sentence a scene
    says of the head before it turns to one pair, and the cells that show it.

    ``reading`` is :func:`read_head`'s (by the model-level ``scores`` where given), ``rows`` what
    this sentence's rows show (``reading.here``, or ``reading`` itself). ``habit``: the rows'
    habit where it is not a resting place (``"previous"``, ``"induction"`` …; None else), with
    ``habit_cells`` the cells ``(i, j)`` of the rows whose largest weight is on the habit's key.
    ``rest``: the resting place's reading (``"sink"``, ``"cls"``, ``"sep"``) where the rows put
    on average at least :data:`REST_AT_LEAST` of their weight on it, its column ``rest_key``
    and that average ``rest_share`` (over the rows the habit covers: a decoder's first row,
    forced onto the first token, left out). ``links``: without a habit, the head's strongest
    links to other tokens (:func:`~.sharpness.strongest_links`: each query's largest weight, at
    least half its row, not on a resting place or itself), at most :data:`LINKS_SAID` groups,
    the group with the brightest link first (no unnamed group's link outweighs every named
    group's: "where it links most strongly" is then true);
    ``top``: without a habit, the one key more than half the rows weigh most
    (:func:`~.head_kinds.fixed_key`; never the first key or a closing [SEP]), None where none
    is; ``rows_weights`` the weights read.

    Attributes
    ----------
    reading, rows : HeadReading
    habit : str or None
    habit_cells : tuple of (int, int)
    rest : str or None
    rest_key : int or None
    rest_share : float
    links : tuple of LinkGroup
    top : int or None
    rows_weights : ndarray

    Examples
    --------
    >>> import numpy as np
    >>> W = np.tril(np.ones((4, 4)))
    >>> W[:, 0] += 2.0
    >>> s = summarise_head(W / W.sum(axis=1, keepdims=True))
    >>> s.rest, s.rest_key, round(s.rest_share, 2), s.share_words, s.habit
    ('sink', 0, 0.62, 'half', None)
    """

    reading: HeadReading
    rows: HeadReading
    habit: str | None
    habit_cells: tuple[tuple[int, int], ...]
    rest: str | None
    rest_key: int | None
    rest_share: float
    links: tuple[LinkGroup, ...]
    top: int | None = None

    @property
    def top_cells(self) -> tuple[tuple[int, int], ...]:
        """The cells of the rows whose clearly largest weight is on :attr:`top`."""
        if self.top is None:
            return ()
        W = self.rows_weights
        top2 = np.sort(W, axis=1)[:, -2:]
        clear = top2[:, 1] - top2[:, 0] > 1e-3  # as fixed_key reads a row's largest weight
        rows = np.flatnonzero((np.argmax(W, axis=1) == self.top) & clear)
        return tuple((int(i), self.top) for i in rows)

    rows_weights: np.ndarray = field(
        default_factory=lambda: np.zeros((0, 0)), repr=False, compare=False
    )

    @property
    def share_words(self) -> str:
        """How the resting place's share is said: ``"half"`` (half or more of each row's weight,
        on average) or ``"quarter"`` (a quarter or more)."""
        return "half" if self.rest_share >= HABIT_AT_LEAST else "quarter"

    @property
    def shape(self) -> str:
        """The rows' shape, ``"sharp"`` or ``"diffuse"``: their mean normalised entropy below
        :data:`~.sharpness.SHARP_BELOW` or not (:mod:`.sharpness`)."""
        return "sharp" if self.rows.entropy < SHARP_BELOW else "diffuse"

    @property
    def split(self) -> tuple[str, str] | None:
        """The two habits the rows split between (:func:`split_pair`; e.g. ``("previous",
        "sink")``), None where they do not: a caption that names the rows' :attr:`shape` says
        the split first (issue 38: "diffuse" over a clear diagonal)."""
        return head_kinds.split_of(self.rows.pattern)

    @property
    def held(self) -> tuple[int, ...]:
        """The keys other than the query itself that hold half a row's weight or more, as its
        largest, in some row (forced rows left out): a resting place's among them."""
        return tuple(sorted({g.key for g in self.rows.links if g.key != SELF}))

    @property
    def telling(self) -> str:
        """Which sentence tells the rows: ``"habit"``, ``"links"`` (no habit, its strongest
        links), ``"none"`` (no row gives another token half its weight or more: its shape) or
        ``"none_rest"`` (none but a resting place, :attr:`held`); the resting place is said
        after the habit, before the rest, where named."""
        if self.habit:
            return "habit"
        return "links" if self.links else "none_rest" if self.held else "none"

    @property
    def cells(self) -> tuple[tuple[int, int], ...]:
        """The cells that show the sentence (the resting place's column apart): the habit's rows
        or the links' cells."""
        if self.habit:
            return self.habit_cells
        links = tuple((i, g.key if g.key != SELF else i) for g in self.links for i in g.queries)
        return tuple(dict.fromkeys(links + self.top_cells))


def _rest(W: np.ndarray, tokens: Sequence[str] | None) -> tuple[str | None, int | None, float]:
    """The resting place the rows weigh most (``RESTING``), its column and average share; no
    reading where that share is below :data:`REST_AT_LEAST`."""
    best: tuple[str | None, int | None, float] = (None, None, 0.0)
    for key in RESTING:
        t = head_kinds.reading(key).habit_rows(W, tokens)
        if t is None:
            continue
        rows = np.flatnonzero(t >= 0)
        if len(rows):
            share = float(W[rows, t[rows]].mean())
            if share > best[2]:
                best = (key, int(t[rows[0]]), share)
    return best if best[2] >= REST_AT_LEAST else (None, None, best[2])


def _pattern_keys(W: np.ndarray, tokens: Sequence[str], pattern: str) -> dict[int, list[int]]:
    """Each query's keys under the head's reading ``pattern``."""
    if pattern == "induction":
        return induction_targets(tokens)
    t = head_kinds.reading(pattern).habit_rows(W, tokens)
    assert t is not None  # the head's habit: read_head found it in these rows
    return {int(i): [int(t[i])] for i in np.flatnonzero(t >= 0)}


def _fitting_rows(W: np.ndarray, keys: dict[int, list[int]]) -> tuple[tuple[int, int], ...]:
    """The cells ``(i, j)`` of the rows whose largest weight ``j`` is among their ``keys[i]``."""
    return tuple((i, int(np.argmax(W[i]))) for i in sorted(keys) if int(np.argmax(W[i])) in keys[i])


def summarise_head(
    weights: ArrayLike, tokens: Sequence[str] | None = None, scores: HeadScores | None = None
) -> HeadSummary:
    """What a self-attention head does over all its rows (:class:`HeadSummary`): its habit with
    the rows that show it, or its strongest links here; and the resting place it parks weight
    on, where it parks a quarter or more on average.

    Parameters
    ----------
    weights : array_like
        (n, n) the head's weights, rows summing to 1.
    tokens : sequence of str, optional
        The tokens' labels.
    scores : HeadScores, optional
        The head's model-level scores (:func:`read_head`).

    Returns
    -------
    HeadSummary

    Examples
    --------
    >>> import numpy as np
    >>> s = summarise_head(np.eye(3)[[0, 0, 1]] * 0.9 + 0.1 / 3)
    >>> s.telling, s.habit, s.habit_cells
    ('habit', 'previous', ((1, 0), (2, 1)))
    """
    reading = read_head(weights, tokens, scores)
    W = as_matrix("weights", weights)
    tokens = None if tokens is None else tuple(tokens)
    rows = reading.here if reading.here is not None else reading
    rest, rest_key, share = _rest(W, tokens)
    habit = rows.pattern if rows.habitual and rows.pattern not in RESTING else None
    cells: tuple[tuple[int, int], ...] = ()
    if habit is not None:
        cells = _fitting_rows(W, _pattern_keys(W, tokens or (), habit))
    # the brightest links first, so that "where it links most strongly" names them (issue 38:
    # "sold, his₁, he → farmer (0.55–0.64)" said first and "to → tractor 0.96" only "next")
    content = sorted((g for g in rows.links if g.content), key=lambda g: -g.high)
    links = () if habit else tuple(content[:LINKS_SAID])
    top = fixed_key(W, tokens) if habit is None else None  # most rows weigh it most
    return HeadSummary(reading, rows, habit, cells, rest, rest_key, share, links, top, W)
