"""Reading one head: the plane that best keeps its queries and keys, and its pattern in a word.

For a head of a real model (d_k = 32) a scene needs a faithful 2-D picture and an honest one-line
summary of what the head does — both computed here from the head's own numbers.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._checks import as_matrix, same_width
from .geometry import plane_view

# what each pattern is called in a one-line reading (a scene may translate the key)
PATTERNS = {
    "previous": "the previous token",
    "next": "the next token",
    "first": "the first token",
    "cls": "[CLS]",
    "sep": "[SEP]",
    "self": "itself",
    "spread": "spread",
}
SPREAD_BELOW = 0.5  # no pattern holding at least this average weight: "spread"


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

    ``pattern`` is a key of :data:`PATTERNS` (``"previous"``, ``"next"``, ``"cls"`` or ``"first"``,
    ``"sep"``, ``"self"``, or ``"spread"``); ``mass`` the average weight a query puts on that
    pattern's key (for ``"spread"``: the largest average among the patterns); ``masses`` every
    pattern's average.
    """

    pattern: str
    mass: float
    masses: dict

    @property
    def text(self) -> str:
        """E.g. ``"attends to the previous token (0.98)"`` or ``"spread (at most 0.31 on one
        pattern)"``."""
        if self.pattern == "spread":
            return f"spread (at most {self.mass:.2f} on one pattern)"
        return f"attends to {PATTERNS[self.pattern]} ({self.mass:.2f})"


def read_head(weights, tokens=None, spread_below: float = SPREAD_BELOW) -> HeadReading:
    """Read a self-attention head's pattern from its weights (n, n), rows summing to 1.

    The average weight each query puts on its previous token (over queries that have one), on
    its next token, on the first key ([CLS] when ``tokens`` start with it), on the last key
    (only when ``tokens`` end with [SEP]) and on itself; the largest wins, unless it is below
    ``spread_below``: then the head is "spread".

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
    tokens = None if tokens is None else list(tokens)
    if tokens is not None and len(tokens) != n:
        raise ValueError(f"tokens: {len(tokens)} labels for {n} rows of weights")
    idx = np.arange(n)
    masses = {}
    if n > 1:
        masses["previous"] = float(W[idx[1:], idx[1:] - 1].mean())
        masses["next"] = float(W[idx[:-1], idx[:-1] + 1].mean())
    first = "cls" if tokens and tokens[0] == "[CLS]" else "first"
    masses[first] = float(W[:, 0].mean())
    if tokens and n > 1 and tokens[-1] == "[SEP]":
        masses["sep"] = float(W[:, -1].mean())
    masses["self"] = float(np.diag(W).mean())
    best = max(masses, key=masses.get)
    if masses[best] < spread_below:
        return HeadReading("spread", masses[best], masses)
    return HeadReading(best, masses[best], masses)
