"""PositionalEncoding: its title, the caption of each step (in the order the scene calls them) and its words,
Chinese and English side by side."""

SCENE = "PositionalEncoding"
TITLE = (
    "位置编码：让注意力知道顺序",
    "Positional encoding: telling attention the order",
)

STEPS = {
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
    # whether order matters: the kind of attention_core.readings.claims.order_argument
    "order_pe_orders": (
        "为什么需要它：没有位置编码，打乱词元顺序只会打乱输出；加上后输出真的改变。",
        "Why: without it, shuffling the tokens only shuffles the outputs; with it, the outputs really change.",
    ),
    # a causal mask already makes order matter: the argument with the mask off (order_argument)
    "order_pe_orders_mask_off": (
        "本例的因果掩码本身就让顺序起作用，所以这里先去掉掩码：没有位置编码，打乱词元顺序只会打乱输出；加上后输出真的改变。",
        "The causal mask alone already makes order matter, so take it off here: without the code, shuffling the tokens only shuffles the outputs; with it, they really change.",
    ),
    "order_alike_mask_off": (
        "本例的因果掩码本身就让顺序起作用；去掉掩码后，这些词元打乱后与原来一样，有没有位置编码输出都不变。",
        "The causal mask alone already makes order matter; with it off, these tokens are alike, so shuffling them changes nothing, with or without the code.",
    ),
    "order_pe_undoes_mask_off": (
        "本例的因果掩码本身就让顺序起作用；去掉掩码后打乱词元顺序：没有位置编码时输出改变，加上后反而不变。",
        "The causal mask alone already makes order matter; with it off and the tokens shuffled, the outputs change without the code and stay as they were with it.",
    ),
    "order_alike": (
        "这些词元打乱后与原来一样，有没有位置编码输出都不变；一般来说，正是位置编码让顺序起作用。",
        "These tokens are alike, so shuffling them changes nothing, with or without the code; in general the code is what makes order matter.",
    ),
    "order_pe_undoes": (
        "打乱词元顺序：没有位置编码时输出改变，加上后反而不变。",
        "Shuffled, the outputs change without the code and stay as they were with it.",
    ),
    "order_none": (
        "（打乱词元顺序的对比需要至少两个词元的自注意力。）",
        "(The shuffle comparison needs self-attention over at least two tokens.)",
    ),
    "order_rotary": (
        "（这个例子用旋转位置编码 RoPE 表示位置，不再加正弦编码：旋转位置一节展示它。）",
        "(This example encodes positions by rotating q and k (RoPE), not by adding sinusoids: RotaryPositions shows it.)",
    ),
}

WORDS: dict[str, tuple[str, str]] = {
    # among 20-odd tokens only the story's few are drawn in colour: the others' x + PE, grey
    "pe_others": ("其余 {n} 个词元：x + PE，灰色", "{n} others: x + PE, grey"),
    "pe_other": ("另一个词元：x + PE，灰色", "one other: x + PE, grey"),
}
