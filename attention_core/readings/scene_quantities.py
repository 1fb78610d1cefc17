"""Small quantities particular scenes state about an attention result, computed here so that
no scene computes: the cost of the weight matrix, each token's share from the others, the query row
a per-query demo shows, the residual update and the weighted sum as a tip-to-tail chain."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike


def attention_cost(n_queries: int, n_keys: int, d_k: int) -> tuple[int, int]:
    """(cells of the weight matrix, multiply-adds of Q Kᵀ) = (m·n, m·n·d_k).

    Parameters
    ----------
    n_queries, n_keys, d_k : int
        m, n and the width of a query.

    Returns
    -------
    tuple of int
        (m·n, m·n·d_k).

    Examples
    --------
    >>> attention_cost(3, 4, 8)
    (12, 96)
    """
    return n_queries * n_keys, n_queries * n_keys * d_k


def share_from_others(weights: np.ndarray) -> np.ndarray:
    """For self-attention: each token's share of its output that comes from other tokens
    (1 − w_ii).

    Parameters
    ----------
    weights : ndarray
        (n, n) self-attention weights.

    Returns
    -------
    ndarray
        (n,) 1 − w_ii.

    Examples
    --------
    >>> share_from_others(np.array([[0.75, 0.25], [0.5, 0.5]])).tolist()
    [0.25, 0.5]
    """
    return 1.0 - np.diag(weights)


def tip_to_tail(weights_row: ArrayLike, V: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    """The weighted sum Σ_j w_j v_j as a chain: each part w_j v_j and the point where it starts.

    Returns ``(parts, starts)``, both (n, d_v); the last start plus the last part is the output.

    Parameters
    ----------
    weights_row : array_like
        (n,) one query's weights.
    V : array_like
        (n, d_v) the values.

    Returns
    -------
    tuple of ndarray
        (parts, starts).

    Examples
    --------
    >>> parts, starts = tip_to_tail([0.5, 0.5], [[2.0, 0.0], [0.0, 2.0]])
    >>> parts.tolist(), starts.tolist()
    ([[1.0, 0.0], [0.0, 1.0]], [[0.0, 0.0], [1.0, 0.0]])
    """
    w = np.asarray(weights_row, dtype=np.float64)
    V = np.asarray(V, dtype=np.float64)
    parts = w[:, None] * V  # (n, d_v)
    starts = np.vstack([np.zeros((1, V.shape[1])), np.cumsum(parts, axis=0)[:-1]])
    return parts, starts


def informative_row(weights: ArrayLike, rel_tol: float = 0.05) -> int:
    """The query row a per-query demo shows: one whose weights are spread most widely
    (largest Σ w(1 − w)), so neither one-hot nor fully masked.

    The first row within ``rel_tol`` of the widest spread is taken, so that when the rows are
    all alike the demo keeps to the first token. Rows that are not finite count as one-hot; a
    matrix of one-hot rows gives 0.

    Parameters
    ----------
    weights : array_like
        (n, m) weights.
    rel_tol : float, default 0.05
        How close to the widest spread the first row taken may be.

    Returns
    -------
    int
        The row (from 0).

    Examples
    --------
    >>> informative_row([[1.0, 0.0], [0.5, 0.5]])
    1
    """
    w = np.asarray(weights, dtype=np.float64)
    if w.ndim != 2 or w.shape[0] == 0:
        raise ValueError(f"weights: expected a non-empty (n, m) matrix, got shape {w.shape}")
    finite = np.all(np.isfinite(w), axis=1)
    spread = np.where(finite, np.sum(w * (1.0 - w), axis=1), 0.0)  # (n,)
    best = float(np.max(spread))
    if best <= 1e-12:
        return 0
    return int(np.flatnonzero(spread >= best * (1.0 - rel_tol))[0])


def residual(X: ArrayLike, output: ArrayLike) -> np.ndarray:
    """The residual update E + ΔE: each token's embedding plus its attention output (ΔE).

    Parameters
    ----------
    X, output : array_like
        The embeddings E and the attention output ΔE, of one shape.

    Returns
    -------
    ndarray
        E + ΔE.

    Examples
    --------
    >>> residual([[1.0, 2.0]], [[0.5, -1.0]]).tolist()
    [[1.5, 1.0]]
    """
    X, output = np.asarray(X, dtype=np.float64), np.asarray(output, dtype=np.float64)
    if X.shape != output.shape:
        raise ValueError(f"X {X.shape} and output {output.shape}: the residual needs one shape")
    return X + output


def story_order(
    weights: ArrayLike, query: int, key: int, side: str = "keys", rows: tuple[int, ...] = ()
) -> list[int]:
    """The order in which a picture with room for only some tokens draws them (issue 32): the
    followed token first, then the ones the story needs most. ``side="keys"``: the followed
    ``key``, then the keys row ``query`` weighs most; ``side="queries"``: the followed
    ``query``, then ``rows`` (the rows that do what the head does: ``HeadStory.fits``), then
    (self-attention: the same tokens as the keys) the keys' order, or (more queries than keys'
    order covers) the queries that weigh ``key`` most. Ties keep the lower index; every index
    once.

    Parameters
    ----------
    weights : array_like
        (m, n) weights.
    query, key : int
        The followed pair.
    side : {"keys", "queries"}, default "keys"
        Which tokens are ordered.
    rows : tuple of int, default ()
        The rows that do what the head does.

    Returns
    -------
    list of int
        Every index once, the followed one first.

    Examples
    --------
    >>> story_order([[0.1, 0.6, 0.3]], 0, 2)
    [2, 1, 0]
    """
    w = np.asarray(weights, dtype=np.float64)
    if w.ndim != 2 or not (0 <= query < w.shape[0] and 0 <= key < w.shape[1]):
        raise ValueError(f"weights {w.shape}: query {query} and key {key} must index it")
    row = np.nan_to_num(w[query], nan=0.0)
    keys = [key, *(int(j) for j in np.argsort(-row, kind="stable") if j != key)]
    if side == "keys":
        return keys
    if side != "queries":
        raise ValueError(f"side: {side!r}; use 'keys' or 'queries'")
    first = [query, *dict.fromkeys(int(i) for i in rows if 0 <= i < w.shape[0] and i != query)]
    if w.shape[0] == w.shape[1]:
        rest = keys
    else:
        rest = [int(i) for i in np.argsort(-np.nan_to_num(w[:, key], nan=0.0), kind="stable")]
    return [*first, *(i for i in rest if i not in first)]


WORKED_KEYS = 4  # the keys of the followed query a per-query step works one by one


def worked_keys(
    row: ArrayLike, key: int | None = None, seen: ArrayLike | None = None, most: int = WORKED_KEYS
) -> tuple:
    """The keys a per-query step works one by one (DotProducts), the same at every aspect
    (issue 38: each aspect worked the keys its elided matrix happened to show, one of them a key
    the mask blocks): ``key`` (the followed pair's; an asked key is never blocked) first, then
    the keys ``row`` (one row of weights) weighs most, the lower index on a tie, never one that
    ``seen`` (the mask's row: whether the query may see each key) blocks; at most ``most``, after
    ``key`` in column order (the order the row reads).

    Parameters
    ----------
    row : array_like
        One row of weights.
    key : int, optional
        The followed key.
    seen : array_like of bool, optional
        The mask's row.
    most : int, default 4
        At most this many keys.

    Returns
    -------
    tuple of int

    Examples
    --------
    >>> worked_keys([0.1, 0.5, 0.2, 0.2], key=0, most=3)
    (0, 1, 2)
    >>> worked_keys([0.1, 0.5, 0.2, 0.2], seen=[1, 0, 1, 1], most=2)
    (2, 3)
    """
    w = np.nan_to_num(np.asarray(row, dtype=np.float64), nan=0.0)
    if w.ndim != 1 or most < 1 or (key is not None and not 0 <= key < len(w)):
        raise ValueError(f"row: expected one row of weights, key in it and most ≥ 1 ({w.shape})")
    ok = np.ones(len(w), bool) if seen is None else np.asarray(seen, bool)
    first = [] if key is None else [int(key)]
    heaviest = [int(j) for j in np.argsort(-w, kind="stable") if ok[j] and j not in first]
    return tuple(first + sorted(heaviest[: most - len(first)]))


NAMED_ALL = 12  # a caption names every weight of a row of at most this many keys
NAMED_FEW = 5  # else only this many, the largest


@dataclass(frozen=True)
class NamedWeights:
    """The weights of one row that a caption names: ``kind`` ``"all"`` (every key's, in order)
    or ``"largest"`` (the ``keys`` weighted most, largest first; ``others`` keys are left
    unnamed, whose weights add up to ``rest``).

    Attributes
    ----------
    kind : {"all", "largest"}
    keys : tuple of int
        The keys named.
    others : int
        The keys left unnamed.
    rest : float
        Their weights' sum.

    Examples
    --------
    >>> named_weights([0.5, 0.5]).keys
    (0, 1)
    """

    kind: str
    keys: tuple[int, ...]
    others: int
    rest: float


def named_weights(row: ArrayLike, most: int = NAMED_ALL, few: int = NAMED_FEW) -> NamedWeights:
    """Which weights of ``row`` (one row of shares) a caption names: every one where there are
    at most ``most``, else the ``few`` largest (the lower index on a tie) — a caption that
    lists 24 weights runs out of its frame.

    Parameters
    ----------
    row : array_like
        One row of weights.
    most : int, default 12
        Name every weight of a row of at most this many keys.
    few : int, default 5
        Else name this many, the largest.

    Returns
    -------
    NamedWeights

    Examples
    --------
    >>> n = named_weights(np.full(14, 1 / 14), few=2)
    >>> n.kind, n.keys, n.others, round(n.rest, 3)
    ('largest', (0, 1), 12, 0.857)
    """
    w = np.asarray(row, dtype=np.float64)
    if w.ndim != 1 or not 1 <= few <= most:
        raise ValueError(f"row: expected one row of weights and 1 ≤ few ≤ most, got {w.shape}")
    if len(w) <= most:
        return NamedWeights("all", tuple(range(len(w))), 0, 0.0)
    top = [int(j) for j in np.argsort(-w, kind="stable")[:few]]
    others = [j for j in range(len(w)) if j not in top]
    return NamedWeights("largest", tuple(top), len(others), float(np.sum(w[others])))


@dataclass(frozen=True)
class LabelledKeys:
    """The keys of one row of weights that a picture of its shares labels (issue 32: a label
    sits on its own bar or segment, never in a list away from it): ``keys`` in their order,
    ``unlabelled`` the keys with a share (weight > 0) left without a label, ``blocked`` the
    keys with none (a mask's: their picture is the masked marker, not a label).

    Attributes
    ----------
    keys : tuple of int
        The keys labelled.
    unlabelled, blocked : int
        The keys with a share left without a label, and those with none.

    Examples
    --------
    >>> labelled_keys([0.5, 0.5]).unlabelled
    0
    """

    keys: tuple[int, ...]
    unlabelled: int
    blocked: int


def labelled_keys(row: ArrayLike, key: int | None = None) -> LabelledKeys:
    """Which keys of ``row`` (one row of weights) a picture labels: every one where a caption
    names them all (:func:`named_weights`), else the followed ``key`` and the keys the caption
    names (the largest) — those with a share; a blocked key (weight 0 under a mask) never.

    Parameters
    ----------
    row : array_like
        One row of weights.
    key : int, optional
        The followed key.

    Returns
    -------
    LabelledKeys

    Examples
    --------
    >>> labelled_keys([0.6, 0.4])
    LabelledKeys(keys=(0, 1), unlabelled=0, blocked=0)
    """
    w = np.asarray(row, dtype=np.float64)
    named = named_weights(w)
    if named.kind == "all":
        keys = list(named.keys)
    else:
        keys = sorted({*named.keys, *([] if key is None else [key])})
        keys = [j for j in keys if w[j] > 0]
    has_share = int(np.sum(w > 0))
    shown = sum(1 for j in keys if w[j] > 0)
    return LabelledKeys(tuple(keys), has_share - shown, int(np.sum(w <= 0)))
