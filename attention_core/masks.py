"""Masks: which keys each query may attend to. Boolean (m, n), True = may attend (as PyTorch)."""

from __future__ import annotations

import numpy as np

from ._checks import ArrayLike, BoolArray


def causal_mask(n: int) -> BoolArray:
    """(n, n) lower-triangular mask: position i sees positions 0 … i, never the future.

    Parameters
    ----------
    n : int
        The number of positions (≥ 1).

    Returns
    -------
    ndarray of bool
        True where a query may attend to a key.

    Examples
    --------
    >>> causal_mask(3).astype(int).tolist()
    [[1, 0, 0], [1, 1, 0], [1, 1, 1]]
    """
    if not isinstance(n, (int, np.integer)) or isinstance(n, bool) or n < 1:
        raise ValueError(f"n: expected a positive integer, got {n!r}")
    return np.tril(np.ones((n, n), dtype=bool))


def padding_mask(
    keep: ArrayLike | int, n: int | None = None, *, n_queries: int | None = None
) -> BoolArray:
    """(n_queries, n) mask that hides padded key positions from every query.

    ``keep`` is either a boolean / 0-1 vector (True = a real token) or an integer length, in which
    case ``n`` is the padded length and the first ``keep`` positions are real.
    ``n_queries`` defaults to the number of keys (self-attention).

    Parameters
    ----------
    keep : array_like of bool or int
        Which key positions are real tokens, or how many of the first ones are.
    n : int, optional
        The padded length (needed when ``keep`` is a length).
    n_queries : int, optional
        The number of rows (default: one per key).

    Returns
    -------
    ndarray of bool
        (n_queries, n), True where a query may attend to a key.

    Examples
    --------
    >>> padding_mask(2, 3).astype(int).tolist()
    [[1, 1, 0], [1, 1, 0], [1, 1, 0]]
    >>> padding_mask([1, 0], n_queries=1).tolist()
    [[True, False]]
    """
    if isinstance(keep, (int, np.integer)) and not isinstance(keep, bool):
        if n is None:
            raise ValueError("n: needed when keep is a length")
        if not 1 <= keep <= n:
            raise ValueError(f"keep: length {keep} must lie in 1 … n = {n}")
        vec = np.arange(n) < keep
    else:
        vec = np.asarray(keep)
        if vec.ndim != 1 or vec.size == 0:
            raise ValueError(f"keep: expected a non-empty 1-D vector, got shape {vec.shape}")
        if vec.dtype != np.bool_:
            if not np.issubdtype(vec.dtype, np.number) or not np.all(np.isin(vec, (0, 1))):
                raise ValueError("keep: expected booleans or 0/1 values")
            vec = vec.astype(bool)
        if n is not None and vec.size != n:
            raise ValueError(f"keep: has {vec.size} entries, expected n = {n}")
        if not vec.any():
            raise ValueError("keep: every position is padding; at least one must be a real token")
    rows = vec.size if n_queries is None else n_queries
    return np.broadcast_to(vec, (rows, vec.size)).copy()
