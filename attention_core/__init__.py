"""attention_core: self-attention in plain NumPy, with every intermediate kept for explaining.

Pure NumPy, no Manim (``model_files`` reads a real model's files with the optional ``[model]``
extra, imported only when called). Row vectors throughout (X is (n, d_model), Q = X @ W_q); masks
are boolean with True = may attend, as PyTorch's boolean ``attn_mask``.
"""

from .attention import AttentionTrace, cross_attention, scaled_dot_product_attention, self_attention
from .bert import BertConfig, BertTrace, BertWeights, bert_forward, gelu
from .encoder import EncoderTrace, encoder_block, feed_forward, layer_norm
from .example import MAX_ABS, MAX_DIM, MAX_LABEL, MAX_TOKENS, Example, Weights
from .geometry import (
    PairPlane,
    PlaneView,
    angle,
    convex_hull_2d,
    norm,
    norms,
    pair_plane,
    plane_view,
    projection,
    scalar_projection,
)
from .heads import HeadReading, QKPlane, qk_plane, read_head
from .loading import load_example
from .masks import causal_mask, padding_mask
from .multihead import MultiHeadTrace, independent_heads_attention, multi_head_attention
from .pipeline import (
    FFN_SEED,
    ILLUSTRATIVE_SEED,
    ExampleTrace,
    ShuffleCheck,
    attention_cost,
    encoder_weights,
    illustrative_projections,
    illustrative_queries_keys,
    illustrative_weights,
    informative_row,
    residual,
    share_from_others,
    shuffle_check,
    tip_to_tail,
    trace_encoder,
    trace_example,
)
from .positional import positional_encoding_at, sinusoidal_positional_encoding
from .presets import DEFAULT_PRESET, PRESETS
from .softmax import exponentials, saturation, sharpened, softmax, softmax_gradient_factor
from .variance import (
    ROW_DIM,
    ScoreRow,
    VarianceSample,
    dot_product_variance,
    random_score_row,
    scaling_experiment,
)

__all__ = [
    "AttentionTrace",
    "MultiHeadTrace",
    "ExampleTrace",
    "Example",
    "Weights",
    "PairPlane",
    "PlaneView",
    "VarianceSample",
    "scaled_dot_product_attention",
    "self_attention",
    "cross_attention",
    "multi_head_attention",
    "independent_heads_attention",
    "softmax",
    "softmax_gradient_factor",
    "exponentials",
    "sharpened",
    "saturation",
    "FFN_SEED",
    "ILLUSTRATIVE_SEED",
    "attention_cost",
    "scaling_experiment",
    "causal_mask",
    "padding_mask",
    "sinusoidal_positional_encoding",
    "dot_product_variance",
    "norm",
    "norms",
    "angle",
    "projection",
    "scalar_projection",
    "pair_plane",
    "plane_view",
    "convex_hull_2d",
    "load_example",
    "PRESETS",
    "DEFAULT_PRESET",
    "trace_example",
    "illustrative_weights",
    "illustrative_projections",
    "illustrative_queries_keys",
    "share_from_others",
    "informative_row",
    "residual",
    "random_score_row",
    "ScoreRow",
    "ROW_DIM",
    "tip_to_tail",
    "MAX_ABS",
    "MAX_DIM",
    "MAX_LABEL",
    "MAX_TOKENS",
    "EncoderTrace",
    "encoder_block",
    "feed_forward",
    "layer_norm",
    "ShuffleCheck",
    "shuffle_check",
    "encoder_weights",
    "trace_encoder",
    "positional_encoding_at",
    "BertConfig",
    "BertTrace",
    "BertWeights",
    "bert_forward",
    "gelu",
    "HeadReading",
    "QKPlane",
    "qk_plane",
    "read_head",
]
