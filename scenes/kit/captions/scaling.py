"""Scaling: its title, the caption of each step (in the order the scene calls them) and its words,
Chinese and English side by side."""

SCENE = "Scaling"
TITLE = ("为什么除以 $sqrt(d_k)$", "Why divide by $sqrt(d_k)$")

STEPS = {
    "divide": (
        "除以 $sqrt(d_k)$ = {sqrt}：{q} 框出的分数 {raw} 变为 {scaled}。",
        "Divide by $sqrt(d_k)$ = {sqrt}: the framed scores of {q}, {raw}, become {scaled}.",
    ),
    "divide_in_place": (
        "除以 $sqrt(d_k)$ = {sqrt}：每个分数原地变小，{q} 框出的分数现在是 {scaled}。",
        "Divide by $sqrt(d_k)$ = {sqrt}: every score shrinks where it stands; the framed scores of {q} are now {scaled}.",
    ),
    # the same, where a mask will block some of the scores shown (drawn in the blocked look)
    "divide_masked": (
        "除以 $sqrt(d_k)$ = {sqrt}：{q} 框出的分数 {raw} 变为 {scaled}。划掉的格子是后面的键，稍后会被掩码挡住。",
        "Divide by $sqrt(d_k)$ = {sqrt}: the framed scores of {q}, {raw}, become {scaled}. Crossed cells: later keys, which a mask will block.",
    ),
    "divide_in_place_masked": (
        "除以 $sqrt(d_k)$ = {sqrt}：每个分数原地变小，{q} 框出的分数现在是 {scaled}。划掉的格子稍后会被掩码挡住。",
        "Divide by $sqrt(d_k)$ = {sqrt}: every score shrinks where it stands; the framed scores of {q} are now {scaled}. Crossed cells: a mask will block them.",
    ),
    # what the head does with its followed pair (attention_core.pair_row): a trained or asked
    # head only
    "pair_top": (
        "在 q({q}) 能看到的键里，{k} 的缩放分数最高（{s}）；除以 $sqrt(d_k)$ 不改变顺序。{lead}：{does}。",
        "Of the keys q({q}) may see, {k} has the highest scaled score ({s}); ÷$sqrt(d_k)$ keeps the order. {lead}: {does}.",
    ),
    "pair_ranked": (
        "{k} 的缩放分数（{s}）不是 q({q}) 能看到的键里最高的；除以 $sqrt(d_k)$ 不改变这一行的顺序。{lead}：{does}。",
        "The scaled score of {k} ({s}) is not the highest q({q}) may see; ÷$sqrt(d_k)$ keeps the row's order. {lead}: {does}.",
    ),
    "pair_blocked": (
        "所问的一对 {q} → {k} 被掩码挡住：它的缩放分数 {s} 不会计入。",
        "The pair asked about, {q} → {k}, is blocked by the mask: its scaled score {s} never counts.",
    ),
    # a made-up example's demo pair (attention_core.followed_pair kind "demo"): no deed to tell
    "pair_demo": (
        "回到所跟随的一对 q({q}) · k({k})：除以 $sqrt(d_k)$ 后，它的分数是 {s}（框出）。",
        "Back to the pair followed, q({q}) · k({k}): divided by $sqrt(d_k)$, its score is {s} (framed).",
    ),
    "variance": (
        "为什么？随机向量的点积，方差随维度增长：d = 16、32、64 时分别为 {v16}、{v32}、{v64}。",
        "Why? For random vectors the dot product's variance grows with d: {v16}, {v32}, {v64} at d = 16, 32, 64.",
    ),
    "scaled": (
        "除以 $sqrt(d)$ 后，三组分数都落在同一个窄范围内，方差也回到 1 附近：{s16}、{s32}、{s64}。",
        "Divided by $sqrt(d)$, all three fall in the same narrow range, the variance back near 1 ({s16}, {s32}, {s64}).",
    ),
    "softmax64": (
        "d = {d} 时随机一行 {n} 个分数。不缩放时 softmax 把 {maxraw} 给了一个键，Σ s(1−s)（权重还能变动多少）= {graw}，这就是饱和。除以 $sqrt({d})$ 后：最大权重 {maxscaled}，Σ s(1−s) = {gscaled}。",
        "A random row of {n} scores at d = {d}. Unscaled, softmax gives {maxraw} to one key; Σ s(1−s), how much the weights can still move, is {graw}. That is saturation. Divided by $sqrt({d})$: the largest weight is {maxscaled}, Σ s(1−s) = {gscaled}.",
    ),
}

WORDS = {
    # Scaling
    "row64_heading": (
        "随机一行：1 个查询、{n} 个键，d = {d}",
        "One random row: 1 query, {n} keys, d = {d}",
    ),
}
