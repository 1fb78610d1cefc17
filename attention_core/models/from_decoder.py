"""A head (or a layer's heads) of SmolLM2-135M-Instruct as an ordinary example: what
``attn-explain from-model TEXT --model smollm2`` writes.

:func:`decoder_example` runs the decoder (:mod:`attention_core.models.llama`) on the text up to the
layer asked for and returns the example's fields: readable token labels (byte pieces of one
character numbered, :mod:`attention_core.models.token_labels`), the layer's attention input — the
residual stream after the layer's RMSNorm, what its heads read — as the embeddings (n × 576), the
query head's W_q (576 × 64) and the W_k, W_v of the key/value head it shares, the rotary base
and positions (the example's trace turns Q and K as the model does), the causal mask and a
``source`` note. With ``all_heads``: all 9 query heads' W_q (576 × 576), the 3 key/value heads'
W_k, W_v (576 × 192), W_O (576 × 576), ``heads = 9``, ``kv_heads = 3``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from ..example.model import MAX_LABEL, MAX_TITLE, MAX_TOKENS
from .model_example import ModelExample, check_model_text
from .token_labels import byte_level_labels

LAYERS = 30
HEADS = 9


def _check_request(text: object, layer: object, head: object, all_heads: bool) -> None:
    if isinstance(layer, bool) or not isinstance(layer, int) or not 1 <= layer <= LAYERS:
        raise ValueError(f"--layer: {layer!r} is outside 1 … {LAYERS} (counted from 1)")
    if not all_heads and (
        isinstance(head, bool) or not isinstance(head, int) or not 1 <= head <= HEADS
    ):
        raise ValueError(f"--head: {head!r} is outside 1 … {HEADS} (counted from 1)")
    check_model_text(text)


def _labels(tokens: Iterable[str]) -> list[str]:
    """Readable labels of at most 12 characters (longer ones end in '…')."""
    out = []
    for label in byte_level_labels(tokens):
        out.append(label if len(label) <= MAX_LABEL else label[: MAX_LABEL - 1] + "…")
    return out


def decoder_example(
    text: str, layer: int, head: int | None = None, all_heads: bool = False
) -> ModelExample:
    """Run SmolLM2-135M-Instruct on ``text``; take layer ``layer``'s query head ``head`` (both
    from 1) with its shared key/value head, or every head with ``all_heads``.

    Raises ``ValueError`` (one line each) for a layer outside 1 … 30, a head outside 1 … 9, more
    than MAX_TOKENS (24) tokens, an empty text, or a missing model file or ``[model]`` extra.
    """
    from . import smollm2_files as sf
    from .model_residual import decoder_trace

    _check_request(text, layer, head, all_heads)
    toks = sf.tokenize(text)
    if len(toks.ids) > MAX_TOKENS:
        raise ValueError(
            f"TEXT: {len(toks.ids)} tokens; at most {MAX_TOKENS} are supported, so shorten the "
            "sentence"
        )
    weights = sf.load_weights()
    config = weights.config
    trace = decoder_trace(text, layer)[1]  # cached: a reading of what the head moved reuses it
    a = weights.attention(layer)  # W_q (576, 576), W_k, W_v (576, 192), W_o (576, 576)
    arrays = {"embeddings": trace.attention_input(layer)}  # (n, 576), float64
    d_k = config.head_dim
    fields: dict[str, Any] = {"heads": 1}
    if all_heads:
        arrays.update({k: a[k].astype(np.float32) for k in ("W_q", "W_k", "W_v", "W_o")})
        fields = {"heads": config.num_attention_heads, "kv_heads": config.num_key_value_heads}
        what = (
            f"layer {layer}, all {config.num_attention_heads} heads over "
            f"{config.num_key_value_heads} shared key/value heads, with W_O"
        )
    else:
        assert head is not None  # _check_request: a head is named unless all_heads
        g = (head - 1) // config.group_size  # the shared key/value head (from 0)
        q, kv = slice((head - 1) * d_k, head * d_k), slice(g * d_k, (g + 1) * d_k)
        arrays.update(
            {
                "W_q": a["W_q"][:, q].astype(np.float32),  # float32: the dequantized values
                "W_k": a["W_k"][:, kv].astype(np.float32),
                "W_v": a["W_v"][:, kv].astype(np.float32),
            }
        )
        what = (
            f"layer {layer}, head {head} (key/value head {g + 1} of {config.num_key_value_heads})"
        )
    n = len(toks.ids)
    fields.update(
        {
            "title": text if len(text) <= MAX_TITLE else text[: MAX_TITLE - 1] + "…",
            "source": f"{sf.MODEL_NAME} (Llama decoder, RoPE): {what}; embeddings are the "
            "layer's attention input (after its RMSNorm)",
            "tokens": _labels(toks.tokens),
            "model_text": text,  # the text, so a reading can run the model again (moved_vector)
            "mask": "causal",
            "rotary_base": float(config.rope_theta),
            "positions": list(range(n)),
        }
    )
    return ModelExample(fields, arrays)
