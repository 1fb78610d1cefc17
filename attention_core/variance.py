"""Why scale by √d_k: the dot product of two random d-dimensional vectors has variance d.

With q, k having independent zero-mean, unit-variance components, q·k = Σ q_i k_i is a sum of d
independent terms of variance 1, so Var(q·k) = d; dividing by √d brings it back to 1.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ._checks import FloatArray


@dataclass(frozen=True)
class VarianceSample:
    """The experiment for one dimension d: raw q·k samples, the same ÷√d, and their variances.

    Attributes
    ----------
    d : int
        The dimension.
    raw, scaled : ndarray
        The samples of q·k and of q·k / √d.
    raw_variance, scaled_variance : float
        Their variances (≈ d and ≈ 1).

    Examples
    --------
    >>> s = dot_product_variance((64,))[0]
    >>> s.raw.shape, round(s.scaled_variance, 1)
    ((1000,), 1.0)
    """

    d: int
    raw: FloatArray
    scaled: FloatArray
    raw_variance: float
    scaled_variance: float


def dot_product_variance(
    dims: Sequence[int] = (16, 32, 64), samples: int = 1000, seed: int = 0
) -> list[VarianceSample]:
    """Sample q·k for standard normal q, k in each dimension of ``dims``.

    Returns one :class:`VarianceSample` per dimension (in the order given). Deterministic for a
    given ``seed``.

    Parameters
    ----------
    dims : sequence of int, default (16, 32, 64)
        The dimensions d.
    samples : int, default 1000
        The pairs (q, k) drawn for each.
    seed : int, default 0
        The random generator's seed.

    Returns
    -------
    list of VarianceSample

    Examples
    --------
    >>> [(s.d, round(s.raw_variance), round(s.scaled_variance, 1))
    ...  for s in dot_product_variance((4, 64), samples=2000)]
    [(4, 4, 1.0), (64, 62, 1.0)]
    """
    dims = [int(d) for d in dims]
    if not dims or any(d < 1 for d in dims):
        raise ValueError(f"dims: expected positive dimensions, got {dims}")
    if not isinstance(samples, (int, np.integer)) or samples < 2:
        raise ValueError(f"samples: expected an integer ≥ 2, got {samples!r}")
    rng = np.random.default_rng(seed)
    out = []
    for d in dims:
        q = rng.standard_normal((samples, d))
        k = rng.standard_normal((samples, d))
        raw = np.einsum("sd,sd->s", q, k)  # (samples,) one q·k per pair
        scaled = raw / np.sqrt(d)
        out.append(VarianceSample(d, raw, scaled, float(raw.var()), float(scaled.var())))
    return out


# The √d_k experiment the Scaling scene shows (text 002 §4: 1000 random Gaussian vectors).
SCALING_DIMS = (16, 32, 64)
SCALING_SAMPLES = 1000
SCALING_SEED = 0


def scaling_experiment() -> list[VarianceSample]:
    """:func:`dot_product_variance` for d = 16, 32, 64 with 1000 samples, seed 0.

    Returns
    -------
    list of VarianceSample
        The Scaling scene's three samples.

    Examples
    --------
    >>> [(s.d, round(s.raw_variance)) for s in scaling_experiment()]
    [(16, 14), (32, 33), (64, 62)]
    """
    return dot_product_variance(SCALING_DIMS, SCALING_SAMPLES, SCALING_SEED)


# One row of scores at a realistic width, for the softmax saturation that ÷√d prevents.
ROW_DIM = 64
ROW_KEYS = 6
ROW_SEED = 0


@dataclass(frozen=True)
class ScoreRow:
    """One query against ``n`` keys in ``d`` dimensions (standard normal q and k): the raw
    scores q·k_j and the same ÷√d.

    Attributes
    ----------
    d : int
        The dimension.
    raw, scaled : ndarray
        (n,) the scores q·k_j and q·k_j / √d.

    Examples
    --------
    >>> random_score_row().scaled.round(2).tolist()
    [-1.21, -0.87, -0.25, -0.92, 0.76, -0.47]
    """

    d: int
    raw: FloatArray
    scaled: FloatArray


def random_score_row(d: int = ROW_DIM, n: int = ROW_KEYS, seed: int = ROW_SEED) -> ScoreRow:
    """One row of ``n`` scores q·k_j for a standard normal query and keys in ``d`` dimensions.

    Deterministic for a given ``seed``. The raw scores have variance ≈ d, the scaled ones ≈ 1.

    Parameters
    ----------
    d : int, default 64
        The dimension.
    n : int, default 6
        The keys (≥ 2).
    seed : int, default 0
        The random generator's seed.

    Returns
    -------
    ScoreRow

    Examples
    --------
    >>> r = random_score_row(d=16, n=3)
    >>> r.raw.shape, bool(abs(r.raw / 4 - r.scaled).max() == 0)
    ((3,), True)
    """
    if not isinstance(d, (int, np.integer)) or d < 1:
        raise ValueError(f"d: expected a positive integer, got {d!r}")
    if not isinstance(n, (int, np.integer)) or n < 2:
        raise ValueError(f"n: expected an integer ≥ 2 (keys to share among), got {n!r}")
    rng = np.random.default_rng(seed)
    q = rng.standard_normal(d)  # (d,)
    K = rng.standard_normal((n, d))  # (n, d)
    raw = K @ q  # (n,) one q·k_j per key
    return ScoreRow(int(d), raw, raw / np.sqrt(d))
