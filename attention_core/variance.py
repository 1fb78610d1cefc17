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
    """The experiment for one dimension d: raw q·k samples, the same ÷√d, and their variances."""

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
    """:func:`dot_product_variance` for d = 16, 32, 64 with 1000 samples, seed 0."""
    return dot_product_variance(SCALING_DIMS, SCALING_SAMPLES, SCALING_SEED)


# One row of scores at a realistic width, for the softmax saturation that ÷√d prevents.
ROW_DIM = 64
ROW_KEYS = 6
ROW_SEED = 0


@dataclass(frozen=True)
class ScoreRow:
    """One query against ``n`` keys in ``d`` dimensions (standard normal q and k): the raw
    scores q·k_j and the same ÷√d."""

    d: int
    raw: FloatArray
    scaled: FloatArray


def random_score_row(d: int = ROW_DIM, n: int = ROW_KEYS, seed: int = ROW_SEED) -> ScoreRow:
    """One row of ``n`` scores q·k_j for a standard normal query and keys in ``d`` dimensions.

    Deterministic for a given ``seed``. The raw scores have variance ≈ d, the scaled ones ≈ 1.
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
