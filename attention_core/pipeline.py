"""From an :class:`Example` to every number the scenes show: :func:`trace_example`."""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from ._checks import project
from .attention import AttentionTrace, scaled_dot_product_attention
from .example import Example
from .multihead import MultiHeadTrace, independent_heads_attention, multi_head_attention
from .positional import sinusoidal_positional_encoding

ILLUSTRATIVE_SEED = 7  # the seeded map that shows what a learned W does (Projections)
FFN_SEED = 7  # the seeded feed-forward weights of the illustrative encoder block


@dataclass(frozen=True, eq=False)
class ExampleTrace:
    """The whole computation for one example.

    ``X`` is the query input (embeddings, plus ``pe`` when positional encoding is on), ``source``
    the key/value input (``X`` itself for self-attention). ``heads`` holds one
    :class:`AttentionTrace` per head (one for single-head examples); ``multihead`` is the
    :class:`MultiHeadTrace` when there are several heads (or a W_o), else None. ``output`` is the
    final output.
    """

    example: Example
    X: np.ndarray
    source: np.ndarray
    pe: np.ndarray | None
    mask: np.ndarray | None
    heads: tuple[AttentionTrace, ...]
    multihead: MultiHeadTrace | None
    output: np.ndarray

    @property
    def attention(self) -> AttentionTrace:
        """The single head's trace (the first head's when there are several)."""
        return self.heads[0]

    @property
    def seed(self) -> int | None:
        return self.example.weights.seed


def trace_example(example: Example) -> ExampleTrace:
    """Run attention on ``example`` exactly as its fields say, keeping every intermediate."""
    X = example.embeddings
    src = example.source_embeddings if example.is_cross else X
    pe = None
    if example.positional_encoding:
        pe = sinusoidal_positional_encoding(max(example.n, example.n_keys), example.d_model)
        X = X + pe[: example.n]
        src = src + pe[: example.n_keys] if example.is_cross else X
    mask = example.mask_matrix
    w = example.weights
    source = src if example.is_cross else None
    biases = {"b_q": w.b_q, "b_k": w.b_k, "b_v": w.b_v}  # each None when not given
    if w.form == "independent":
        mh = independent_heads_attention(
            X, w.W_q, w.W_k, w.W_v, mask=mask, source=source, scale=example.scale, **biases
        )
    elif example.heads > 1 or w.W_o is not None:
        mh = multi_head_attention(
            X,
            w.W_q,
            w.W_k,
            w.W_v,
            w.W_o,
            example.heads,
            mask=mask,
            source=source,
            scale=example.scale,
            b_o=w.b_o,
            **biases,
        )
    else:
        mh = None
    if mh is None:
        trace = scaled_dot_product_attention(
            project("W_q", X, w.W_q, w.b_q),  # Q = X W_q + b_q  (n, d_k)
            project("W_k", src, w.W_k, w.b_k),  # K  (n_keys, d_k)
            project("W_v", src, w.W_v, w.b_v),  # V  (n_keys, d_v)
            mask=mask,
            scale=example.scale,
        )
        heads = (replace(trace, X=X),)
        output = trace.output
    else:
        heads = tuple(mh.heads)
        output = mh.output
    return ExampleTrace(
        example=example, X=X, source=src, pe=pe, mask=mask, heads=heads, multihead=mh, output=output
    )


def illustrative_weights(d: int, seed: int = ILLUSTRATIVE_SEED) -> np.ndarray:
    """A seeded (d, d) matrix that visibly moves a plane, for showing what a learned W does.

    A rotation by 20–35° times a stretch (×1.2–1.4 along one axis, ×0.6–0.8 along the other);
    for d > 2 the same acts on the first two axes. Labelled as illustrative wherever it is shown.
    """
    if not isinstance(d, (int, np.integer)) or d < 1:
        raise ValueError(f"d: expected a positive integer, got {d!r}")
    rng = np.random.default_rng(seed)
    theta = np.radians(rng.uniform(20, 35))
    stretch = np.array([rng.uniform(1.2, 1.4), rng.uniform(0.6, 0.8)])
    W = np.eye(d)
    if d >= 2:
        rot = np.array([[np.cos(theta), np.sin(theta)], [-np.sin(theta), np.cos(theta)]])
        W[:2, :2] = np.diag(stretch) @ rot  # row vectors: x ↦ x W stretches, then turns
    else:
        W[0, 0] = stretch[0]
    return W


def illustrative_projections(
    d: int, seed: int = ILLUSTRATIVE_SEED
) -> tuple[np.ndarray, np.ndarray]:
    """Two distinct seeded (d, d) maps (W_q, W_k) that show queries and keys in separate spaces.

    W_q is :func:`illustrative_weights` ``(d, seed)``; W_k, from the same seed, turns the other
    way (by 20–35°) and stretches the other axis, so x W_q and x W_k differ for every x ≠ 0 and
    a token's query is compared with keys that are not its own vector. Labelled as illustrative
    wherever it is shown.
    """
    W_q = illustrative_weights(d, seed)
    rng = np.random.default_rng([seed, 1])
    theta = -np.radians(rng.uniform(20, 35))
    stretch = np.array([rng.uniform(0.6, 0.8), rng.uniform(1.2, 1.4)])
    W_k = np.eye(d)
    if d >= 2:
        rot = np.array([[np.cos(theta), np.sin(theta)], [-np.sin(theta), np.cos(theta)]])
        W_k[:2, :2] = np.diag(stretch) @ rot
    else:
        W_k[0, 0] = stretch[1] * 1.25
    return W_q, W_k


def illustrative_queries_keys(X, seed: int = ILLUSTRATIVE_SEED, source=None):
    """(Q, K, Q Kᵀ) under :func:`illustrative_projections`: queries from the rows of ``X``, keys
    from ``source`` (cross-attention's second sequence; default ``X`` itself)."""
    X = np.asarray(X, dtype=float)
    src = X if source is None else np.asarray(source, dtype=float)
    W_q, W_k = illustrative_projections(X.shape[1], seed)
    Q, K = X @ W_q, src @ W_k
    return Q, K, Q @ K.T


def attention_cost(n_queries: int, n_keys: int, d_k: int) -> tuple[int, int]:
    """(cells of the weight matrix, multiply-adds of Q Kᵀ) = (m·n, m·n·d_k)."""
    return n_queries * n_keys, n_queries * n_keys * d_k


def share_from_others(weights: np.ndarray) -> np.ndarray:
    """For self-attention: each token's share of its output that comes from other tokens
    (1 − w_ii)."""
    return 1.0 - np.diag(weights)


def tip_to_tail(weights_row, V) -> tuple[np.ndarray, np.ndarray]:
    """The weighted sum Σ_j w_j v_j as a chain: each part w_j v_j and the point where it starts.

    Returns ``(parts, starts)``, both (n, d_v); the last start plus the last part is the output.
    """
    w = np.asarray(weights_row, dtype=np.float64)
    V = np.asarray(V, dtype=np.float64)
    parts = w[:, None] * V  # (n, d_v)
    starts = np.vstack([np.zeros((1, V.shape[1])), np.cumsum(parts, axis=0)[:-1]])
    return parts, starts


@dataclass(frozen=True)
class ShuffleCheck:
    """Self-attention with the tokens in another order, outputs put back in the original order.

    Without positional encoding the outputs only move with their tokens (``equal_without`` is
    True: attention is permutation-equivariant); with it they change (``equal_with`` False).
    ``diff_*`` are the largest absolute differences.
    """

    perm: tuple[int, ...]
    diff_without: float
    diff_with: float
    equal_without: bool
    equal_with: bool


def shuffle_check(example: Example, perm=None, tol: float = 1e-9) -> ShuffleCheck:
    """Shuffle the example's tokens (default: reversed) and compare outputs, without and with
    sinusoidal positional encoding."""
    if example.is_cross:
        raise ValueError("example: the shuffle check is for self-attention (no source sequence)")
    n = example.n
    perm = tuple(range(n - 1, -1, -1)) if perm is None else tuple(int(p) for p in perm)
    if sorted(perm) != list(range(n)):
        raise ValueError(f"perm: {perm} is not a permutation of 0 … {n - 1}")
    inverse = np.argsort(perm)
    diffs = []
    for pe_on in (False, True):
        base = replace(example, positional_encoding=pe_on, mask="none", padding=None)
        shuffled = replace(
            base,
            tokens=[example.tokens[p] for p in perm],
            embeddings=example.embeddings[list(perm)],
        )
        out = trace_example(base).output
        back = trace_example(shuffled).output[inverse]  # rows in the original order again
        diffs.append(float(np.max(np.abs(out - back))))
    return ShuffleCheck(perm, diffs[0], diffs[1], diffs[0] <= tol, diffs[1] <= tol)


def encoder_weights(example: Example, seed: int = FFN_SEED):
    """Weights for one encoder block over ``example``: its attention weights as split matrices
    (text 000's independent heads side by side are the same thing), a W_o back to d_model (its
    own; the identity when the heads already give d_model; else seeded), and seeded feed-forward
    W_1 (d_model × 2·d_model), W_2. Returns (dict of matrices, dict saying which are seeded)."""
    w = example.weights
    d = example.d_model
    if w.form == "independent":
        W_q, W_k, W_v = (np.concatenate(list(m), axis=1) for m in (w.W_q, w.W_k, w.W_v))
    else:
        W_q, W_k, W_v = w.W_q, w.W_k, w.W_v
    rng = np.random.default_rng(seed)
    seeded = {"W_o": False, "W_1": True, "W_2": True}
    if w.W_o is not None and w.W_o.shape[1] == d:
        W_o = w.W_o
    elif W_v.shape[1] == d:
        W_o = np.eye(d)
    else:
        W_o = rng.standard_normal((W_v.shape[1], d)) / np.sqrt(W_v.shape[1])
        seeded["W_o"] = True
    W_1 = rng.standard_normal((d, 2 * d)) / np.sqrt(d)
    W_2 = rng.standard_normal((2 * d, d)) / np.sqrt(2 * d)
    return {"W_q": W_q, "W_k": W_k, "W_v": W_v, "W_o": W_o, "W_1": W_1, "W_2": W_2}, seeded


def encoder_biases(example: Example) -> dict:
    """The example's attention biases in the split form :func:`encoder_weights` uses: b_q, b_k,
    b_v (H·d_k,) or None each, and b_o only when the block uses the example's own W_o."""
    w = example.weights
    out = {"b_q": w.b_q, "b_k": w.b_k, "b_v": w.b_v}
    if w.form == "independent":
        out = {k: None if b is None else np.concatenate(list(b)) for k, b in out.items()}
    ok_o = w.W_o is not None and w.W_o.shape[1] == example.d_model
    out["b_o"] = w.b_o if ok_o else None
    return out


def trace_encoder(example: Example, seed: int = FFN_SEED):
    """One post-norm encoder block over the example's (query) sequence: :class:`EncoderTrace`."""
    from .encoder import encoder_block

    W, _ = encoder_weights(example, seed)
    X = trace_example(example).X
    mask = None if example.is_cross else example.mask_matrix
    return encoder_block(
        X,
        W["W_q"],
        W["W_k"],
        W["W_v"],
        W["W_o"],
        W["W_1"],
        W["W_2"],
        example.heads,
        mask=mask,
        **encoder_biases(example),
    )


def informative_row(weights, rel_tol: float = 0.05) -> int:
    """The query row a per-query demo shows: one whose weights are spread most widely
    (largest Σ w(1 − w)), so neither one-hot nor fully masked.

    The first row within ``rel_tol`` of the widest spread is taken, so that when the rows are
    all alike the demo keeps to the first token. Rows that are not finite count as one-hot; a
    matrix of one-hot rows gives 0.
    """
    w = np.asarray(weights, dtype=np.float64)
    if w.ndim != 2 or w.shape[0] == 0:
        raise ValueError(f"weights: expected a non-empty (n, m) matrix, got shape {w.shape}")
    finite = np.all(np.isfinite(w), axis=1)
    spread = np.where(finite, np.sum(w * (1.0 - w), axis=1), 0.0)  # (n,)
    best = float(np.max(spread))
    if best <= 1e-12:
        return 0
    return int(np.flatnonzero(spread >= best * (1.0 - rel_tol))[0])


def residual(X, output) -> np.ndarray:
    """The residual update E + ΔE: each token's embedding plus its attention output (ΔE)."""
    X, output = np.asarray(X, dtype=np.float64), np.asarray(output, dtype=np.float64)
    if X.shape != output.shape:
        raise ValueError(f"X {X.shape} and output {output.shape}: the residual needs one shape")
    return X + output
