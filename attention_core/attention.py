"""Scaled dot-product attention, with every intermediate kept for the scenes.

    Attention(Q, K, V) = softmax(Q Kᵀ / √d_k) V          (Vaswani et al., 2017, eq. 1)

Row vectors throughout: a query is a row of Q, so ``scores[i, j] = q_i · k_j``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from ._checks import ArrayLike, BoolArray, FloatArray, as_mask, as_matrix, project, same_width
from .softmax import softmax


@dataclass(frozen=True)
class AttentionTrace:
    """Every step of one attention computation (float64 arrays).

    Q (m, d_k), K (n, d_k), V (n, d_v); scores = Q Kᵀ (m, n); scaled = scores / √d_k (or scores
    when unscaled); masked = scaled with −inf where the mask blocks; weights = row-wise softmax
    (blocked entries exactly 0, rows sum to 1); output = weights V (m, d_v). ``X`` is the input
    for self-attention (None otherwise); ``mask`` the boolean mask used (None: all allowed).

    Attributes
    ----------
    Q, K, V : ndarray
        The queries, keys and values.
    scores, scaled, masked, weights, output : ndarray
        Each step, as above.
    d_k : int
        The width of a query and a key.
    scale : float
        The factor the scores were multiplied by (1 / √d_k, or 1).
    mask : ndarray of bool or None
        The mask used.
    X : ndarray or None
        The input of self-attention.

    Examples
    --------
    >>> t = scaled_dot_product_attention([[1.0, 0.0]], [[1.0, 0.0], [0.0, 1.0]], [[1.0], [3.0]])
    >>> round(float(t.scale), 4), t.weights.round(3).tolist(), t.output.round(3).tolist()
    (0.7071, [[0.67, 0.33]], [[1.66]])
    """

    Q: FloatArray
    K: FloatArray
    V: FloatArray
    scores: FloatArray
    scaled: FloatArray
    masked: FloatArray
    weights: FloatArray
    output: FloatArray
    d_k: int
    scale: float
    mask: BoolArray | None = None
    X: FloatArray | None = None


def scaled_dot_product_attention(
    Q: ArrayLike, K: ArrayLike, V: ArrayLike, mask: ArrayLike | None = None, scale: bool = True
) -> AttentionTrace:
    """Attention of m queries over n keys/values, returning an :class:`AttentionTrace`.

    ``mask`` is boolean (m, n) with True = may attend. A query row whose mask blocks every key is
    a ``ValueError`` naming the row (its softmax would be 0/0).

    Parameters
    ----------
    Q : array_like
        (m, d_k) queries.
    K : array_like
        (n, d_k) keys.
    V : array_like
        (n, d_v) values.
    mask : array_like of bool, optional
        (m, n), True = may attend.
    scale : bool, default True
        Divide the scores by √d_k.

    Returns
    -------
    AttentionTrace

    Examples
    --------
    >>> X = [[1.2, 0.8], [0.9, 1.1], [0.7, 1.3]]
    >>> t = scaled_dot_product_attention(X, X, X)
    >>> t.scores[0].round(2).tolist()
    [2.08, 1.96, 1.88]
    """
    Q = as_matrix("Q", Q)
    K = as_matrix("K", K)
    V = as_matrix("V", V)
    same_width("Q", Q, "K", K)  # q·k needs equal d_k
    same_width("K", K, "V", V, axis_a=0, axis_b=0)  # one value per key
    m, d_k = Q.shape
    n = K.shape[0]

    scores = Q @ K.T  # (m, n): scores[i, j] = q_i · k_j
    factor = 1.0 / np.sqrt(d_k) if scale else 1.0
    scaled = scores * factor  # (m, n)
    if mask is None:
        mask_arr = None
        masked = scaled.copy()
    else:
        mask_arr = as_mask("mask", mask, (m, n))
        blocked_rows = np.flatnonzero(~mask_arr.any(axis=1))
        if blocked_rows.size:
            raise ValueError(
                f"mask: row {int(blocked_rows[0])} blocks every key; each query must be allowed "
                "to attend to at least one key"
            )
        masked = np.where(mask_arr, scaled, -np.inf)  # (m, n)
    weights = softmax(masked, axis=-1)  # (m, n), rows sum to 1
    output = weights @ V  # (m, d_v)
    return AttentionTrace(
        Q=Q,
        K=K,
        V=V,
        scores=scores,
        scaled=scaled,
        masked=masked,
        weights=weights,
        output=output,
        d_k=d_k,
        scale=factor,
        mask=mask_arr,
    )


def self_attention(
    X: ArrayLike,
    W_q: ArrayLike,
    W_k: ArrayLike,
    W_v: ArrayLike,
    mask: ArrayLike | None = None,
    scale: bool = True,
    *,
    b_q: ArrayLike | None = None,
    b_k: ArrayLike | None = None,
    b_v: ArrayLike | None = None,
) -> AttentionTrace:
    """Self-attention of the rows of ``X`` (n, d_model): Q = X W_q + b_q, K = X W_k + b_k,
    V = X W_v + b_v (each bias optional, a vector as wide as its matrix; None: no bias).

    Parameters
    ----------
    X : array_like
        (n, d_model) the tokens' vectors.
    W_q, W_k, W_v : array_like
        (d_model, d_k), (d_model, d_k), (d_model, d_v).
    mask : array_like of bool, optional
        (n, n), True = may attend.
    scale : bool, default True
        Divide the scores by √d_k.
    b_q, b_k, b_v : array_like, optional
        Biases as wide as their matrices.

    Returns
    -------
    AttentionTrace
        With ``X`` kept.

    Examples
    --------
    >>> I = np.eye(2)
    >>> t = self_attention([[1.0, 0.0], [0.0, 1.0]], I, I, I, mask=[[1, 0], [1, 1]])
    >>> t.weights.round(3).tolist()
    [[1.0, 0.0], [0.33, 0.67]]
    """
    X = as_matrix("X", X)
    W_q, W_k, W_v = (as_matrix(name, w) for name, w in (("W_q", W_q), ("W_k", W_k), ("W_v", W_v)))
    for name, w in (("W_q", W_q), ("W_k", W_k), ("W_v", W_v)):
        same_width("X", X, name, w, axis_a=1, axis_b=0)
    Q = project("W_q", X, W_q, b_q)  # (n, d_k)
    K = project("W_k", X, W_k, b_k)  # (n, d_k)
    V = project("W_v", X, W_v, b_v)  # (n, d_v)
    trace = scaled_dot_product_attention(Q, K, V, mask=mask, scale=scale)
    return _with_input(trace, X)


def cross_attention(
    X: ArrayLike,
    source: ArrayLike,
    W_q: ArrayLike,
    W_k: ArrayLike,
    W_v: ArrayLike,
    mask: ArrayLike | None = None,
    scale: bool = True,
    *,
    b_q: ArrayLike | None = None,
    b_k: ArrayLike | None = None,
    b_v: ArrayLike | None = None,
) -> AttentionTrace:
    """Queries from ``X`` (m, d_model), keys and values from ``source`` (n, d_model); optional
    biases as in :func:`self_attention`.

    Parameters
    ----------
    X : array_like
        (m, d_model) the queries' tokens.
    source : array_like
        (n, d_model) the keys' and values' tokens.
    W_q, W_k, W_v : array_like
        (d_model, d_k), (d_model, d_k), (d_model, d_v).
    mask : array_like of bool, optional
        (m, n), True = may attend.
    scale : bool, default True
        Divide the scores by √d_k.
    b_q, b_k, b_v : array_like, optional
        Biases as wide as their matrices.

    Returns
    -------
    AttentionTrace
        With ``X`` kept.

    Examples
    --------
    >>> I = np.eye(2)
    >>> t = cross_attention([[1.0, 0.0]], [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]], I, I, I)
    >>> t.weights.shape, t.output.shape
    ((1, 3), (1, 2))
    """
    X = as_matrix("X", X)
    source = as_matrix("source", source)
    W_q, W_k, W_v = (as_matrix(name, w) for name, w in (("W_q", W_q), ("W_k", W_k), ("W_v", W_v)))
    same_width("X", X, "W_q", W_q, axis_a=1, axis_b=0)
    same_width("source", source, "W_k", W_k, axis_a=1, axis_b=0)
    same_width("source", source, "W_v", W_v, axis_a=1, axis_b=0)
    trace = scaled_dot_product_attention(
        project("W_q", X, W_q, b_q),  # (m, d_k)
        project("W_k", source, W_k, b_k),  # (n, d_k)
        project("W_v", source, W_v, b_v),  # (n, d_v)
        mask=mask,
        scale=scale,
    )
    return _with_input(trace, X)


def _with_input(trace: AttentionTrace, X: FloatArray) -> AttentionTrace:
    return replace(trace, X=X)
