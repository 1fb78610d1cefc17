"""Multi-head attention: split the projections into heads, attend in each subspace, concat, mix.

    head_h = Attention(X W_q[:, h], X W_k[:, h], X W_v[:, h])     (columns h·d_k … (h+1)·d_k − 1)
    MultiHead(X) = Concat(head_1 … head_H) W_o

The column split is the one ``torch.nn.MultiheadAttention`` uses. Text 000's form — independent
per-head matrices, concatenated without W_o — is :func:`independent_heads_attention`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeAlias

import numpy as np

from ._checks import ArrayLike, FloatArray, as_matrix, project, same_width
from .attention import AttentionTrace, scaled_dot_product_attention


@dataclass(frozen=True)
class MultiHeadTrace:
    """One :class:`AttentionTrace` per head, their concatenation and the mixed output.

    ``concat`` is (m, H·d_v); ``output = concat @ W_o`` (or ``concat`` itself when ``W_o`` is None,
    text 000's form). ``X`` is the query input, ``source`` the key/value input (None for self).

    Attributes
    ----------
    heads : tuple of AttentionTrace
        One per head.
    concat, output : ndarray
        The heads' outputs side by side, and after W_o.
    W_o : ndarray or None
        The output matrix.
    num_heads : int
        H.
    X, source : ndarray or None
        The inputs.

    Examples
    --------
    >>> mh = multi_head_attention(np.eye(2), np.eye(2), np.eye(2), np.eye(2), None, 2)
    >>> mh.num_heads, mh.concat.shape, bool((mh.output == mh.concat).all())
    (2, (2, 2), True)
    """

    heads: tuple[AttentionTrace, ...]
    concat: FloatArray
    output: FloatArray
    W_o: FloatArray | None
    num_heads: int
    X: FloatArray | None = None
    source: FloatArray | None = None


# one head's ((W_q, b_q), (W_k, b_k), (W_v, b_v)): its matrices and biases (None: no bias)
HeadSlices: TypeAlias = Sequence[tuple[FloatArray, FloatArray | None]]


def multi_head_attention(
    X: ArrayLike,
    W_q: ArrayLike,
    W_k: ArrayLike,
    W_v: ArrayLike,
    W_o: ArrayLike | None,
    num_heads: int,
    mask: ArrayLike | None = None,
    *,
    source: ArrayLike | None = None,
    scale: bool = True,
    b_q: ArrayLike | None = None,
    b_k: ArrayLike | None = None,
    b_v: ArrayLike | None = None,
    b_o: ArrayLike | None = None,
) -> MultiHeadTrace:
    """Multi-head attention with split projections.

    X (m, d_model); W_q, W_k (d_model, H·d_k); W_v (d_model, H·d_v); W_o (H·d_v, d_out) or None.
    ``source`` (n, d_model) gives keys and values for cross-attention (default: X). Optional
    biases (as in BERT and ``torch.nn.MultiheadAttention(bias=True)``): b_q, b_k (H·d_k,),
    b_v (H·d_v,), split among heads like their matrices' columns, and b_o (d_out,) after W_o.

    Parameters
    ----------
    X : array_like
        (m, d_model) the queries' tokens.
    W_q, W_k, W_v : array_like
        Every head's matrices side by side, each head its block of columns.
    W_o : array_like or None
        (H·d_v, d_out), or None: the output is the concatenation.
    num_heads : int
        H.
    mask : array_like of bool, optional
        True = may attend.
    source : array_like, optional
        Keys' and values' tokens for cross-attention.
    scale : bool, default True
        Divide the scores by √d_k.
    b_q, b_k, b_v, b_o : array_like, optional
        Biases as wide as their matrices.

    Returns
    -------
    MultiHeadTrace

    Examples
    --------
    >>> X, W = np.eye(4)[:3], np.eye(4)
    >>> mh = multi_head_attention(X, W, W, W, W, num_heads=2)
    >>> [h.Q.shape for h in mh.heads], mh.output.shape
    ([(3, 2), (3, 2)], (3, 4))
    """
    X = as_matrix("X", X)
    src = X if source is None else as_matrix("source", source)
    if not isinstance(num_heads, (int, np.integer)) or isinstance(num_heads, bool) or num_heads < 1:
        raise ValueError(f"num_heads: expected a positive integer, got {num_heads!r}")
    src_name = "source" if source is not None else "X"
    mats = {
        name: _split_matrix(name, w, inp, inp_name, num_heads)
        for name, w, inp, inp_name in (
            ("W_q", W_q, X, "X"),
            ("W_k", W_k, src, src_name),
            ("W_v", W_v, src, src_name),
        )
    }
    same_width("W_q", mats["W_q"], "W_k", mats["W_k"])
    biases = {
        name: _split_bias(name, b, mats) for name, b in (("b_q", b_q), ("b_k", b_k), ("b_v", b_v))
    }
    per_head = [_head_slices(mats, biases, h, num_heads) for h in range(num_heads)]
    return _run_heads(X, src, per_head, W_o, mask, scale, source is not None, b_o)


def _split_matrix(
    name: str, w: ArrayLike, inp: FloatArray, inp_name: str, num_heads: int
) -> FloatArray:
    """A projection matrix that multiplies ``inp`` and whose columns split into the heads."""
    w = as_matrix(name, w)
    same_width(inp_name, inp, name, w, axis_a=1, axis_b=0)
    if w.shape[1] % num_heads:
        raise ValueError(
            f"{name}: its {w.shape[1]} columns do not split into num_heads = {num_heads} "
            "equal heads"
        )
    return w


def _split_bias(name: str, b: ArrayLike | None, mats: dict[str, FloatArray]) -> FloatArray | None:
    """A bias of its matrix's width (one per column), or None."""
    if b is None:
        return None
    b = as_matrix(name, b, ndim=1)
    width = mats["W_" + name[-1]].shape[1]
    if b.shape != (width,):
        raise ValueError(f"{name}: shape {b.shape}; expected ({width},), one per column")
    return b


def _head_slices(
    mats: dict[str, FloatArray], biases: dict[str, FloatArray | None], h: int, num_heads: int
) -> HeadSlices:
    """Head ``h``'s ((W_q, b_q), (W_k, b_k), (W_v, b_v)): its columns of each matrix and bias."""
    out = []
    for role in ("q", "k", "v"):
        W, b = mats["W_" + role], biases["b_" + role]
        width = W.shape[1] // num_heads
        cols = slice(h * width, (h + 1) * width)
        out.append((W[:, cols], None if b is None else b[cols]))
    return tuple(out)


def independent_heads_attention(
    X: ArrayLike,
    W_qs: ArrayLike,
    W_ks: ArrayLike,
    W_vs: ArrayLike,
    mask: ArrayLike | None = None,
    *,
    source: ArrayLike | None = None,
    scale: bool = True,
    b_q: ArrayLike | None = None,
    b_k: ArrayLike | None = None,
    b_v: ArrayLike | None = None,
) -> MultiHeadTrace:
    """Text 000's multi-head form: one independent (W_q, W_k, W_v) per head, outputs concatenated.

    ``W_qs`` etc. are sequences (or (H, d_model, d_k) arrays) of per-head matrices. No W_o.
    Optional biases ``b_q`` … are (H, d_k) (one row per head) or None.

    Parameters
    ----------
    X : array_like
        (m, d_model) the queries' tokens.
    W_qs, W_ks, W_vs : array_like
        (H, d_model, d_k), (H, d_model, d_k), (H, d_model, d_v).
    mask : array_like of bool, optional
        True = may attend.
    source : array_like, optional
        Keys' and values' tokens for cross-attention.
    scale : bool, default True
        Divide the scores by √d_k.
    b_q, b_k, b_v : array_like, optional
        (H, d_k) one bias a head.

    Returns
    -------
    MultiHeadTrace
        With no W_o.

    Examples
    --------
    >>> W = [np.eye(2), 2 * np.eye(2)]
    >>> mh = independent_heads_attention(np.eye(2), W, W, W)
    >>> mh.W_o is None, mh.output.shape
    (True, (2, 4))
    """
    X = as_matrix("X", X)
    src = X if source is None else as_matrix("source", source)
    stacks = [
        as_matrix(name, w, ndim=3) for name, w in (("W_q", W_qs), ("W_k", W_ks), ("W_v", W_vs))
    ]
    if len({s.shape[0] for s in stacks}) != 1:
        raise ValueError(
            "W_q, W_k, W_v: need the same number of heads, got "
            + ", ".join(str(s.shape[0]) for s in stacks)
        )
    for name, s, inp in zip(("W_q", "W_k", "W_v"), stacks, (X, src, src)):
        if s.shape[1] != inp.shape[1]:
            raise ValueError(
                f"{name}: per-head matrices have {s.shape[1]} rows, expected {inp.shape[1]}"
            )
    rows = []
    for name, b, s in zip(("b_q", "b_k", "b_v"), (b_q, b_k, b_v), stacks):
        if b is None:
            rows.append([None] * s.shape[0])
            continue
        b = as_matrix(name, b)
        if b.shape != (s.shape[0], s.shape[2]):
            raise ValueError(
                f"{name}: shape {b.shape}; expected ({s.shape[0]}, {s.shape[2]}), one row per head"
            )
        rows.append(list(b))
    per_head = [
        tuple(zip(mats, bs)) for mats, bs in zip(zip(*stacks), zip(*rows))
    ]  # per head: ((W_q, b_q), (W_k, b_k), (W_v, b_v))
    return _run_heads(X, src, per_head, None, mask, scale, source is not None)


def _run_heads(
    X: FloatArray,
    src: FloatArray,
    per_head: Sequence[HeadSlices],
    W_o: ArrayLike | None,
    mask: ArrayLike | None,
    scale: bool,
    is_cross: bool,
    b_o: ArrayLike | None = None,
) -> MultiHeadTrace:
    heads = []
    for (w_q, b_q), (w_k, b_k), (w_v, b_v) in per_head:
        Q = project("W_q", X, w_q, b_q)  # (m, d_k)
        K = project("W_k", src, w_k, b_k)  # (n, d_k)
        V = project("W_v", src, w_v, b_v)  # (n, d_v)
        heads.append(scaled_dot_product_attention(Q, K, V, mask=mask, scale=scale))
    concat = np.concatenate([t.output for t in heads], axis=1)  # (m, H·d_v)
    if W_o is None:
        if b_o is not None:
            raise ValueError("b_o: a bias after W_o needs W_o")
        output = concat
    else:
        W_o = as_matrix("W_o", W_o)
        if W_o.shape[0] != concat.shape[1]:
            raise ValueError(
                f"W_o: expected {concat.shape[1]} rows (heads × d_v), got shape {W_o.shape}"
            )
        output = project("W_o", concat, W_o, b_o)  # (m, d_out)
    return MultiHeadTrace(
        heads=tuple(heads),
        concat=concat,
        output=output,
        W_o=W_o,
        num_heads=len(heads),
        X=X,
        source=src if is_cross else None,
    )
