"""RotaryPositions: its title, the caption of each step (in the order the scene calls them) and its words,
Chinese and English side by side."""

SCENE = "RotaryPositions"
TITLE = ("旋转位置编码：位置就是旋转", "Rotary positions: a position is a rotation")

STEPS = {
    "pairs_two": (
        "{P} 对维度中的两对，并排：左边第 {i0} 对转得快，右边第 {i1} 对转得慢；第 {i} 对在查询 {q} 与键 {k} 的分数里贡献最大。每个平面里它们是两个箭头，弧是它们的夹角。",
        "Two of the {P} pairs side by side: pair {i0} turns fast, pair {i1} slowly; pair {i} adds the most to the score of the query {q} and the key {k}. In each plane they are two arrows; the arc is the angle between them.",
    ),
    "pair_most": (
        "查询 {q} 和键 {k} 的第 {i} 对维度（共 {P} 对）——它对它们的分数贡献最大：在它的平面里是两个箭头。",
        "Pair {i} of {P}, the one that adds the most to their score: the query {q} and the key {k} as two arrows in its plane.",
    ),
    "pair": (
        "查询 {q} 和键 {k} 的第 {i} 对维度（共 {P} 对）：在这对维度的平面里，它们是两个箭头。",
        "Pair {i} of {P}: the query {q} and the key {k} as two arrows in the plane of that pair of dimensions.",
    ),
    "turn": (
        "位置就是旋转（位置从零数起）：{q} 在位置 {m}，转 {m}·ω；{k} 在位置 {n}，转 {n}·ω——每一对用它自己的 ω。",
        "A position is a rotation (positions count from zero): {q} at position {m} turns by {m}·ω, {k} at position {n} by {n}·ω — in each pair by that pair's own ω.",
    ),
    "score": (
        "转过之后的点积就是注意力用的分数：{q}·{k} = {score}。",
        "The dot product after turning is the score attention uses: {q}·{k} = {score}.",
    ),
    # the same, for a trained or asked head: what it does with this pair (AttentionMatrix's story)
    "score_does": (
        "转过之后的点积就是注意力用的分数：{q}·{k} = {score}。在这个头里，{does}。",
        "The dot product after turning is the score attention uses: {q}·{k} = {score}. In this head, {does}.",
    ),
    "shift": (
        "两个都往后移 {s} 个位置：各自多转 {s}·ω，夹角（弧）不变，分数仍是 {score}，只有位置之差起作用。",
        "Move both {s} positions on: each turns {s}·ω further, the angle between them (the arc) stays, the score stays {score}; only the offset counts.",
    ),
    "reading_content": (
        "这个头的分数里最大的一份来自第 {i} 对——慢的一对：每个位置只转 {w}°，从文字的第一个位置到最后一个（相隔 {L}）也只转 {t}°。这一份比较的是内容，与距离无关。",
        "The largest part of this head's score is pair {i}'s, a slow pair: {w}° per position, {t}° from the text's first position to its last ({L} apart). That part matches content, whatever the distance.",
    ),
    "reading_position": (
        "这个头的分数里最大的一份来自第 {i} 对——快的一对：每个位置转 {w}°，从文字的第一个位置到最后一个（相隔 {L}）转 {t}°。这一份对位置敏感：看的是查询与键相隔多远。",
        "The largest part of this head's score is pair {i}'s, a fast pair: {w}° per position, {t}° from the text's first position to its last ({L} apart). That part is tuned to position: to how far the key is from the query.",
    ),
}

WORDS = {
    # RotaryPositions
    "rope_pair": ("第 {i} 对", "pair {i}"),
    "rope_omega": ("ω / 位置", "ω / position"),
    "rope_term": ("贡献", "its part"),
    "rope_score": ("分数（{P} 对之和） =", "score ({P} pairs) ="),
    "rope_shifted": ("两者都移 {s} 位后 =", "both moved by {s} ="),
    "rope_shifted_short": ("都移 {s} 位 =", "moved by {s} ="),  # a narrow column's
    "rope_pair_heading": ("第 {i} 对（共 {P} 对）", "pair {i} of {P}"),
    "rope_pair_of": ("第 {i}/{P} 对", "pair {i}/{P}"),  # a small plane's
    "rope_score_one": ("分数 =", "score ="),
    "rope_directions": (
        "箭头只画方向（单位圆）；长度在表里",
        "arrows: directions (unit circle); lengths in the table",
    ),
    "rope_span": ("第 {i} 对，首尾相隔 {L} 位：{t}°", "pair {i}, first to last ({L} apart): {t}°"),
}
