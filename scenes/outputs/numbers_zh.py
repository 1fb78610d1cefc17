"""The numbers table of a Chinese lecture page in Chinese: the walk-through's header lines and
block titles (:mod:`scenes.outputs.numbers_report` writes them in English, as ``numbers`` prints
them) said in Chinese, their math (Q·Kᵀ, softmax, √d_k, W_q …) and the example's own labels kept.

Each rule rewrites one fixed English phrase of the report; a phrase without a rule stays English,
which ``tests/test_lecture_explorer.py`` catches on the Chinese page.
"""

from __future__ import annotations

import re

# the lines that carry the example's own text (title, labels, source): only their start is said
USER_LINES = {
    "Attention walk-through: ": "注意力逐步计算：",
    "tokens: ": "词元：",
    "source tokens: ": "源序列的词元：",
    "from: ": "出处：",
}
FORMS = {"split": "拆分形式", "independent": "各头独立形式"}
MASKS = {"causal": "因果", "explicit": "自定义", "none": "无"}
# (pattern, replacement), applied in order to every other line and block title
RULES = [
    (r"^head (\d+): ", r"第 \1 个头："),
    (r", heads = (\d+)$", r"，头数 = \1"),
    (
        r"^weights: identity, so Q = K = X turned, V = X$",
        "权重：单位矩阵，所以 Q = K = 转动后的 X，V = X",
    ),
    (r"^weights: identity, so ", "权重：单位矩阵，所以 "),
    (
        r"^weights: random standard normal, seed = (\S+) \((\w+) form\)$",
        lambda m: f"权重：标准正态随机数，种子 = {m[1]}（{FORMS.get(m[2], m[2])}）",
    ),
    (
        r"^weights: given \((\w+) form(, with biases)?\)$",
        lambda m: f"权重：给定（{FORMS.get(m[1], m[1])}{'，带偏置' if m[2] else ''}）",
    ),
    (
        r"^key/value heads: (\d+), each shared by (\d+) query heads$",
        r"键/值头：\1 个，各由 \2 个查询头共用",
    ),
    (
        r"^rotary positions: base (\S+), positions (.*); Q and K are turned by their positions "
        r"before the scores$",
        r"旋转位置编码：底数 \1，位置 \2；算分数之前，Q 和 K 按各自的位置转动",
    ),
    (
        r"^mask: (\w+)( \+ padding)?$",
        lambda m: f"掩码：{MASKS.get(m[1], m[1])}{' + 填充' if m[2] else ''}",
    ),
    (r"^X — embeddings", "X：词向量"),
    (r" \+ positional encoding", " + 位置编码"),
    (r"^source — keys and values come from this sequence", "源序列：键和值来自这个序列"),
    (r"rot\(X·W_(\w)( \+ b_\w)?, position\)", r"rot(X·W_\1\2, 位置)"),
    (r"scores = Q·Kᵀ \(row: query, column: key\)", "分数 = Q·Kᵀ（行：查询，列：键）"),
    (r"scaled = scores / √d_k \((√\d+ = [\d.]+)\)", r"缩放 = 分数 / √d_k（\1）"),
    (r"scaled = scores \(unscaled\)", "缩放 = 分数（不缩放）"),
    (r"masked \(−∞ = blocked\)", "遮蔽后（−∞ = 挡住）"),
    (r"weights = softmax\(masked\) — each row sums to 1", "权重 = softmax(遮蔽后)：每行之和为 1"),
    (r"output = weights·V", "输出 = 权重·V"),
    (r"concat = \[head 1 … head H\]", "拼接 = [头 1 … 头 H]"),
    (r"output = concat·W_o", "输出 = 拼接·W_o"),
    (
        r" \((\d+) × (\d+); columns (\d+)–(\d+) elided, --json gives every number\)$",
        r"（\1 × \2；省略第 \3–\4 列，numbers --json 给出全部数）",
    ),
]
_COMPILED = [(re.compile(p), r) for p, r in RULES]


def zh(text: str) -> str:
    """``text`` (a header line or block title of the report) in Chinese."""
    for prefix, said in USER_LINES.items():
        if text.startswith(prefix):
            return said + text[len(prefix) :]
    for pattern, replacement in _COMPILED:
        text = pattern.sub(replacement, text)
    return text
