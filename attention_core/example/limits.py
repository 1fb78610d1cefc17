"""How large an example may be: the limits every check of an :class:`Example` uses.

A lecture shows the numbers, so a hand-written example is small; an example that names its
``source`` (a head of a trained model, written by ``attn-explain from-model``) may be as large as
all-MiniLM-L6-v2's layers.
"""

from __future__ import annotations

MAX_TOKENS = 24  # tokens (and source tokens) per sequence
MAX_LABEL = 12  # characters per token label
MAX_ABS = 1e6  # every input number satisfies |x| ≤ MAX_ABS
MAX_DIM = 16  # d_model, d_k and d_v at most this (a lecture shows the numbers)
MAX_HEADS = 8
MAX_TITLE = 60
# An example that names its `source` (a head of a trained model, `attn-explain from-model`) may be
# as large as a real model's layer: d_model ≤ 576 (SmolLM2-135M; all-MiniLM-L6-v2 has 384), d_k
# and d_v ≤ 64 per head, 12 heads.
MODEL_MAX_DIM = 576
MODEL_MAX_HEAD_DIM = 64
MODEL_MAX_HEADS = 12
MAX_SOURCE = 200  # characters of the `source` note
MAX_MODEL_TEXT = 400  # characters of the `model_text` a model read (from-model)

HEAD_FORMS = ("split", "independent")
