"""Reading one head: the plane that best keeps its queries and keys, and its pattern in a word.

For a head of a real model (d_k = 32) a scene needs a faithful 2-D picture and an honest one-line
summary of what the head does — both computed here from the head's own numbers.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .._checks import as_matrix, same_width
from ..geometry import plane_view
from .copy_heads import induction_keys, is_causal, sink_targets

SPREAD_BELOW = 0.5  # the one threshold: a head reads as a pattern when its queries put, on
# average, at least half their weight on that pattern's key; else it is "spread"


@dataclass(frozen=True)
class Reading:
    """One way a head can read: ``key`` (e.g. ``"previous"``), ``phrase`` (English, in a
    sentence), and ``targets(weights, tokens)``: for each query row the key it would look at
    (−1 where the row has none), or None when the reading does not apply to these tokens.

    :data:`READINGS` is a list: a new reading (an attention sink, an induction head) is one more
    entry; earlier entries win ties.
    """

    key: str
    phrase: str
    targets: Callable[[np.ndarray, tuple | None], np.ndarray | None]


def _previous(W, tokens):
    n = W.shape[0]
    return None if n < 2 else np.arange(n) - 1  # row 0 has none: −1


def _next(W, tokens):
    n = W.shape[0]
    if n < 2:
        return None
    t = np.arange(n) + 1
    t[-1] = -1
    return t


def _starts_cls(tokens) -> bool:
    return bool(tokens) and tokens[0] == "[CLS]"


def _first(W, tokens):
    # under a causal mask the first token is read as the attention sink (copy_heads) instead
    return None if _starts_cls(tokens) or is_causal(W) else np.zeros(W.shape[0], int)


def _cls(W, tokens):
    return np.zeros(W.shape[0], int) if _starts_cls(tokens) else None


def _ends_sep(W, tokens) -> bool:
    return bool(tokens) and W.shape[0] > 1 and tokens[-1] == "[SEP]"


def _sep(W, tokens):
    return np.full(W.shape[0], W.shape[0] - 1) if _ends_sep(W, tokens) else None


def _self(W, tokens):
    return np.arange(W.shape[0])


def fixed_key(W, tokens=None) -> int | None:
    """The one key most rows put their clearly largest weight on (more than half the rows; a
    row whose top two weights tie has no largest), unless the first key or a final [SEP] (read
    as "first", [CLS] or [SEP]); else None."""
    n = W.shape[0]
    if n < 2:
        return None
    top2 = np.sort(W, axis=1)[:, -2:]
    clear = top2[:, 1] - top2[:, 0] > 1e-3
    best = np.argmax(W, axis=1)[clear]
    if best.size == 0:
        return None
    j = int(np.bincount(best, minlength=n).argmax())
    if 2 * int(np.sum(best == j)) <= n or j == 0 or (j == n - 1 and _ends_sep(W, tokens)):
        return None
    return j


def _fixed(W, tokens):
    j = fixed_key(W, tokens)
    return None if j is None else np.full(W.shape[0], j)


READINGS = [
    Reading("previous", "the previous token", _previous),
    Reading("next", "the next token", _next),
    Reading("first", "the first token", _first),
    Reading("cls", "[CLS]", _cls),
    Reading("sep", "[SEP]", _sep),
    Reading("self", "itself", _self),
    Reading("fixed", "one token", _fixed),
    # a decoder's heads (readings.copy_heads): the first token under a causal mask, and
    # the token after an earlier occurrence of the current one
    Reading("sink", "the first token (attention sink)", sink_targets),
    Reading("induction", "the token after its earlier occurrence (induction)", induction_keys),
]
PATTERNS = {r.key: r.phrase for r in READINGS} | {"spread": "spread"}


@dataclass(frozen=True)
class QKPlane:
    """A head's queries and keys seen in one plane through the origin.

    ``q`` (m, 2) and ``k`` (n, 2) are their coordinates, ``basis`` (d_k, 2) the plane's
    orthonormal axes, ``kept`` the share of the stacked vectors' total squared length the plane
    keeps (1.0 when d_k ≤ 2). Dot products in the plane are those of the projected vectors, not
    the true q·k unless the view is exact.
    """

    q: np.ndarray
    k: np.ndarray
    basis: np.ndarray
    kept: float

    @property
    def exact(self) -> bool:
        return self.kept >= 1.0 - 1e-12


def qk_plane(Q, K) -> QKPlane:
    """The plane that best keeps a head's queries and keys together: uncentred PCA of the rows of
    Q (m, d_k) stacked on K (n, d_k), as :func:`attention_core.plane_view` computes it."""
    Q, K = as_matrix("Q", Q), as_matrix("K", K)
    same_width("Q", Q, "K", K)
    view = plane_view(np.vstack([Q, K]))  # (m + n, 2)
    m = Q.shape[0]
    return QKPlane(q=view.coords[:m], k=view.coords[m:], basis=view.basis, kept=view.kept)


@dataclass(frozen=True)
class HeadReading:
    """What a head's weights do, in one line.

    ``pattern`` is a key of :data:`PATTERNS` (``"previous"``, ``"next"``, ``"first"`` or
    ``"cls"``, ``"sep"``, ``"self"``, ``"fixed"``, or ``"spread"``); ``mass`` the average weight a
    query puts on that pattern's key (for ``"spread"``: the largest average among the patterns);
    ``masses`` every applicable pattern's average; ``key`` the key a ``"fixed"`` head looks at
    (else None) and ``token`` its label when tokens were given.
    """

    pattern: str
    mass: float
    masses: dict
    key: int | None = None
    token: str | None = None

    @property
    def text(self) -> str:
        """E.g. ``"attends to the previous token (0.98)"``, ``"attends to one token, 'mat'
        (0.61)"`` or ``"spread (at most 0.31 on one pattern)"``."""
        if self.pattern == "spread":
            return f"spread (at most {self.mass:.2f} on one pattern)"
        if self.pattern == "fixed":
            name = repr(self.token) if self.token is not None else f"key {self.key + 1}"
            return f"attends to one token, {name} ({self.mass:.2f})"
        return f"attends to {PATTERNS[self.pattern]} ({self.mass:.2f})"


def read_head(weights, tokens=None, spread_below: float = SPREAD_BELOW) -> HeadReading:
    """Read a self-attention head's pattern from its weights (n, n), rows summing to 1.

    For each reading of :data:`READINGS` that applies (the previous token, the next, the first
    key or [CLS] when ``tokens`` start with it, [SEP] when they end with it, itself, one fixed
    token that most rows look at most), the average weight a query puts on that reading's key
    (over the queries that have one); the largest wins (the earlier reading on a tie), unless it
    is below ``spread_below`` (:data:`SPREAD_BELOW`, half the weight): then the head is "spread".

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
    masses = {}
    for reading in READINGS:
        t = reading.targets(W, tokens)
        if t is None:
            continue
        rows = np.flatnonzero(t >= 0)
        masses[reading.key] = float(W[rows, t[rows]].mean())
    best = max(masses, key=masses.get)  # the first of equals: table order
    if masses[best] < spread_below:
        return HeadReading("spread", masses[best], masses)
    key = fixed_key(W, tokens) if best == "fixed" else None
    token = tokens[key] if key is not None and tokens is not None else None
    return HeadReading(best, masses[best], masses, key, token)


def _strength(r: HeadReading) -> tuple:
    """A reading's strength: a pattern before "spread", then its mass."""
    return (r.pattern != "spread", r.mass)


def rank_heads(weights, tokens=None, first: int | None = None) -> list[int]:
    """The order in which to draw a layer's heads (``weights``: one (n, n) matrix a head) where
    only some fit: the head with the strongest reading (:func:`read_head`; a pattern before
    "spread", then the larger mass; the lower head on a tie) first — the head an explanation of
    the layer follows — then one head for each other reading, strongest first, then the rest,
    strongest first ("spread" heads differ by the pattern they lean to most). Heads that are not
    square (cross-attention) keep their order. ``first``: the head an explanation follows (an
    example's ``head``, from 0), drawn first whatever its reading."""
    mats = [as_matrix("weights", w) for w in weights]
    if any(W.shape[0] != W.shape[1] for W in mats):
        return list(range(len(mats)))
    reads = [read_head(W, tokens) for W in mats]
    order = sorted(range(len(mats)), key=lambda h: (_strength(reads[h]), -h), reverse=True)
    seen, lead, rest = set(), [], []
    for h in order:
        r = reads[h]
        kind = (r.pattern, max(r.masses, key=r.masses.get) if r.pattern == "spread" else "")
        (rest if kind in seen else lead).append(h)
        seen.add(kind)
    order = lead + rest
    return order if first is None else [first] + [h for h in order if h != first]
