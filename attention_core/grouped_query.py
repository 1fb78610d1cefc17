"""Grouped-query attention (Ainslie et al., 2023) with rotary positions, as Llama models run it.

H query heads share G ≤ H key/value heads: query head h (from 0) uses key/value head
h // (H / G), as transformers' ``repeat_kv`` repeats them. With rotary positions (RoPE, see
:mod:`attention_core.rotary`) the queries and keys are turned by their positions *before* the
scores, so every number after the projections is the rotated one, as the model computes it:

    Q_h = rot(X W_q[:, h], positions)     K_g = rot(X W_k[:, g], positions)     V_g = X W_v[:, g]
    head_h = softmax(Q_h K_gᵀ / √d_k + mask) V_g             g = h // (H / G)
    output = Concat(head_1 … head_H) W_o

G = H is ordinary multi-head attention; without a rotary base nothing is turned.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from ._checks import ArrayLike, FloatArray, as_matrix, project, same_width
from .attention import scaled_dot_product_attention
from .multihead import MultiHeadTrace
from .rotary import apply_rotary


@dataclass(frozen=True)
class GroupedQueryTrace(MultiHeadTrace):
    """A :class:`MultiHeadTrace` whose heads' Q and K are the rotated ones, plus what grouping
    and rotation add: ``kv_heads`` (G), each key/value head's rotated K and its V, the queries and
    keys before rotation (``Q_unrotated`` per query head, ``K_unrotated`` per key/value head), the
    ``positions`` and the ``rotary_base`` (None: no rotation)."""

    kv_heads: int = 0
    K_shared: tuple[FloatArray, ...] = ()  # G arrays (n, d_k): rotated keys of each key/value head
    V_shared: tuple[FloatArray, ...] = ()  # G arrays (n, d_v)
    Q_unrotated: tuple[FloatArray, ...] = ()  # H arrays (n, d_k)
    K_unrotated: tuple[FloatArray, ...] = ()  # G arrays (n, d_k)
    positions: np.ndarray | None = None  # integers, or the numbers given
    rotary_base: float | None = None

    def group(self, head: int) -> int:
        """The key/value head (from 0) that query head ``head`` (from 0) uses."""
        return kv_group(head, self.num_heads, self.kv_heads)


def kv_group(head: int, heads: int, kv_heads: int) -> int:
    """h // (H / G): the shared key/value head of query head ``head`` (all counted from 0)."""
    return head // (heads // kv_heads)


def _check_counts(heads: int, kv_heads: int) -> tuple[int, int]:
    for name, v in (("heads", heads), ("kv_heads", kv_heads)):
        if isinstance(v, bool) or not isinstance(v, int | np.integer) or v < 1:
            raise ValueError(f"{name}: expected a positive integer, got {v!r}")
    if heads % kv_heads:
        raise ValueError(
            f"kv_heads: {kv_heads} does not divide heads = {heads}; each key/value head serves "
            "an equal group of query heads"
        )
    return int(heads), int(kv_heads)


def grouped_query_attention(
    X: ArrayLike, W_q: ArrayLike, W_k: ArrayLike, W_v: ArrayLike, W_o: ArrayLike | None,
    heads: int, kv_heads: int, mask: ArrayLike | None = None, *,
    rotary_base: float | None = None, positions: ArrayLike | None = None, scale: bool = True,
    biases: Mapping[str, ArrayLike | None] | None = None,
) -> GroupedQueryTrace:  # fmt: skip
    """Self-attention of ``X`` (n, d_model) with ``heads`` query heads over ``kv_heads`` shared
    key/value heads. W_q (d_model, H·d_k), W_k (d_model, G·d_k), W_v (d_model, G·d_v), W_o
    (H·d_v, d_out) or None; ``mask`` boolean (n, n), True = may attend; ``rotary_base`` turns Q
    and K by ``positions`` (default 0 … n − 1) before the scores. ``biases`` (optional) maps
    b_q, b_k, b_v, b_o to vectors as wide as their matrices (None entries: no bias)."""
    X = as_matrix("X", X)
    b: dict[str, ArrayLike | None] = dict.fromkeys(("b_q", "b_k", "b_v", "b_o"))
    b |= dict(biases or {})
    heads, kv_heads = _check_counts(heads, kv_heads)
    mats: dict[str, FloatArray] = {}
    for name, w, count in (("W_q", W_q, heads), ("W_k", W_k, kv_heads), ("W_v", W_v, kv_heads)):
        w = as_matrix(name, w)
        same_width("X", X, name, w, axis_a=1, axis_b=0)
        if w.shape[1] % count:
            raise ValueError(f"{name}: its {w.shape[1]} columns do not split into {count} heads")
        mats[name] = w
    d_k = mats["W_q"].shape[1] // heads
    if mats["W_k"].shape[1] // kv_heads != d_k:
        raise ValueError(f"W_k: each key/value head must be {d_k} wide, as the query heads")
    d_v = mats["W_v"].shape[1] // kv_heads
    n = X.shape[0]
    pos = np.arange(n) if positions is None else np.asarray(positions)

    def turn(M: FloatArray) -> FloatArray:
        return M if rotary_base is None else apply_rotary(M, pos, rotary_base)

    def proj(key: str, i: int, width: int) -> FloatArray:  # X W[:, i-th block] (+ its bias)
        cols = slice(i * width, (i + 1) * width)
        bias = b["b_" + key]
        return project(
            "W_" + key,
            X,
            mats["W_" + key][:, cols],
            None if bias is None else np.asarray(bias)[cols],
        )

    Q_raw = [proj("q", h, d_k) for h in range(heads)]  # H × (n, d_k)
    K_raw = [proj("k", g, d_k) for g in range(kv_heads)]  # G × (n, d_k)
    V = [proj("v", g, d_v) for g in range(kv_heads)]  # G × (n, d_v)
    K_rot = [turn(K) for K in K_raw]
    groups = [kv_group(h, heads, kv_heads) for h in range(heads)]  # head h reads K, V of group g
    traces = [
        scaled_dot_product_attention(turn(Q_raw[h]), K_rot[g], V[g], mask=mask, scale=scale)
        for h, g in enumerate(groups)
    ]
    concat = np.concatenate([t.output for t in traces], axis=1)  # (n, H·d_v)
    if W_o is None:
        output = concat
    else:
        W_o = as_matrix("W_o", W_o)
        if W_o.shape[0] != concat.shape[1]:
            raise ValueError(f"W_o: expected {concat.shape[1]} rows (heads × d_v), got {W_o.shape}")
        output = project("W_o", concat, W_o, b["b_o"])
    return GroupedQueryTrace(
        heads=tuple(traces), concat=concat, output=output, W_o=W_o, num_heads=heads, X=X,
        kv_heads=kv_heads, K_shared=tuple(K_rot), V_shared=tuple(V), Q_unrotated=tuple(Q_raw),
        K_unrotated=tuple(K_raw), positions=pos.copy(),
        rotary_base=None if rotary_base is None else float(rotary_base),
    )  # fmt: skip
