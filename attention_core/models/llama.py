"""A Llama-family decoder's forward pass in NumPy (float64), every intermediate kept.

The model of SmolLM2 (and of Llama in general, Touvron et al., 2023), pre-norm, no biases:

    H = word[ids]                                                    the token embeddings
    for each layer ℓ, with input H:
        X  = RMSNorm(H) · g_attn                      the attention input (what a scene shows)
        A  = grouped-query attention of X: H_q query heads over H_kv shared key/value heads,
             Q and K turned by their positions (RoPE), causal mask, softmax(Q Kᵀ/√d_k) V, W_O
        H' = H + A                                                   residual
        F  = (SiLU(N W_gate) ⊙ (N W_up)) W_down,  N = RMSNorm(H') · g_ffn          SwiGLU
        H  = H' + F                                                  the layer's output
    logits = RMSNorm(H) · g_out  Eᵀ                 (tied to the embeddings when there is no
                                                      separate output matrix, as in SmolLM2)

    RMSNorm(x) = x / √(mean(x²) + ε)

Each layer's attention is the core's own :func:`attention_core.grouped_query_attention`, so an
example file made from a layer shows the numbers this pass computed. Weights are read as PyTorch
stores them, (out, in), under GGUF's tensor names (``blk.{i}.attn_q.weight`` …), query and key
rows in transformers' order (:func:`attention_core.models.gguf_weights.unpermute_rotary_rows`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from ..grouped_query import GroupedQueryTrace, grouped_query_attention
from ..masks import causal_mask
from . import one_blas_thread


@dataclass(frozen=True)
class LlamaConfig:
    """The sizes of a Llama decoder (from a GGUF file's ``llama.*`` metadata)."""

    hidden_size: int = 576
    num_hidden_layers: int = 30
    num_attention_heads: int = 9
    num_key_value_heads: int = 3
    intermediate_size: int = 1536
    rms_norm_eps: float = 1e-5
    rope_theta: float = 100000.0
    vocab_size: int = 49152
    max_position_embeddings: int = 8192

    @classmethod
    def from_gguf_metadata(cls, meta: Mapping) -> LlamaConfig:
        """From a GGUF file's metadata; a file of another architecture is refused."""
        arch = meta.get("general.architecture")
        if arch != "llama":
            raise ValueError(f"model: architecture {arch!r} is not 'llama'")
        keys = {
            "hidden_size": "llama.embedding_length",
            "num_hidden_layers": "llama.block_count",
            "num_attention_heads": "llama.attention.head_count",
            "num_key_value_heads": "llama.attention.head_count_kv",
            "intermediate_size": "llama.feed_forward_length",
            "rms_norm_eps": "llama.attention.layer_norm_rms_epsilon",
            "rope_theta": "llama.rope.freq_base",
            "vocab_size": "llama.vocab_size",
            "max_position_embeddings": "llama.context_length",
        }
        fields = {f: meta[k] for f, k in keys.items() if k in meta}
        config = cls(**fields)
        h, kv, d = config.num_attention_heads, config.num_key_value_heads, config.hidden_size
        if d % h or h % kv or (d // h) % 2:
            raise ValueError(f"model: {d} dims, {h} heads, {kv} key/value heads do not fit")
        rope_dims = meta.get("llama.rope.dimension_count", config.head_dim)
        if rope_dims != config.head_dim:
            raise ValueError("model: only rotary embeddings over the whole head are supported")
        return config

    @property
    def head_dim(self) -> int:
        """d_k = d_v of each head."""
        return self.hidden_size // self.num_attention_heads

    @property
    def group_size(self) -> int:
        """Query heads per key/value head."""
        return self.num_attention_heads // self.num_key_value_heads


# A source of stored tensors: name (GGUF's) → array (out, in); ``rows`` picks rows only.
TensorSource = Callable[..., np.ndarray]


class LlamaWeights:
    """A checkpoint's tensors under GGUF names, fetched when needed (float64, row-vector form).

    ``source(name, rows=None)`` returns the stored (out, in) array, query and key matrices already
    in transformers' row order. Nothing is kept: a layer's matrices are dequantized when the
    forward pass reaches it, so a 30-layer model runs in little memory.
    """

    def __init__(self, config: LlamaConfig, source: TensorSource) -> None:
        self.config = config
        self._source = source

    def _get(
        self, name: str, shape: tuple[int, ...], rows: Sequence[int] | None = None
    ) -> np.ndarray:
        arr = np.asarray(self._source(name, rows=rows), dtype=np.float64)
        want = shape if rows is None else (len(rows), *shape[1:])
        if arr.shape != want:
            raise ValueError(f"weights: {name} has shape {arr.shape}, not {want}")
        return arr

    def embeddings(self, token_ids: Iterable[int]) -> np.ndarray:
        """The token embeddings of ``token_ids``: (n, d), only those rows read."""
        c = self.config
        return self._get("token_embd.weight", (c.vocab_size, c.hidden_size), rows=list(token_ids))

    def norm(self, layer: int | None, which: str = "attn") -> np.ndarray:
        """RMSNorm gain (d,): layer ``layer``'s (from 1) "attn" or "ffn" one; None: the final."""
        name = "output_norm.weight" if layer is None else f"blk.{layer - 1}.{which}_norm.weight"
        return self._get(name, (self.config.hidden_size,))

    def attention(self, layer: int) -> dict[str, np.ndarray]:
        """Layer ``layer``'s (from 1) W_q (d, H·d_k), W_k, W_v (d, G·d_k), W_o (H·d_k, d)."""
        c = self.config
        d, kv = c.hidden_size, c.num_key_value_heads * c.head_dim
        p = f"blk.{layer - 1}."
        return {
            "W_q": self._get(p + "attn_q.weight", (d, d)).T,
            "W_k": self._get(p + "attn_k.weight", (kv, d)).T,
            "W_v": self._get(p + "attn_v.weight", (kv, d)).T,
            "W_o": self._get(p + "attn_output.weight", (d, d)).T,
        }

    def mlp(self, layer: int) -> dict[str, np.ndarray]:
        """Layer ``layer``'s W_gate, W_up (d, d_ff) and W_down (d_ff, d), row form."""
        c = self.config
        d, ff = c.hidden_size, c.intermediate_size
        p = f"blk.{layer - 1}."
        return {
            "W_gate": self._get(p + "ffn_gate.weight", (ff, d)).T,
            "W_up": self._get(p + "ffn_up.weight", (ff, d)).T,
            "W_down": self._get(p + "ffn_down.weight", (d, ff)).T,
        }

    def output_matrix(self) -> np.ndarray:
        """Eᵀ-like (d, vocab): ``output.weight`` if stored, else the tied embeddings."""
        c = self.config
        name = "output.weight"
        try:
            W = self._get(name, (c.vocab_size, c.hidden_size))
        except (KeyError, ValueError):
            W = self._get("token_embd.weight", (c.vocab_size, c.hidden_size))
        return W.T


def rms_norm(x: ArrayLike, gain: ArrayLike | None = None, eps: float = 1e-5) -> np.ndarray:
    """x / √(mean(x²) + ε) row by row, times the gain (d,) if given."""
    x = np.asarray(x, dtype=np.float64)
    out = x / np.sqrt(np.mean(x * x, axis=-1, keepdims=True) + eps)
    return out if gain is None else out * np.asarray(gain, dtype=np.float64)


def silu(x: ArrayLike) -> np.ndarray:
    """x · σ(x), elementwise (written to stay finite for large |x|)."""
    x = np.asarray(x, dtype=np.float64)
    return x * np.exp(-np.logaddexp(0.0, -x))


def swiglu(
    x: np.ndarray, W_gate: np.ndarray, W_up: np.ndarray, W_down: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(SiLU(x W_gate) ⊙ x W_up) W_down; returns (gate x W_gate, the product, output)."""
    gate = x @ W_gate  # (n, d_ff)
    hidden = silu(gate) * (x @ W_up)  # (n, d_ff)
    return gate, hidden, hidden @ W_down  # (n, d)


@dataclass(frozen=True, eq=False)
class LlamaLayerTrace:
    """One decoder layer, every step (n tokens, d = hidden size)."""

    input: np.ndarray  # (n, d): the residual stream entering the layer
    attention_input: np.ndarray  # (n, d): RMSNorm(input) · g_attn, what the heads read
    attention: GroupedQueryTrace  # per head rotated Q, K, V, weights (n, n); output = A
    residual: np.ndarray  # (n, d): input + A
    mlp_input: np.ndarray  # (n, d): RMSNorm(residual) · g_ffn
    gate: np.ndarray  # (n, d_ff): before SiLU
    mlp_hidden: np.ndarray  # (n, d_ff): SiLU(gate) ⊙ up
    output: np.ndarray  # (n, d): residual + F

    @property
    def weights(self) -> np.ndarray:
        """The attention probabilities of every query head, (H, n, n)."""
        return np.stack([h.weights for h in self.attention.heads])


@dataclass(frozen=True, eq=False)
class LlamaTrace:
    """The forward pass: ``hidden_states[0]`` the embeddings, ``hidden_states[ℓ]`` layer ℓ's output
    (as transformers' ``output_hidden_states``, except that transformers' last one is normed),
    ``layers[ℓ − 1]`` its steps; ``logits`` (n, vocab) only when asked for."""

    token_ids: np.ndarray  # (n,)
    hidden_states: tuple[np.ndarray, ...]
    layers: tuple[LlamaLayerTrace, ...]
    final_norm: np.ndarray | None = None  # (n, d)
    logits: np.ndarray | None = None

    def layer_input(self, layer: int) -> np.ndarray:
        """The residual stream entering ``layer`` (from 1), (n, d)."""
        return self.layers[layer - 1].input

    def attention_input(self, layer: int) -> np.ndarray:
        """What ``layer``'s (from 1) heads read: RMSNorm of its input, (n, d)."""
        return self.layers[layer - 1].attention_input


def _check_ids(token_ids: ArrayLike, config: LlamaConfig) -> np.ndarray:
    ids = np.asarray(token_ids)
    if ids.ndim != 1 or ids.size == 0 or not np.issubdtype(ids.dtype, np.integer):
        raise ValueError(f"token_ids: expected a non-empty list of integers, got {token_ids!r}")
    if ids.size > config.max_position_embeddings:
        raise ValueError(f"token_ids: {ids.size} tokens; at most {config.max_position_embeddings}")
    if ids.min() < 0 or ids.max() >= config.vocab_size:
        raise ValueError(f"token_ids: every id must lie in 0 … {config.vocab_size - 1}")
    return ids


def llama_layer(weights: LlamaWeights, layer: int, H: np.ndarray) -> LlamaLayerTrace:
    """Run decoder layer ``layer`` (from 1) on the residual stream ``H`` (n, d)."""
    c = weights.config
    n = H.shape[0]
    X = rms_norm(H, weights.norm(layer, "attn"), c.rms_norm_eps)  # (n, d)
    a = weights.attention(layer)
    att = grouped_query_attention(
        X, a["W_q"], a["W_k"], a["W_v"], a["W_o"], c.num_attention_heads,
        c.num_key_value_heads, causal_mask(n), rotary_base=c.rope_theta,
    )  # fmt: skip
    H1 = H + att.output  # (n, d)
    N = rms_norm(H1, weights.norm(layer, "ffn"), c.rms_norm_eps)
    m = weights.mlp(layer)
    gate, hidden, down = swiglu(N, m["W_gate"], m["W_up"], m["W_down"])
    return LlamaLayerTrace(H, X, att, H1, N, gate, hidden, H1 + down)


@one_blas_thread
def llama_forward(
    weights: LlamaWeights, token_ids: ArrayLike, *, upto: int | None = None, logits: bool = False
) -> LlamaTrace:
    """Run the decoder over one sequence of token ids (no BOS is added), keeping every step.

    ``upto`` stops after that layer (from 1; layers after it are not read, which is what
    ``from-model`` needs for one layer); ``logits`` also computes the final norm and the logits.
    """
    c = weights.config
    ids = _check_ids(token_ids, c)
    last = c.num_hidden_layers if upto is None else upto
    if isinstance(last, bool) or not isinstance(last, int) or not 1 <= last <= c.num_hidden_layers:
        raise ValueError(f"upto: {upto!r} is outside 1 … {c.num_hidden_layers}")
    H = weights.embeddings(ids)  # (n, d)
    hidden, layers = [H], []
    for layer in range(1, last + 1):
        t = llama_layer(weights, layer, H)
        layers.append(t)
        H = t.output
        hidden.append(H)
    final = out = None
    if logits:
        final = rms_norm(H, weights.norm(None), c.rms_norm_eps)
        out = final @ weights.output_matrix()
    return LlamaTrace(ids.copy(), tuple(hidden), tuple(layers), final, out)
