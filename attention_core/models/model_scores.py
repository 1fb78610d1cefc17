"""A real model's part of the model-level head scores (issue 40), and the cache they are kept in.

The scores themselves — the sequences' recipe, the detection patterns, the copying score — are
pure NumPy in :mod:`attention_core.readings.head_scores`; ``attention_core.model_scores(model)``
joins the two (a model never imports a reading). What the model contributes:

- **How it frames the sequences** (:data:`FRAMES`): its ordinary vocabulary — every id that is
  not a control or special token (SmolLM2: ids 17 … 49151, the GGUF's 17 control tokens such as
  ``<|im_start|>`` are ids 0 … 16; MiniLM: ids 999 … 30521, after [PAD], the [unusedN] ids, [UNK],
  [CLS], [SEP] and [MASK]) — and what surrounds the repeated tokens: MiniLM ``[CLS] … [SEP]`` as
  its tokenizer frames a sentence, SmolLM2 one more random token before them and no BOS, as this
  project runs it (a text begins with its own first token).
- **Its attention on them** (:func:`attention_runs`): the project's own NumPy passes,
  :func:`~.bert.bert_forward` one sequence at a time, and SmolLM2's :func:`~.llama.llama_layer` —
  what :func:`~.llama.llama_forward` runs, layer after layer — taken layer by layer over all the
  sequences, so that each layer's weights are dequantized once and not once per sequence. On one
  BLAS thread (``threadpoolctl``), as ``heads`` runs (:mod:`.model_heads`).
- **Each head's W_V and W_O** (:func:`ov_circuits`), row vectors (x W_V W_O): SmolLM2's from its
  query head's own key/value group (head h reads group h // 3), with the layer's input RMSNorm gain
  g folded in (W_V ← diag(g) W_V, as TransformerLens folds a norm into the weights after it by
  default: RMSNorm(x) g W_V = RMSNorm(x) (diag(g) W_V)); MiniLM's as they are, its LayerNorm
  coming after attention; biases are left out (a bias adds a constant, not a map).

**The cache**: ``<user cache>/attention-explainer/models/<model folder>-head-scores-<recipe>/``,
beside the model's own folder (:mod:`.minilm_files`, :mod:`.smollm2_files`), so another model
file or another recipe gets another folder. It holds ``scores.npz`` (NumPy arrays only, read
without pickle) and the manifest of :mod:`.model_cache`: written into a temporary folder and
renamed into place, its size and SHA-256 checked on every read, rebuilt (computed again, once,
with a line on stderr) when damaged.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np
from numpy.typing import ArrayLike

from . import model_cache

if TYPE_CHECKING:
    from .llama import LlamaWeights

T = TypeVar("T")

SCORES_FILE = "scores.npz"


@dataclass(frozen=True)
class Frame:
    """How a model frames the repeated random tokens: ``before`` + ``lead`` random ids + r + r +
    ``after``, ids drawn from ``vocab``; ``words`` says so in a sentence."""

    vocab: range
    before: tuple[int, ...]
    after: tuple[int, ...]
    lead: int
    words: str


FRAMES = {
    "minilm": Frame(
        range(999, 30522), (101,), (102,), 0,
        "all-MiniLM-L6-v2's ordinary vocabulary (ids 999 … 30521), between [CLS] and [SEP]",
    ),
    "smollm2": Frame(
        range(17, 49152), (), (), 1,
        "SmolLM2-135M-Instruct's ordinary vocabulary (ids 17 … 49151), behind one more random "
        "token that is not repeated (no BOS is added, as this project runs SmolLM2)",
    ),
}  # fmt: skip


def frame(model: str) -> Frame:
    """The :class:`Frame` of ``model`` ("minilm" or "smollm2")."""
    if model not in FRAMES:
        raise ValueError(f"--model: {model!r} is not one of {', '.join(FRAMES)}")
    return FRAMES[model]


def attention_runs(
    model: str, sequences: Iterable[ArrayLike], upto: int | None = None
) -> list[tuple[np.ndarray, tuple[np.ndarray, ...]]]:
    """One (ids, layers) per sequence of token ids, ``layers`` each layer's attention weights
    (heads, n, n), layers 1 … ``upto`` (all by default)."""
    from threadpoolctl import threadpool_limits

    frame(model)
    seqs = [np.asarray(s) for s in sequences]
    with threadpool_limits(limits=1, user_api="blas"):
        runs = _smollm2_runs(seqs, upto) if model == "smollm2" else _minilm_runs(seqs, upto)
    return list(zip(seqs, runs))


def _minilm_runs(seqs: list[np.ndarray], upto: int | None) -> list[tuple[np.ndarray, ...]]:
    from . import minilm_files
    from .bert import bert_forward

    weights = minilm_files.load_weights()
    traces = [bert_forward(weights, ids) for ids in seqs]
    return [tuple(layer.weights for layer in t.layers[:upto]) for t in traces]


def _one_layer_kept(weights: LlamaWeights) -> LlamaWeights:
    """The same weights, with the tensors of the layer being run kept until another layer's are
    asked for (rows of the embeddings are never kept)."""
    from .llama import LlamaWeights

    kept: dict[str, np.ndarray] = {}

    def source(name: str, rows: Sequence[int] | None = None) -> np.ndarray:
        if rows is not None:
            return weights._source(name, rows=rows)
        if name not in kept:
            layer = name.split(".")[:2]
            if any(k.split(".")[:2] != layer for k in kept):
                kept.clear()
            kept[name] = weights._source(name)
        return kept[name]

    return LlamaWeights(weights.config, source)


def _smollm2_runs(seqs: list[np.ndarray], upto: int | None) -> list[tuple[np.ndarray, ...]]:
    from . import smollm2_files
    from .llama import llama_layer

    weights = _one_layer_kept(smollm2_files.load_weights())
    last = weights.config.num_hidden_layers if upto is None else upto
    hidden = [weights.embeddings(ids) for ids in seqs]
    layers: list[list[np.ndarray]] = [[] for _ in seqs]
    for layer in range(1, last + 1):
        for k, H in enumerate(hidden):
            step = llama_layer(weights, layer, H)
            layers[k].append(step.weights)
            hidden[k] = step.output
    return [tuple(w) for w in layers]


def ov_circuits(model: str, upto: int | None = None) -> list[list[tuple[np.ndarray, np.ndarray]]]:
    """``[layer][head]`` → (W_V (d, d_head), W_O (d_head, d)) in row form, layers from 1 to
    ``upto`` (all by default): SmolLM2's W_V its key/value group's with the input RMSNorm gain
    folded in, MiniLM's as they are (see the module's docstring)."""
    frame(model)
    weights: Any  # LlamaWeights or BertWeights: both give .config and .attention(layer)
    if model == "smollm2":
        from . import smollm2_files

        weights = smollm2_files.load_weights()
        c = weights.config
        groups, gain = c.num_attention_heads // c.num_key_value_heads, True
    else:
        from . import minilm_files

        weights = minilm_files.load_weights()
        c = weights.config
        groups, gain = 1, False
    dk, out = c.head_dim, []
    for layer in range(1, (c.num_hidden_layers if upto is None else upto) + 1):
        a = weights.attention(layer)
        W_v = a["W_v"] * weights.norm(layer, "attn")[:, None] if gain else a["W_v"]
        out.append(
            [(W_v[:, (h // groups) * dk : (h // groups + 1) * dk], a["W_o"][h * dk : (h + 1) * dk])
             for h in range(c.num_attention_heads)]
        )  # fmt: skip
    return out


def _model_folder(model: str) -> Path:
    """The model's own cache folder (not made here: only its name and place are read)."""
    if model == "smollm2":
        from . import smollm2_files

        return smollm2_files._cache()[0]
    from . import minilm_files

    return minilm_files._cache()[0]


def scores_folder(model: str, recipe: str, root: Path | None = None) -> Path:
    """``<root>/<the model's folder name>-head-scores-<recipe>``; ``root`` defaults to the folder
    the model's own cache lies in."""
    frame(model)
    own = _model_folder(model)
    return Path(root or own.parent) / f"{own.name}-head-scores-{recipe}"


def cached_scores(
    model: str,
    recipe: str,
    compute: Callable[[], Mapping[str, np.ndarray]],
    parse: Callable[[Mapping[str, np.ndarray]], T] = dict,  # type: ignore[assignment]
    root: Path | None = None,
) -> T:
    """``parse`` of the arrays kept for ``model`` and ``recipe``: ``compute()`` on first use
    (written atomically), read back every later time, checked (the file's size and SHA-256, then
    ``parse``, which raises ``ValueError`` on what it cannot use) and computed again, once, when
    damaged (:func:`.model_cache.load`)."""
    final = scores_folder(model, recipe, root)

    def build(tmp: Path) -> None:
        arrays = {k: np.asarray(v) for k, v in compute().items()}
        with open(tmp / SCORES_FILE, "wb") as f:
            np.savez(f, **arrays)  # type: ignore[arg-type]  # numpy's stub: allow_pickle

    def read(folder: Path) -> T:
        with np.load(folder / SCORES_FILE, allow_pickle=False) as data:
            return parse({k: data[k] for k in data.files})

    spec = model_cache.CacheSpec(
        (SCORES_FILE,),
        build,
        f"{model}'s weights (head scores, recipe {recipe})",
        f"write the head scores of {model}",
        made_from=f"{model} {recipe}",
    )
    return model_cache.load(final, spec, read)
