"""The encoder block attention lives in (Vaswani et al., 2017, §3.1; text 001 §8), post-norm:

    A = MultiHead(X)                     self-attention
    H = LayerNorm(X + A)                 residual add, then normalise each token
    F = ReLU(H W_1) W_2                  position-wise feed-forward network
    Y = LayerNorm(H + F)                 second residual and LayerNorm

No biases and no dropout, so it equals ``torch.nn.TransformerEncoderLayer(…, bias=False,
dropout=0, norm_first=False)`` with the same weights. A trained BERT layer is the same block
with its own LayerNorm γ, β (ε = 1e-12), feed-forward biases and GELU:
F = GELU(H W_1 + b_1) W_2 + b_2 (``activation="gelu"``, ``beta1``, ``beta2``, ``b_1``, ``b_2``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ._checks import ArrayLike, FloatArray, as_matrix, same_width
from .multihead import MultiHeadTrace, multi_head_attention

LAYER_NORM_EPS = 1e-5  # PyTorch's default


def layer_norm(
    x: ArrayLike,
    gamma: ArrayLike | None = None,
    beta: ArrayLike | None = None,
    eps: float = LAYER_NORM_EPS,
) -> FloatArray:
    """Normalise each row of ``x`` to mean 0 and variance 1, then scale by γ and shift by β.

    LN(x) = γ · (x − mean(x)) / √(var(x) + ε) + β      (biased variance, as PyTorch)

    Parameters
    ----------
    x : array_like
        (n, d) rows.
    gamma, beta : array_like, optional
        (d,) scale and shift (default 1 and 0).
    eps : float, default 1e-5
        Added to the variance.

    Returns
    -------
    ndarray of float64
        (n, d).

    Examples
    --------
    >>> layer_norm([[1.0, 3.0]], eps=0.0).tolist()
    [[-1.0, 1.0]]
    """
    x = as_matrix("x", x)
    mean = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, keepdims=True)  # (n, 1), population variance
    out = (x - mean) / np.sqrt(var + eps)
    d = x.shape[1]
    if gamma is not None:
        gamma = np.asarray(gamma, dtype=np.float64)
        if gamma.shape != (d,):
            raise ValueError(f"gamma: expected shape ({d},), got {gamma.shape}")
        out = out * gamma
    if beta is not None:
        beta = np.asarray(beta, dtype=np.float64)
        if beta.shape != (d,):
            raise ValueError(f"beta: expected shape ({d},), got {beta.shape}")
        out = out + beta
    return out


def gelu(x: ArrayLike) -> FloatArray:
    """GELU in its exact (erf) form: x · Φ(x) = ½ x (1 + erf(x / √2)), elementwise.

    Parameters
    ----------
    x : array_like

    Returns
    -------
    ndarray of float64
        The shape of ``x``.

    Examples
    --------
    >>> gelu([-1.0, 0.0, 1.0]).round(4).tolist()
    [-0.1587, 0.0, 0.8413]
    """
    x = np.asarray(x, dtype=np.float64)
    erf = np.frompyfunc(math.erf, 1, 1)
    return 0.5 * x * (1.0 + np.asarray(erf(x / math.sqrt(2.0)), dtype=np.float64))


ACTIVATIONS = {"relu": lambda h: np.maximum(h, 0.0), "gelu": gelu}


def feed_forward(
    x: ArrayLike,
    W_1: ArrayLike,
    W_2: ArrayLike,
    b_1: ArrayLike | None = None,
    b_2: ArrayLike | None = None,
    activation: str = "relu",
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """act(x W_1 + b_1) W_2 + b_2, position by position (ReLU and no biases unless given).
    Returns (hidden before the activation, after it, output).

    Parameters
    ----------
    x : array_like
        (n, d_model).
    W_1, W_2 : array_like
        (d_model, d_ff), (d_ff, d_out).
    b_1, b_2 : array_like, optional
        (d_ff,), (d_out,).
    activation : {"relu", "gelu"}, default "relu"

    Returns
    -------
    tuple of ndarray
        (x W_1 + b_1, after the activation, output).

    Examples
    --------
    >>> hidden, act, out = feed_forward([[1.0, -1.0]], np.eye(2), np.ones((2, 1)))
    >>> hidden.tolist(), act.tolist(), out.tolist()
    ([[1.0, -1.0]], [[1.0, 0.0]], [[1.0]])
    """
    x = as_matrix("x", x)
    W_1, W_2 = as_matrix("W_1", W_1), as_matrix("W_2", W_2)
    same_width("x", x, "W_1", W_1, axis_a=1, axis_b=0)
    same_width("W_1", W_1, "W_2", W_2, axis_a=1, axis_b=0)
    if activation not in ACTIVATIONS:
        raise ValueError(f"activation: {activation!r} is not one of {', '.join(ACTIVATIONS)}")
    hidden = x @ W_1  # (n, d_ff)
    if b_1 is not None:
        hidden = hidden + _bias("b_1", b_1, W_1.shape[1])
    act = ACTIVATIONS[activation](hidden)
    out = act @ W_2  # (n, d_model)
    if b_2 is not None:
        out = out + _bias("b_2", b_2, W_2.shape[1])
    return hidden, act, out


def _bias(name: str, b: ArrayLike, width: int) -> FloatArray:
    b = np.asarray(b, dtype=np.float64)
    if b.shape != (width,):
        raise ValueError(f"{name}: expected shape ({width},), got {b.shape}")
    return b


@dataclass(frozen=True)
class EncoderTrace:
    """Every step of one post-norm encoder block.

    Attributes
    ----------
    X : ndarray
        The input.
    attention : MultiHeadTrace
        A = MultiHead(X).
    residual1, norm1, ff_hidden, ff_relu, ff_out, residual2, output : ndarray
        X + A, H = LayerNorm(X + A), the feed-forward's steps, H + F, LayerNorm(H + F).
    activation : str
        The feed-forward's activation.

    Examples
    --------
    >>> W = np.eye(2)
    >>> t = encoder_block([[1.0, 0.0], [0.0, 2.0]], W, W, W, W, W, W, num_heads=1)
    >>> t.output.shape, bool(np.allclose(t.output.mean(axis=1), 0))
    ((2, 2), True)
    """

    X: FloatArray
    attention: MultiHeadTrace
    residual1: FloatArray  # X + A
    norm1: FloatArray  # H = LayerNorm(X + A)
    ff_hidden: FloatArray  # H W_1 (+ b_1)
    ff_relu: FloatArray  # ReLU(H W_1), or GELU(H W_1 + b_1) with activation "gelu"
    ff_out: FloatArray  # F
    residual2: FloatArray  # H + F
    output: FloatArray  # Y = LayerNorm(H + F)
    activation: str = "relu"  # the feed-forward's: "relu", or "gelu" (a trained BERT layer)


def encoder_block(
    X: ArrayLike,
    W_q: ArrayLike,
    W_k: ArrayLike,
    W_v: ArrayLike,
    W_o: ArrayLike,
    W_1: ArrayLike,
    W_2: ArrayLike,
    num_heads: int,
    mask: ArrayLike | None = None,
    gamma1: ArrayLike | None = None,
    gamma2: ArrayLike | None = None,
    eps: float = LAYER_NORM_EPS,
    *,
    b_q: ArrayLike | None = None,
    b_k: ArrayLike | None = None,
    b_v: ArrayLike | None = None,
    b_o: ArrayLike | None = None,
    beta1: ArrayLike | None = None,
    beta2: ArrayLike | None = None,
    b_1: ArrayLike | None = None,
    b_2: ArrayLike | None = None,
    activation: str = "relu",
) -> EncoderTrace:
    """One encoder block over X (n, d_model); W_o maps the heads back to d_model.

    The attention's optional biases ``b_q`` … ``b_o`` (an example taken from a trained model
    has them) go to :func:`multi_head_attention`; the LayerNorms' shifts ``beta1``, ``beta2``
    and the feed-forward's biases ``b_1``, ``b_2`` likewise; without them the block has no
    bias at all.

    Parameters
    ----------
    X : array_like
        (n, d_model).
    W_q, W_k, W_v, W_o : array_like
        The attention's matrices (:func:`multi_head_attention`).
    W_1, W_2 : array_like
        The feed-forward's.
    num_heads : int
        H.
    mask : array_like of bool, optional
        True = may attend.
    gamma1, gamma2 : array_like, optional
        The LayerNorms' scales.
    eps : float, default 1e-5
        The LayerNorms' ε.
    b_q, b_k, b_v, b_o, beta1, beta2, b_1, b_2 : array_like, optional
        Biases and shifts.
    activation : {"relu", "gelu"}, default "relu"

    Returns
    -------
    EncoderTrace

    Examples
    --------
    >>> W = np.eye(2)
    >>> t = encoder_block([[1.0, 0.0], [0.0, 2.0]], W, W, W, W, W, W, num_heads=2)
    >>> [h.d_k for h in t.attention.heads], t.output.round(3).tolist()
    ([1, 1], [[1.0, -1.0], [-1.0, 1.0]])
    """
    X = as_matrix("X", X)
    att = multi_head_attention(
        X, W_q, W_k, W_v, W_o, num_heads, mask=mask, b_q=b_q, b_k=b_k, b_v=b_v, b_o=b_o
    )
    if att.output.shape != X.shape:
        raise ValueError(
            f"W_o: the attention output has shape {att.output.shape}; the residual needs {X.shape}"
        )
    residual1 = X + att.output
    norm1 = layer_norm(residual1, gamma1, beta1, eps=eps)
    hidden, act, ff = feed_forward(norm1, W_1, W_2, b_1, b_2, activation)
    if ff.shape != X.shape:
        raise ValueError(f"W_2: the feed-forward output has shape {ff.shape}; expected {X.shape}")
    residual2 = norm1 + ff
    return EncoderTrace(
        X=X,
        attention=att,
        residual1=residual1,
        norm1=norm1,
        ff_hidden=hidden,
        ff_relu=act,
        ff_out=ff,
        residual2=residual2,
        output=layer_norm(residual2, gamma2, beta2, eps=eps),
        activation=activation,
    )
