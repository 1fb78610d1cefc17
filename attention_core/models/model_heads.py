"""Every head of a real model on one text, in one forward pass: what ``attn-explain heads`` reads.

:func:`model_heads` runs all-MiniLM-L6-v2 (``"minilm"``) or SmolLM2-135M-Instruct
(``"smollm2"``) once and keeps each layer's attention weights (H, n, n), the tokens' readable
labels and their character spans in the text (for :mod:`attention_core.readings.head_search`), and
what a weight moves needs (:mod:`attention_core.readings.moved`): each layer's value vectors
(stacked, (G, n, d_head) a layer) and W_O (the array the pass used, kept, not copied). Up to
:data:`MAX_SEARCH_TOKENS` tokens: only numbers come out, no scene, so the limit is wider than an
example's.

The pass multiplies at most 64 rows at a time, where BLAS threads only wait on one another: it
runs on one BLAS thread (``threadpoolctl``), 26 s → 5.4 s for SmolLM2 on 12 tokens on a busy
2-core machine (BENCHMARKS.md).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..example.validation import listed
from ..multihead import MultiHeadTrace
from .from_model import MODELS, _label
from .model_example import check_model_text

MAX_SEARCH_TOKENS = 64


@dataclass(frozen=True, eq=False)
class ModelHeads:
    """``labels`` (one per token), ``spans`` (each token's (start, end) in ``text``),
    ``layers`` (one (H, n, n) array of weights per layer), ``causal`` (a decoder's mask);
    ``values`` (per layer the value vectors, (G, n, d_head): one per key/value head, G = H
    without grouping, biases included) and ``out`` (per layer W_O in row form, (H·d_head, d))."""

    model: str
    text: str
    labels: tuple[str, ...]
    spans: tuple[tuple[int, int], ...]
    layers: tuple[np.ndarray, ...]
    causal: bool
    values: tuple[np.ndarray, ...] = ()
    out: tuple[np.ndarray, ...] = ()

    def head_values(self, layer: int, head: int) -> tuple[np.ndarray, np.ndarray]:
        """Layer ``layer``'s head ``head`` (both from 0): its value vectors (n, d_head) (with
        grouped key/value heads, its group's) and its rows of W_O (d_head, d)."""
        V = self.values[layer]
        H = self.layers[layer].shape[0]
        d = V.shape[2]
        return V[head // (H // V.shape[0])], self.out[layer][head * d : (head + 1) * d]


def _w_o(attention: MultiHeadTrace) -> np.ndarray:
    """A model layer's W_O (a trained model's attention always has one)."""
    assert attention.W_o is not None
    return attention.W_o


def _check_count(n: int, extra: str = "") -> None:
    if n > MAX_SEARCH_TOKENS:
        raise ValueError(
            f"TEXT: {n} tokens{extra}; at most {MAX_SEARCH_TOKENS} are supported, so shorten it"
        )


def model_heads(text: str, model: str = "minilm") -> ModelHeads:
    """Run ``model`` on ``text`` once; ``ValueError`` (one line naming TEXT or --model) for an
    empty text, one holding control, bidirectional or invisible characters (the check
    ``from-model`` makes: :func:`~.model_example.check_model_text`), words MiniLM's vocabulary
    lacks, or more than 64 tokens."""
    if model not in MODELS:
        raise ValueError(f"--model: {model!r} is not one of {', '.join(MODELS)}")
    check_model_text(text)
    from threadpoolctl import threadpool_limits

    with threadpool_limits(limits=1, user_api="blas"):
        return _smollm2(text) if model == "smollm2" else _minilm(text)


def _minilm(text: str) -> ModelHeads:
    from . import minilm_files as model_files
    from .bert import bert_forward

    toks = model_files.tokenize(text)
    if toks.unknown:
        words = listed(dict.fromkeys(toks.unknown))
        raise ValueError(
            f"TEXT: the model's vocabulary lacks {words} (they would become [UNK]); use other words"
        )
    _check_count(len(toks.ids), " with [CLS] and [SEP]")
    trace = bert_forward(model_files.load_weights(), toks.ids)
    layers = tuple(layer.weights for layer in trace.layers)
    values = tuple(np.stack([h.V for h in ly.attention.heads]) for ly in trace.layers)
    out = tuple(_w_o(ly.attention) for ly in trace.layers)
    labels = tuple(_label(t) for t in toks.tokens)
    return ModelHeads("minilm", text, labels, toks.offsets, layers, False, values, out)


def _smollm2(text: str) -> ModelHeads:
    from . import smollm2_files as sf
    from .from_decoder import _labels
    from .llama import llama_forward

    toks = sf.tokenize(text)
    _check_count(len(toks.ids))
    trace = llama_forward(sf.load_weights(), toks.ids)
    layers = tuple(layer.weights for layer in trace.layers)
    values = tuple(np.stack(ly.attention.V_shared) for ly in trace.layers)
    out = tuple(_w_o(ly.attention) for ly in trace.layers)
    labels = tuple(_labels(toks.tokens))
    return ModelHeads("smollm2", text, labels, toks.offsets, layers, True, values, out)
