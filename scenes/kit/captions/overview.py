"""Overview: its title, the caption of each step (in the order the scene calls them) and its words,
Chinese and English side by side."""

SCENE = "Overview"
TITLE = ("全景：一行公式", "The whole story in one line")

STEPS = {
    "formula": (
        '自注意力一行写完：$"softmax"(Q K^top \\/ sqrt(d_k)) V$。',
        'Self-attention in one line: $"softmax"(Q K^top \\/ sqrt(d_k)) V$.',
    ),
    "qk": (
        "$Q K^top$：每一对词元的点积：键在查询方向上的投影长度，乘以查询的长度。",
        "$Q K^top$: the dot product of every pair: each key's shadow on its query, times the query's length.",
    ),
    "scale": (
        "÷$sqrt(d_k)$：不让分数的方差随维度变大。",
        "÷$sqrt(d_k)$: keeps the scores' variance from growing with d.",
    ),
    "softmax": (
        "softmax：每一行变成一个整体的份额。",
        "softmax: each row becomes shares of one whole.",
    ),
    "softmax_story": (
        "softmax：每一行变成一个整体的份额。这个头：{does}。",
        "softmax: each row becomes shares of one whole. This head: {does}.",
    ),
    "values": (
        "乘以 V：按这些份额混合值向量，得到带上下文的输出 o。",
        "Times V: mix the values by those shares into outputs o that carry context.",
    ),
    "masked_note": (
        "本例带掩码：挡住的位置记为 −∞，softmax 之后分不到任何权重（掩码一节细讲）。",
        "This example is masked: blocked cells are −∞, and get no weight after softmax "
        "(the masking scene shows how).",
    ),
}

WORDS: dict[str, tuple[str, str]] = {
    # among many tokens, under the values' plane: what its arrows are, counted (a reviewer read
    # "21 others not drawn" of the outputs as of the 7 values drawn; the count next to "not
    # drawn", as every plane's line says it)
    "values_faint_some": ("淡色：{k}/{n} 个值向量 v", "faint: {k} of the {n} values v"),
    # among many, the values drawn but not named (grey; issue 38: coloured arrows with no name)
    "values_grey_some": (
        "灰色：另 {k} 个值向量 v（共 {n} 个）",
        "grey: {k} more values v (of {n})",
    ),
    # the same where the count has no room (a square frame)
    "values_grey": ("灰色：其余值向量 v", "grey: other values v"),
    "outputs_not_drawn": ("另有 {n} 个输出未画出", "outputs: {n} not drawn"),
    "outputs_not_drawn_one": ("另有一个输出未画出", "outputs: one not drawn"),
}
