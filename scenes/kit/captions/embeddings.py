"""Embeddings: its title, the caption of each step (in the order the scene calls them) and its words,
Chinese and English side by side."""

SCENE = "Embeddings"
TITLE = ("词向量：每个词元是一个箭头", "Tokens as vectors")

STEPS = {
    "plane": (
        "每个词元是一个向量：从原点出发的箭头。",
        "Each token is a vector: an arrow from the origin.",
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
}

WORDS = {
    # Embeddings
    "embeddings_typeset": ("词向量 $X$", "embeddings $X$"),
}
