"""HeadMoved: its title, the caption of each step (in the order the scene calls them) and its words,
Chinese and English side by side."""

SCENE = "HeadMoved"
# "\u00a0": a no-break space, so that no caption line splits E + ΔE or a term's formula. A token
# is named as a token (issue 38: "it moved soup into it"): "the token “it”", its label quoted by
# the scene (head_moved.said); no sentence puts a bracket where a page of the caption may end
TITLE = ("注意力头搬来了什么：E + ΔE", "What the head moved: E + ΔE")

STEPS = {
    "not_cross": (
        "这一场景把一个头的输出加回词元自己的向量；交叉注意力的输出加在另一个序列上，这里不画。",
        "This scene adds a head's output back to the token's own vector; in cross-attention it lands in the other sequence, so it is not drawn here.",
    ),
    "not_width": (
        "ΔE 有 {dv} 维，E 有 {d} 维：没有把输出映射回 d_model 的 $W_O$，就不能把它加回词元的向量。",
        "ΔE has {dv} dimensions and E {d}: without a $W_O$ back to d_model the output cannot be added to the token's vector.",
    ),
    # at most three lines at 1:1 in the caption's own size (issue 38: four, set small)
    "token_residual": (
        "E，画成箭头：词元 {q} 带进这一层的残差流。{does}",
        "E, the arrow: the residual stream the token {q} brings in. {does}",
    ),
    "token_input": (
        "E：词元 {q} 的输入行，即它的词向量，画成它的箭头。{does}",
        "E: the input row of the token {q}, its embedding, drawn as its arrow. {does}",
    ),
    "terms_w_o": (
        "每个键 j 加上一项 $t_j = α_j dot v_j dot W_O^h$：它的权重乘它的值，再经过这个头在 $W_O$ 中的行。最大的几项从 E 的箭头尖首尾相接，其余的合成一个箭头。",
        "Each key j adds a term $t_j = α_j dot v_j dot W_O^h$: its weight times its value, through this head's rows of $W_O$. The largest run tip to tail from E's tip; the rest are summed into one arrow.",
    ),
    "terms_o": (
        "每个键 j 加上一项 $t_j = α_j dot v_j$：它的权重乘它的值。这个例子没有 $W_O$。最大的几项从 E 的箭头尖首尾相接，其余的合成一个箭头。",
        "Each key j adds a term $t_j = α_j dot v_j$: its weight times its value. This example has no $W_O$. The largest run tip to tail from E's tip; the rest are summed into one arrow.",
    ),
    "sum": (
        "这些项的和 ΔE 就是这个头写进词元 {q} 的东西：{q} 离开这一层时是 E\u00a0+\u00a0ΔE。",
        "Their sum ΔE is what the head writes into the token {q}, which leaves the layer as E\u00a0+\u00a0ΔE.",
    ),
    "words_none": (
        "要把向量读成词元，需要一个带反嵌入的模型；这个例子没有，所以这里不读。",
        "Reading the vector back as tokens needs a model with an unembedding; this example has none, so nothing is read here.",
    ),
    # why the readout says little (its top 5 mostly fragments: moved_vector.says_little); the
    # readout on screen says "at layer 15 this readout says little", the caption not again
    "words_little": (
        "用模型自己的词元表读出：前几个词元多半是残片或标点，所以这个读法不断言任何含义。",
        "Read through the model's vocabulary, the top tokens are mostly fragments or punctuation: it claims no meaning.",
    ),
    "words_unchanged": (
        "用模型自己的词元表读出 E 与 E\u00a0+\u00a0ΔE：ΔE 没有改变读出的前 5 个词元及其顺序，所以这个读法显示不出含义的变化。",
        "Read through the model's own vocabulary: ΔE leaves the readout's top 5 as they were, in the same order, so this readout shows no change of meaning.",
    ),
    "words_copies": (
        "用模型自己的词元表读出：ΔE 把所跟随的键 {k} 推进它推高最多的词元之列。{k} 的对数几率变化 {c}，排名 {r0} → {r1}。这就是复制。",
        "Read through the model's own vocabulary, ΔE puts the followed key {k} among the tokens ΔE raises most. The logit of {k} changes by {c}, its rank {r0} → {r1}. This is copying.",
    ),
    "words_reads": (
        "用模型自己的词元表读出：ΔE 推高最多的是 {top}。所跟随的键 {k} 不在其中：它的对数几率变化 {c}，排名 {r0} → {r1}。所以这个读法没有显示这个头在复制 {k}。",
        "Read through the model's own vocabulary, ΔE pushes up {top} most. The followed key {k} is not among the tokens ΔE raises most: its logit changes by {c}, its rank {r0} → {r1}. So this readout does not show the head copying {k}.",
    ),
}

WORDS = {
    "moved_not_cross": (
        "交叉注意力：输出不加回这个词元",
        "cross-attention: the output is not added back to this token",
    ),
    "moved_not_width": (
        "ΔE 有 {dv} 维，E 有 {d} 维：不能相加",
        "ΔE has {dv} dimensions, E has {d}: they cannot be added",
    ),
    "moved_view_kept": ("二维：E、ΔE 精确，各项保留 {kept}", "2-D: E, ΔE exact; terms keep {kept}"),
    "moved_whole": ("E + ΔE 全貌", "E + ΔE, whole"),
    "moved_close": ("放大：E 的箭头尖", "at E's tip, enlarged"),
    "moved_terms_heading": ("项 tⱼ", "term tⱼ"),  # a table's: its weight αⱼ, its length ‖tⱼ‖
    # what the head does (attention_core.read_head; a reading's phrase from head_kinds), once
    "moved_does_habit": ("这个头主要看{phrase}。", "This head attends mostly to {phrase}."),
    # a head without a habit is sharp or diffuse over all its rows (mean entropy), which the
    # followed row need not be (issue 38: "diffuse" beside a row whose top weight is 0.52): the
    # words say whose. ``_row``, ``_peaked``: where the followed row's own shape differs
    # (attention_core.readings.sharpness.row_shape: sharp, or one key holding half of it)
    "moved_does_shape": (
        "这个头的权重整体上{phrase}。",
        "This head is {phrase} over all its rows.",
    ),
    # (short: the first caption keeps to two lines at 4:3 and three at 1:1 with a 12-character
    # token, tests/test_head_moved.py)
    "moved_does_shape_row": (
        "这个头整体上{phrase}，这一行却{row}。",
        "The head is {phrase}; this row, {row}.",
    ),
    "moved_does_shape_peaked": (
        "这个头整体上{phrase}，这一行却有一个键占一半。",
        "The head is {phrase}; this row peaks.",
    ),
    # a head sharp only by the weight its rows park on a resting place (issue 38: "sharp over
    # all its rows", its rows split between the first token and one "the"): its share of the
    # head's weight there (attention_core.readings.moved_vector.head_does: the rows' average
    # share, each row summing to 1); short, as the first caption asks
    "moved_does_rest_quarter": (
        "这个头把四分之一以上的权重停在 {r} 上。",
        "The head parks a quarter or more of its weight on {r}.",
    ),
    "moved_does_rest_half": (
        "这个头把一半以上的权重停在 {r} 上。",
        "The head parks half its weight or more on {r}.",
    ),
    "moved_does_score": (
        "按模型层面的分数，这是{head}。",
        "By the model's own scores it is {head}.",
    ),
    # the followed key one piece of a word (key_pieces): the word = its pieces
    "moved_pieces": (
        "{word}：所跟随的键切成几个词元，每个词元各是一项",
        "{word}: the key word cut into tokens, one term each",
    ),
    "moved_others": ("+ {n} 个其他", "+ {n} others"),
    "moved_others_short": ("+ {n} 个", "+ {n}"),
    "moved_after": ("E + ΔE", "E + ΔE"),
    "moved_reads_before": ("E 读作：", "E reads:"),
    "moved_reads_after": ("E + ΔE 读作：", "E + ΔE reads:"),
    "moved_reads_both": ("E → E + ΔE 读作：", "E → E + ΔE reads:"),
    "moved_pushes": ("ΔE 推高（对数几率变化）：", "ΔE pushes up (logit change):"),
    "moved_key_rank": ("{k}：对数几率变化", "{k}: logit change"),
    "moved_key_rank_then": ("，|排名", ",|rank"),  # the mark after the change | the rank's word
    "moved_unchanged": ("ΔE 没有改变前 5 个词元", "ΔE changes none of the top 5"),
    "moved_says_little": (
        "在第 {layer} 层，这种读法说明不了什么",
        "at layer {layer} this readout says little",
    ),
    # one line (issue 38: at 1:1 its two lines ran into the caption, which says why at length)
    "moved_no_readout": ("没有反嵌入：不读成词元", "no unembedding: no readout as tokens"),
}
