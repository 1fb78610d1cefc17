"""Seeded illustrative maps that show what a learned W does (Projections, Dot products).

They are not the example's weights, and every scene that shows them labels them illustrative.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

ILLUSTRATIVE_SEED = 7  # the seeded map that shows what a learned W does (Projections)


def illustrative_weights(d: int, seed: int = ILLUSTRATIVE_SEED) -> np.ndarray:
    """A seeded (d, d) matrix that visibly moves a plane, for showing what a learned W does.

    A rotation by 20–35° times a stretch (×1.2–1.4 along one axis, ×0.6–0.8 along the other);
    for d > 2 the same acts on the first two axes. Labelled as illustrative wherever it is shown.

    Parameters
    ----------
    d : int
        The width.
    seed : int, default ILLUSTRATIVE_SEED
        The random generator's seed.

    Returns
    -------
    ndarray
        (d, d).

    Examples
    --------
    >>> W = illustrative_weights(3)
    >>> W.shape, W[2].tolist()
    ((3, 3), [0.0, 0.0, 1.0])
    """
    if not isinstance(d, (int, np.integer)) or d < 1:
        raise ValueError(f"d: expected a positive integer, got {d!r}")
    rng = np.random.default_rng(seed)
    theta = np.radians(rng.uniform(20, 35))
    stretch = np.array([rng.uniform(1.2, 1.4), rng.uniform(0.6, 0.8)])
    W = np.eye(d)
    if d >= 2:
        rot = np.array([[np.cos(theta), np.sin(theta)], [-np.sin(theta), np.cos(theta)]])
        W[:2, :2] = np.diag(stretch) @ rot  # row vectors: x ↦ x W stretches, then turns
    else:
        W[0, 0] = stretch[0]
    return W


def illustrative_projections(
    d: int, seed: int = ILLUSTRATIVE_SEED
) -> tuple[np.ndarray, np.ndarray]:
    """Two distinct seeded (d, d) maps (W_q, W_k) that show queries and keys in separate spaces.

    W_q is :func:`illustrative_weights` ``(d, seed)``; W_k, from the same seed, turns the other
    way (by 20–35°) and stretches the other axis, so x W_q and x W_k differ for every x ≠ 0 and
    a token's query is compared with keys that are not its own vector. Labelled as illustrative
    wherever it is shown.

    Parameters
    ----------
    d : int
        The width.
    seed : int, default ILLUSTRATIVE_SEED
        The random generator's seed.

    Returns
    -------
    tuple of ndarray
        (W_q, W_k), each (d, d).

    Examples
    --------
    >>> W_q, W_k = illustrative_projections(2)
    >>> bool((W_q == illustrative_weights(2)).all()), bool((W_q != W_k).any())
    (True, True)
    """
    W_q = illustrative_weights(d, seed)
    rng = np.random.default_rng([seed, 1])
    theta = -np.radians(rng.uniform(20, 35))
    stretch = np.array([rng.uniform(0.6, 0.8), rng.uniform(1.2, 1.4)])
    W_k = np.eye(d)
    if d >= 2:
        rot = np.array([[np.cos(theta), np.sin(theta)], [-np.sin(theta), np.cos(theta)]])
        W_k[:2, :2] = np.diag(stretch) @ rot
    else:
        W_k[0, 0] = stretch[1] * 1.25
    return W_q, W_k


def illustrative_queries_keys(
    X: ArrayLike, seed: int = ILLUSTRATIVE_SEED, source: ArrayLike | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(Q, K, Q Kᵀ) under :func:`illustrative_projections`: queries from the rows of ``X``, keys
    from ``source`` (cross-attention's second sequence; default ``X`` itself).

    Parameters
    ----------
    X : array_like
        (m, d) the queries' tokens.
    seed : int, default ILLUSTRATIVE_SEED
        The random generator's seed.
    source : array_like, optional
        (n, d) the keys' tokens (default ``X``).

    Returns
    -------
    tuple of ndarray
        (Q, K, Q Kᵀ).

    Examples
    --------
    >>> Q, K, S = illustrative_queries_keys([[1.0, 0.0], [0.0, 1.0]])
    >>> S.shape, bool(np.allclose(S, Q @ K.T))
    ((2, 2), True)
    """
    X = np.asarray(X, dtype=float)
    src = X if source is None else np.asarray(source, dtype=float)
    W_q, W_k = illustrative_projections(X.shape[1], seed)
    Q, K = X @ W_q, src @ W_k
    return Q, K, Q @ K.T
