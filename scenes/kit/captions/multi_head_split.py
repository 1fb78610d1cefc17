"""MultiHeadSplit: its title, the caption of each step (in the order the scene calls them) and its words,
Chinese and English side by side."""

SCENE = "MultiHeadSplit"
TITLE = ("多头注意力：每个头一个子空间", "Multi-head attention: a subspace per head")

STEPS = {
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
}

WORDS = {
    # MultiHeadSplit: the widths a step's caption names, on one line under the content
    "widths_project": ("{H} 块 × {d_k} 列 = {w} 列", "{H} blocks × {d_k} columns = {w} columns"),
    "widths_grouped": (
        "Q：{H} × {d_k} 列 · K、V：{G} × {d_k} 列",
        "Q: {H} × {d_k} · K, V: {G} × {d_k}",
    ),
    "widths_split_grouped": (
        "{H} 个查询头 · {G} 个键/值头，各由 {g} 个查询头共用",
        "{H} query heads · {G} key/value heads ({g} heads each)",
    ),
    "widths_split": ("{d} = {H} 个头 × {d_k}", "{d} = {H} heads × {d_k}"),
    "widths_other": (
        "{H} 个头 × {d_k} = {w}（模型 {d} 维）",
        "{H} heads × {d_k} = {w} (model: {d})",
    ),
    "widths_independent": ("{H} 个头，各自 {d} → {d_k}", "{H} heads, each {d} → {d_k}"),
    "widths_concat": ("{H} 个头 × {d_v} = {w} 列", "{H} heads × {d_v} = {w} columns"),
    "widths_mix": ("{w} × {d}", "{w} × {d}"),  # after a typeset W_O,
    # MultiHeadSplit
    "mh_one_head": (
        "只有一个头：没有可拆分的",
        "one head: nothing to split",
    ),
    "mh_weights": ("权重", "weights"),
    # the explained head (the one the other scenes explain) and the pair it follows
    "mh_explained": ("头 {h}：{q} → {k}", "head {h}: {q} → {k}"),
    # the heads without a panel (more heads than fit: those that matter are drawn)
    "mh_not_shown": ("未画出：头 {heads}", "heads {heads} not shown"),
    "mh_not_shown_one": ("未画出：头 {heads}", "head {heads} not shown"),
    "mh_shape_each": ("每个 {shape}", "{shape} each"),  # one shape for the outputs of a row
    "mh_output": ("输出 = 拼接 $dot W_O$", "output = concat $dot W_O$"),
    "mh_output_short": ("输出", "output"),
    "mh_values": ("Q、K、V 的值", "values of Q, K, V"),  # the key of their squares' colours
    "mh_values_out": ("输出的值", "values of the outputs"),
    "mh_values_mix": ("各矩阵的值", "values of each matrix"),
    # the explained head's key/value head, where the heads sharing it are not all drawn
    "mh_kv_reads": ("头 {h} 读的是 {K}、{V}", "head {h} reads {K}, {V}"),
}
