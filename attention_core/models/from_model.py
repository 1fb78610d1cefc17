"""A head (or a layer's heads) of a real model as an ordinary example file: TOML + .npz.

Two models: all-MiniLM-L6-v2 (BERT, the default, here) and SmolLM2-135M-Instruct (a Llama
decoder, ``model="smollm2"``, :mod:`attention_core.models.from_decoder`).

``model_example(text, layer, head)`` runs the model (:mod:`.bert`) on the text and
returns the example's fields: the tokens ([CLS] … [SEP]), that layer's input hidden states as the
embeddings (n × 384), the head's W_q, W_k, W_v slices (384 × 32) and biases, and a ``source``
note; with ``all_heads`` the layer's full split W_q … W_v, W_O and their biases, ``heads = 12``,
and its own feed-forward and LayerNorms (``[block]``: W_1, b_1, W_2, b_2, gamma_1 … beta_2, ε),
so the encoder block over it is the model's own layer.
:func:`write_example` writes it as ``NAME.toml`` with the arrays in ``NAME.npz`` beside it, both
atomically (temporary names, then renamed; the TOML last, so a reader never sees a half pair).
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from .._files import atomic_file
from ..example.file_format import toml_value
from ..example.model import MAX_LABEL, MAX_TITLE, MAX_TOKENS
from ..example.validation import listed
from .model_example import ModelExample, check_model_text

if TYPE_CHECKING:
    from .bert import BertWeights

LAYERS = 6
HEADS = 12
MODELS = ("minilm", "smollm2")


def slug(text: str) -> str:
    """A file stem for ``text``: lower-case words joined by '-' (``"model-example"`` if none)."""
    s = re.sub(r"[^\w]+", "-", text.lower(), flags=re.UNICODE).strip("-_")
    return s[:48].rstrip("-") or "model-example"


def _label(token: str) -> str:
    """A token string as an example label (at most 12 characters: longer ones end in '…')."""
    return token if len(token) <= MAX_LABEL else token[: MAX_LABEL - 1] + "…"


def model_example(
    text: str, layer: int, head: int | None = None, all_heads: bool = False, model: str = "minilm"
) -> ModelExample:
    """Run ``model`` ("minilm", "smollm2") on ``text``; take layer ``layer``'s head ``head``."""
    if model == "smollm2":
        from .from_decoder import decoder_example

        return decoder_example(text, layer, head, all_heads=all_heads)
    if model != "minilm":
        raise ValueError(f"--model: {model!r} is not one of {', '.join(MODELS)}")
    return minilm_example(text, layer, head, all_heads)


def minilm_example(
    text: str, layer: int, head: int | None = None, all_heads: bool = False
) -> ModelExample:
    """Run all-MiniLM-L6-v2 on ``text`` and take layer ``layer``'s head ``head`` (both from 1).

    Raises ``ValueError`` (one line each) for a layer outside 1 … 6, a head outside 1 … 12,
    words the vocabulary lacks ([UNK]), more than MAX_TOKENS (24) tokens, or a missing
    ``[model]`` extra.
    """
    from . import minilm_files as model_files
    from .bert import bert_forward

    if isinstance(layer, bool) or not isinstance(layer, int) or not 1 <= layer <= LAYERS:
        raise ValueError(f"--layer: {layer!r} is outside 1 … {LAYERS} (counted from 1)")
    if not all_heads and (
        isinstance(head, bool) or not isinstance(head, int) or not 1 <= head <= HEADS
    ):
        raise ValueError(f"--head: {head!r} is outside 1 … {HEADS} (counted from 1)")
    check_model_text(text)
    toks = model_files.tokenize(text)
    if toks.unknown:
        words = listed(dict.fromkeys(toks.unknown))
        raise ValueError(
            f"TEXT: the model's vocabulary lacks {words} (they would become [UNK]); use other words"
        )
    if len(toks.ids) > MAX_TOKENS:
        raise ValueError(
            f"TEXT: {len(toks.ids)} tokens with [CLS] and [SEP]; at most {MAX_TOKENS} are "
            "supported, so shorten the sentence"
        )
    weights = model_files.load_weights()
    trace = bert_forward(weights, toks.ids)
    X = trace.layer_input(layer)  # (n, 384): the hidden states entering the layer
    arrays = {"embeddings": X}
    if all_heads:
        a = weights.attention(layer)  # W_q … W_o (384, 384), b_q … b_o (384,)
        arrays.update({k: a[k].astype(np.float32) for k in a})  # float32: the model's own values
        arrays.update(layer_block(weights, layer))
        heads, what = HEADS, f"layer {layer}, all {HEADS} heads with W_O and its feed-forward"
    else:
        assert head is not None  # checked above: a head is named unless all_heads
        h = weights.head(layer, head)  # W_q, W_k, W_v (384, 32), b_q … (32,)
        arrays.update({k: h[k].astype(np.float32) for k in h})
        heads, what = 1, f"layer {layer}, head {head}"
    title = text if len(text) <= MAX_TITLE else text[: MAX_TITLE - 1] + "…"
    fields: dict[str, Any] = {
        "title": title,
        "source": f"{model_files.MODEL_NAME} (BERT, uncased): {what}; embeddings are the "
        f"layer's input hidden states",
        "tokens": [_label(t) for t in toks.tokens],
        "heads": heads,
    }
    if all_heads:
        fields["block"] = {"eps": weights.config.layer_norm_eps}
    return ModelExample(fields, arrays)


def layer_block(weights: BertWeights, layer: int) -> dict:
    """Layer ``layer``'s (from 1) own feed-forward and LayerNorms, float32 as in the model: W_1
    (384 × 1536), b_1, W_2 (1536 × 384), b_2, the attention output LayerNorm's gamma_1, beta_1
    and the output LayerNorm's gamma_2, beta_2 (384 each)."""
    p = f"encoder.layer.{layer - 1}."
    out = {}
    out["W_1"], out["b_1"] = weights.dense(p + "intermediate.dense")
    out["W_2"], out["b_2"] = weights.dense(p + "output.dense")
    for i, norm in ((1, "attention.output.LayerNorm"), (2, "output.LayerNorm")):
        out[f"gamma_{i}"] = weights[f"{p}{norm}.weight"]
        out[f"beta_{i}"] = weights[f"{p}{norm}.bias"]
    return {k: v.astype(np.float32) for k, v in out.items()}


def example_toml(fields: dict, arrays_name: str, array_names: Sequence[str] | None = None) -> str:
    """The TOML text of a model example whose arrays (``array_names``, default MiniLM's: the
    embeddings, W_q, W_k, W_v and their biases, and W_o, b_o with several heads) live in
    ``arrays_name``."""
    q = toml_value  # the one TOML writer: strings, numbers, lists and inline tables
    extra = ""
    named: tuple[str, ...] = ("model_text", "kv_heads", "mask", "rotary_base", "positions")
    named += ("query", "key", "key_pieces", "head")
    for key in named:
        if key in fields:
            extra += f"{key} = {q(fields[key])}\n"
    if "head_scores" in fields:  # an array of inline tables: {previous = 0.1, …}
        rows = "".join(f"  {q(row)},\n" for row in fields["head_scores"])
        extra += "head_scores = [\n" + rows + "]\n"
    block = ""
    if "block" in fields:  # a trained encoder layer: its LayerNorms' ε (the arrays are in the .npz)
        block = f"\n[block]\neps = {q(fields['block']['eps'])}\n"
    return (
        f"# Made by `attn-explain from-model`: {fields['source']}.\n"
        + _arrays_comment(fields, arrays_name, array_names)
        + f"title = {q(fields['title'])}\n"
        f"source = {q(fields['source'])}\n"
        f"tokens = {q(fields['tokens'])}\n"
        f"heads = {fields['heads']}\n" + extra + f"arrays = {q(arrays_name)}\n" + block
    )


def _arrays_comment(fields: dict, arrays_name: str, array_names: Sequence[str] | None) -> str:
    if array_names is None:
        listed = "embeddings, W_q, W_k, W_v, their biases b_q, b_k, b_v" + (
            ", W_o and b_o" if fields["heads"] > 1 else ""
        )
    else:
        listed = ", ".join(array_names)
    return f"# The arrays ({listed}) are in {arrays_name}, beside this file.\n"


def write_example(path: str | os.PathLike[str], model_ex: ModelExample) -> tuple[Path, Path]:
    """Write ``path`` (.toml) and its arrays ``<stem>.npz`` beside it, each atomically.

    Returns the two paths. The .npz is renamed into place first, the TOML last.
    """
    path = Path(path)
    npz = path.with_suffix(".npz")
    text = example_toml(model_ex.fields, npz.name, list(model_ex.arrays))
    # mode None: as open() makes a file (0666 less the umask); the TOML written (and flushed)
    # before the .npz is renamed into place, and renamed itself last
    with atomic_file(path, mode=None) as toml_file:
        toml_file.write(text.encode("utf-8"))
        toml_file.flush()
        with atomic_file(npz, mode=None) as f:
            np.savez_compressed(f, **model_ex.arrays)
    return path, npz
