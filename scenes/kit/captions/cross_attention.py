"""CrossAttention: its title, the caption of each step (in the order the scene calls them) and its words,
Chinese and English side by side."""

SCENE = "CrossAttention"
TITLE = (
    "交叉注意力：查询来自一个序列，键和值来自另一个",
    "Cross-attention: queries from one sequence, keys and values from another",
)

STEPS = {
    "sequences": (
        "查询来自 {queries}，键和值来自另一个序列 {sources}：查询是实线箭头，键是虚线箭头。",
        "Queries come from {queries}; keys and values from another sequence, {sources}: queries solid, keys outlined.",
    ),
    "same": (
        "这个例子没有第二个序列：键和值也来自 {queries}，这是自注意力，交叉注意力不适用。",
        "This example has no second sequence: keys and values also come from {queries}. That is self-attention, so cross-attention does not apply.",
    ),
    "scores": (
        "分数矩阵是 {m}×{n} 的长方形：每个查询对每个源词元打分。",
        "The score matrix is {m}×{n}, rectangular: every query scores every source token.",
    ),
    "weights": (
        "softmax 之后，每一行的权重加起来是 1，分给源序列的词元。",
        "After softmax each row's weights add up to 1, shared among the source tokens.",
    ),
    "outputs": (
        "每个查询的输出 o(…) 是源序列值向量按这一行权重的混合。",
        "Each query's output o(…) is the source's values mixed by that query's row of weights.",
    ),
}

WORDS = {
    # CrossAttention
    "cross_qk": ("查询 q，源序列的键 k", "queries q, keys k"),
    "cross_vo": ("源序列的值 v，输出 o", "values v, outputs o"),
    "cross_not": ("没有第二个序列：这是自注意力", "no second sequence: this is self-attention"),
}
