"""Built-in examples, one per situation the source texts work through.

Every number here is an *input*; everything computed from them comes from the core.
"""

from __future__ import annotations

import numpy as np

from .model import Example

_ZAO_SHANG_HAO = [[1.2, 0.8], [0.9, 1.1], [0.7, 1.3]]  # text 002's 2-D embeddings

# text 000: three tokens with 4-D embeddings; its W are np.random.randn(4, 3) — here seeded
_NUMPY_3X4 = [[1.0, 0.5, -1.2, 0.8], [0.6, -0.3, 1.5, -0.7], [-0.9, 1.1, 0.4, -1.0]]

# two heads of 2-D each: head 1 reads coordinates (0, 1) of W's columns, head 2 reads (2, 3)
_TWO_HEADS = {
    "W_q": [
        [1.0, 0.0, 0.5, -0.3],
        [0.0, 1.0, 0.2, 0.8],
        [0.3, 0.0, 1.0, 0.0],
        [0.0, 0.3, 0.0, 1.0],
    ],
    "W_k": [
        [0.9, 0.2, -0.4, 0.6],
        [0.1, 1.0, 0.7, 0.1],
        [0.0, 0.4, 1.0, 0.2],
        [0.2, 0.0, -0.3, 1.0],
    ],
    "W_v": [[1.0, 0.0, 0.0, 0.6], [0.0, 1.0, 0.5, 0.0], [0.2, 0.0, 1.0, 0.0], [0.0, 0.2, 0.0, 1.0]],
    "W_o": [[1.0, 0.0, 0.2, 0.0], [0.0, 1.0, 0.0, 0.2], [0.3, 0.0, 1.0, 0.0], [0.0, 0.3, 0.0, 1.0]],
}


PRESETS: dict[str, Example] = {
    "zao-shang-hao": Example(
        name="zao-shang-hao",
        title="早上好",
        tokens=("早", "上", "好"),
        embeddings=np.array(_ZAO_SHANG_HAO),
    ),
    "numpy-3x4": Example(
        name="numpy-3x4",
        title="NumPy 3×4",
        tokens=("词1", "词2", "词3"),
        embeddings=np.array(_NUMPY_3X4),
        seed=0,
        d_k=3,
    ),
    "numpy-3x4-two-heads": Example(
        name="numpy-3x4-two-heads",
        title="NumPy 3×4 · 两个头",
        tokens=("词1", "词2", "词3"),
        embeddings=np.array(_NUMPY_3X4),
        seed=0,
        d_k=3,
        heads=2,
        head_form="independent",
    ),
    "two-heads": Example(
        name="two-heads",
        title="两个头",
        tokens=("早", "上", "好"),
        embeddings=np.array([[1.2, 0.8, 0.3, -0.5], [0.9, 1.1, -0.4, 0.6], [0.7, 1.3, 0.8, 0.2]]),
        heads=2,
        weights=_TWO_HEADS,
    ),
    "causal": Example(
        name="causal",
        title="因果掩码",
        tokens=("我", "喜", "欢", "你"),
        embeddings=np.array([[1.0, 0.2], [0.4, 1.1], [0.8, 0.9], [1.2, -0.3]]),
        mask="causal",
    ),
    # rotary positions (RoPE) on text 002's 早/上/好: in 2-D the one pair of dimensions turns
    # by ω = base^0 = 1 rad (57.3°) per position, whatever the base — plainly visible
    "rotary": Example(
        name="rotary",
        title="旋转位置编码",
        tokens=("早", "上", "好"),
        embeddings=np.array(_ZAO_SHANG_HAO),
        mask="causal",
        rotary_base=10000.0,
    ),
    "padding": Example(
        name="padding",
        title="填充掩码",
        tokens=("早", "上", "好", "[PAD]"),
        embeddings=np.array([[1.2, 0.8], [0.9, 1.1], [0.7, 1.3], [0.0, 0.0]]),
        padding=[1, 1, 1, 0],
    ),
    "cross-zh-en": Example(
        name="cross-zh-en",
        title="早上好 → good morning",
        tokens=("早", "上", "好"),
        embeddings=np.array(_ZAO_SHANG_HAO),
        source_tokens=["good", "morning"],
        source_embeddings=[[1.1, 0.6], [0.8, 1.2]],
    ),
}
"""Preset name → :class:`Example`. ``zao-shang-hao`` is the default everywhere."""

DEFAULT_PRESET = "zao-shang-hao"
