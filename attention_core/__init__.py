"""attention_core: self-attention in plain NumPy, with every intermediate kept for explaining.

Pure NumPy, no Manim. Row vectors throughout (X is (n, d_model), Q = X @ W_q); masks are boolean
with True = may attend, as PyTorch's boolean ``attn_mask``.

The small core is the modules at this level, each one concept, each tested against PyTorch:
``attention`` (softmax(Q Kᵀ / √d_k) V), ``softmax``, ``masks``, ``positional``, ``rotary``,
``multihead``, ``grouped_query``, ``encoder``, ``variance`` (why √d_k), ``geometry`` (the pictures'
planes and projections) and ``trace`` / ``encoder_trace`` (an example → every number the scenes
show). Around it, in subpackages:

- ``example/``  the example a lecturer edits: model, limits, file format, field checks, presets;
- ``models/``   trained models (MiniLM, SmolLM2) as NumPy forward passes, and a head as an example;
- ``readings/`` what a scene may say about the numbers (claims, head readings, scene quantities).

The public names, in the order docs/api.md presents them: the attention functions and their
parts, then the example and its trace, the quantities particular scenes show, and reading the
heads of a real model.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .attention import AttentionTrace, cross_attention, scaled_dot_product_attention, self_attention
from .encoder import EncoderTrace, encoder_block, feed_forward, layer_norm
from .encoder_trace import FFN_SEED, encoder_weights, trace_encoder
from .example.loading import load_example
from .example.model import MAX_ABS, MAX_DIM, MAX_LABEL, MAX_TOKENS, Example, Weights
from .example.presets import DEFAULT_PRESET, PRESETS
from .geometry import (
    PairPlane,
    PlaneView,
    angle,
    convex_hull_2d,
    cos_against_random,
    norm,
    norms,
    pair_plane,
    plane_view,
    projection,
    random_cos_spread,
    scalar_projection,
)
from .masks import causal_mask, padding_mask
from .models.bert import BertConfig, BertTrace, BertWeights, bert_forward, gelu
from .multihead import MultiHeadTrace, independent_heads_attention, multi_head_attention
from .positional import positional_encoding_at, sinusoidal_positional_encoding
from .readings.cast import CAST_ALL, CAST_SIZE, story_cast
from .readings.claims import (
    ExpClaim,
    MaskClaim,
    OrderCheck,
    OutputWidth,
    RowChoice,
    SumTerms,
    demo_row,
    exp_claim,
    head_demo_row,
    mask_claim,
    order_argument,
    order_check,
    output_width,
    saturation_claim,
    sum_terms,
)
from .readings.followed import (
    FollowedPair,
    HeadStory,
    PairRow,
    choice_story,
    followed_choice,
    followed_pair,
    head_story,
    pair_row,
)
from .readings.head_scores import HeadScores, ModelScores
from .readings.head_search import (
    ForcedWeight,
    HeadHit,
    Pair,
    Word,
    best_link,
    find_pair,
    pieces_text,
    search_heads,
    text_words,
)
from .readings.heads import (
    HeadReading,
    QKPlane,
    example_head_scores,
    qk_plane,
    rank_heads,
    read_head,
)
from .readings.illustrative import (
    ILLUSTRATIVE_SEED,
    illustrative_projections,
    illustrative_queries_keys,
    illustrative_weights,
)
from .readings.linear_maps import LinearMaps, linear_maps
from .readings.permutation import ShuffleCheck, shuffle_check
from .readings.scene_quantities import (
    WORKED_KEYS,
    LabelledKeys,
    NamedWeights,
    attention_cost,
    informative_row,
    labelled_keys,
    named_weights,
    residual,
    share_from_others,
    story_order,
    tip_to_tail,
    worked_keys,
)
from .softmax import exponentials, saturation, sharpened, softmax, softmax_gradient_factor
from .trace import ExampleTrace, trace_example
from .variance import (
    ROW_DIM,
    ScoreRow,
    VarianceSample,
    dot_product_variance,
    random_score_row,
    scaling_experiment,
)

if TYPE_CHECKING:  # annotations only: the model and moved-vector modules load when used
    from pathlib import Path

    import numpy as np

    from .readings.moved_vector import MovedVector

__all__ = [
    # attention: softmax(Q Kᵀ / √d_k) V, for one sequence or two (attention.py)
    "AttentionTrace",
    "scaled_dot_product_attention",
    "self_attention",
    "cross_attention",
    # multi-head: split projections (torch's form) or independent heads (text 000's form)
    "MultiHeadTrace",
    "multi_head_attention",
    "independent_heads_attention",
    # softmax and what it does to scores (softmax.py)
    "softmax",
    "softmax_gradient_factor",
    "exponentials",
    "sharpened",
    "saturation",
    # masks: True = may attend (masks.py)
    "causal_mask",
    "padding_mask",
    # positional encoding (positional.py)
    "sinusoidal_positional_encoding",
    "positional_encoding_at",
    # why scores are divided by √d_k (variance.py)
    "dot_product_variance",
    "scaling_experiment",
    "VarianceSample",
    "random_score_row",
    "ScoreRow",
    "ROW_DIM",
    # geometry of the 2-D views (geometry.py)
    "norm",
    "norms",
    "angle",
    "random_cos_spread",
    "cos_against_random",
    "projection",
    "scalar_projection",
    "pair_plane",
    "PairPlane",
    "plane_view",
    "PlaneView",
    "convex_hull_2d",
    # the encoder block: attention, residual, LayerNorm, feed-forward (encoder.py)
    "layer_norm",
    "feed_forward",
    "encoder_block",
    "EncoderTrace",
    # the example a lecturer edits, its limits, files and presets (example*.py, loading.py)
    "Example",
    "Weights",
    "load_example",
    "PRESETS",
    "DEFAULT_PRESET",
    "MAX_ABS",
    "MAX_DIM",
    "MAX_LABEL",
    "MAX_TOKENS",
    # an example's trace: every number the scenes show (trace.py, encoder_trace.py)
    "ExampleTrace",
    "trace_example",
    "linear_maps",
    "LinearMaps",
    "trace_encoder",
    "encoder_weights",
    "FFN_SEED",
    # quantities particular scenes show (illustrative.py, permutation.py, scene_quantities.py)
    "illustrative_weights",
    "illustrative_projections",
    "illustrative_queries_keys",
    "ILLUSTRATIVE_SEED",
    "shuffle_check",
    "ShuffleCheck",
    "attention_cost",
    "share_from_others",
    "informative_row",
    "residual",
    "tip_to_tail",
    "story_order",
    "worked_keys",
    "WORKED_KEYS",
    "story_cast",
    "CAST_SIZE",
    "CAST_ALL",
    "named_weights",
    "NamedWeights",
    "labelled_keys",
    "LabelledKeys",
    # the heads of a real model: the q·k plane and a one-line reading (heads.py)
    "qk_plane",
    "QKPlane",
    "read_head",
    "example_head_scores",
    "rank_heads",
    "HeadReading",
    # which head links two words: words as pieces, heads ranked, habits (head_search.py)
    "text_words",
    "Word",
    "find_pair",
    "Pair",
    "search_heads",
    "HeadHit",
    "best_link",
    "ForcedWeight",
    "pieces_text",
    # what each head of a real model does, scored on repeated random tokens (head_scores.py)
    "model_scores",
    "ModelScores",
    "HeadScores",
    # what a head moved into one token, E + ΔE, read in words (moved_vector.py)
    "moved_vector",
    # a real model's forward pass (bert.py)
    "bert_forward",
    "BertWeights",
    "BertConfig",
    "BertTrace",
    "gelu",
    # what the scenes say about the numbers (claims.py)
    "RowChoice",
    "ExpClaim",
    "exp_claim",
    "SumTerms",
    "MaskClaim",
    "OrderCheck",
    "OutputWidth",
    "demo_row",
    "head_demo_row",
    "sum_terms",
    "mask_claim",
    "order_argument",
    "order_check",
    "output_width",
    "saturation_claim",
    # the one query and key an explanation follows (followed.py)
    "FollowedPair",
    "followed_pair",
    "followed_choice",
    "pair_row",
    "PairRow",
    "head_story",
    "choice_story",
    "HeadStory",
]


def model_scores(model: str, *, cache_root: Path | None = None) -> ModelScores:
    """Every head's model-level scores of ``model`` ("minilm" or "smollm2"): previous,
    duplicate, induction and copying (:mod:`attention_core.readings.head_scores`), computed once
    from the model's weights and its attention on the recipe's repeated random tokens
    (:mod:`attention_core.models.model_scores`), then read from the model cache (``cache_root``:
    another folder than the user cache). ``.of(layer, head)`` (from 0) gives one head's.

    Joined here because a model never imports a reading, nor a reading a model (the floor plan).

    Parameters
    ----------
    model : str
        "minilm" or "smollm2" (the `[model]` extra and, for SmolLM2, `make setup`'s model file).
    cache_root : Path, optional
        The model cache's folder (default: the user cache).

    Returns
    -------
    ModelScores
        Every head's scores; ``.of(layer, head)`` (from 0) gives one head's ``HeadScores``.

    Examples
    --------
    The first call computes the scores (seconds to minutes, once); later calls read the cache.

    >>> ms = model_scores("minilm")  # doctest: +SKIP
    >>> ms.of(0, 0).previous  # doctest: +SKIP
    >>> model_scores("gpt2")
    Traceback (most recent call last):
    ...
    ValueError: --model: 'gpt2' is not one of minilm, smollm2
    """
    from .models import model_scores as ms
    from .readings import head_scores as hs

    def compute() -> dict[str, np.ndarray]:
        f = ms.frame(model)
        seqs = hs.repeated_sequences(f.vocab, f.before, f.after, f.lead, hs.RECIPE)
        about = hs.describe_sequences(f.words, len(seqs[0]), hs.RECIPE)
        runs, circuits = ms.attention_runs(model, seqs), ms.ov_circuits(model)
        return hs.score_heads(model, runs, circuits, about, hs.RECIPE.key).as_arrays()

    return ms.cached_scores(model, hs.RECIPE.key, compute, hs.ModelScores.from_arrays, cache_root)


def moved_vector(
    trace: ExampleTrace, head: int | None = None, query: int | None = None
) -> MovedVector:
    """What head ``head`` (from 0; default the example's) moved into query ``query`` (default
    the followed one; its key the followed one, or another query's heaviest): E, the terms
    αᵢⱼ · vⱼ · W_Oʰ, ΔE and E + ΔE (:class:`attention_core.readings.moved_vector.MovedVector`),
    with its ``readout`` in words for a SmolLM2 example file: E the residual stream entering the
    layer and W_Oʰ the head's rows of the model's W_O, both from the model run again on the
    file's text (:mod:`attention_core.models.model_residual`); for any other example E is the
    query's input row and there is no readout. Joined here: a model never imports a reading, nor
    the reverse.

    Parameters
    ----------
    trace : ExampleTrace
    head : int, optional
        The head (from 0; default the example's).
    query : int, optional
        The query (default the followed one).

    Returns
    -------
    MovedVector

    Examples
    --------
    >>> mv = moved_vector(trace_example(PRESETS["zao-shang-hao"]))
    >>> mv.source, mv.delta.round(3).tolist(), mv.readout is None
    ('input', [0.945, 1.055], True)
    """
    from dataclasses import replace

    import numpy as np

    from .models import model_residual as mr
    from .readings import moved as mv
    from .readings import moved_vector as mvec

    ex = trace.example
    pair = followed_pair(trace)
    h = ex.head_index if head is None else head
    i = pair.query if query is None else query
    V, W_O = mv.head_value_rows(trace, h)
    row = np.asarray(trace.heads[h].weights)[i]
    key = pair.key if i == pair.query else int(np.argmax(row))  # another query: its heaviest key
    run = mr.decoder_run(ex)
    if run is None:
        return mvec.moved_vector(row, V, W_O, trace.X[i], i, key, h, "input")
    if W_O is None:  # a one-head file keeps no W_O: the model's, the head's rows
        head1 = mr.decoder_head(ex)
        if head1 is None:
            raise ValueError(
                "source: a one-head SmolLM2 file names its head ('head N'); write the file "
                "again with attn-explain from-model"
            )
        m = head1 - 1
        W_O = run.W_o[m * V.shape[1] : (m + 1) * V.shape[1]]
    out = mvec.moved_vector(row, V, W_O, run.E[i], i, key, h, "residual")
    words = mvec.readout(out, mr.decoder_lens(), run.token_ids[key])
    return replace(out, readout=words)
