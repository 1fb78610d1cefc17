"""WeightedSum: its title, the caption of each step (in the order the scene calls them) and its words,
Chinese and English side by side."""

SCENE = "WeightedSum"
TITLE = ("加权求和：值向量的重组", "The weighted sum of values")

STEPS = {
    "values_only": (
        "{q} 的输出是{terms}的加权和。",
        "The output for {q} is a weighted sum of {terms}.",
    ),
    "values_widest": (
        "看 {q}：没有哪一行的权重分得比它更开（最大的是 {top}）。它的输出是{terms}的加权和。",
        "Take {q}: no row's weights are spread more widely (its largest is {top}). Its output is a weighted sum of {terms}.",
    ),
    "values_widest_seeing_all": (
        "看 {q}，它能看到所有的键：这样的行中，没有哪一行分得比它更开（最大的权重是 {top}）。它的输出是{terms}的加权和。",
        "Take {q}, which sees every key: of such rows, none is spread more widely (its largest weight is {top}). Its output is a weighted sum of {terms}.",
    ),
    "values_alike": (
        "看第一行 {q}：每一行最大的权重彼此相差不到 {alike}（这一行的是 {top}）。它的输出是{terms}的加权和。",
        "Take the first row, {q}: every row's largest weight is within {alike} of the others' (this one's is {top}). Its output is a weighted sum of {terms}.",
    ),
    "values_seeing_all": (
        "看 {q}：只有这一行能看到所有的键（最大的权重是 {top}）。它的输出是{terms}的加权和。",
        "Take {q}, the only row that sees every key (its largest weight is {top}). Its output is a weighted sum of {terms}.",
    ),
    "values_peaked": (
        "看 {q}：每一行的权重都几乎集中在一个键上，这一行最大的是 {top}。它的输出是{terms}的加权和。",
        "Take {q}: every row's weights are nearly one-hot, this one's largest is {top}. Its output is a weighted sum of {terms}.",
    ),
    "values_followed": (
        "看 {q}（最大的权重 {top}）：{does}。它的输出是{terms}的加权和。",
        "Take {q} (largest weight {top}): {does}. Its output is a weighted sum of {terms}.",
    ),
    "values_asked": (
        "看所问的 {q}（最大的权重 {top}）：{does}。它的输出是{terms}的加权和。",
        "Take {q}, the query asked for (largest weight {top}): {does}. Its output is a weighted sum of {terms}.",
    ),
    # where the deed says the pair is its largest weight, the weight after it, said once (a
    # review: "(largest weight 0.604): the pair asked about, he → sailor, is its largest weight")
    "values_followed_top": (
        "看 {q}：{does}（{top}）。它的输出是{terms}的加权和。",
        "Take {q}: {does} ({top}). Its output is a weighted sum of {terms}.",
    ),
    "values_asked_top": (
        "看所问的 {q}：{does}（{top}）。它的输出是{terms}的加权和。",
        "Take {q}, the query asked for: {does} ({top}). Its output is a weighted sum of {terms}.",
    ),
    "shrink": ("每个值向量按它的权重缩短。", "Each value vector is shrunk by its weight."),
    "chain": (
        "首尾相接，合成输出向量 o；它总在值向量的凸包之内。",
        "Placed tip to tail they add up to the output o, always inside the convex hull of the values.",
    ),
    "residual": (
        "输出作为更新量 ΔE = o 加回 {q} 的词向量：E + ΔE。ΔE 中有 {share} 来自其他词元。",
        "The output is added back to the embedding of {q} as the update ΔE = o: E + ΔE. {share} of it comes from the other tokens.",
    ),
    "compare_cross": (
        "输出完全由源序列的值向量组成。",
        "The output is made entirely of the source sequence's values.",
    ),
    "compare_heads": (
        "这只是一个头的输出：它先与其他头的输出拼接，结果再加回词向量（E + ΔE）。",
        "This is one head's output: it is joined with the other heads' outputs first, and that result is added back to the embedding (E + ΔE).",
    ),
    "compare_size": (
        "输出与词向量的维度不同，所以这里不把它加回词向量。",
        "The output and the embedding differ in size, so the output is not added back here.",
    ),
}

WORDS: dict[str, tuple[str, str]] = {
    # the values' hull named on the chain's still (issue 38: the region was unlabelled)
    "hull_every_output": (
        "所有可能的输出：权重 ≥ 0，总和为 1",
        "every possible output: weights ≥ 0 summing to 1",
    ),
    # the compare step's picture: the caption's reason in one line of math, under o's line
    "compare_cross_math": (
        "$o = scripts(sum)_j w_j v_j$，$v_j$ 来自源序列",
        "$o = scripts(sum)_j w_j v_j$, $v_j$ from the source",
    ),
    "compare_heads_math": ("$Delta E = [o^1, dots, o^H] W_O$", "$Delta E = [o^1, dots, o^H] W_O$"),
    "compare_heads_values": ("$H$ = {h}", "$H$ = {h}"),
    "compare_size_math": ('$d_v != d_"model"$', '$d_v != d_"model"$'),
    "compare_size_values": ('$d_v$ = {dv}，$d_"model"$ = {dm}', '$d_v$ = {dv}, $d_"model"$ = {dm}'),
    # under the weights of a row the mask blocks some keys of (their weights 0, not listed)
    "mask_blocks_keys": ("掩码挡住了 {b} 个键", "the mask blocks {b} keys"),
    "mask_blocks_key": ("掩码挡住了 {b} 个键", "the mask blocks {b} key"),
    # the same under a partial list: the count of keys it may see the caption names is on screen
    "mask_blocks_keys_seen": (
        "它能看到 {k} 个键，掩码挡住了 {b} 个",
        "{k} keys it may see, {b} blocked",
    ),
    "smaller_weights": ("……其余 {n} 个键的权重都不比这些大", "… {n} more keys, none weighted more"),
    # the same where a value drawn in the plane is listed below a key left out
    "more_weights": ("……另有 {n} 个键", "… {n} more keys"),
}
