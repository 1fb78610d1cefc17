"""The field a trained model's example adds about its heads: ``head_scores``.

``from-model`` writes, for each head of the example, that head's model-level scores
(:mod:`attention_core.readings.head_scores`: ``previous``, ``duplicate`` and ``induction``, the
share of its attention on the pattern over repeated random tokens, each in [0, 1]; ``copying``,
Σλ / Σ|λ| of W_V·W_O, in [−1, 1]). They are measured on the whole model, not on the example's
sentence, so a scene can say what the head is (an induction head reads as one on any sentence)
even where this sentence's rows cannot show it. Every check raises ``ValueError`` starting with
the field's name.
"""

from __future__ import annotations

import math

SCORE_FIELDS = ("previous", "duplicate", "induction", "copying")  # = head_scores.SCORE_KINDS


def check_head_scores(value: object, heads: int) -> tuple[dict[str, float], ...] | None:
    """``head_scores``: None, or one table a head (``heads`` of them), each with exactly
    :data:`SCORE_FIELDS`, finite numbers: the shares in [0, 1], ``copying`` in [−1, 1]."""
    if value is None:
        return None
    if not isinstance(value, list | tuple) or len(value) != heads:
        raise ValueError(
            f"head_scores: expected a list of {heads} table(s), one a head "
            "({previous, duplicate, induction, copying}); remove it or write the example again "
            "with `attn-explain from-model`"
        )
    return tuple(_one(i, row) for i, row in enumerate(value, start=1))


def _one(i: int, row: object) -> dict[str, float]:
    where = f"head_scores[{i}]"
    if not isinstance(row, dict) or set(row) != set(SCORE_FIELDS):
        got = sorted(row) if isinstance(row, dict) else type(row).__name__
        raise ValueError(f"{where}: expected the keys {', '.join(SCORE_FIELDS)}; got {got}")
    out = {}
    for key in SCORE_FIELDS:
        v = row[key]
        low = -1.0 if key == "copying" else 0.0
        if isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v):
            raise ValueError(f"{where}.{key}: expected a number, got {v!r}")
        if not low - 1e-9 <= v <= 1.0 + 1e-9:
            raise ValueError(f"{where}.{key}: {v!r} lies outside [{low:g}, 1]")
        out[key] = float(v)
    return out
