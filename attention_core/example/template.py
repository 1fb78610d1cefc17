"""The commented example file that ``attn-explain init`` writes: the default example, explained.

Its values are the ``zao-shang-hao`` preset's, written from the preset itself (so the two never
drift apart); the comments document every key a file may use and the limits.
"""

from __future__ import annotations

from .file_format import toml_value as _toml
from .limits import MAX_ABS, MAX_DIM, MAX_HEADS, MAX_LABEL, MAX_TOKENS
from .presets import DEFAULT_PRESET, PRESETS


def example_toml(name: str = DEFAULT_PRESET) -> str:
    ex = PRESETS[name].to_dict()
    rows = ",\n".join(
        f"    {_toml(row)},  # {tok}" for tok, row in zip(ex["tokens"], ex["embeddings"])
    )
    return f"""\
# An Attention Explainer example. Render it with
#     attn-explain numbers THIS_FILE      (every number, in the terminal)
#     attn-explain render THIS_FILE       (the videos, in renders/<file name>/)
# The file's name (without .toml) names the example and its output folder.

title = {_toml(ex["title"])}

# 1–{MAX_TOKENS} tokens, each label at most {MAX_LABEL} characters. Labels are shown as plain
# text: nothing in them is read as markup.
tokens = {_toml(ex["tokens"])}

# One row per token, all of length d_model (1–{MAX_DIM}); every number finite, |x| ≤ {MAX_ABS:g}.
embeddings = [
{rows}
]

# Heads: d_model must divide by it (at most {MAX_HEADS}).
heads = {ex["heads"]}

# Projection weights. Omitted (as here): identity, so Q = K = V = X. Otherwise either
#   seed = 7            random standard-normal W_q, W_k, W_v (and W_o with several heads),
#   d_k = 2             with this width (d_v too, optional), or
#   [weights]           your own matrices as nested lists:
#   W_q = [[1.0, 0.0], [0.0, 1.0]]     d_model × d_model (columns split among the heads),
#   W_k = …, W_v = …, W_o = …           or per head: head_form = "independent" and a list
#                                       of one d_model × d_k matrix per head.
#   b_q = [0.1, 0.0], b_k = …, b_v = …  optional biases, Q = X·W_q + b_q (b_o with W_o)
# Large arrays may live in a NumPy file beside this one: arrays = "mine.npz" (any of
# embeddings, W_q … W_o, b_q … b_o, by name). `attn-explain from-model` writes such pairs
# from a trained model, with a `source` note; those may reach d_model 384 and 12 heads.

# Masking: "none", "causal" (each token sees itself and earlier ones only), or an explicit
# 0/1 matrix (1 = may attend; no row may block every key).
mask = {_toml(ex["mask"])}
# padding = [1, 1, 0]        which key positions are real tokens (0 = padding, blocked)

# Add sinusoidal positional encodings (Vaswani et al.) to the embeddings first.
positional_encoding = {_toml(ex["positional_encoding"])}

# Divide the scores by √d_k (false shows what goes wrong without it).
scale = {_toml(ex["scale"])}

# Cross-attention: queries from `tokens`, keys and values from a second sequence.
# source_tokens = ["good", "morning"]
# source_embeddings = [[1.0, 0.2], [0.3, 1.1]]
"""
