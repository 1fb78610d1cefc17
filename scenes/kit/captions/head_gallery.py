"""HeadGallery: its title, the caption of each step (in the order the scene calls them) and its words,
Chinese and English side by side."""

SCENE = "HeadGallery"
# the title in lists (the lecture page): on screen the scene says what its heads do together
# (attention_core.readings.head_groups: the "title_…" words below)
TITLE = ("一层里的所有头", "Every head of a layer")

STEPS = {
    "gallery": (
        "{H} 个头，同一个 0 到 1 的色标。每个头旁：编号、它的查询在这个句子上平均至少把 {threshold} 的权重放在哪里，及这个平均值。否则：平均停放至少{rest}权重的位置，及这个平均值。再否则按各行的熵为“集中”或“分散”。{scores}",
        "{H} heads on one 0 to 1 colour scale. With each: its number, where its queries put "
        "at least {threshold} of their weight on average, and that average. Without such a "
        "place: where they rest {rest} of it or more, and that average. Else sharp or "
        "diffuse, by its rows' entropy.{scores}",
    ),
    "gallery_grouped": (
        "{H} 个查询头分成 {G} 组，每组（一行）共用一个键/值头；同一个 0 到 1 的色标。每个头旁：编号、它的查询在这个句子上平均至少把 {threshold} 的权重放在哪里，及这个平均值。否则：平均停放至少{rest}权重的位置，及这个平均值。再否则按各行的熵为“集中”或“分散”。{scores}",
        "{H} query heads in {G} groups, each row sharing one key/value head, on one 0 to 1 "
        "colour scale. With each: its number, where its queries put at least {threshold} of "
        "their weight on average, and that average. Without such a place: where they rest "
        "{rest} of it or more, and that average. Else sharp or diffuse, by its rows' "
        "entropy.{scores}",
    ),
    "reading": (
        "读数：{summary}。框出的是看{lit}的头。",
        "The reading: {summary}. Outlined: the heads on {lit}.",
    ),
    "reading_none": (
        "读数：{summary}。没有哪个头的查询平均把一半以上的权重放在同一种位置上。",
        "The reading: {summary}. No head's queries put half their weight on one pattern.",
    ),
    "reading_alike": (  # every head with a habit has the same one: nothing outlined
        "读数：{summary}。",
        "The reading: {summary}.",
    ),
    "cross": (
        "这个场景读自注意力的各个头；本例是交叉注意力，请看交叉注意力一节。",
        "This scene reads the heads of self-attention; this example is cross-attention (see "
        "the cross-attention scene).",
    ),
}

WORDS = {
    # the resting place's share in words (heads.REST_AT_LEAST): a caption's number must be on
    # screen, and no card shows 0.25
    "rest_quarter": ("四分之一", "a quarter"),
    # HeadGallery's title on screen, as attention_core.readings.head_groups reads the heads:
    # no two alike, all alike, more than half alike, or a few readings shared ({what}: a
    # reading's phrase named a second time, head_kinds' "lit")
    "gallery_title_each_own": (
        "一层里的所有头：各看各的",
        "Every head of a layer, each its own pattern",
    ),
    "gallery_title_alike_rest": ("{n} 个头都停在{what}上", "All {n} heads rest on {what}"),
    "gallery_title_alike_attend": ("{n} 个头都看{what}", "All {n} heads attend to {what}"),
    "gallery_title_alike_are": ("{n} 个头都{what}", "All {n} heads are {what}"),
    "gallery_title_most_rest": ("{H} 个头里 {n} 个停在{what}上", "{n} of {H} heads rest on {what}"),
    "gallery_title_most_attend": ("{H} 个头里 {n} 个看{what}", "{n} of {H} heads attend to {what}"),
    "gallery_title_most_are": ("{H} 个头里 {n} 个{what}", "{n} of {H} heads are {what}"),
    # the heads resting on one place (a sink, or no habit but a quarter of a row or more there,
    # as AttentionMatrix's head step tells them): the place with its token, the heads' averages
    # and how many rest half their weight or more there (issue 38)
    "gallery_place_sink": ("第一个词元{token}", "{token}, the first token"),
    "gallery_place_cls": ("[CLS]", "[CLS]"),
    "gallery_place_sep": ("[SEP]", "[SEP]"),
    "gallery_title_span": ("（平均占一行的 {lo}–{hi}）", " ({lo}–{hi} of a row on average)"),
    "gallery_title_span_1": ("（平均占一行的 {lo}）", " ({lo} of a row on average)"),
    "gallery_title_sinks": (
        "，其中 {k} 个作为汇聚（一半或更多）",
        "; {k} of them as a sink (half or more)",
    ),
    "gallery_title_sinks_all": ("，都作为汇聚（一半或更多）", "; all as a sink (half or more)"),
    "heads_rest": ("{n} 个头停在{what}上", "{n} rest on {what}"),
    "heads_rest_1": ("{n} 个头停在{what}上", "{n} rests on {what}"),
    "heads_rest_sinks": ("（其中 {k} 个作为汇聚）", " ({k} of them as a sink)"),
    # a head's card: no habit, told by its resting place (its average after it)
    "gallery_rests": ("停在{token}上", "rests on {token}"),
    "gallery_rests_short": ("停放", "rests"),
    "gallery_title_others": ("，其余 {m} 个不同", "; {m} do something else"),
    "gallery_title_others_1": ("，其余 {m} 个不同", "; {m} does something else"),
    "gallery_title_mixed": ("一层的 {H} 个头：{G} 种模式", "{H} heads of a layer, {G} patterns"),
    # fewer heads drawn than the layer has (a square frame): the layer's count said as the
    # layer's, then how many are drawn ("5 of 9 heads" over six heatmaps read as of the six)
    "gallery_title_each_own_layer": (
        "这一层的 {H} 个头各看各的",
        "The layer's {H} heads, each its own pattern",
    ),
    "gallery_title_alike_rest_layer": (
        "这一层的 {n} 个头都停在{what}上",
        "All {n} of the layer's heads rest on {what}",
    ),
    "gallery_title_alike_attend_layer": (
        "这一层的 {n} 个头都看{what}",
        "All {n} of the layer's heads attend to {what}",
    ),
    "gallery_title_alike_are_layer": (
        "这一层的 {n} 个头都{what}",
        "All {n} of the layer's heads are {what}",
    ),
    "gallery_title_most_rest_layer": (
        "这一层 {H} 个头里 {n} 个停在{what}上",
        "{n} of the layer's {H} heads rest on {what}",
    ),
    "gallery_title_most_attend_layer": (
        "这一层 {H} 个头里 {n} 个看{what}",
        "{n} of the layer's {H} heads attend to {what}",
    ),
    "gallery_title_most_are_layer": (
        "这一层 {H} 个头里 {n} 个{what}",
        "{n} of the layer's {H} heads are {what}",
    ),
    "gallery_title_mixed_layer": (
        "这一层的 {H} 个头：{G} 种模式",
        "The layer's {H} heads, {G} patterns",
    ),
    "gallery_title_drawn": ("；画出 {d} 个", "; {d} drawn"),
    # HeadGallery
    "heads_on": ("{n} 个头看{what}", "{n} attend to {what}"),
    "heads_on_1": ("{n} 个头看{what}", "{n} attends to {what}"),
    # a head without a habit: sharp or diffuse (its reading's phrase, head_kinds)
    "heads_are": ("{n} 个头{what}", "{n} are {what}"),
    "heads_are_1": ("{n} 个头{what}", "{n} is {what}"),
    # the caption's sentence on a head's model-level score, where one names another habit than
    # its rows show here, and that score's name under the head (issue 38)
    "gallery_scores": (
        "带 {mark} 的头：模型层面的得分（用重复的随机词元量得）说的是另一种习惯。{scores}。",
        " Marked {mark}: its model-level score (on repeated random tokens) names another "
        "habit. {scores}.",
    ),
    "gallery_score_of": ("头 {heads} 的{what}为 {values}", "{what} {values} (heads {heads})"),
    "gallery_score_of_1": ("头 {heads} 的{what}为 {values}", "{what} {values} (head {heads})"),
    "head_score_named": ("{what}得分", "{what} score"),
    "heads_key_large": ("头 {h} 放大：", "head {h} drawn large:"),
    "heads_key_large_pair": ("头 {h}（{q} → {k}）：", "head {h} ({q} → {k}):"),
    "heads_key_order": (
        "行 = 查询，列 = 键，依次为：",
        "rows = queries, columns = keys, in order:",
    ),
    "heads_key_rows": ("行 = 查询", "rows = queries"),
    "heads_key_cols": ("列 = 键", "columns = keys"),
    # the explained head (the one the other scenes explain), framed, and the heads not drawn
    "gallery_explained": ("实线框：头 {h}，{q} → {k}", "framed: head {h}, {q} → {k}"),
    "gallery_not_shown": ("未画出：头 {heads}", "heads {heads} not shown"),
    "gallery_not_shown_one": ("未画出：头 {heads}", "head {heads} not shown"),
    "heads_key_same": (
        "列 = 同样顺序的键",
        "columns = keys, same order",
    ),
}
