"""What a weight moves: the size of αᵢⱼ · vⱼ · W_Oʰ, not αᵢⱼ alone (Kobayashi et al., 2020).

A head's output for query i is Σⱼ αᵢⱼ · vⱼ · W_Oʰ (W_Oʰ: the rows of W_O that head h's d_v
columns of the concatenation meet; with grouped key/value heads vⱼ is the head's own group's
value vector). Key j's part of it is the vector αᵢⱼ · vⱼ · W_Oʰ, and its norm is *what the weight
moves*: a weight of 0.99 on a token whose value vector is nearly zero (an attention sink, a
"resting place") moves almost nothing, while 0.05 on a long value vector may move most of the
output. A single-head example without W_O moves αᵢⱼ · vⱼ. A bias after W_O (BERT's b_O) belongs
to no key and is left out, as Kobayashi et al. leave it out.

**A key word cut into pieces** moves the *sum* of its pieces' vectors: ``moved`` is
‖Σⱼ∈pieces αᵢⱼ · vⱼ · W_Oʰ‖, what the word adds to the output (vectors pointing apart cancel, as
they do in the output), not the sum of the pieces' norms. Its ``share`` is that size over the
row's total Σⱼ ‖αᵢⱼ · vⱼ · W_Oʰ‖ (every key alone), so a word's share is at most its pieces'
shares summed, and never above 1 (the triangle inequality).

**The weight without the first token**: the pair's weight with the first key's column set to
0 and the row renormalised over keys 2 … n (as TransformerLens' ``exclude_bos``): what the
head gives the pair once a sink's weight is set aside. None where the row gives the first key
everything (nothing is left to renormalise).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import ArrayLike

if TYPE_CHECKING:
    from ..trace import ExampleTrace

# a pair "rests" when it carries at least this weight …
RESTING_WEIGHT = 0.5
# … and at most this share of what the row moves: most of the weight, little of the output
RESTING_SHARE = 0.25


@dataclass(frozen=True)
class Moved:
    """What a query's weight on a key (or a key word's pieces) moves: ``size`` the norm of the
    vector it adds to the head's output, ``total`` the row's Σⱼ ‖αᵢⱼ · vⱼ · W_Oʰ‖, ``share``
    size / total (0 for a row that moves nothing)."""

    size: float
    share: float
    total: float


def moved_vectors(row: ArrayLike, V: ArrayLike, W_O: ArrayLike | None = None) -> np.ndarray:
    """Each key's part of the head's output for one query: αⱼ · vⱼ · W_Oʰ, (n, d_out).
    ``row`` (n,) the query's weights, ``V`` (n, d_v) the value vectors, ``W_O`` the head's
    (d_v, d_out) rows of W_O, or None (a head without W_O: αⱼ · vⱼ, (n, d_v))."""
    row = np.asarray(row, dtype=np.float64)
    V = np.asarray(V, dtype=np.float64)
    if V.ndim != 2 or row.shape != (V.shape[0],):
        raise ValueError(f"V: expected (n, d_v) for {row.shape[0]} weights, got {V.shape}")
    out = V if W_O is None else V @ np.asarray(W_O, dtype=np.float64)
    return row[:, None] * out


def moved_sizes(row: ArrayLike, V: ArrayLike, W_O: ArrayLike | None = None) -> np.ndarray:
    """‖αⱼ · vⱼ · W_Oʰ‖ for every key j, (n,)."""
    return np.linalg.norm(moved_vectors(row, V, W_O), axis=1)


def pair_moved(row: ArrayLike, V: ArrayLike, W_O: ArrayLike | None, keys: Iterable[int]) -> Moved:
    """What the query's weights ``row`` move to the keys ``keys`` (a key word's pieces):
    ‖Σⱼ∈keys αⱼ · vⱼ · W_Oʰ‖ and its share of the row's Σⱼ ‖αⱼ · vⱼ · W_Oʰ‖."""
    vecs = moved_vectors(row, V, W_O)
    size = float(np.linalg.norm(vecs[list(keys)].sum(axis=0)))
    total = float(np.linalg.norm(vecs, axis=1).sum())
    return Moved(size, size / total if total > 0 else 0.0, total)


def weight_without_first(row: ArrayLike, keys: Iterable[int]) -> float | None:
    """The weight on ``keys`` with the first key's set to 0 and the row renormalised over keys
    2 … n; None where the first key holds the whole row."""
    row = np.asarray(row, dtype=np.float64)
    rest = float(row[1:].sum())
    if rest <= 1e-12:
        return None
    return float(sum(row[k] for k in set(keys) if k != 0)) / rest


def is_resting(weight: float, share: float) -> bool:
    """A large weight that moves little: at least :data:`RESTING_WEIGHT` of the weight and at
    most :data:`RESTING_SHARE` of what the row moves ("a resting place")."""
    return weight >= RESTING_WEIGHT and share <= RESTING_SHARE


def head_value_rows(trace: ExampleTrace, head: int) -> tuple[np.ndarray, np.ndarray | None]:
    """An example trace's head ``head`` (from 0): its value vectors (n_keys, d_v) (a grouped
    head's own group's) and its rows of W_O (d_v, d_out), or None without W_O."""
    h = trace.heads[head]
    V = np.asarray(h.V, dtype=np.float64)
    mh = trace.multihead
    if mh is None or mh.W_o is None:
        return V, None
    d_v = V.shape[1]
    return V, np.asarray(mh.W_o, dtype=np.float64)[head * d_v : (head + 1) * d_v]


def trace_moved(trace: ExampleTrace, head: int, query: int, keys: Iterable[int]) -> Moved:
    """What head ``head``'s (from 0) weight from ``query`` to ``keys`` moves in an example's
    trace (the followed pair of ``numbers --json``)."""
    V, W_O = head_value_rows(trace, head)
    return pair_moved(np.asarray(trace.heads[head].weights)[query], V, W_O, keys)
