"""The fields a decoder's example adds: shared key/value heads and rotary positions.

``kv_heads`` (grouped-query attention): W_k and W_v have ``kv_heads`` × d_k columns, and each
key/value head serves ``heads / kv_heads`` query heads. ``rotary_base`` turns each query and key
by its position before the scores (RoPE, :mod:`attention_core.rotary`); ``positions`` are those
positions (default 0 … n − 1). Every check raises ``ValueError`` starting with the field's name.
"""

from __future__ import annotations

import math

MAX_ROTARY_BASE = 1e7
MAX_POSITION = 1_000_000


def check_kv_heads(kv_heads: object, heads: int, explicit: bool) -> int | None:
    """``kv_heads``: None, or a divisor of ``heads`` given with ``explicit`` split weights."""
    if kv_heads is None:
        return None
    if isinstance(kv_heads, bool) or not isinstance(kv_heads, int) or not 1 <= kv_heads <= heads:
        raise ValueError(f"kv_heads: {kv_heads!r}; give a whole number from 1 to heads = {heads}")
    if heads % kv_heads:
        raise ValueError(
            f"kv_heads: {kv_heads} does not divide heads = {heads}; each key/value head serves "
            "an equal group of query heads"
        )
    if not explicit and kv_heads != heads:
        raise ValueError(
            "kv_heads: needs explicit weights (W_k and W_v with kv_heads × d_k columns); "
            "add [weights] or remove kv_heads"
        )
    return kv_heads


def check_rotary_base(
    rotary_base: object, positional_encoding: bool, is_cross: bool
) -> float | None:
    """``rotary_base``: None, or a number above 1 for a self-attention example without
    sinusoidal positional encoding (positions are encoded one way or the other)."""
    if rotary_base is None:
        return None
    if isinstance(rotary_base, bool) or not isinstance(rotary_base, int | float):
        raise ValueError(f"rotary_base: expected a number such as 10000, got {rotary_base!r}")
    base = float(rotary_base)
    if not math.isfinite(base) or not 1.0 < base <= MAX_ROTARY_BASE:
        raise ValueError(
            f"rotary_base: {rotary_base!r}; give a number above 1 and at most {MAX_ROTARY_BASE:g} "
            "(Llama uses 10000, SmolLM2 100000)"
        )
    if positional_encoding:
        raise ValueError(
            "rotary_base: the example already adds sinusoidal positional encoding; keep one "
            "(remove positional_encoding or rotary_base)"
        )
    if is_cross:
        raise ValueError("rotary_base: only for self-attention (remove source_tokens)")
    return base


def check_positions(positions: object, rotary_base: object, n: int) -> tuple[int, ...] | None:
    """``positions``: None (0 … n − 1) or one whole number ≥ 0 per token, with a rotary base."""
    if positions is None:
        return None
    if rotary_base is None:
        raise ValueError("positions: only used with rotary_base; add rotary_base = 10000")
    if isinstance(positions, str) or not isinstance(positions, list | tuple):
        raise ValueError(f"positions: expected a list of {n} whole numbers, e.g. [0, 1, 2]")
    if len(positions) != n:
        raise ValueError(f"positions: {len(positions)} numbers for {n} tokens; give one per token")
    for i, p in enumerate(positions):
        if isinstance(p, bool) or not isinstance(p, int) or not 0 <= p <= MAX_POSITION:
            raise ValueError(
                f"positions[{i}]: {p!r}; give a whole number from 0 to {MAX_POSITION:,}"
            )
    return tuple(int(p) for p in positions)


def check_rotary_width(rotary_base: object, d_k: int) -> None:
    """Rotary embeddings turn pairs of dimensions: each head's d_k must be even."""
    if rotary_base is not None and d_k % 2:
        raise ValueError(
            f"rotary_base: each head's d_k = {d_k} is odd; rotary embeddings turn pairs of "
            "dimensions, so give W_q and W_k an even number of columns per head"
        )
