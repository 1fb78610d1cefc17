"""EncoderBlock: its title, the caption of each step (in the order the scene calls them) and its words,
Chinese and English side by side."""

SCENE = "EncoderBlock"
TITLE = ("编码器块：注意力所在的位置", "The encoder block: where attention sits")

STEPS = {
    "attention": (
        '编码器块第一步：多头自注意力 $A = "MultiHead"(X)$，每个词元得到一个变化量。',
        'An encoder block starts with multi-head self-attention, $A = "MultiHead"(X)$: a change for every token.',
    ),
    "residual1": (
        "残差连接：把注意力的输出加回原来的向量，X + A，也就是 E + ΔE。",
        "The residual: the attention output is added back to each token's vector, X + A, that is E + ΔE.",
    ),
    "norm1": (
        '层归一化逐行进行：$H = "LayerNorm"(X + A)$，每个词元的均值变为 0、方差变为 1。',
        'LayerNorm, row by row: $H = "LayerNorm"(X + A)$ brings each token to mean 0 and variance 1.',
    ),
    "ffn": (
        '逐位置的前馈网络 $F = "ReLU"(H W_1) W_2$（$W_1$、$W_2$ 为示意用随机权重，种子 {seed}）。',
        'A position-wise feed-forward network, $F = "ReLU"(H W_1) W_2$ ($W_1$, $W_2$ illustrative, seed {seed}).',
    ),
    "residual2": (
        "再一次残差：H + F，前馈网络的结果同样加回去。",
        "The residual again: H + F, the network's result added back in the same way.",
    ),
    "norm2": (
        '再做一次层归一化：$Y = "LayerNorm"(H + F)$，这就是块的输出。',
        'LayerNorm once more: $Y = "LayerNorm"(H + F)$ is the block\'s output.',
    ),
    "norm2_trained": (
        '再做一次层归一化：$Y = "LayerNorm"(H + F)$。注意力部分是模型自己的；前馈网络的 W₁、W₂ 是示意的，所以 Y 不是模型这一块的真实输出。',
        "LayerNorm once more: $Y = \"LayerNorm\"(H + F)$. The attention half is the model's own; W₁, W₂ of the feed-forward network are illustrative, so Y is not the model's block output.",
    ),
    "norm1_model": (
        '层归一化逐行进行：$H = "LayerNorm"(X + A)$，每个词元先变为均值 0、方差 1，再乘以模型自己的 γ、加上它的 β。',
        'LayerNorm, row by row: $H = "LayerNorm"(X + A)$ brings each token to mean 0 and variance 1, then scales it by the model\'s own γ and shifts it by its β.',
    ),
    "ffn_model": (
        '逐位置的前馈网络 $F = "GELU"(H W_1 + b_1) W_2 + b_2$：模型自己的前馈网络（GELU，它的 W₁、W₂）。',
        'A position-wise feed-forward network, $F = "GELU"(H W_1 + b_1) W_2 + b_2$: the model\'s own feed-forward (GELU, its W₁, W₂).',
    ),
    "norm2_model": (
        '再做一次层归一化（模型自己的 γ、β）：$Y = "LayerNorm"(H + F)$ 就是模型这一层的输出。',
        "LayerNorm once more, with the model's own γ and β: $Y = \"LayerNorm\"(H + F)$ is the output of the model's layer.",
    ),
    "narrow": (
        "编码器块需要至少 4 维的词向量：这个例子只有 {d} 维，层归一化后几乎不剩信息。",
        "The encoder block needs vectors of at least 4 dimensions: here there are {d}, and LayerNorm would leave almost nothing.",
    ),
    "cross": (
        "编码器块用的是自注意力：这个例子是交叉注意力，不适用。",
        "The encoder block uses self-attention; this example is cross-attention, so it does not apply.",
    ),
    "own_wo": (
        "编码器块需要注意力自己的 $W_O$ 把各头的输出映射回 {d} 维：这个例子没有，不编造一个。",
        "The encoder block needs the attention's own $W_O$ to map the heads back to {d} dimensions; this example has none, and none is made up.",
    ),
}

WORDS = {
    # EncoderBlock
    "ffn_model": (
        "模型自己的前馈网络（GELU，它的 W₁、W₂）",
        "the model's own feed-forward (GELU, its W₁, W₂)",
    ),
    "ffn_model_short": ("模型自己的（GELU）", "the model's own (GELU)"),
    "enc_narrow": (
        '编码器块需要 $d_"model"$ ≥ 4（这里是 {d}）',
        'the encoder block needs $d_"model"$ ≥ 4 (here {d})',
    ),
    "enc_cross": ("编码器块只用自注意力", "the encoder block uses self-attention only"),
    "enc_own_wo": (
        "编码器块需要注意力自己的 $W_O$（多头：from-model --all-heads）",
        "the encoder block needs the attention's own $W_O$ (all heads: from-model --all-heads)",
    ),
}
