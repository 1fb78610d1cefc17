"""Words several scenes and the lecture outputs share (headings, legends, units), Chinese and
English side by side."""

from attention_core.readings.head_kinds import words

WORDS = {
    # what a head does, told of the query a scene follows (attention_core.choice_story's kind):
    # the same story as AttentionMatrix's reading, in DotProducts, Softmax and WeightedSum
    # (the habits' own: each reading's words in attention_core.readings.head_kinds, one entry each);
    # an asked pair's other rows as strong on its key ("this head's strongest links") are
    # AttentionMatrix's alone to say, where its heatmap frames them (HeadStory.pair_telling)
    **words("does", "both", "does_"),
    "does_asked": (
        "所问的一对是 {q} → {k}",
        "the pair asked about is {q} → {k}",
    ),
    "does_asked_top": (
        "所问的一对 {q} → {k} 是它最大的权重",
        "the pair asked about, {q} → {k}, is its largest weight",
    ),
    "does_asked_lower": (
        "所问的一对 {q} → {k} 只是它{nth}的权重",
        "the pair asked about, {q} → {k}, is only its {nth} largest weight",
    ),
    "does_asked_column": (
        "{q} → {k} 是它最大的权重，但很多词元都最看重 {k}",
        "{q} → {k} is its largest weight, but many tokens look most at {k}",
    ),
    "nth": ("第{r}大", "{r}{suffix}"),  # a rank in a row: 第2大, 2nd (captions.ordinal)
    # the lead of a step that tells the head's deed with its followed pair: "This pair" where
    # nothing more than the pair can be said (issue 40: "What this head does: this is the pair
    # asked about" said nothing of the head)
    "lead_head": ("这个头做的事", "What this head does"),
    "lead_pair": ("这一对", "This pair"),
    # an asked pair, where a scene says what the head does with its followed pair
    "pair_asked": ("正是所问的两个词元", "the one asked about"),
    # the same where the head rests its rows' weight on a resting place (summarise_head): the
    # head's pattern named before the pair (issue 38: "This pair: the one asked about" while
    # the matrix showed a bright first column); "on average a row", not "each row's": a
    # row of the farmer head puts 0.02 there, the mean 0.45
    "pair_asked_rest_quarter_first": (
        "平均来看，一行把四分之一以上的权重停在第一个词元 {r} 上，并连接 {q} → {k}",
        "on average a row rests a quarter of its weight or more on {r}, the first token, and it links {q} → {k}",
    ),
    "pair_asked_rest_half_first": (
        "平均来看，一行把一半以上的权重停在第一个词元 {r} 上，并连接 {q} → {k}",
        "on average a row rests half of its weight or more on {r}, the first token, and it links {q} → {k}",
    ),
    "pair_asked_rest_quarter_last": (
        "平均来看，一行把四分之一以上的权重停在最后一个词元 {r} 上，并连接 {q} → {k}",
        "on average a row rests a quarter of its weight or more on {r}, the last token, and it links {q} → {k}",
    ),
    "pair_asked_rest_half_last": (
        "平均来看，一行把一半以上的权重停在最后一个词元 {r} 上，并连接 {q} → {k}",
        "on average a row rests half of its weight or more on {r}, the last token, and it links {q} → {k}",
    ),
    # a key word cut into pieces: the pair's key is the word, its weight the pieces' sum
    "pair_asked_piece": (
        "{k} 是所问的一对 {q} → {word} 中的一片（这对的权重是各片之和）",
        "{k} is one piece of the pair asked about, {q} → {word} (whose weight sums the pieces)",
    ),
    "key_weight": ("{k} {w}", "{k} {w}"),  # the key of an asked pair and its weight
    "word_weight": ("{k}：{w}", "{k}: {w}"),  # a key word cut into pieces and their summed weight
    "pair_asked_column": (
        "很多词元都最看重 {k}，不只是 {q}",
        "many tokens look most at {k}, not {q} alone",
    ),
    "query": ("查询", "query"),
    "key": ("键", "key"),
    "value": ("值", "value"),
    "asks": ("提问：我在找什么？", "asks: what am I looking for?"),
    "answers": ("应答：我有什么可匹配？", "answers: what do I offer to match?"),
    "carries": ("携带：被取走的内容", "carries: the content that is taken"),
    "scores": ("分数 $Q K^top$", "scores $Q K^top$"),
    "scaled": ("缩放后 $Q K^top \\/ sqrt(d_k)$", "scaled $Q K^top \\/ sqrt(d_k)$"),
    "weights": ("注意力权重", "attention weights"),
    "output": ("输出", "output"),
    "embeddings": ("词向量 X", "embeddings X"),
    "values_faint": ("淡色：值向量 v", "faint: the values v"),
    "byte_pieces": (
        "{c}¹ {c}²：分词器把一个字切成了几个字节片段",
        "{c}¹ {c}²: one character, cut by the tokenizer into byte pieces",
    ),
    "view_kept": ("二维视图：保留 {kept}", "2-D view: keeps {kept}"),
    "view_kept_short": ("二维保留 {kept}", "2-D: keeps {kept}"),  # a narrow column's (1:1)
    "largest_weight": ("softmax 之后最大的权重：", "largest weight, after softmax:"),
    "view_exact": ("{d} 维：精确", "{d}-D: exact"),
    "pair_plane": ("在 q 与 k 张成的平面中（精确）", "in the plane spanned by q and k (exact)"),
    "illustrative": ("示意用 W（种子 {seed}）", "illustrative W (seed {seed})"),
    "identity": ("W = I：Q = K = V = X", "W = I: Q = K = V = X"),
    "raw": ("不缩放", "unscaled"),
    "scaled_hist": ("÷$sqrt(d)$", "÷$sqrt(d)$"),
    "variance": ("方差", "variance"),
    "sum": ("合计", "sum"),
    "times": ("×{f}", "×{f}"),
    "gradient": ("s(1−s)", "s(1−s)"),
    "own": ("原向量", "own vector"),
    "hull": ("凸包", "convex hull"),
    "row_sum": ("行和", "row sum"),
    # rows too close for a sum beside each, in a narrow frame: the sum said once
    "row_sum_each": ("每一行之和都是", "every row sums to"),
    "cost_cells": ("个格子", "cells"),
    "multiply_adds": ("次乘加", "multiply-adds"),
    "symmetric_no": ("矩阵不对称：{a} ≠ {b}。", "The matrix is not symmetric: {a} ≠ {b}."),
    "symmetric_yes": ("这个矩阵恰好对称。", "This matrix happens to be symmetric."),
    "head_of": ("第 {h} 个头（共 {H} 个）", "head {h} of {H}"),
    "saturated": ("分数极大：权重已是独热", "huge scores: the weights are one-hot"),
    "exp_shift": ("$e^(s - max)$", "$e^(s - max)$"),
    "tokens_list_sep": ("、", ", "),
    "masked": ("掩码后（−∞ = 挡住）", "masked (−∞ = blocked)"),
    "mask_causal": (
        "因果掩码，第 i 个词元只能看位置不超过 i 的词元",
        "a causal mask: token i sees positions ≤ i only",
    ),
    "mask_applied": (
        "这里给本例加上因果掩码，第 i 个词元只能看位置不超过 i 的词元",
        "a causal mask applied to this example: token i sees positions ≤ i only",
    ),
    "mask_padding": (
        "填充掩码，每一行里的填充位置都被挡住",
        "a padding mask: padded keys are blocked in every row",
    ),
    "mask_explicit": ("本例给出的掩码", "the example's own mask"),
    "mask_none": ("不加掩码", "no mask"),
    "queries": ("查询", "queries"),
    "sources": ("源序列", "source"),
    "head_n": ("头 {h}", "head {h}"),
    "heads_range": ("头 {a}–{b}", "heads {a}–{b}"),
    "ffn_seed": ("W₁、W₂：示意，种子 {seed}", "W₁, W₂: illustrative, seed {seed}"),
    "ffn_seed_short": ("种子 {seed}", "seed {seed}"),
    "kv_head_n": ("键值 {g}", "K/V {g}"),
    "kv_shared": ("{a}–{b} 共用 {K}、{V}", "{a}–{b} share {K}, {V}"),
    "without_pe": ("无位置编码：最大差异", "without PE: largest difference"),
    "with_pe": ("有位置编码：最大差异", "with PE: largest difference"),
    "only_moved": ("（输出只是换了顺序）", "(the outputs were only reordered)"),
    "changed_by_mask": ("（掩码让输出改变了）", "(the mask changed the outputs)"),
    "mask_off": ("去掉因果掩码后：", "with the causal mask off:"),
    "unchanged": ("（输出没有改变）", "(the outputs did not change)"),
    "terms_all": ("所有值向量", "all value vectors"),
    "terms_allowed": (
        "它能看到的 {k} 个值向量（掩码挡住了 {b} 个）",
        "the {k} value vectors it may see (the mask blocks {b})",
    ),
    "changed": ("（输出真正改变了）", "(the outputs really changed)"),
    "reversed": ("把词元顺序倒过来", "the tokens in reverse order"),
    "concat_title": ("拼接 [头 1 … 头 {H}]", "concat [head 1 … head {H}]"),
    "head_after_gap": ("… 头 {h}", "… head {h}"),  # the heads before it are not drawn,
    "mixed_title": ("输出 = 拼接 · $W_O$", "output = concat · $W_O$"),
    "no_w_o": ("（没有 $W_O$：拼接就是输出）", "(no $W_O$: the concatenation is the output)"),
    # the lecture page
    "tokens_label": ("词元", "Tokens"),
    "numbers_title": ("本例的全部数值", "Every number of this example"),
    # a plane with more arrows than it can label draws the story's (issue 32) and says so
    "not_drawn": ("另有 {n} 个未画出", "{n} others not drawn"),
    "not_drawn_short": ("另 {n} 个未画", "{n} not drawn"),  # a narrow column's
    "not_drawn_one": ("另有一个未画出", "one other not drawn"),
    # a plane of 20-odd tokens: the cast labelled in colour, the others thin grey arrows
    "others_grey": ("其余 {n} 个为灰色", "{n} others, grey"),
    "others_grey_one": ("另一个为灰色", "one other, grey"),
}
