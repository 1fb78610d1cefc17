"""Rotary position embeddings (RoPE, Su et al., 2021) as a rotation, in transformers' layout.

A query or key of even width d is cut into d/2 pairs of coordinates; pair i is the plane of
dimensions (i, i + d/2) (transformers' ``rotate_half`` layout, which Llama models use after
loading). At position m, pair i is turned by the angle m·ω_i, with the frequencies

    ω_i = base^(−2i/d),   i = 0 … d/2 − 1             (ω_0 = 1 rad per position: the fastest)

    rot(x, m) = x · cos(m ω) + rotate_half(x) · sin(m ω),   rotate_half(x) = (−x₂, x₁)

Because each pair is turned by an angle proportional to the position, a rotated query at m and a
rotated key at n meet at an angle that depends only on m − n:

    rot(q, m) · rot(k, n) = Σ_i  |q_i| |k_i| cos(φ_i + (m − n) ω_i)      (φ_i the pair's own angle)

so moving both by the same s leaves every score unchanged (:func:`pair_scores`).
"""

from __future__ import annotations

import numpy as np

from ._checks import ArrayLike, FloatArray, as_matrix


def _check_width(d: int) -> int:
    if isinstance(d, bool) or not isinstance(d, int | np.integer) or d < 2 or d % 2:
        raise ValueError(
            f"rotary: the width {d!r} must be an even number ≥ 2 (pairs of dimensions)"
        )
    return int(d)


def _check_base(base: float) -> float:
    base = float(base)
    if not np.isfinite(base) or base <= 1.0:
        raise ValueError(f"rotary: base {base!r} must be a finite number > 1 (e.g. 10000)")
    return base


def rotary_frequencies(d: int, base: float = 10000.0) -> FloatArray:
    """ω_i = base^(−2i/d) for the d/2 pairs (radians per position), fastest first."""
    d = _check_width(d)
    base = _check_base(base)
    return base ** (-np.arange(0, d, 2, dtype=np.float64) / d)  # (d/2,)


def rotary_angles(positions: ArrayLike, d: int, base: float = 10000.0) -> FloatArray:
    """The angle (radians) each pair is turned by at each position: (n, d/2), m·ω_i."""
    pos = np.asarray(positions, dtype=np.float64)
    if pos.ndim != 1:
        raise ValueError("rotary: positions must be a list of numbers")
    return np.outer(pos, rotary_frequencies(d, base))  # (n, d/2)


def rotate_half(X: ArrayLike) -> FloatArray:
    """(x₁, x₂) → (−x₂, x₁) for each row cut in halves: a quarter turn of every pair."""
    X = np.asarray(X, dtype=np.float64)
    half = X.shape[-1] // 2
    return np.concatenate([-X[..., half:], X[..., :half]], axis=-1)


def apply_rotary(
    X: ArrayLike, positions: ArrayLike | None = None, base: float = 10000.0
) -> FloatArray:
    """Each row of ``X`` (n, d) turned by its position (default 0 … n − 1), pair by pair."""
    X = as_matrix("X", X)
    n, d = X.shape
    pos = np.arange(n) if positions is None else np.asarray(positions)
    if pos.shape != (n,):
        raise ValueError(f"rotary: {pos.size} positions for {n} rows; give one per row")
    angles = rotary_angles(pos, d, base)  # (n, d/2)
    cos = np.concatenate([np.cos(angles)] * 2, axis=1)  # (n, d): pair i uses dims i and i + d/2
    sin = np.concatenate([np.sin(angles)] * 2, axis=1)
    return X * cos + rotate_half(X) * sin


def rotary_pair(X: ArrayLike, i: int) -> FloatArray:
    """Pair ``i``'s coordinates (x_i, x_{i+d/2}) of every row: (n, 2), the plane RoPE turns."""
    X = as_matrix("X", X)
    d = _check_width(X.shape[1])
    if isinstance(i, bool) or not 0 <= int(i) < d // 2:
        raise ValueError(f"rotary: pair {i!r} is outside 0 … {d // 2 - 1}")
    return np.stack([X[:, i], X[:, i + d // 2]], axis=1)


def pair_scores(q: ArrayLike, k: ArrayLike) -> FloatArray:
    """The dot product q · k split by pair: (d/2,) terms q_i k_i + q_{i+d/2} k_{i+d/2}, whose
    sum is q · k. For rotated q and k, the pair whose term is largest adds the largest part to
    the score."""
    q = np.asarray(q, dtype=np.float64)
    k = np.asarray(k, dtype=np.float64)
    if q.shape != k.shape or q.ndim != 1:
        raise ValueError("rotary: q and k must be vectors of one width")
    d = _check_width(q.size)
    prod = q * k
    return prod[: d // 2] + prod[d // 2 :]


def rotary_score(q: ArrayLike, k: ArrayLike, m: float, n: float, base: float = 10000.0) -> float:
    """rot(q, m) · rot(k, n): the score of query q at position m and key k at position n."""
    q = np.asarray(q, dtype=np.float64)
    k = np.asarray(k, dtype=np.float64)
    rq = apply_rotary(q[None, :], [m], base)[0]
    rk = apply_rotary(k[None, :], [n], base)[0]
    return float(rq @ rk)
