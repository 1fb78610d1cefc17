"""What a SmolLM2 example file needs from the model again to say what its head moved: the residual
stream entering the layer (E, before the block's RMSNorm) and the model's own readout (the final
RMSNorm's gain and ε, the tied unembedding, each vocabulary token's readable label).

An example written by ``attn-explain from-model --model smollm2`` keeps what the head reads (the
layer's attention input, after its RMSNorm), not the residual itself, and no readout. Its
``source`` note names the model, the layer and the head; its ``model_text`` the text (files
written before ``model_text`` existed: the title, when it is not cut short). :func:`decoder_run`
runs the model on that text up to the layer again (cached per text and layer) and checks that
the attention input it finds is the file's embeddings, so an edited file is refused rather than
read against another sentence.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from ..example.model import Example
    from .llama import LlamaTrace

SOURCE_RE = re.compile(r"^HuggingFaceTB/SmolLM2-135M-Instruct \(Llama decoder, RoPE\): layer (\d+)")
HEAD_RE = re.compile(r": layer \d+, head (\d+) ")
# the largest difference allowed between a file's float64 embeddings and the pass's own
MATCH_TOLERANCE = 1e-6


@dataclass(frozen=True, eq=False)
class DecoderRun:
    """Layer ``layer``'s (from 1) residual input ``E`` (n, d) for the example's tokens
    (``token_ids``) and the layer's ``W_o`` (H·d_v, d), as the model computes them."""

    layer: int
    token_ids: tuple[int, ...]
    E: np.ndarray
    W_o: np.ndarray


@dataclass(frozen=True, eq=False)
class Lens:
    """The model's readout: ``gain`` (d,) and ``eps`` of its final RMSNorm, ``W_U`` (d, vocab)
    its unembedding (SmolLM2: the tied token embeddings, transposed), ``spelled`` each token's
    byte-level spelling (``Ġcat``); :meth:`label` its readable label."""

    gain: np.ndarray
    eps: float
    W_U: np.ndarray
    spelled: tuple[str, ...]

    def label(self, token: int) -> str:
        """Token ``token``'s readable label (:mod:`.token_labels`; ``Ġcat`` reads "cat")."""
        from .token_labels import byte_level_labels

        return byte_level_labels([self.spelled[token]])[0]


def decoder_request(example: Example) -> tuple[str, int] | None:
    """(the text, the layer from 1) of a SmolLM2 example written by from-model, or None for any
    other example (a user's own, a MiniLM head, a file without its text)."""
    m = SOURCE_RE.match(example.source or "")
    if m is None:
        return None
    text = example.model_text or ("" if example.title.endswith("…") else example.title)
    return (text, int(m.group(1))) if text else None


def decoder_head(example: Example) -> int | None:
    """The head (from 1) a one-head SmolLM2 file holds, from its ``source`` note."""
    m = HEAD_RE.search(example.source or "")
    return int(m.group(1)) if m else None


@lru_cache(maxsize=4)
def decoder_trace(text: str, layer: int) -> tuple[tuple[int, ...], LlamaTrace]:
    """SmolLM2's forward pass over ``text`` up to ``layer`` (from 1), cached: from-model and the
    reading of what a head moved run it once between them. Returns (token ids, LlamaTrace)."""
    from . import smollm2_files as sf
    from .llama import llama_forward

    ids = sf.tokenize(text).ids
    return ids, llama_forward(sf.load_weights(), ids, upto=layer)


@lru_cache(maxsize=4)
def _run(text: str, layer: int) -> tuple[DecoderRun, np.ndarray]:
    from . import smollm2_files as sf

    ids, trace = decoder_trace(text, layer)
    W_o = sf.load_weights().attention(layer)["W_o"]
    run = DecoderRun(layer, tuple(ids), trace.layer_input(layer), W_o)
    return run, trace.attention_input(layer)


def decoder_run(example: Example) -> DecoderRun | None:
    """The model run again for a SmolLM2 example file (see the module's note), or None where the
    example is not one. ``ValueError`` when the run's attention input is not the file's
    embeddings (the file was edited, or its text is not the one the model read)."""
    request = decoder_request(example)
    if request is None:
        return None
    run, X = _run(*request)
    emb = np.asarray(example.embeddings, dtype=np.float64)
    if X.shape != emb.shape or np.max(np.abs(X - emb)) > MATCH_TOLERANCE * max(1, emb.max()):
        raise ValueError(
            "model_text: running the model on it again does not give the file's embeddings; "
            "write the file again with attn-explain from-model"
        )
    return run


@lru_cache(maxsize=1)
def decoder_lens() -> Lens:
    """SmolLM2's readout (cached: the unembedding is 49,152 × 576)."""
    from . import smollm2_files as sf

    weights = sf.load_weights()
    spelled = tuple(sf.load_index().tokens)
    eps = float(weights.config.rms_norm_eps)
    return Lens(weights.norm(None), eps, np.ascontiguousarray(weights.output_matrix()), spelled)
