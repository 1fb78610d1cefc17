"""AttentionMatrix: its title, the caption of each step (in the order the scene calls them) and its words,
Chinese and English side by side."""

SCENE = "AttentionMatrix"
TITLE = ("注意力矩阵", "The attention matrix")

STEPS = {
    "heatmap": (
        "注意力权重矩阵：第 i 行是第 i 个词分给每个键的份额。",
        "The attention weights: row i is how token i shares its attention among the keys.",
    ),
    "heatmap_masked": (
        "注意力权重矩阵：第 i 行是第 i 个词分给每个键的份额。本例带掩码：挡住的格子权重为 0（掩码一节细讲）。",
        "The attention weights: row i is how token i shares its attention among the keys. This example is masked: blocked cells get 0 (the masking scene shows how).",
    ),
    "rows": ("每一行之和都是 1。", "Every row sums to 1."),
    "reading_other": (
        "读数：{q} 最关注的是 {k}（{a} > {b}），而不是它自己。{sym}",
        "An honest reading: {q} attends most to {k} ({a} > {b}), not to itself. {sym}",
    ),
    "reading_self": (
        "读数：本例中每个词都最关注它自己。{sym}",
        "An honest reading: in this example every token attends most to itself. {sym}",
    ),
    "reading_even": (
        "读数：本例中没有哪个词明显更关注别的词而不是它自己。{sym}",
        "An honest reading: no token here attends clearly more to another token than to itself. {sym}",
    ),
    "reading_cross": (
        "读数：每一行的最大值标出这个查询最关注的源词。",
        "An honest reading: each row's largest weight marks the source token it attends to most.",
    ),
    "cost": (
        "代价：n² = {cells} 个格子，约 {work} 次乘加；512 个词时已有 {cells512} 个格子。",
        "The cost: n² = {cells} cells, about {work} multiply-adds; at 512 tokens already {cells512} cells.",
    ),
}

WORDS: dict[str, tuple[str, str]] = {}
