"""One encoder block over an example: its attention weights, a W_o back to d_model and seeded
feed-forward weights (:func:`encoder_weights`), run by :func:`trace_encoder`. An example of a
trained encoder layer (``block``: its own W_1, b_1, W_2, b_2 and LayerNorms) is the model's own
block instead: GELU, the model's γ, β and ε."""

from __future__ import annotations

from typing import Any, cast

import numpy as np

from ._checks import FloatArray
from .encoder import EncoderTrace, encoder_block
from .example.model import Example
from .trace import trace_example

FFN_SEED = 7  # the seeded feed-forward weights of the illustrative encoder block


def encoder_weights(
    example: Example, seed: int = FFN_SEED
) -> tuple[dict[str, FloatArray], dict[str, bool]]:
    """Weights for one encoder block over ``example``: its attention weights as split matrices
    (text 000's independent heads side by side are the same thing), a W_o back to d_model (its
    own; the identity when the heads already give d_model; else seeded), and seeded feed-forward
    W_1 (d_model × 2·d_model), W_2. Returns (dict of matrices, dict saying which are seeded).

    Parameters
    ----------
    example : Example
    seed : int, default FFN_SEED
        The seed of the drawn matrices.

    Returns
    -------
    tuple of dict
        ({name: matrix}, {name: whether it was drawn}).

    Examples
    --------
    >>> from attention_core import PRESETS
    >>> W, seeded = encoder_weights(PRESETS["zao-shang-hao"])
    >>> W["W_1"].shape, seeded
    ((2, 4), {'W_o': False, 'W_1': True, 'W_2': True})
    """
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
    if example.block is not None:  # the trained layer's own feed-forward
        W_1, W_2 = example.block.W_1, example.block.W_2
        seeded.update(W_1=False, W_2=False)
    return {"W_q": W_q, "W_k": W_k, "W_v": W_v, "W_o": W_o, "W_1": W_1, "W_2": W_2}, seeded


def encoder_biases(example: Example) -> dict[str, FloatArray | None]:
    """The example's attention biases in the split form :func:`encoder_weights` uses: b_q, b_k,
    b_v (H·d_k,) or None each, and b_o only when the block uses the example's own W_o."""
    w = example.weights
    out = {"b_q": w.b_q, "b_k": w.b_k, "b_v": w.b_v}
    if w.form == "independent":
        out = {k: None if b is None else np.concatenate(list(b)) for k, b in out.items()}
    ok_o = w.W_o is not None and w.W_o.shape[1] == example.d_model
    out["b_o"] = w.b_o if ok_o else None
    return out


def trace_encoder(example: Example, seed: int = FFN_SEED) -> EncoderTrace:
    """One post-norm encoder block over the example's (query) sequence: :class:`EncoderTrace`
    (the model's own block, GELU, for an example with a ``block``).

    Parameters
    ----------
    example : Example
    seed : int, default FFN_SEED
        The seed of the drawn matrices.

    Returns
    -------
    EncoderTrace

    Examples
    --------
    >>> from attention_core import PRESETS
    >>> t = trace_encoder(PRESETS["zao-shang-hao"])
    >>> t.output.shape, t.activation
    ((3, 2), 'relu')
    """
    W, _ = encoder_weights(example, seed)
    X = trace_example(example).X
    mask = None if example.is_cross else example.mask_matrix
    b = example.block
    own: dict[str, Any] = {}  # a trained layer's: its LayerNorms' γ, β, ε, its biases, GELU
    if b is not None:
        own = dict(gamma1=b.gamma_1, gamma2=b.gamma_2, eps=b.eps, beta1=b.beta_1)
        own.update(beta2=b.beta_2, b_1=b.b_1, b_2=b.b_2, activation="gelu")
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
        **cast(dict[str, Any], encoder_biases(example)),  # b_q, b_k, b_v, b_o
        **own,
    )
