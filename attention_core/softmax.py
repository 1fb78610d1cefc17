"""Softmax: turning scores into proportions of one whole.

    softmax(x)_i = exp(x_i − max x) / Σ_j exp(x_j − max x)

Subtracting the row maximum changes nothing mathematically (softmax is shift-invariant) but keeps
``exp`` from overflowing, so scores of ±1e4, 1e12 or more stay finite. ``−inf`` entries (blocked by
a mask) get exactly 0.
"""

from __future__ import annotations

import numpy as np

from ._checks import ArrayLike, FloatArray


def softmax(x: ArrayLike, axis: int = -1) -> FloatArray:
    """Numerically stable softmax of ``x`` along ``axis``.

    ``x`` may hold ``−inf`` (an entry that gets weight exactly 0) but not NaN or ``+inf``, and no
    slice along ``axis`` may be entirely ``−inf``: there is nothing to share the whole among.

    Parameters
    ----------
    x : array_like
        Scores; ``−inf`` marks a blocked entry.
    axis : int, default −1
        The axis whose slices each sum to 1.

    Returns
    -------
    ndarray of float64
        The weights, the shape of ``x``.

    Examples
    --------
    >>> softmax([1e4, 0.0]).round(3).tolist()
    [1.0, 0.0]
    >>> softmax([0.0, 0.0, -np.inf]).tolist()
    [0.5, 0.5, 0.0]
    """
    x = np.asarray(x, dtype=np.float64)
    if x.size == 0:
        raise ValueError(f"x: must not be empty, got shape {x.shape}")
    if np.any(np.isnan(x)) or np.any(np.isposinf(x)):
        raise ValueError("x: contains NaN or +inf; softmax needs finite scores (−inf = blocked)")
    peak = np.max(x, axis=axis, keepdims=True)
    if np.any(np.isneginf(peak)):
        rows = np.argwhere(np.isneginf(np.squeeze(peak, axis=axis))).tolist()
        raise ValueError(f"x: every entry is −inf in slice(s) {rows}; nothing can be attended to")
    e = np.exp(x - peak)  # largest entry becomes exp(0) = 1: no overflow
    return e / np.sum(e, axis=axis, keepdims=True)


def softmax_gradient_factor(weights: ArrayLike) -> FloatArray:
    """The diagonal of softmax's Jacobian, s·(1 − s): how much a weight still responds to its score.

    Near one-hot weights (saturation) make it shrink towards 0, which is why unscaled large
    scores train badly.

    Parameters
    ----------
    weights : array_like
        Softmax weights.

    Returns
    -------
    ndarray of float64
        s·(1 − s) for each weight.

    Examples
    --------
    >>> softmax_gradient_factor([0.5, 0.5, 1.0]).tolist()
    [0.25, 0.25, 0.0]
    """
    s = np.asarray(weights, dtype=np.float64)
    return s * (1.0 - s)


def exponentials(x: ArrayLike, shift: bool = True) -> FloatArray:
    """The unnormalised shares softmax divides by their sum: e^(x − max x), or e^x when
    ``shift`` is False (only sensible for small scores). ``−inf`` gives exactly 0.

    Parameters
    ----------
    x : array_like
        Scores.
    shift : bool, default True
        Subtract the largest finite score first (the largest share is then 1).

    Returns
    -------
    ndarray of float64
        The exponentials, the shape of ``x``.

    Examples
    --------
    >>> exponentials([0.0, np.log(2.0), -np.inf]).round(6).tolist()
    [0.5, 1.0, 0.0]
    >>> exponentials([0.0, 1.0], shift=False).round(4).tolist()
    [1.0, 2.7183]
    """
    x = np.asarray(x, dtype=np.float64)
    peak = np.max(x[np.isfinite(x)]) if shift and np.any(np.isfinite(x)) else 0.0
    return np.exp(x - peak)


def sharpened(scores: ArrayLike, factor: float) -> FloatArray:
    """softmax(factor · scores): the same scores made sharper (factor > 1) or flatter (< 1).

    Parameters
    ----------
    scores : array_like
        One row of scores.
    factor : float
        What the scores are multiplied by.

    Returns
    -------
    ndarray of float64
        The weights of the multiplied scores.

    Examples
    --------
    >>> sharpened([1.0, 0.0], 0.0).tolist()
    [0.5, 0.5]
    >>> sharpened([1.0, 0.0], 10.0).round(4).tolist()
    [1.0, 0.0]
    """
    return softmax(np.asarray(scores, dtype=np.float64) * factor)


def saturation(weights: ArrayLike) -> float:
    """Σ s(1 − s) over a row of weights: how much the row still responds to its scores
    (0 for one-hot weights, 1 − 1/n for uniform ones).

    Parameters
    ----------
    weights : array_like
        One row of softmax weights.

    Returns
    -------
    float
        Σ s(1 − s).

    Examples
    --------
    >>> saturation([0.25, 0.25, 0.25, 0.25])
    0.75
    >>> saturation([1.0, 0.0])
    0.0
    """
    return float(np.sum(softmax_gradient_factor(weights)))
