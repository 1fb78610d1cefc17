"""RotaryPositions: its title, the caption of each step (in the order the scene calls them) and its words,
Chinese and English side by side."""

SCENE = "RotaryPositions"
TITLE = ("旋转位置编码：位置就是旋转", "Rotary positions: a position is a rotation")

STEPS = {
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
}

WORDS = {
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
}
