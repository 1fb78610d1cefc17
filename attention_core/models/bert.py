"""A BERT encoder's forward pass in NumPy (float64), every intermediate kept.

The model of all-MiniLM-L6-v2 (and of BERT in general, Devlin et al., 2019), post-norm:

    E = LayerNorm(word[ids] + position[0 … n−1] + token_type[types])          the embeddings
    for each layer ℓ, with input H:
        head h:  Q_h = H W_q[:, h] + b_q[h]   K_h, V_h alike               (columns h·d_k …)
                 A_h = softmax(Q_h K_hᵀ / √d_k)            the attention probabilities
                 C_h = A_h V_h                               the head's context
        C = Concat(C_1 … C_H)                                (transformers' "context layer")
        H' = LayerNorm(H + C W_O + b_O)                       attention output, residual, norm
        F  = GELU(H' W_1 + b_1) W_2 + b_2                     GELU in its erf form
        H  = LayerNorm(H' + F)                                the layer's output

Each head's attention is the core's own :func:`attention_core.multi_head_attention` with biases,
so the numbers an example file made from a layer shows are the numbers this pass computed.
Weights are read as PyTorch stores them, ``(out, in)``; row vectors use their transpose.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from ..encoder import gelu, layer_norm  # gelu: the block's own, named here too
from ..multihead import MultiHeadTrace, multi_head_attention
from . import one_blas_thread


@dataclass(frozen=True)
class BertConfig:
    """The sizes of a BERT encoder (the fields of its ``config.json`` this pass uses).

    Attributes
    ----------
    hidden_size, num_hidden_layers, num_attention_heads, intermediate_size : int
        d, the layers L, the heads H (d_k = d / H: :attr:`head_dim`) and d_ff.
    layer_norm_eps : float
        The LayerNorms' ε.
    vocab_size, max_position_embeddings, type_vocab_size : int
        The rows of the three embedding tables.
    hidden_act : str
        "gelu" (the erf form), the only one supported.

    Examples
    --------
    >>> c = BertConfig(hidden_size=4, num_hidden_layers=1, num_attention_heads=2,
    ...                intermediate_size=8, vocab_size=10, max_position_embeddings=8)
    >>> c.head_dim, len(c.shapes()), c.shapes()["encoder.layer.0.intermediate.dense.weight"]
    (2, 21, (8, 4))
    """

    hidden_size: int = 384
    num_hidden_layers: int = 6
    num_attention_heads: int = 12
    intermediate_size: int = 1536
    layer_norm_eps: float = 1e-12
    vocab_size: int = 30522
    max_position_embeddings: int = 512
    type_vocab_size: int = 2
    hidden_act: str = "gelu"

    @classmethod
    def from_dict(cls, data: Mapping) -> BertConfig:
        """From a parsed ``config.json``; unknown keys are ignored, a non-BERT model refused."""
        if data.get("model_type", "bert") != "bert":
            raise ValueError(f"config: model_type {data.get('model_type')!r} is not 'bert'")
        if data.get("position_embedding_type", "absolute") != "absolute":
            raise ValueError("config: only absolute position embeddings are supported")
        fields = {k: data[k] for k in cls.__dataclass_fields__ if k in data}
        config = cls(**fields)
        if config.hidden_act != "gelu":
            raise ValueError(f"config: hidden_act {config.hidden_act!r}; only 'gelu' (erf form)")
        if config.hidden_size % config.num_attention_heads:
            raise ValueError("config: hidden_size does not divide by num_attention_heads")
        return config

    @property
    def head_dim(self) -> int:
        """d_k = d_v of each head."""
        return self.hidden_size // self.num_attention_heads

    def shapes(self) -> dict[str, tuple[int, ...]]:
        """Every tensor a checkpoint of these sizes holds, by name, and its shape (as stored:
        a linear layer's weight is (out, in))."""
        d, ff = self.hidden_size, self.intermediate_size
        want = {
            "embeddings.word_embeddings.weight": (self.vocab_size, d),
            "embeddings.position_embeddings.weight": (self.max_position_embeddings, d),
            "embeddings.token_type_embeddings.weight": (self.type_vocab_size, d),
            "embeddings.LayerNorm.weight": (d,),
            "embeddings.LayerNorm.bias": (d,),
        }
        for i in range(self.num_hidden_layers):
            p = f"encoder.layer.{i}."
            for role in ("query", "key", "value"):
                want[p + f"attention.self.{role}.weight"] = (d, d)
                want[p + f"attention.self.{role}.bias"] = (d,)
            want[p + "attention.output.dense.weight"] = (d, d)
            want[p + "attention.output.dense.bias"] = (d,)
            want[p + "attention.output.LayerNorm.weight"] = (d,)
            want[p + "attention.output.LayerNorm.bias"] = (d,)
            want[p + "intermediate.dense.weight"] = (ff, d)
            want[p + "intermediate.dense.bias"] = (ff,)
            want[p + "output.dense.weight"] = (d, ff)
            want[p + "output.dense.bias"] = (d,)
            want[p + "output.LayerNorm.weight"] = (d,)
            want[p + "output.LayerNorm.bias"] = (d,)
        return want


@dataclass(frozen=True, eq=False)
class BertLayerTrace:
    """One encoder layer, every step (n tokens, d = hidden size, H heads, d_ff)."""

    input: np.ndarray  # (n, d): the hidden states entering the layer
    attention: MultiHeadTrace  # per head Q, K, V (n, d_k), weights (n, n), output = context
    context: np.ndarray  # (n, d): the heads' contexts side by side
    attention_dense: np.ndarray  # (n, d): C W_O + b_O
    attention_output: np.ndarray  # (n, d): LayerNorm(input + C W_O + b_O)
    intermediate: np.ndarray  # (n, d_ff): GELU(H' W_1 + b_1)
    output: np.ndarray  # (n, d): LayerNorm(H' + F)

    @property
    def weights(self) -> np.ndarray:
        """The attention probabilities of every head, (H, n, n)."""
        return np.stack([h.weights for h in self.attention.heads])


@dataclass(frozen=True, eq=False)
class BertTrace:
    """The whole forward pass: ``hidden_states[0]`` the embeddings output, ``hidden_states[ℓ]``
    layer ℓ's output (as transformers' ``output_hidden_states``), ``layers[ℓ − 1]`` its steps.

    Attributes
    ----------
    token_ids : ndarray
        (n,) the ids run.
    embedding_sum : ndarray
        (n, d) word + position + token type, before the embeddings' LayerNorm.
    hidden_states : tuple of ndarray
        L + 1 arrays (n, d).
    layers : tuple of BertLayerTrace
        Each layer's steps: its input, per-head attention, context, feed-forward, output.

    Examples
    --------
    >>> c = BertConfig(hidden_size=4, num_hidden_layers=1, num_attention_heads=2,
    ...                intermediate_size=8, vocab_size=10, max_position_embeddings=8)
    >>> rng = np.random.default_rng(0)
    >>> w = BertWeights({k: rng.normal(size=s) for k, s in c.shapes().items()}, c)
    >>> t = bert_forward(w, [1, 5, 2])
    >>> len(t.hidden_states), t.layers[0].weights.shape, t.layer_input(1) is t.hidden_states[0]
    (2, (2, 3, 3), True)
    """

    token_ids: np.ndarray  # (n,)
    embedding_sum: np.ndarray  # (n, d): word + position + token type, before the LayerNorm
    hidden_states: tuple[np.ndarray, ...]  # L + 1 arrays (n, d)
    layers: tuple[BertLayerTrace, ...]

    def layer_input(self, layer: int) -> np.ndarray:
        """The hidden states entering ``layer`` (counted from 1), (n, d)."""
        return self.layers[layer - 1].input


class BertWeights:
    """A checkpoint's tensors by name (``encoder.layer.0.attention.self.query.weight`` …),
    float64, shapes checked against a :class:`BertConfig`. A ``bert.`` prefix is dropped.

    Parameters
    ----------
    tensors : mapping of str to array_like
        Every tensor of :meth:`BertConfig.shapes` (others are kept, unused).
    config : BertConfig
        The sizes; a missing tensor or a wrong shape is a ValueError naming it.

    Examples
    --------
    >>> c = BertConfig(hidden_size=4, num_hidden_layers=1, num_attention_heads=2,
    ...                intermediate_size=8, vocab_size=10, max_position_embeddings=8)
    >>> rng = np.random.default_rng(0)
    >>> w = BertWeights({k: rng.normal(size=s) for k, s in c.shapes().items()}, c)
    >>> w.head(1, 2)["W_q"].shape, w.attention(1)["W_o"].shape
    ((4, 2), (4, 4))
    """

    def __init__(self, tensors: Mapping[str, np.ndarray], config: BertConfig) -> None:
        self.config = config
        self._t = {
            (k[5:] if k.startswith("bert.") else k): np.asarray(v, dtype=np.float64)
            for k, v in tensors.items()
        }
        want = config.shapes()
        for name, shape in want.items():
            if name not in self._t:
                raise ValueError(f"weights: {name} is missing from the checkpoint")
            if self._t[name].shape != shape:
                raise ValueError(f"weights: {name} has shape {self._t[name].shape}, not {shape}")

    def __getitem__(self, name: str) -> np.ndarray:
        return self._t[name]

    def dense(self, name: str) -> tuple[np.ndarray, np.ndarray]:
        """(W, b) of a linear layer for row vectors: W (in, out) = the stored (out, in) ᵀ."""
        return self._t[name + ".weight"].T, self._t[name + ".bias"]

    def attention(self, layer: int) -> dict[str, np.ndarray]:
        """Layer ``layer``'s (from 1) W_q, W_k, W_v, W_o (d, d) and b_q … b_o (d,), row form."""
        p = f"encoder.layer.{layer - 1}.attention."
        out = {}
        for key, name in (("q", "self.query"), ("k", "self.key"), ("v", "self.value")):
            out[f"W_{key}"], out[f"b_{key}"] = self.dense(p + name)
        out["W_o"], out["b_o"] = self.dense(p + "output.dense")
        return out

    def head(self, layer: int, head: int) -> dict[str, np.ndarray]:
        """Head ``head`` (from 1) of ``layer`` (from 1): W_q, W_k, W_v (d, d_k), b_q … (d_k,)."""
        dk = self.config.head_dim
        cols = slice((head - 1) * dk, head * dk)
        full = self.attention(layer)
        out = {}
        for key in "qkv":
            out[f"W_{key}"] = full[f"W_{key}"][:, cols]  # (d, d_k)
            out[f"b_{key}"] = full[f"b_{key}"][cols]  # (d_k,)
        return out


@one_blas_thread
def bert_forward(
    weights: BertWeights, token_ids: ArrayLike, token_type_ids: ArrayLike | None = None
) -> BertTrace:
    """Run the encoder over one sequence of token ids (no padding), keeping every step.

    Parameters
    ----------
    weights : BertWeights
        The checkpoint and its config.
    token_ids : sequence of int
        The ids, [CLS] … [SEP] included, at most ``max_position_embeddings`` of them.
    token_type_ids : sequence of int, optional
        Segment ids (default: all 0, one sentence).

    Returns
    -------
    BertTrace
        The embeddings, every layer's input and output hidden states and attention steps.

    Examples
    --------
    >>> c = BertConfig(hidden_size=4, num_hidden_layers=2, num_attention_heads=2,
    ...                intermediate_size=8, vocab_size=10, max_position_embeddings=8)
    >>> rng = np.random.default_rng(1)
    >>> w = BertWeights({k: rng.normal(size=s) for k, s in c.shapes().items()}, c)
    >>> t = bert_forward(w, [1, 5, 7, 2])
    >>> [h.shape for h in t.hidden_states], t.layers[1].weights.sum(axis=-1).round(6).tolist()[0]
    ([(4, 4), (4, 4), (4, 4)], [1.0, 1.0, 1.0, 1.0])
    """
    c = weights.config
    ids, types = _check_ids(c, token_ids, token_type_ids)
    n = ids.size
    emb = (
        weights["embeddings.word_embeddings.weight"][ids]  # (n, d)
        + weights["embeddings.position_embeddings.weight"][:n]  # (n, d)
        + weights["embeddings.token_type_embeddings.weight"][types]  # (n, d)
    )
    H = layer_norm(
        emb,
        weights["embeddings.LayerNorm.weight"],
        weights["embeddings.LayerNorm.bias"],
        c.layer_norm_eps,
    )
    hidden, layers = [H], []
    for layer in range(1, c.num_hidden_layers + 1):
        trace = _bert_layer(weights, layer, H)
        layers.append(trace)
        H = trace.output
        hidden.append(H)
    return BertTrace(ids.copy(), emb, tuple(hidden), tuple(layers))


def _check_ids(
    c: BertConfig, token_ids: ArrayLike, token_type_ids: ArrayLike | None
) -> tuple[np.ndarray, np.ndarray]:
    """The token ids and segment ids as arrays, each within its vocabulary."""
    ids = np.asarray(token_ids)
    if ids.ndim != 1 or ids.size == 0 or not np.issubdtype(ids.dtype, np.integer):
        raise ValueError(f"token_ids: expected a non-empty list of integers, got {token_ids!r}")
    n = ids.size
    if n > c.max_position_embeddings:
        raise ValueError(f"token_ids: {n} tokens; at most {c.max_position_embeddings}")
    if ids.min() < 0 or ids.max() >= c.vocab_size:
        raise ValueError(f"token_ids: every id must lie in 0 … {c.vocab_size - 1}")
    types = np.zeros(n, dtype=int) if token_type_ids is None else np.asarray(token_type_ids)
    if types.shape != (n,) or types.min() < 0 or types.max() >= c.type_vocab_size:
        raise ValueError(f"token_type_ids: expected {n} ids in 0 … {c.type_vocab_size - 1}")
    return ids, types


def _bert_layer(weights: BertWeights, layer: int, H: np.ndarray) -> BertLayerTrace:
    """Layer ``layer`` (1-based) over the hidden states ``H``: attention, add & norm,
    feed-forward, add & norm."""
    c = weights.config
    eps = c.layer_norm_eps
    p = f"encoder.layer.{layer - 1}."
    a = weights.attention(layer)
    att = multi_head_attention(
        H, a["W_q"], a["W_k"], a["W_v"], a["W_o"], c.num_attention_heads,
        b_q=a["b_q"], b_k=a["b_k"], b_v=a["b_v"], b_o=a["b_o"],
    )  # fmt: skip
    context = att.concat  # (n, d): softmax(Q_h K_hᵀ/√d_k) V_h, heads side by side
    dense = att.output  # (n, d): context W_O + b_O
    H1 = layer_norm(  # (n, d): post-norm residual
        H + dense,
        weights[p + "attention.output.LayerNorm.weight"],
        weights[p + "attention.output.LayerNorm.bias"],
        eps,
    )
    W_1, b_1 = weights.dense(p + "intermediate.dense")
    W_2, b_2 = weights.dense(p + "output.dense")
    inter = gelu(H1 @ W_1 + b_1)  # (n, d_ff)
    out = layer_norm(  # (n, d)
        H1 + inter @ W_2 + b_2,
        weights[p + "output.LayerNorm.weight"],
        weights[p + "output.LayerNorm.bias"],
        eps,
    )
    return BertLayerTrace(H, att, context, dense, H1, inter, out)
