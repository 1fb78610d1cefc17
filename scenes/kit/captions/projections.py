"""Projections: its title, the caption of each step (in the order the scene calls them) and its words,
Chinese and English side by side."""

SCENE = "Projections"
TITLE = ("Q、K、V：同一向量的三种角色", "Queries, keys and values")

STEPS = {
    "roles": (
        "查询 q 提问，键 k 应答，值 v 携带内容：就像在图书馆检索。",
        "A query asks, a key answers, a value carries the content: like searching a library.",
    ),
    "identity": (
        "本例中 $W_q = W_k = W_v = I$：每个词元的查询、键和值就是它的词向量，q = k = v = x。",
        "Here $W_q = W_k = W_v = I$: each token's query, key and value are its embedding, q = k = v = x.",
    ),
    "identity_rotary": (
        "本例中 $W_q = W_k = W_v = I$：q = k = v = x；之后旋转位置编码按位置转动 q 和 k（见旋转位置一节）。",
        "Here $W_q = W_k = W_v = I$: q = k = v = x, until RoPE turns q and k by their positions (see RotaryPositions).",
    ),
    "illustrative": (
        "示意（随机种子 {seed}，仅作演示）：学到的 $W_q$ 与 $W_k$ 是两个不同的映射，把同一个词元送到查询空间和键空间的不同位置。",
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
        "$K = X W_k$：同样的词元，另一个映射。",
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
    "maps_nd_biased": (
        "$Q = X W_q + b_q$，$K = X W_k + b_k$，$V = X W_v + b_v$：三个线性映射，各加上模型自己的偏置（图为二维视图）。",
        "$Q = X W_q + b_q$, $K = X W_k + b_k$, $V = X W_v + b_v$: three linear maps, each plus the model's own bias (shown in a 2-D view).",
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
        "$K = X W_k$：同样的词元，另一个映射；之后每个 k 也按位置转动。",
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
    # a trained head with biases (MiniLM's): the match is of the shifted maps, as on screen
    "match_biased": (
        "匹配分数 $q_i dot k_j = (x_i W_q + b_q)(x_j W_k + b_k)^top$：通过 $W_q$、$W_k$ 和偏置学习谁该关注谁。",
        "The match $q_i dot k_j = (x_i W_q + b_q)(x_j W_k + b_k)^top$: $W_q$, $W_k$ and their biases learn who should attend to whom.",
    ),
    "match_rotary": (
        "旋转位置编码下匹配分数为 $q_i dot k_j = x_i W_q R_(i - j) W_k^top x_j^top$：只有两个位置之差 $i - j$ 进入分数。",
        "With rotary positions the match is $q_i dot k_j = x_i W_q R_(i - j) W_k^top x_j^top$: only the offset $i - j$ of the two positions enters.",
    ),
    # what the head does with its followed pair (attention_core.pair_row): a trained or asked
    # head only
    "pair_top": (
        "q({q})\u00a0·\u00a0k({k})\u00a0=\u00a0{s} 是 q({q}) 能看到的键里最大的匹配。{lead}：{does}。",
        "q({q})\u00a0·\u00a0k({k})\u00a0=\u00a0{s} is the largest match of the keys q({q}) may see. {lead}: {does}.",
    ),
    "pair_ranked": (
        "q({q})\u00a0·\u00a0k({k})\u00a0=\u00a0{s} 不是 q({q}) 能看到的键里最大的匹配。{lead}：{does}。",
        "q({q})\u00a0·\u00a0k({k})\u00a0=\u00a0{s} is not the largest match of the keys q({q}) may see. {lead}: {does}.",
    ),
}

WORDS = {
    # Projections
    "identity_w": ("$W_q = W_k = W_v = I$", "$W_q = W_k = W_v = I$"),
    "identity_qkv": ("$q = k = v = x$", "$q = k = v = x$"),
    "identity_roles": ("三种角色是同一个向量", "the three roles are one vector"),
    "space_q": ("查询空间 $Q = X W_q$", "query space $Q = X W_q$"),
    "space_k": ("键空间 $K = X W_k$", "key space $K = X W_k$"),
    "space_k_source": ("键空间（源序列 S）$K = S W_k$", "key space (source S) $K = S W_k$"),
    "illustrative_wq": ("示意用，种子", "illustrative, seed"),
    "illustrative_wk": ("示意用，种子", "illustrative, seed"),
}
