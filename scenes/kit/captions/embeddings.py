"""Embeddings: its title, the caption of each step (in the order the scene calls them) and its words,
Chinese and English side by side."""

SCENE = "Embeddings"
TITLE = ("词向量：每个词元是一个箭头", "Tokens as vectors")

STEPS = {
    "plane": (
        "每个词元是一个向量：从原点出发的箭头，比如词元 {q}。",
        "Each token is a vector: an arrow from the origin, like the token {q}.",
    ),
    "tokens": (
        "{tokens} 的坐标就是它们的词向量 x。",
        "The coordinates of {tokens} are their embeddings.",
    ),
    "tokens_many": (
        "每个词元的坐标就是它的词向量 x。",
        "Each token's coordinates are its embedding.",
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
