"""Embeddings: its title, the caption of each step (in the order the scene calls them) and its words,
Chinese and English side by side."""

SCENE = "Embeddings"
TITLE = ("词向量：每个词元是一个箭头", "Tokens as vectors")

STEPS = {
    "plane": (
        "每个词元是一个向量：从原点出发的箭头，这里画出的是 {q}。",
        "Each token is a vector: an arrow from the origin, as drawn here for {q}.",
    ),
    "tokens": (
        "{tokens} 的坐标就是它们的词向量 x。",
        "The coordinates of {tokens} are their embeddings.",
    ),
    "tokens_many": (
        "每个词元的坐标就是它的词向量 x。",
        "Each token's coordinates are its embedding.",
    ),
    # a plane that is a 2-D view of longer vectors (a model's 576 dimensions): the caption says so
    # (a review: "their coordinates are their embeddings" beside a view of 576 dimensions)
    "tokens_view": (
        "{tokens} 的词向量 x 各是一个 {d} 维的向量；平面只是它们的二维视图（一个投影）。",
        "The embeddings of {tokens} are {d}-dimensional vectors; the plane is a 2-D view of them (a projection).",
    ),
    "tokens_many_view": (
        "每个词元的词向量 x 是一个 {d} 维的向量；平面只是它的二维视图（一个投影）。",
        "Each token's embedding is a {d}-dimensional vector; the plane is a 2-D view of it (a projection).",
    ),
    "compare": (
        "方向越接近，点积越大：注意力就从这里开始。",
        "The closer two directions, the larger their dot product: attention starts here.",
    ),
    # the followed pair (attention_core.followed_pair): the query and the key the story follows
    "compare_pair": (
        "我们跟随词元 {q} 和 {k}：方向越接近，点积越大，注意力就从这里开始。",
        "We follow the tokens {q} and {k}: the closer two directions, the larger their dot product. Attention starts here.",
    ),
}

WORDS = {
    # Embeddings
    "embeddings_typeset": ("词向量 $X$", "embeddings $X$"),
}
