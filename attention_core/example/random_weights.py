"""Projection weights drawn at random from a seed, as text 000 draws ``np.random.randn``."""

from __future__ import annotations

import numpy as np

from .validation import divisors
from .weights import Weights


def random_weights(
    seed: int, d_model: int, h: int, d_k: int | None, d_v: int | None, form: str
) -> Weights:
    """Standard-normal weights from ``seed``: per-head (H, d_model, d_k) matrices in the
    ``"independent"`` form, else split matrices (d_model, H·d_k) with a W_o for several heads.
    ``d_k`` defaults to d_model / H, ``d_v`` to ``d_k``."""
    if d_k is None:
        if d_model % h:
            raise ValueError(
                f"heads: d_model = {d_model} does not divide by heads = {h}; set d_k "
                f"or choose heads among {divisors(d_model)}"
            )
        d_k = d_model // h
    d_v = d_k if d_v is None else d_v
    rng = np.random.default_rng(seed)
    if form == "independent":
        W_q, W_k, W_v = (rng.standard_normal((h, d_model, d)) for d in (d_k, d_k, d_v))
        return Weights("independent", W_q, W_k, W_v, None, seed)
    W_q, W_k, W_v = (rng.standard_normal((d_model, h * d)) for d in (d_k, d_k, d_v))
    W_o = rng.standard_normal((h * d_v, d_model)) if h > 1 else None
    return Weights("split", W_q, W_k, W_v, W_o, seed)
