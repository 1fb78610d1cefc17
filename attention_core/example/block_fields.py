"""The field a trained encoder layer's example adds: ``block``, the layer's own feed-forward and
LayerNorms (what ``attn-explain from-model … --all-heads`` writes for a MiniLM layer).

``block`` is a table of W_1 (d_model × d_ff), b_1 (d_ff), W_2 (d_ff × d_model), b_2 (d_model),
the attention output LayerNorm's gamma_1, beta_1 and the output LayerNorm's gamma_2, beta_2
(d_model each), all eight together, and ``eps`` (the LayerNorms' ε, default BERT's 1e-12). With
it the encoder block is the model's own: F = GELU(H W_1 + b_1) W_2 + b_2. Every check raises
``ValueError("block.<key>: …")``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .._checks import FloatArray
from .validation import check_matrix, reject_unknown, shown

BLOCK_ARRAYS = ("W_1", "b_1", "W_2", "b_2", "gamma_1", "beta_1", "gamma_2", "beta_2")
BLOCK_KEYS = (*BLOCK_ARRAYS, "eps")
BERT_EPS = 1e-12  # BERT's (and all-MiniLM-L6-v2's) layer_norm_eps
FF_WIDTH = 4  # d_ff is at most 4 × the largest d_model (a BERT layer's is exactly 4 × d_model)


@dataclass(frozen=True, eq=False)
class Block:
    """A trained encoder layer's own feed-forward (GELU) and LayerNorms, checked."""

    W_1: np.ndarray  # (d_model, d_ff)
    b_1: np.ndarray  # (d_ff,)
    W_2: np.ndarray  # (d_ff, d_model)
    b_2: np.ndarray  # (d_model,)
    gamma_1: np.ndarray  # (d_model,): the attention output LayerNorm
    beta_1: np.ndarray
    gamma_2: np.ndarray  # (d_model,): the output LayerNorm
    beta_2: np.ndarray
    eps: float = BERT_EPS

    def given(self) -> dict:
        """The block as a file gives it (arrays as lists)."""
        out = {k: getattr(self, k).tolist() for k in BLOCK_ARRAYS}
        out["eps"] = self.eps
        return out


def check_block(block: object, d_model: int, max_dim: int) -> Block | None:
    """``block``: None, a :class:`Block` (kept), or a table of all eight arrays (and ``eps``)
    with shapes that fit d_model."""
    if block is None or isinstance(block, Block):
        return block
    if not isinstance(block, dict):
        raise ValueError(f"block: expected a table with {', '.join(BLOCK_ARRAYS)}")
    reject_unknown("block.", block, BLOCK_KEYS)
    for key in BLOCK_ARRAYS:
        if key not in block:
            raise ValueError(
                f"block.{key}: missing; a block gives {', '.join(BLOCK_ARRAYS)} together"
            )
    W_1 = check_matrix("block.W_1", block["W_1"])
    d_ff = W_1.shape[1]
    if W_1.shape[0] != d_model or d_ff > FF_WIDTH * max_dim:
        raise ValueError(
            f"block.W_1: shape {W_1.shape[0]}×{d_ff}; it needs {d_model} rows (d_model) and at "
            f"most {FF_WIDTH * max_dim} columns (d_ff)"
        )
    W_2 = check_matrix("block.W_2", block["W_2"])
    if W_2.shape != (d_ff, d_model):
        raise ValueError(
            f"block.W_2: shape {W_2.shape[0]}×{W_2.shape[1]}; it needs {d_ff}×{d_model} "
            "(W_1's columns back to d_model)"
        )
    vectors = {
        k: _vector(k, block[k], d_ff if k == "b_1" else d_model)
        for k in BLOCK_ARRAYS
        if k.startswith(("b_", "gamma", "beta"))
    }
    return Block(W_1=W_1, W_2=W_2, eps=_eps(block.get("eps", BERT_EPS)), **vectors)


def _vector(key: str, value: object, width: int) -> FloatArray:
    arr = check_matrix(f"block.{key}", value, ndim=1)
    if arr.shape != (width,):
        raise ValueError(f"block.{key}: {arr.shape[0]} numbers; it needs {width}")
    return arr


def _eps(value: object) -> float:
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, float))
        or not math.isfinite(value)
        or not 0 < value <= 0.1
    ):
        raise ValueError(f"block.eps: {shown(value)}; give a small number above 0, e.g. 1e-12")
    return float(value)
