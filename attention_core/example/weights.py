"""An example's projection weights: the :class:`Weights` it uses, resolved from what a file gives.

A file gives ``W_q``, ``W_k``, ``W_v`` (and ``W_o``, biases ``b_q`` … ``b_o``) in split form, one
matrix per role whose columns are split among the heads, or in per-head form, one matrix per head
and role (text 000's form, concatenated without W_o). Without them the weights are identities or
(with a seed) drawn at random (:mod:`attention_core.example.random_weights`). Every check raises
``ValueError("weights.<key>: …")``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np

from .._checks import FloatArray
from .limits import MAX_DIM
from .validation import check_matrix, divisors

QKV_KEYS = ("W_q", "W_k", "W_v")
WEIGHT_KEYS = ("W_q", "W_k", "W_v", "W_o", "b_q", "b_k", "b_v", "b_o")
BIAS_KEYS = ("b_q", "b_k", "b_v", "b_o")


@dataclass(frozen=True, eq=False)
class Weights:
    """Resolved projection weights.

    ``form`` is ``"identity"`` (Q = K = V = X), ``"split"`` (one matrix per role, columns split
    among heads as ``torch.nn.MultiheadAttention`` does, then ``W_o``) or ``"independent"`` (text
    000: one matrix per head and role, stacked as (H, d_model, d_k), concatenated without W_o).
    ``seed`` is set when the matrices were drawn at random. ``b_q``, ``b_k``, ``b_v`` (and ``b_o``)
    are optional biases, Q = X W_q + b_q …: one vector of the matrix's width in split form, one
    row per head, (H, d_k), in per-head form; None means no bias. ``kv_heads`` (split form,
    grouped-query attention): W_k and W_v have that many heads' columns, each shared by
    H / kv_heads query heads; None means one key/value head per query head.

    Attributes
    ----------
    form : {"identity", "split", "independent"}
    W_q, W_k, W_v : ndarray
        The projections.
    W_o : ndarray or None
        The output matrix.
    seed : int or None
        The seed of drawn matrices.
    b_q, b_k, b_v, b_o : ndarray or None
        The biases.
    kv_heads : int or None
        Shared key/value heads.

    Examples
    --------
    >>> from attention_core import PRESETS
    >>> w = PRESETS["two-heads"].weights
    >>> w.form, w.head(1, 2)[0].shape
    ('split', (4, 2))
    """

    form: str
    W_q: np.ndarray
    W_k: np.ndarray
    W_v: np.ndarray
    W_o: np.ndarray | None = None
    seed: int | None = None
    b_q: np.ndarray | None = None
    b_k: np.ndarray | None = None
    b_v: np.ndarray | None = None
    b_o: np.ndarray | None = None
    kv_heads: int | None = None

    @property
    def has_bias(self) -> bool:
        """True when any projection has a bias."""
        return any(b is not None for b in (self.b_q, self.b_k, self.b_v, self.b_o))

    def head(self, h: int, heads: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The (W_q, W_k, W_v) that head ``h`` of ``heads`` uses (W_k, W_v those of its shared
        key/value head when there are fewer key/value heads)."""
        if self.form == "independent":
            return self.W_q[h], self.W_k[h], self.W_v[h]
        dk, dv = self.W_q.shape[1] // heads, self.W_v.shape[1] // self.kv_count(heads)
        g = self.kv_group(h, heads)
        return (
            self.W_q[:, h * dk : (h + 1) * dk],
            self.W_k[:, g * dk : (g + 1) * dk],
            self.W_v[:, g * dv : (g + 1) * dv],
        )

    def kv_count(self, heads: int) -> int:
        """How many key/value heads there are (``heads`` unless they are shared)."""
        return heads if self.kv_heads is None else self.kv_heads

    def kv_group(self, h: int, heads: int) -> int:
        """The key/value head (from 0) that query head ``h`` (from 0) uses."""
        return h // (heads // self.kv_count(heads))

    def head_biases(self, h: int, heads: int) -> tuple:
        """The (b_q, b_k, b_v) that head ``h`` of ``heads`` uses (each a vector or None)."""
        if self.form == "independent":
            return tuple(None if b is None else b[h] for b in (self.b_q, self.b_k, self.b_v))
        dk, dv = self.W_q.shape[1] // heads, self.W_v.shape[1] // self.kv_count(heads)
        g = self.kv_group(h, heads)
        return tuple(
            None if b is None else b[i * d : (i + 1) * d]
            for b, d, i in ((self.b_q, dk, h), (self.b_k, dk, g), (self.b_v, dv, g))
        )

    def given(self) -> dict:
        """The matrices and biases that are set, by key (as a file would give them)."""
        return {k: getattr(self, k) for k in WEIGHT_KEYS if getattr(self, k) is not None}


def identity_weights(d_model: int, heads: int, head_form: str) -> Weights:
    """Q = K = V = X: identities split among the heads (and an identity W_o for several)."""
    if d_model % heads:
        raise ValueError(
            f"heads: d_model = {d_model} does not divide by heads = {heads}; choose "
            f"heads among {divisors(d_model)}"
        )
    if head_form == "independent" and heads > 1:
        raise ValueError(
            "head_form: 'independent' needs seed or per-head weights (identity "
            "weights are one split form)"
        )
    return _identity(d_model, heads > 1)


@cache  # d_model ≤ 384: one (frozen, read-only) identity each, shared by every example
def _identity(d_model: int, with_w_o: bool) -> Weights:
    eye = np.eye(d_model)
    eye.setflags(write=False)  # shared: writing into it raises rather than changing the others
    return Weights("identity", eye, eye, eye, eye if with_w_o else None)


def explicit_weights(
    given: dict,
    d_model: int,
    h: int,
    kv_dim: int,
    seed: int | None,
    max_head_dim: int = MAX_DIM,
    kv_heads: int | None = None,
) -> Weights:
    """The weights a file gives, checked against d_model, the heads and each other: split form
    when ``W_q`` is a matrix, per-head form when it is a list of matrices. ``kv_heads`` (split
    form only): W_k and W_v hold that many shared key/value heads."""
    for key in QKV_KEYS:
        if key not in given:
            raise ValueError(f"weights.{key}: missing; give W_q, W_k and W_v together")
    per_head = _is_per_head(given["W_q"])
    ndim = 3 if per_head else 2
    mats = {k: check_matrix(f"weights.{k}", given[k], ndim=ndim) for k in QKV_KEYS}
    if per_head:
        if kv_heads not in (None, h):
            raise ValueError("kv_heads: needs W_q, W_k, W_v as one matrix each (split form)")
        return _per_head_weights(given, mats, d_model, h, seed, max_head_dim)
    if kv_heads not in (None, h):
        return _grouped_weights(given, mats, d_model, h, kv_heads, seed, max_head_dim)
    return _split_weights(given, mats, d_model, h, kv_dim, seed, max_head_dim)


def _is_per_head(sample: Any) -> bool:
    """True when ``W_q`` is given as a list of matrices (one per head)."""
    if isinstance(sample, np.ndarray):
        return sample.ndim == 3
    return bool(
        isinstance(sample, (list, tuple))
        and sample
        and isinstance(sample[0], (list, tuple))
        and sample[0]
        and isinstance(sample[0][0], (list, tuple))
    )


def _per_head_weights(
    given: dict[str, Any],
    mats: dict[str, FloatArray],
    d_model: int,
    h: int,
    seed: int | None,
    max_head_dim: int,
) -> Weights:
    if "W_o" in given or "b_o" in given:
        key = "W_o" if "W_o" in given else "b_o"
        raise ValueError(
            f"weights.{key}: not used with per-head matrices (text 000's form "
            "concatenates the heads); remove it or use one matrix per role"
        )
    for k, m in mats.items():
        _check_per_head_shape(k, m, d_model, h, max_head_dim)
    if mats["W_q"].shape != mats["W_k"].shape:
        raise ValueError(
            f"weights.W_k: shape {mats['W_k'].shape} must equal W_q's "
            f"{mats['W_q'].shape} (q·k needs equal d_k)"
        )
    biases = _biases(given, mats, per_head=True)
    return Weights("independent", mats["W_q"], mats["W_k"], mats["W_v"], None, seed, **biases)


def _check_per_head_shape(k: str, m: np.ndarray, d_model: int, h: int, max_head_dim: int) -> None:
    if m.shape[0] != h:
        raise ValueError(f"weights.{k}: {m.shape[0]} per-head matrices for heads = {h}")
    if m.shape[1] != d_model:
        raise ValueError(
            f"weights.{k}: each matrix needs {d_model} rows (d_model), got {m.shape[1]}"
        )
    if m.shape[2] > max_head_dim:
        raise ValueError(f"weights.{k}: {m.shape[2]} columns; at most {max_head_dim}")


def _split_weights(
    given: dict[str, Any],
    mats: dict[str, FloatArray],
    d_model: int,
    h: int,
    kv_dim: int,
    seed: int | None,
    max_head_dim: int,
) -> Weights:
    for k, m in mats.items():
        _check_split_shape(k, m, d_model if k == "W_q" else kv_dim, h, max_head_dim)
    if mats["W_q"].shape != mats["W_k"].shape:
        raise ValueError(
            f"weights.W_k: shape {mats['W_k'].shape[0]}×{mats['W_k'].shape[1]} must "
            f"equal W_q's {mats['W_q'].shape[0]}×{mats['W_q'].shape[1]} "
            "(q·k needs equal d_k)"
        )
    W_o = _output_weights(given, mats["W_v"], d_model, h, max_head_dim)
    if W_o is not None:
        mats["W_o"] = W_o
    biases = _biases(given, mats, per_head=False)
    return Weights("split", mats["W_q"], mats["W_k"], mats["W_v"], W_o, seed, **biases)


def _grouped_weights(
    given: dict[str, Any],
    mats: dict[str, FloatArray],
    d_model: int,
    h: int,
    kv: int,
    seed: int | None,
    max_head_dim: int,
) -> Weights:
    """Split form with ``kv`` shared key/value heads: W_q (d_model, h·d_k), W_k (d_model,
    kv·d_k), W_v (d_model, kv·d_v), W_o (h·d_v, d_out)."""
    for k, m in mats.items():
        _check_split_shape(k, m, d_model, h if k == "W_q" else kv, max_head_dim)
    d_k = mats["W_q"].shape[1] // h
    if mats["W_k"].shape[1] != kv * d_k:
        raise ValueError(
            f"weights.W_k: {mats['W_k'].shape[1]} columns; kv_heads = {kv} heads of d_k = {d_k} "
            f"(as W_q's heads) need {kv * d_k}"
        )
    d_v = mats["W_v"].shape[1] // kv
    W_o = _output_weights(given, np.zeros((1, h * d_v)), d_model, h, max_head_dim)
    if W_o is not None:
        mats["W_o"] = W_o
    biases = _biases(given, mats, per_head=False)
    return Weights("split", mats["W_q"], mats["W_k"], mats["W_v"], W_o, seed, **biases, kv_heads=kv)


def _check_split_shape(k: str, m: np.ndarray, rows: int, h: int, max_head_dim: int) -> None:
    if m.shape[0] != rows:
        raise ValueError(
            f"weights.{k}: shape {m.shape[0]}×{m.shape[1]}; it needs {rows} rows "
            f"(d_model) to multiply the embeddings"
        )
    if m.shape[1] % h:
        raise ValueError(f"weights.{k}: {m.shape[1]} columns do not split into heads = {h}")
    if m.shape[1] > max_head_dim * h:
        raise ValueError(f"weights.{k}: {m.shape[1]} columns; at most {max_head_dim} per head")


def _output_weights(
    given: dict[str, Any], W_v: FloatArray, d_model: int, h: int, max_head_dim: int
) -> np.ndarray | None:
    """W_o of split form: checked when given; needed for several heads."""
    if "W_o" in given:
        W_o = check_matrix("weights.W_o", given["W_o"])
        if W_o.shape[0] != W_v.shape[1]:
            raise ValueError(
                f"weights.W_o: {W_o.shape[0]} rows; it needs {W_v.shape[1]} "
                "(the width of the concatenated heads)"
            )
        if W_o.shape[1] > max(max_head_dim, d_model):
            raise ValueError(
                f"weights.W_o: {W_o.shape[1]} columns; at most {max(max_head_dim, d_model)}"
            )
        return W_o
    if h > 1:
        raise ValueError(
            "weights.W_o: needed for several heads in split form; add W_o, or give "
            "per-head matrices (text 000's form)"
        )
    if "b_o" in given:
        raise ValueError("weights.b_o: the bias of W_o needs W_o; add W_o or remove b_o")
    return None


def _biases(given: dict, mats: dict, per_head: bool) -> dict:
    """The biases given, checked against their matrices: split form one vector as wide as the
    matrix; per-head form one row per head, (H, d_k)."""
    out = {}
    for b in BIAS_KEYS:
        if b not in given:
            continue
        W = mats["W_" + b[-1]]
        arr = check_matrix(f"weights.{b}", given[b], ndim=2 if per_head else 1)
        want: tuple[int, ...] = (W.shape[0], W.shape[2]) if per_head else (W.shape[1],)
        if arr.shape != want:
            shape = "×".join(str(v) for v in arr.shape)
            raise ValueError(
                f"weights.{b}: shape {shape}; W_{b[-1]} needs "
                + (f"{want[0]} rows of {want[1]} (one per head)" if per_head else f"{want[0]}")
                + " numbers"
            )
        out[b] = arr
    return out
