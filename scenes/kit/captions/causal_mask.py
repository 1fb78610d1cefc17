"""CausalMask: its title, the caption of each step (in the order the scene calls them) and its words,
Chinese and English side by side."""

SCENE = "CausalMask"
TITLE = ("掩码：不该看的位置设为 −∞", "Masking: what may not be seen becomes −∞")

STEPS = {
    "scores": (
        "先看缩放后的分数矩阵，每个查询对每个键都有一个分数。",
        "Start from the scaled scores: every query has a score for every key.",
    ),
    "mask": (
        "掩码盖住不该看的格子（{kind}）。",
        "A mask covers the cells that may not be seen ({kind}).",
    ),
    "blocked": (
        "被盖住的分数一律改成 −∞，其余分数保持不变。",
        "Every covered score becomes −∞; the others stay as they were.",
    ),
    "unmasked": (
        "这个例子没有掩码：每个查询都能看到所有键。",
        "This example has no mask: every query sees every key.",
    ),
    "blocks_nothing": (
        "这个例子的掩码（{kind}）在这里一个格子也没有挡住：每个查询都能看到所有键。",
        "This example's mask ({kind}) blocks no cell here: every query sees every key.",
    ),
    "softmax": (
        "softmax 只在允许的键之间分配：−∞ 的权重恰好是 0，每行之和仍是 1。",
        "softmax shares only among the allowed keys: a −∞ gets exactly 0, and every row still sums to 1.",
    ),
}

WORDS: dict[str, tuple[str, str]] = {}
