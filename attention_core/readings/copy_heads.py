"""Two patterns of a decoder's heads, measured from their weights: the attention sink and
induction (the heads that copy).

**Attention sink.** Many heads of a trained decoder put most of their weight on the first token
whatever it is: softmax must give every row weights summing to 1, and a head with nothing useful
to take parks that weight where it changes the output least. :func:`first_token_share` is the
average weight on the first key over the queries after it (the first query can only see itself
under a causal mask, so it says nothing). Threshold: ``SINK_AT_LEAST`` = 0.5.

**Induction.** On a repeated sequence ``… A B … A`` an induction head at the second ``A`` looks at
``B``, the token that followed the earlier ``A``, so the model can predict ``B`` again.
:func:`induction_share` looks at every query i whose token occurred earlier at some p with
p + 1 < i (so the token after it lies strictly before i): the share of those rows whose largest
weight is on such a p + 1, and the average weight those rows put on them. A head reads
"induction" when at least ``INDUCTION_MIN_ROWS`` = 2 rows qualify, at least half of them have
their largest weight there (``INDUCTION_HITS`` = 0.5) and their average weight there is at least
``INDUCTION_AT_LEAST`` = 0.3. Tokens are compared by label (what a viewer reads).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from .._checks import ArrayLike, as_matrix

SINK_AT_LEAST = 0.5
INDUCTION_MIN_ROWS = 2
INDUCTION_HITS = 0.5
INDUCTION_AT_LEAST = 0.3


def _square(weights: ArrayLike) -> np.ndarray:
    W = as_matrix("weights", weights)
    if W.shape[0] != W.shape[1]:
        raise ValueError(
            f"weights: expected a square (n, n) matrix (self-attention), got {W.shape}"
        )
    return W


def first_token_share(weights: ArrayLike) -> float:
    """The average weight on the first key over queries 2 … n (nan for one token)."""
    W = _square(weights)
    return float(W[1:, 0].mean()) if W.shape[0] > 1 else float("nan")


def is_attention_sink(weights: ArrayLike, at_least: float = SINK_AT_LEAST) -> bool:
    """Whether the head puts on average at least ``at_least`` of its weight on the first token."""
    share = first_token_share(weights)
    return bool(share == share and share >= at_least)


def induction_targets(tokens: Iterable[str]) -> dict[int, list[int]]:
    """For each query i whose token occurred earlier at p with p + 1 < i: the keys p + 1."""
    tokens = list(tokens)
    out = {}
    for i, t in enumerate(tokens):
        targets = [p + 1 for p in range(i) if tokens[p] == t and p + 1 < i]
        if targets:
            out[i] = targets
    return out


@dataclass(frozen=True)
class InductionShare:
    """``rows`` the queries that could copy, ``hits`` the share of them whose largest weight is
    on a token after an earlier occurrence, ``mass`` their average weight on those tokens."""

    rows: tuple[int, ...]
    hits: float
    mass: float

    @property
    def is_induction(self) -> bool:
        return (
            len(self.rows) >= INDUCTION_MIN_ROWS
            and self.hits >= INDUCTION_HITS
            and self.mass >= INDUCTION_AT_LEAST
        )


def induction_share(weights: ArrayLike, tokens: Iterable[str]) -> InductionShare:
    """How much the head looks at the token after an earlier occurrence of the current one."""
    W = _square(weights)
    tokens = list(tokens)
    if len(tokens) != W.shape[0]:
        raise ValueError(f"tokens: {len(tokens)} labels for {W.shape[0]} rows of weights")
    targets = induction_targets(tokens)
    if not targets:
        return InductionShare((), 0.0, 0.0)
    hits = [int(np.argmax(W[i])) in ts for i, ts in targets.items()]
    mass = [float(W[i, ts].sum()) for i, ts in targets.items()]
    return InductionShare(tuple(targets), float(np.mean(hits)), float(np.mean(mass)))


# -- as readings of readings.heads.read_head (one target key per row, −1: none) -----------------
def is_causal(W: ArrayLike) -> bool:
    """Whether the weights have a causal mask's signature: every later key exactly 0, every
    earlier key and the query itself above 0 (softmax gives no allowed key exactly 0)."""
    W = np.asarray(W)
    lower = np.tril(np.ones(W.shape, bool))
    return W.shape[0] > 1 and not W[~lower].any() and bool((W[lower] > 0).all())


def sink_targets(W: np.ndarray, tokens: Sequence[str] | None) -> np.ndarray | None:
    """Under a causal mask, the first key for every query after the first (the first can only
    see itself); None otherwise or when the tokens start with [CLS]."""
    if not is_causal(W) or (tokens and tokens[0] == "[CLS]"):
        return None
    t = np.zeros(W.shape[0], int)
    t[0] = -1
    return t


def duplicate_targets(tokens: Iterable[str]) -> dict[int, list[int]]:
    """For each query i whose token occurred earlier: those earlier positions p < i."""
    tokens = list(tokens)
    out = {}
    for i, t in enumerate(tokens):
        earlier = [p for p in range(i) if tokens[p] == t]
        if earlier:
            out[i] = earlier
    return out


def duplicate_keys(W: np.ndarray, tokens: Sequence[str] | None) -> np.ndarray | None:
    """For each query the latest earlier occurrence of its token (−1: none); None without
    tokens or with fewer than ``INDUCTION_MIN_ROWS`` such queries (a duplicate-token head looks
    back at the same token, as an induction head looks at the one after it)."""
    return None if tokens is None else _latest(duplicate_targets(tokens), len(tokens))


def induction_keys(W: np.ndarray, tokens: Sequence[str] | None) -> np.ndarray | None:
    """For each query the token after the latest earlier occurrence of its token (−1: none);
    None without tokens or with fewer than ``INDUCTION_MIN_ROWS`` such queries."""
    return None if tokens is None else _latest(induction_targets(tokens), len(tokens))


def _latest(targets: dict[int, list[int]], n: int) -> np.ndarray | None:
    """One target key per query of ``n``: each query's latest target (−1: none); None with
    fewer than ``INDUCTION_MIN_ROWS`` queries that have one."""
    if len(targets) < INDUCTION_MIN_ROWS:
        return None
    t = np.full(n, -1)
    for i, ts in targets.items():
        t[i] = ts[-1]
    return t
