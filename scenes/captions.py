"""Every word a scene shows or says, in Chinese and English: titles, step captions, labels.

A caption is a template filled with numbers from the trace (already formatted) and token labels.
Labels are inserted as plain values into Pango ``Text``; nothing here is markup. No caption
repeats the source texts' errors (docs/design.md, "The numbers the source texts got wrong"): the numbers come from the core.
"""

from __future__ import annotations

from scenes.mobjects.unimath import NO_BREAK, plain

LANGS = ("zh", "en")
EN_RATE = 15.0  # characters a second a viewer reads (docs/design.md, "Pictures": pacing)
ZH_RATE = 7.0
MIN_READ = 2.0

TITLES = {
    "StarterScene": ("起步场景：词向量的长度", "A starter scene: the tokens' lengths"),
    "Embeddings": ("词向量：每个词是一个箭头", "Tokens as vectors"),
    "Projections": ("Q、K、V：同一向量的三种角色", "Queries, keys and values"),
    "DotProducts": ("点积就是投影", "The dot product as a projection"),
    "Scaling": ("为什么除以 $sqrt(d_k)$", "Why divide by $sqrt(d_k)$"),
    "Softmax": ("Softmax：一个整体的份额", "Softmax: shares of one whole"),
    "WeightedSum": ("加权求和：值向量的重组", "The weighted sum of values"),
    "AttentionMatrix": ("注意力矩阵", "The attention matrix"),
    "Overview": ("全景：一行公式", "The whole story in one line"),
    "HeadGallery": ("一层里的所有头：各看各的", "Every head of a layer, each its own pattern"),
    "CausalMask": ("掩码：不该看的位置设为 −∞", "Masking: what may not be seen becomes −∞"),
    "MultiHeadSplit": ("多头注意力：每个头一个子空间", "Multi-head attention: a subspace per head"),
    "PositionalEncoding": (
        "位置编码：让注意力知道顺序",
        "Positional encoding: telling attention the order",
    ),
    "EncoderBlock": ("编码器块：注意力所在的位置", "The encoder block: where attention sits"),
    "CrossAttention": (
        "交叉注意力：查询来自一个序列，键和值来自另一个",
        "Cross-attention: queries from one sequence, keys and values from another",
    ),
    "RotaryPositions": ("旋转位置编码：位置就是旋转", "Rotary positions: a position is a rotation"),
}

CAPTIONS = {
    # the starter scene to copy (scenes/_template.py): not in the registry, never rendered for users
    "StarterScene": {
        "tokens": (
            "{n} 个词，每个词是一个从原点出发的箭头。",
            "{n} tokens, each an arrow from the origin.",
        ),
        "lengths": ("每个箭头的长度 |x|。", "The length |x| of each arrow."),
    },
    "Embeddings": {
        "plane": (
            "每个词是一个向量：从原点出发的箭头。",
            "Each token is a vector: an arrow from the origin.",
        ),
        "tokens": (
            "{tokens} 的坐标就是它们的词向量 x。",
            "The coordinates of {tokens} are their embeddings.",
        ),
        "compare": (
            "方向越接近，点积越大：注意力就从这里开始。",
            "The closer two directions, the larger their dot product: attention starts here.",
        ),
    },
    "Projections": {
        "roles": (
            "查询 q 提问，键 k 应答，值 v 携带内容：就像在图书馆检索。",
            "A query asks, a key answers, a value carries the content: like searching a library.",
        ),
        "identity": (
            "本例中 $W_q = W_k = W_v = I$：每个词的查询、键和值就是它的词向量，q = k = v = x。",
            "Here $W_q = W_k = W_v = I$: each token's query, key and value are its embedding, q = k = v = x.",
        ),
        "identity_rotary": (
            "本例中 $W_q = W_k = W_v = I$：q = k = v = x；之后旋转位置编码按位置转动 q 和 k（见旋转位置一节）。",
            "Here $W_q = W_k = W_v = I$: q = k = v = x, until RoPE turns q and k by their positions (see RotaryPositions).",
        ),
        "illustrative": (
            "示意（随机种子 {seed}，仅作演示）：学到的 $W_q$ 与 $W_k$ 是两个不同的映射，把同一个词送到查询空间和键空间的不同位置。",
            "Illustration (seed {seed}, for show only): learned $W_q$ and $W_k$ are two different maps that send each token to different places in the query space and the key space.",
        ),
        "compare": (
            "在键空间里，{q} 与每个键相比：与 {k} 最匹配（{score}）。",
            "In the key space, {q} meets every key: it matches {k} best ({score}).",
        ),
        "map_q": (
            "$Q = X W_q$：线性映射把整个平面连同网格一起变换。",
            "$Q = X W_q$: a linear map moves the whole plane, grid and all.",
        ),
        "map_k": (
            "$K = X W_k$：同样的词，另一个映射。",
            "$K = X W_k$: the same tokens, another map.",
        ),
        "map_v": (
            "$V = X W_v$：值向量携带要被混合的内容。",
            "$V = X W_v$: the values carry the content that gets mixed.",
        ),
        "maps_nd": (
            "$Q = X W_q$，$K = X W_k$，$V = X W_v$：三个线性映射（图为二维视图）。",
            "$Q = X W_q$, $K = X W_k$, $V = X W_v$: three linear maps (shown in a 2-D view).",
        ),
        "maps_nd_exact": (
            "$Q = X W_q$，$K = X W_k$，$V = X W_v$：三个线性映射，映到 {d} 维，精确画出。",
            "$Q = X W_q$, $K = X W_k$, $V = X W_v$: three linear maps into {d} dimensions, drawn exactly.",
        ),
        "maps_nd_exact_rotary": (
            "$Q = X W_q$，$K = X W_k$，$V = X W_v$：三个线性映射，映到 {d} 维，精确画出。之后旋转位置编码按位置转动 q 和 k，v 不转。",
            "$Q = X W_q$, $K = X W_k$, $V = X W_v$: three linear maps into {d} dimensions, drawn exactly. RoPE then turns q and k by position; v is not turned.",
        ),
        "map_q_rotary": (
            "$Q = X W_q$：线性映射把整个平面连同网格一起变换。之后旋转位置编码再按位置转动每个 q（见旋转位置一节）。",
            "$Q = X W_q$: a linear map moves the whole plane, grid and all. RoPE then turns each q by its position (see RotaryPositions).",
        ),
        "map_k_rotary": (
            "$K = X W_k$：同样的词，另一个映射；之后每个 k 也按位置转动。",
            "$K = X W_k$: the same tokens, another map; each k is then turned by its position too.",
        ),
        "maps_nd_rotary": (
            "$Q = X W_q$，$K = X W_k$，$V = X W_v$：三个线性映射（图为二维视图）。之后旋转位置编码按位置转动 q 和 k，v 不转。",
            "$Q = X W_q$, $K = X W_k$, $V = X W_v$: three linear maps (shown in a 2-D view). RoPE then turns q and k by position; v is not turned.",
        ),
        "match": (
            "匹配分数 $q_i dot k_j = x_i W_q W_k^top x_j^top$：通过 $W_q$ 和 $W_k$ 学习谁该关注谁。",
            "The match $q_i dot k_j = x_i W_q W_k^top x_j^top$: $W_q$ and $W_k$ learn who should attend to whom.",
        ),
        "match_rotary": (
            "旋转位置编码下匹配分数为 $q_i dot k_j = x_i W_q R_(i - j) W_k^top x_j^top$：只有两个位置之差 $i - j$ 进入分数。",
            "With rotary positions the match is $q_i dot k_j = x_i W_q R_(i - j) W_k^top x_j^top$: only the offset $i - j$ of the two positions enters.",
        ),
    },
    "DotProducts": {
        # which query is followed: the kind of attention_core.claims.demo_row
        "query_widest": (
            "我们跟着查询 {q} 走：没有哪个查询的注意力分得比它更开（它最大的权重 {top} 是所有查询中最小的）。",
            "We follow one query, {q}: no query spreads its attention more widely (its largest weight, {top}, is the smallest of any query's).",
        ),
        "query_widest_seeing_all": (
            "我们跟着查询 {q} 走，它能看到所有的键：这样的查询中，没有哪个的注意力分得比它更开（它最大的权重是 {top}）。",
            "We follow one query, {q}, which sees every key: of such queries, none spreads its attention more widely (its largest weight is {top}).",
        ),
        "query_seeing_all": (
            "我们跟着查询 {q} 走：只有它能看到所有的键（它最大的权重是 {top}）。",
            "We follow one query, {q}, the only one that sees every key (its largest weight is {top}).",
        ),
        "query_widest_among": (
            "我们跟着查询 {q} 走：这里跟随的查询中，没有哪个的注意力分得比它更开（它最大的权重是 {top}）。",
            "We follow one query, {q}: of the queries followed here, none spreads its attention more widely (its largest weight is {top}).",
        ),
        "query_alike": (
            "我们跟着第一个查询 {q} 走：每个查询最大的权重彼此相差不到 {alike}，注意力分得差不多开（它的是 {top}）。",
            "We follow the first query, {q}: every query's largest weight is within {alike} of the others', so they spread alike (this one's is {top}).",
        ),
        "query_peaked": (
            "我们跟着查询 {q} 走：每个查询都几乎把全部注意力放在一个键上，它放了 {top}。",
            "We follow one query, {q}: every query puts nearly all its attention on one key, this one {top}.",
        ),
        "query_only": (
            "我们跟着唯一的查询 {q} 走（它最大的权重是 {top}）。",
            "We follow the one query, {q} (its largest weight is {top}).",
        ),
        "pair": (
            "{q}·{k}：{k} 在 {q} 方向上的影子长 {shadow}，乘以 |{q}| = {nq}，得 {score}。",
            "{q}·{k}: the shadow of {k} on {q}'s direction is {shadow}; times |{q}| = {nq} gives {score}.",
        ),
        "matrix": (
            "每个查询都这样做：每个格子来自它自己的影子，得到分数矩阵 $Q K^top$（{m}×{n}）。",
            "Every query does the same, each cell from its own shadow: the score matrix $Q K^top$ ({m}×{n}).",
        ),
    },
    "Scaling": {
        "divide": (
            "除以 $sqrt(d_k)$ = {sqrt}：{q} 的分数 {raw} 变为 {scaled}。",
            "Divide by $sqrt(d_k)$ = {sqrt}: the scores of {q}, {raw}, become {scaled}.",
        ),
        "divide_in_place": (
            "除以 $sqrt(d_k)$ = {sqrt}：每个分数原地变小，{q} 的分数现在是 {scaled}。",
            "Divide by $sqrt(d_k)$ = {sqrt}: every score shrinks where it stands; the scores of {q} are now {scaled}.",
        ),
        "variance": (
            "为什么？随机向量的点积，方差随维度增长：d = 16、32、64 时分别为 {v16}、{v32}、{v64}。",
            "Why? For random vectors the dot product's variance grows with d: {v16}, {v32}, {v64} at d = 16, 32, 64.",
        ),
        "scaled": (
            "除以 √d 后，三组分数都落在同一个窄范围内，方差也回到 1 附近：{s16}、{s32}、{s64}。",
            "Divided by √d, all three fall in the same narrow range, the variance back near 1 ({s16}, {s32}, {s64}).",
        ),
        "softmax64": (
            "d = {d} 时随机一行 {n} 个分数。不缩放时 softmax 把 {maxraw} 给了一个键，Σ s(1−s) = {graw}，这就是饱和。除以 √{d} 后两者为 {maxscaled} 和 {gscaled}。",
            "A random row of {n} scores at d = {d}: unscaled, softmax gives {maxraw} to one key, Σ s(1−s) = {graw}: saturated. Divided by √{d}: {maxscaled} and {gscaled}.",
        ),
    },
    "Softmax": {
        "exp": (
            "先对 {q} 的缩放后分数取指数：分数越大，份额越大，而且每份都是正的。",
            "First exponentiate the scaled scores of {q}: a larger score gets a larger share, and every share is positive.",
        ),
        "exp_widest": (
            "看 {q} 这一行：没有哪一行的权重分得比它更开。先取指数：分数越大，份额越大，而且每份都是正的。",
            "Take the row of {q}: no row's weights are spread more widely. First exponentiate: a larger score gets a larger share, and every share is positive.",
        ),
        "exp_widest_seeing_all": (
            "看 {q} 这一行，它能看到所有的键：这样的行中，没有哪一行分得比它更开。先取指数：分数越大，份额越大，而且每份都是正的。",
            "Take the row of {q}, which sees every key: of such rows, none is spread more widely. First exponentiate: a larger score gets a larger share, and every share is positive.",
        ),
        "exp_alike": (
            "看第一行 {q}：每一行最大的权重彼此相差不到 {alike}。先取指数：分数越大，份额越大，而且每份都是正的。",
            "Take the first row, that of {q}: every row's largest weight is within {alike} of the others'. First exponentiate: a larger score gets a larger share, and every share is positive.",
        ),
        "exp_seeing_all": (
            "看 {q} 这一行：只有它能看到所有的键，所以掩码前后它的权重相同。先取指数：分数越大，份额越大，而且每份都是正的。",
            "Take the row of {q}: only it sees every key, so the mask leaves its weights as they are. Exponentiate first: a larger score gets a larger share, every share positive.",
        ),
        "exp_peaked": (
            "看 {q} 这一行：每一行的权重都几乎集中在一个键上。先取指数：分数越大，份额越大，而且每份都是正的。",
            "Take the row of {q}: every row's weights are nearly one-hot. First exponentiate: a larger score gets a larger share, and every share is positive.",
        ),
        "share": (
            "再除以总和：{q} 的权重是 {weights}，合起来正好是 1。",
            "Then divide by the total: the weights of {q} are {weights}, exactly 1 together.",
        ),
        "share_unmasked": (
            "再除以总和：{q} 的权重是 {weights}，合起来正好是 1。这里还没有加掩码，掩码稍后再讲。",
            "Then divide by the total: the weights of {q} are {weights}, exactly 1 together. No mask yet: masks come later.",
        ),
        "rows": (
            "每一行都把一个整体分给所有的键。",
            "Every row shares out one whole among the keys.",
        ),
        "rows_unmasked": (
            "每一行都把一个整体分给所有的键（尚未加掩码）。",
            "Every row shares out one whole among the keys (before any mask).",
        ),
        "sharper_little": (
            "本例 $d_k$ = {dk}，不缩放只是 ×{sqrt}：Σ s(1−s) 从 {g1} 到 {graw}，变化很小；×10、×100 时为 {g10}、{g100}。",
            "Here $d_k$ = {dk}: unscaled is only ×{sqrt}, Σ s(1−s) {g1} → {graw}, little change. ×10, ×100: {g10}, {g100}.",
        ),
        "sharper_more": (
            "本例 $d_k$ = {dk}，不缩放即 ×{sqrt}：Σ s(1−s) 从 {g1} 降到 {graw}；×10、×100 时为 {g10}、{g100}。",
            "Here $d_k$ = {dk}: unscaled is ×{sqrt}, Σ s(1−s) {g1} → {graw}. ×10, ×100: {g10}, {g100}.",
        ),
        "sharper_flat": (
            "这一行的分数都相同：乘以任何倍数，权重都不变，Σ s(1−s) 一直是 {g1}（×10、×100 时为 {g10}、{g100}）。",
            "Every score in this row is the same: multiplying changes no weight, and Σ s(1−s) stays {g1} (×10, ×100: {g10}, {g100}).",
        ),
        "sharper_one": (
            "本例 $d_k$ = 1，缩放不改变分数。乘以倍数后 Σ s(1−s) 从 {g1} 降到 {g10}（×10）、{g100}（×100）。",
            "Here $d_k$ = 1: scaling changes nothing. Multiplied, Σ s(1−s) falls from {g1} to {g10} (×10) and {g100} (×100).",
        ),
        "saturation": (
            "d = {d} 时随机一行 {n} 个分数。不缩放时最大权重 {maxraw}，Σ s(1−s) = {graw}，这就是饱和。除以 √{d} 后两者为 {maxscaled} 和 {gscaled}。",
            "A random row of {n} scores at d = {d}: unscaled, the largest weight is {maxraw}, Σ s(1−s) = {graw}: saturated. Divided by √{d}: {maxscaled} and {gscaled}.",
        ),
    },
    "WeightedSum": {
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
        "shrink": ("每个值向量按它的权重缩短。", "Each value vector is shrunk by its weight."),
        "chain": (
            "首尾相接，合成输出向量 o；它总在值向量的凸包之内。",
            "Placed tip to tail they add up to the output o, always inside the convex hull of the values.",
        ),
        "residual": (
            "输出作为更新量 ΔE = o 加回 {q} 的词向量：E + ΔE。ΔE 中有 {share} 来自其他词。",
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
            "The output has another size than the embedding, so it is not added back here.",
        ),
    },
    "AttentionMatrix": {
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
    },
    "Overview": {
        "formula": (
            '自注意力一行写完：$"softmax"((Q K^top) / sqrt(d_k)) V$。',
            'Self-attention in one line: $"softmax"((Q K^top) / sqrt(d_k)) V$.',
        ),
        "qk": (
            "$Q K^top$：每一对词的点积，也就是一个向量在另一个方向上的投影有多长。",
            "$Q K^top$: the dot product of every pair, how long each shadow is.",
        ),
        "scale": (
            "÷$sqrt(d_k)$：不让分数的方差随维度变大。",
            "÷$sqrt(d_k)$: keeps the scores' variance from growing with d.",
        ),
        "softmax": (
            "softmax：每一行变成一个整体的份额。",
            "softmax: each row becomes shares of one whole.",
        ),
        "values": (
            "乘以 V：按这些份额混合值向量，得到带上下文的输出 o。",
            "Times V: mix the values by those shares into outputs o that carry context.",
        ),
        "masked_note": (
            "本例带掩码：挡住的位置记为 −∞，softmax 之后权重为 0（掩码一节细讲）。",
            "This example is masked: blocked cells are −∞, and get weight 0 after softmax "
            "(the masking scene shows how).",
        ),
    },
    "HeadGallery": {
        "gallery": (
            "{H} 个头，同一个 0 到 1 的色标。每个头上方：编号、查询平均至少把 {threshold} 的权重放在哪里（否则为“分散”）和这个平均值。",
            "{H} heads on one 0 to 1 colour scale. Above each: its number, where its queries put at "
            "least {threshold} of their weight on average (else spread), and that average.",
        ),
        "gallery_grouped": (
            "{H} 个查询头分成 {G} 组，每组（一行）共用一个键/值头；同一个 0 到 1 的色标。每个头上方：编号、查询平均至少把 {threshold} 的权重放在哪里（否则为“分散”）和这个平均值。",
            "{H} query heads in {G} groups, each row sharing one key/value head, on one 0 to 1 "
            "colour scale. Above each: its number, where its queries put at least {threshold} of "
            "their weight on average (else spread), and that average.",
        ),
        "reading": (
            "读数：{summary}；框出的是看{lit}的头。",
            "The reading: {summary}; outlined: the heads on {lit}.",
        ),
        "reading_spread": (
            "读数：{summary}；没有哪个头的查询平均把一半以上的权重放在同一种位置上。",
            "The reading: {summary}; no head's queries put half their weight on one pattern.",
        ),
        "cross": (
            "这个场景读自注意力的各个头；本例是交叉注意力，请看交叉注意力一节。",
            "This scene reads the heads of self-attention; this example is cross-attention (see "
            "the cross-attention scene).",
        ),
    },
    "CausalMask": {
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
    },
    "MultiHeadSplit": {
        "project": (
            "$Q = X W_q$，K、V 同理：每个矩阵的列分成 {H} 块，每个头一块（$d_k$ = {d_k}）。",
            "$Q = X W_q$, and K and V alike: the columns fall into {H} blocks, one per head ($d_k$ = {d_k}).",
        ),
        "project_grouped": (
            "$Q = X W_q$ 的列分成 {H} 块，每个查询头一块；K 和 V 只有 {G} 块：每个键/值头由 {g} 个查询头共用（块下标出是哪几个头，$d_k$ = {d_k}）。",
            "$Q = X W_q$ falls into {H} blocks, one per query head; K and V into only {G}: each key/value head is shared by {g} query heads (named under its block; $d_k$ = {d_k}).",
        ),
        "project_independent": (
            "NumPy 演示的写法：{H} 个头各有自己的 $W_q$、$W_k$、$W_v$；并排放在一起，Q、K、V 每个头占一块列。",
            "As in the NumPy walk-through, each of the {H} heads has its own $W_q$, $W_k$, $W_v$; side by side, Q, K and V get one column block per head.",
        ),
        "split": (
            "每个头取走自己那一块：模型的 {d} 个维度分给 {H} 个头，每个头 $d_k$ = {d_k} 维。",
            "Each head takes its own block: the {d} model dimensions are split among {H} heads of $d_k$ = {d_k}.",
        ),
        "split_other": (
            "每个头取走自己那一块：{H} 个头，每个 $d_k$ = {d_k} 维，合起来 {w} 维（模型本身是 {d} 维）。",
            "Each head takes its own block: {H} heads of $d_k$ = {d_k}, {w} columns together (the model has {d} dimensions).",
        ),
        "split_grouped": (
            "每个查询头取走自己的 Q 块，K 和 V 则取它所在组的那一块：{H} 个查询头共用 {G} 个键/值头（{example}）。",
            "Each query head takes its own block of Q, and the K and V blocks of its group: {H} query heads share {G} key/value heads ({example}).",
        ),
        "split_independent": (
            "每个头取走自己那一块：{H} 个相互独立的头，每个把模型的 {d} 维映射到 $d_k$ = {d_k} 维。",
            "Each head takes its own block: {H} independent heads, each mapping the {d} model dimensions to $d_k$ = {d_k}.",
        ),
        "heads": (
            "每个头在自己的子空间里算注意力：查询是实线箭头，键是虚线箭头，权重各不相同。",
            "Each head attends in its own subspace: queries are solid arrows, keys outlined, and each head has its own weights.",
        ),
        "heads_grouped": (
            "每个头在自己的子空间里算注意力：同组的头看的是同一组键，但各有自己的查询，所以权重各不相同。",
            "Each head attends in its own subspace: heads of one group see the same keys, but each asks its own queries, so their weights differ.",
        ),
        "heads_rotary": (
            "每个头在自己的子空间里算注意力：q 和 k 先按位置转动（RoPE），查询是实线箭头，键是虚线箭头。",
            "Each head attends in its own subspace: q and k are first turned by their positions (RoPE); queries solid, keys outlined.",
        ),
        "heads_grouped_rotary": (
            "每个头在自己的子空间里算注意力：q 和 k 先按位置转动（RoPE）；同组的头看同一组键，但查询各不相同。",
            "Each head attends in its own subspace: q and k are first turned by position (RoPE); heads of one group see the same keys with their own queries.",
        ),
        "concat": (
            "各头的输出并排拼接：{H} 个头，共 {w} 列。",
            "The heads' outputs slide side by side: {H} heads, {w} columns in all.",
        ),
        "mix": (
            "$W_O$ 把拼接的结果混合回模型的 {d} 维。",
            "$W_O$ mixes the concatenation back to the {d} model dimensions.",
        ),
        "mix_other": (
            "$W_O$ 把拼接的结果混合成宽度为 {w} 的输出（模型本身是 {d} 维）。",
            "$W_O$ mixes the concatenation into an output of width {w} (the model has {d} dimensions).",
        ),
        "no_mix": (
            "NumPy 演示的逐头写法到此为止：各头独立计算，直接拼接，没有 $W_O$，拼接就是输出。",
            "The NumPy walk-through's per-head form stops here: independent heads, concatenated, no $W_O$; the concatenation is the output.",
        ),
        "one_head": (
            "这个例子只有一个头：没有可拆分的东西。多头注意力需要至少两个头。",
            "This example has a single head, so there is nothing to split: multi-head attention needs two heads or more.",
        ),
    },
    "RotaryPositions": {
        "pair_most": (
            "查询 {q} 和键 {k} 的第 {i} 对维度（共 {P} 对）——它们的分数大多来自这一对：在它的平面里是两个箭头。",
            "Pair {i} of {P}, the one that carries most of their score: the query {q} and the key {k} as two arrows in its plane.",
        ),
        "pair": (
            "查询 {q} 和键 {k} 的第 {i} 对维度（共 {P} 对）：在这对维度的平面里，它们是两个箭头。",
            "Pair {i} of {P}: the query {q} and the key {k} as two arrows in the plane of that pair of dimensions.",
        ),
        "turn": (
            "位置就是旋转：{q} 在位置 {m}，转 {m}·ω；{k} 在位置 {n}，转 {n}·ω。",
            "A position is a rotation: {q} at position {m} turns by {m}·ω, {k} at position {n} by {n}·ω.",
        ),
        "score": (
            "转过之后的点积就是注意力用的分数：{q}·{k} = {score}。",
            "The dot product after turning is the score attention uses: {q}·{k} = {score}.",
        ),
        "shift": (
            "两个都往后移 {s} 个位置：各自多转 {s}·ω，夹角不变，分数仍是 {score}，只有位置之差起作用。",
            "Move both {s} positions on: each turns {s}·ω further, the angle between them stays, the score stays {score}; only the offset counts.",
        ),
        "pairs": (
            "{P} 对维度各有自己的转速：快的对区分相邻位置，慢的对几乎不转，记住远处的内容。",
            "Each of the {P} pairs turns at its own rate: fast pairs tell neighbours apart, slow ones barely turn and carry content over long distances.",
        ),
    },
    "PositionalEncoding": {
        "waves": (
            "每个维度一条正弦或余弦波，维度越高频率越低：每个位置得到独一无二的编码。",
            "One sine or cosine wave per dimension, slower and slower: every position gets its own code.",
        ),
        "waves_2d": (
            "两个维度：一条正弦、一条余弦，频率相同；每个位置得到自己的一对数。",
            "Two dimensions: one sine and one cosine of the same frequency; each position gets its own pair.",
        ),
        "add": (
            "位置编码直接加到词向量上：向量加法。",
            "The code is simply added to each embedding: vector addition.",
        ),
        # whether order matters: the kind of attention_core.claims.order_check
        "order_pe_orders": (
            "为什么需要它：没有位置编码，打乱词序只会打乱输出；加上后输出真的改变。",
            "Why: without it, shuffling the tokens only shuffles the outputs; with it, the outputs really change.",
        ),
        "order_mask_orders": (
            "本例的因果掩码已经让顺序起作用：即使没有位置编码，打乱词序也会改变输出；位置编码把顺序也写进每个词向量。",
            "Here the causal mask already makes order matter: even without the code, shuffling the tokens changes the outputs; the code writes the order into every embedding too.",
        ),
        "order_alike": (
            "这些词打乱后与原来一样，有没有位置编码输出都不变；一般来说，正是位置编码让顺序起作用。",
            "These tokens are alike, so shuffling them changes nothing, with or without the code; in general the code is what makes order matter.",
        ),
        "order_pe_undoes": (
            "打乱词序：没有位置编码时输出改变，加上后反而不变。",
            "Shuffled, the outputs change without the code and stay as they were with it.",
        ),
        "order_none": (
            "（打乱词序的对比需要至少两个词的自注意力。）",
            "(The shuffle comparison needs self-attention over at least two tokens.)",
        ),
        "order_rotary": (
            "（这个例子用旋转位置编码 RoPE 表示位置，不再加正弦编码：旋转位置一节展示它。）",
            "(This example encodes positions by rotating q and k (RoPE), not by adding sinusoids: RotaryPositions shows it.)",
        ),
    },
    "EncoderBlock": {
        "attention": (
            '编码器块第一步：多头自注意力 $A = "MultiHead"(X)$，每个词得到一个变化量。',
            'An encoder block starts with multi-head self-attention, $A = "MultiHead"(X)$: a change for every token.',
        ),
        "residual1": (
            "残差连接：把注意力的输出加回原来的向量，X + A，也就是 E + ΔE。",
            "The residual: the attention output is added back to each token's vector, X + A, that is E + ΔE.",
        ),
        "norm1": (
            '层归一化逐行进行：$H = "LayerNorm"(X + A)$，每个词的均值变为 0、方差变为 1。',
            'LayerNorm, row by row: $H = "LayerNorm"(X + A)$ brings each token to mean 0 and variance 1.',
        ),
        "ffn": (
            '逐位置的前馈网络 $F = "ReLU"(H W_1) W_2$（$W_1$、$W_2$ 为示意用随机权重，种子 {seed}）。',
            'A position-wise feed-forward network, $F = "ReLU"(H W_1) W_2$ ($W_1$, $W_2$ illustrative, seed {seed}).',
        ),
        "residual2": (
            "再一次残差：H + F，前馈网络的结果同样加回去。",
            "The residual again: H + F, the network's result added back in the same way.",
        ),
        "norm2": (
            '再做一次层归一化：$Y = "LayerNorm"(H + F)$，这就是块的输出。',
            'LayerNorm once more: $Y = "LayerNorm"(H + F)$ is the block\'s output.',
        ),
        "norm2_trained": (
            '再做一次层归一化：$Y = "LayerNorm"(H + F)$。注意力部分是模型自己的；前馈网络的 W₁、W₂ 是示意的，所以 Y 不是模型这一块的真实输出。',
            "LayerNorm once more: $Y = \"LayerNorm\"(H + F)$. The attention half is the model's own; W₁, W₂ of the feed-forward network are illustrative, so Y is not the model's block output.",
        ),
        "narrow": (
            "编码器块需要至少 4 维的词向量：这个例子只有 {d} 维，层归一化后几乎不剩信息。",
            "The encoder block needs vectors of at least 4 dimensions: here there are {d}, and LayerNorm would leave almost nothing.",
        ),
        "cross": (
            "编码器块用的是自注意力：这个例子是交叉注意力，不适用。",
            "The encoder block uses self-attention; this example is cross-attention, so it does not apply.",
        ),
        "own_wo": (
            "编码器块需要注意力自己的 $W_O$ 把各头的输出映射回 {d} 维：这个例子没有，不编造一个。",
            "The encoder block needs the attention's own $W_O$ to map the heads back to {d} dimensions; this example has none, and none is made up.",
        ),
    },
    "CrossAttention": {
        "sequences": (
            "查询来自 {queries}，键和值来自另一个序列 {sources}：查询是实线箭头，键是虚线箭头。",
            "Queries come from {queries}; keys and values from another sequence, {sources}: queries solid, keys outlined.",
        ),
        "same": (
            "这个例子没有第二个序列：键和值也来自 {queries}，这是自注意力，交叉注意力不适用。",
            "This example has no second sequence: keys and values also come from {queries}. That is self-attention, so cross-attention does not apply.",
        ),
        "scores": (
            "分数矩阵是 {m}×{n} 的长方形：每个查询对每个源词打分。",
            "The score matrix is {m}×{n}, rectangular: every query scores every source token.",
        ),
        "weights": (
            "softmax 之后，每一行的权重加起来是 1，分给源序列的词。",
            "After softmax each row's weights add up to 1, shared among the source tokens.",
        ),
        "outputs": (
            "每个查询的输出 o(…) 是源序列值向量按这一行权重的混合。",
            "Each query's output o(…) is the source's values mixed by that query's row of weights.",
        ),
    },
}

WORDS = {
    "starter_heading": ("词向量 x", "the embeddings x"),
    "query": ("查询", "query"),
    "key": ("键", "key"),
    "value": ("值", "value"),
    "asks": ("提问：我在找什么？", "asks: what am I looking for?"),
    "answers": ("应答：我有什么可匹配？", "answers: what do I offer to match?"),
    "carries": ("携带：被取走的内容", "carries: the content that is taken"),
    "scores": ("分数 $Q K^top$", "scores $Q K^top$"),
    "scaled": ("缩放后 $Q K^top \\/ sqrt(d_k)$", "scaled $Q K^top \\/ sqrt(d_k)$"),
    "weights": ("注意力权重", "attention weights"),
    "output": ("输出", "output"),
    "embeddings": ("词向量 X", "embeddings X"),
    "view_kept": ("二维视图：保留 {kept}", "2-D view: keeps {kept}"),
    # MultiHeadSplit: the widths a step's caption names, on one line under the content
    "widths_project": ("{H} 块 × {d_k} 列 = {w} 列", "{H} blocks × {d_k} columns = {w} columns"),
    "widths_grouped": (
        "Q：{H} × {d_k} 列 · K、V：{G} × {d_k} 列",
        "Q: {H} × {d_k} · K, V: {G} × {d_k}",
    ),
    "widths_split_grouped": (
        "{H} 个查询头 · {G} 个键/值头，各由 {g} 个查询头共用",
        "{H} query heads · {G} key/value heads, each read by {g}",
    ),
    "widths_split": ("{d} = {H} 个头 × {d_k}", "{d} = {H} heads × {d_k}"),
    "widths_other": (
        "{H} 个头 × {d_k} = {w}（模型 {d} 维）",
        "{H} heads × {d_k} = {w} (model: {d})",
    ),
    "widths_independent": ("{H} 个头，各自 {d} → {d_k}", "{H} heads, each {d} → {d_k}"),
    "widths_concat": ("{H} 个头 × {d_v} = {w} 列", "{H} heads × {d_v} = {w} columns"),
    "widths_mix": ("{w} × {d}", "{w} × {d}"),  # after a typeset W_O
    "largest_weight": ("softmax 之后最大的权重：", "largest weight, after softmax:"),
    "view_exact": ("{d} 维：精确", "{d}-D: exact"),
    "pair_plane": ("在 q 与 k 张成的平面中（精确）", "in the plane spanned by q and k (exact)"),
    "illustrative": ("示意用 W（种子 {seed}）", "illustrative W (seed {seed})"),
    "identity": ("W = I：Q = K = V = X", "W = I: Q = K = V = X"),
    "raw": ("不缩放", "unscaled"),
    "scaled_hist": ("÷√d", "÷√d"),
    "variance": ("方差", "variance"),
    "sum": ("合计", "sum"),
    "times": ("×{f}", "×{f}"),
    "gradient": ("s(1−s)", "s(1−s)"),
    "own": ("原向量", "own vector"),
    "hull": ("凸包", "convex hull"),
    "row_sum": ("行和", "row sum"),
    "cost_cells": ("个格子", "cells"),
    "multiply_adds": ("次乘加", "multiply-adds"),
    "symmetric_no": ("矩阵不对称：{a} ≠ {b}。", "The matrix is not symmetric: {a} ≠ {b}."),
    "symmetric_yes": ("这个矩阵恰好对称。", "This matrix happens to be symmetric."),
    "head_of": ("第 {h} 个头（共 {H} 个）", "head {h} of {H}"),
    "saturated": ("分数极大：权重已是独热", "huge scores: the weights are one-hot"),
    "exp_shift": ("$e^(s - max)$", "$e^(s - max)$"),
    "tokens_list_sep": ("、", ", "),
    "masked": ("掩码后（−∞ = 挡住）", "masked (−∞ = blocked)"),
    "mask_causal": (
        "因果掩码，第 i 个词只能看位置不超过 i 的词",
        "a causal mask: token i sees positions ≤ i only",
    ),
    "mask_applied": (
        "这里给本例加上因果掩码，第 i 个词只能看位置不超过 i 的词",
        "a causal mask applied to this example: token i sees positions ≤ i only",
    ),
    "mask_padding": (
        "填充掩码，每一行里的填充位置都被挡住",
        "a padding mask: padded keys are blocked in every row",
    ),
    "mask_explicit": ("本例给出的掩码", "the example's own mask"),
    "mask_none": ("不加掩码", "no mask"),
    "queries": ("查询", "queries"),
    "sources": ("源序列", "source"),
    "head_n": ("头 {h}", "head {h}"),
    "heads_range": ("头 {a}–{b}", "heads {a}–{b}"),
    "ffn_seed": ("W₁、W₂：示意，种子 {seed}", "W₁, W₂: illustrative, seed {seed}"),
    "ffn_seed_short": ("种子 {seed}", "seed {seed}"),
    "kv_head_n": ("键值 {g}", "K/V {g}"),
    "kv_shared": ("{a}–{b} 共用 {K}、{V}", "{a}–{b} share {K}, {V}"),
    "without_pe": ("无位置编码：最大差异", "without PE: largest difference"),
    "with_pe": ("有位置编码：最大差异", "with PE: largest difference"),
    "only_moved": ("（输出只是换了顺序）", "(the outputs were only reordered)"),
    "changed_by_mask": ("（掩码让输出改变了）", "(the mask changed the outputs)"),
    "unchanged": ("（输出没有改变）", "(the outputs did not change)"),
    "terms_all": ("所有值向量", "all value vectors"),
    "terms_allowed": (
        "它能看到的 {k} 个值向量（掩码挡住了 {b} 个）",
        "the {k} value vectors it may see (the mask blocks {b})",
    ),
    "changed": ("（输出真正改变了）", "(the outputs really changed)"),
    "reversed": ("把词序倒过来", "the tokens in reverse order"),
    "concat_title": ("拼接 [头 1 … 头 {H}]", "concat [head 1 … head {H}]"),
    "head_after_gap": ("… 头 {h}", "… head {h}"),  # the heads before it are not drawn
    "mixed_title": ("输出 = 拼接 · $W_O$", "output = concat · $W_O$"),
    "no_w_o": ("（没有 $W_O$：拼接就是输出）", "(no $W_O$: the concatenation is the output)"),
    # the lecture page
    "tokens_label": ("词", "Tokens"),
    "numbers_title": ("本例的全部数值", "Every number of this example"),
    # HeadGallery
    "heads_on": ("{n} 个头看{what}", "{n} attend to {what}"),
    "heads_on_1": ("{n} 个头看{what}", "{n} attends to {what}"),
    "heads_spread": ("{n} 个头分散", "{n} spread out"),
    "heads_spread_1": ("{n} 个头分散", "{n} spreads out"),
    "heads_key_rows": ("行 = 查询", "rows = queries"),
    "heads_key_cols": ("列 = 键", "columns = keys"),
    "heads_key_same": (
        "列 = 同样顺序的键",
        "columns = keys, same order",
    ),
    # Softmax
    "saturated_rows": (
        "{rows}：分数极大，权重已是独热",
        "{rows}: huge scores, the weights are one-hot",
    ),
    # Scaling
    "row64_heading": (
        "随机一行：1 个查询、{n} 个键，d = {d}",
        "One random row: 1 query, {n} keys, d = {d}",
    ),
    # DotProducts
    "scores_typeset": ("分数 $Q K^top$", "scores $Q K^top$"),
    "legend_q": ("查询 $q$", "query $q$"),
    "legend_k": ("键 $k$（空心）", "key $k$ (outlined)"),
    "legend_k_short": (
        "键 $k$",
        "key $k$",
    ),  # where the longer one does not fit: the arrow shows it
    # Embeddings
    "embeddings_typeset": ("词向量 $X$", "embeddings $X$"),
    # RotaryPositions
    "rope_omega": ("ω =", "ω ="),
    "rope_per_position": ("每个位置", "per position"),
    "rope_query": ("查询：m = {m}，m·ω =", "query: m = {m}, m·ω ="),
    "rope_key": ("键：n = {n}，n·ω =", "key: n = {n}, n·ω ="),
    "rope_score_one": ("分数 =", "score ="),
    "rope_term": ("这一对的贡献 =", "this pair's part ="),
    "rope_score": ("分数（{P} 对之和） =", "score (sum over {P} pairs) ="),
    "rope_shifted": ("两者都移 {s} 位后的分数 =", "score after moving both by {s} ="),
    "rope_fastest": ("最快的一对：ω =", "fastest pair: ω ="),
    "rope_slowest": ("最慢的一对：ω =", "slowest pair: ω ="),
    # Projections
    "identity_w": ("$W_q = W_k = W_v = I$", "$W_q = W_k = W_v = I$"),
    "identity_qkv": ("$q = k = v = x$", "$q = k = v = x$"),
    "identity_roles": ("三种角色是同一个向量", "the three roles are one vector"),
    "space_q": ("查询空间 $Q = X W_q$", "query space $Q = X W_q$"),
    "space_k": ("键空间 $K = X W_k$", "key space $K = X W_k$"),
    "space_k_source": ("键空间（源序列 S）$K = S W_k$", "key space (source S) $K = S W_k$"),
    "illustrative_wq": ("示意用，种子", "illustrative, seed"),
    "illustrative_wk": ("示意用，种子", "illustrative, seed"),
    # MultiHeadSplit
    "mh_one_head": (
        "只有一个头：没有可拆分的",
        "one head: nothing to split",
    ),
    "mh_weights": ("权重", "weights"),
    "mh_output": ("输出 = 拼接 $dot W_O$", "output = concat $dot W_O$"),
    # EncoderBlock
    "enc_narrow": (
        '编码器块需要 $d_"model"$ ≥ 4（这里是 {d}）',
        'the encoder block needs $d_"model"$ ≥ 4 (here {d})',
    ),
    "enc_cross": ("编码器块只用自注意力", "the encoder block uses self-attention only"),
    "enc_own_wo": (
        "编码器块需要注意力自己的 $W_O$（多头：from-model --all-heads）",
        "the encoder block needs the attention's own $W_O$ (all heads: from-model --all-heads)",
    ),
    # CrossAttention
    "cross_qk": ("查询 q，源序列的键 k", "queries q, keys k"),
    "cross_vo": ("源序列的值 v，输出 o", "values v, outputs o"),
    "cross_not": ("没有第二个序列：这是自注意力", "no second sequence: this is self-attention"),
}


def default_lang(example) -> str:
    """zh when the example's labels or title use CJK characters, else en."""
    return "zh" if example.is_cjk else "en"


def reading_time(text: str, lang: str) -> float:
    """Seconds a viewer needs to read ``text``: 15 characters a second in English, 7 in Chinese
    (CJK characters at 7, the rest at 15), never under 2 s."""
    cjk = sum(1 for ch in text if ord(ch) > 0x2E7F and not ch.isspace())
    other = sum(1 for ch in text if ord(ch) <= 0x2E7F and not ch.isspace())
    spaces = sum(1 for ch in text if ch.isspace())
    return max(MIN_READ, cjk / ZH_RATE + (other + spaces) / EN_RATE)


def pick(pair: tuple[str, str], lang: str) -> str:
    return pair[LANGS.index(lang)]


def caption(scene: str, step: str, lang: str, whole_formulas: bool = False, **values) -> str:
    """The caption of ``step`` in ``scene``, filled with ``values`` (strings or numbers); its
    ``$…$`` formulas in Unicode forms (captions are plain text: they go to .srt and .vtt);
    ``whole_formulas``: with no-break spaces inside them, for breaking the caption into lines."""
    text = plain(pick(CAPTIONS[scene][step], lang), whole_formulas).format(**values)
    return text.replace("Σ ", "Σ" + NO_BREAK) if whole_formulas else text  # Σ s(1−s) too


def word(key: str, lang: str, **values) -> str:
    """A word or label, filled in, its ``$…$`` math in Unicode forms."""
    return plain(pick(WORDS[key], lang)).format(**values)


def template(key: str, lang: str) -> str:
    """A word or label's template with its ``$…$`` math kept, for typesetting on screen."""
    return pick(WORDS[key], lang)


def title(scene: str, lang: str, typeset: bool = False) -> str:
    """The scene's title: with its ``$…$`` math for the screen (``typeset``), else in Unicode."""
    text = pick(TITLES[scene], lang)
    return text if typeset else plain(text)
