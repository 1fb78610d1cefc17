"""AttentionMatrix: its title, the caption of each step (in the order the scene calls them) and its words,
Chinese and English side by side."""

from attention_core.readings.head_kinds import words

SCENE = "AttentionMatrix"
TITLE = ("注意力矩阵", "The attention matrix")

STEPS = {
    "heatmap": (
        "注意力权重矩阵：第 i 行是第 i 个词元分给每个键的份额。",
        "The attention weights: row i is how token i shares its attention among the keys.",
    ),
    "heatmap_masked": (
        "注意力权重矩阵：第 i 行是第 i 个词元分给每个键的份额。本例带掩码：挡住的格子权重为 0（掩码一节细讲）。",
        "The attention weights: row i is how token i shares its attention among the keys. This example is masked: blocked cells get 0 (the masking scene shows how).",
    ),
    "rows": ("每一行之和都是 1。", "Every row sums to 1."),
    # what the head does over all its rows, before its pair (issue 38: a trained head's bright
    # first column and its strongest links were never said): attention_core's summarise_head,
    # its parts below (head_*), the cells that show each framed
    "head": ("{lead}{said}", "{lead}{said}"),
    "reading_other": (
        "读数：{q} 最关注的是 {k}（{a} > {b}），而不是它自己。{sym}",
        "An honest reading: {q} attends most to {k} ({a} > {b}), not to itself. {sym}",
    ),
    "reading_self": (
        "读数：本例中每个词元都最关注它自己。{sym}",
        "An honest reading: in this example every token attends most to itself. {sym}",
    ),
    "reading_even": (
        "读数：本例中没有哪个词元明显更关注别的词元而不是它自己。{sym}",
        "An honest reading: no token here attends clearly more to another token than to itself. {sym}",
    ),
    "reading_cross": (
        "读数：每一行的最大值标出这个查询最关注的源词元。",
        "An honest reading: each row's largest weight marks the source token it attends to most.",
    ),
    # a trained or asked head's story (attention_core.readings.followed.head_story), by kind:
    # each habit's own words are its entry in attention_core.readings.head_kinds
    **words("story", "both", "story_"),
    "story_asked": (
        "{habit}所问的一对：{q} → {kw}。{sym}",
        "{habit}The pair asked for: {q} → {kw}. {sym}",
    ),
    # an asked pair, told by what its weight says (HeadStory.telling); {kw} the key and its
    # weight: "trophy 0.576", or a key word cut into pieces "suitcase = suit + case: 0.450"
    "story_asked_top": (
        "{habit}所问的一对：{q} → {kw}，是它最大的权重（其次：{o} {ow}）。这个头的习惯（前一个词元、第一个词元）解释不了这一对。{sym}",
        "{habit}The pair asked for: {q} → {kw}, its largest weight (next: {o} {ow}). No habit of the head (the previous or the first token) explains this pair. {sym}",
    ),
    "story_asked_column": (
        "{habit}所问的一对：{q} → {kw}，是它最大的权重。但不只是 {q}：很多词元都最看重 {k}（已框出），{p} → {k} {pw} 最强。{sym}",
        "{habit}The pair asked for: {q} → {kw}, its largest weight. Not {q}'s alone: many tokens look most at {k} (framed), {p} → {k} {pw} most strongly. {sym}",
    ),
    "story_asked_linked": (
        "{habit}所问的一对：{q} → {kw}，是它最大的权重。不只是 {q}：{p} → {k} {pw} 也是这个头在这句里最强的连接（已框出）。{sym}",
        "{habit}The pair asked for: {q} → {kw}, its largest weight. Not only {q}: {p} → {k} {pw} too, this head's strongest links here (framed). {sym}",
    ),
    # as story_asked_linked where a brighter link lies elsewhere (HeadStory.strongest false;
    # issue 38: "this head's strongest links" beside to → tractor 0.962, off the sink)
    "story_asked_also": (
        "{habit}所问的一对：{q} → {kw}，是它最大的权重。不只是 {q}：{p} 也最看重 {k}，{pw}（已框出）。{sym}",
        "{habit}The pair asked for: {q} → {kw}, its largest weight. Not only {q}: {p} looks most at {k} too, {pw} (framed). {sym}",
    ),
    "story_asked_lower": (
        "{habit}所问的一对：{q} → {kw}，只是 {q} {nth}的权重；{q} 最看重的是 {o} {ow}。{sym}",
        "{habit}The pair asked for: {q} → {kw}, only the {nth} largest weight of {q}; {q} looks most at {o} {ow}. {sym}",
    ),
    "story_asked_habit": (
        "{habit}所问的一对 {q} → {kw} 是这个头的习惯：{does}。框出的是同样这么做的每一行。{sym}",
        "{habit}The pair asked for, {q} → {kw}, is this head's habit: {does}. The frames mark every row that does the same. {sym}",
    ),
    "cost": (
        "代价：n² = {cells} 个格子，约 {work} 次乘加；512 个词元时已有 {cells512} 个格子。",
        "The cost: n² = {cells} cells, about {work} multiply-adds; at 512 tokens already {cells512} cells.",
    ),
}

WORDS: dict[str, tuple[str, str]] = {
    # the head's habit, where it has one the asked pair is not (read_head: half the weight or
    # more on average), said before the pair (issue 40, part 5: a sink's pair was told as "this
    # head's strongest links" and the bright first column never named)
    # what the head is by the model-level scores the example carries (issue 40: an induction
    # head named by the model's measure, on any sentence), said before this sentence's reading
    "story_head_model": (
        "在整个模型上量（重复的随机词元），这是一个{name}。",
        "Measured across the model (on repeated random tokens), this is {name}. ",
    ),
    # the head over all its rows (STEPS "head"): its habit, else the resting place and its
    # strongest links to other tokens, else that none holds half a row
    # (each a sentence short enough for a page of its own: a caption in pages is cut between
    # sentences, two lines a page at 20-odd rows; in Chinese no ；, which ends a page)
    "head_habit": (
        "整体上，这个头看向{phrase}（已框出）。",
        "Over all its rows this head attends to {phrase} (framed). ",
    ),
    "head_habit_share": (
        "平均每行一半以上的权重在那里。",
        "Half a row's weight or more goes there, on average. ",
    ),
    "head_rest_sink": (
        "第一个词元 {token} 是注意力汇点（框出的那一列）。",
        "{token}, the first token, is an attention sink (framed column). ",
    ),
    "head_rest_cls": (
        "[CLS] 是停放权重的地方（框出的那一列）。",
        "[CLS] is a resting place for weight (framed column). ",
    ),
    "head_rest_sep": (
        "末尾的 [SEP] 是停放权重的地方（框出的那一列）。",
        "The closing [SEP] is a resting place for weight (framed column). ",
    ),
    "head_rest_half": (
        "平均每行一半以上的权重停在那里。",
        "On average a row rests half its weight or more there. ",
    ),
    "head_rest_quarter": (
        "平均每行四分之一以上的权重停在那里。",
        "On average a row rests a quarter of its weight or more there. ",
    ),
    # (said as "links most strongly": "strongest links" names the peer rows of an asked pair,
    # story_asked_linked, in this scene's reading alone: test_captions_seen_at_real_size)
    "head_links": (
        "这句里它连接最强的是：{links}（已框出）。",
        "Where it links most strongly here: {links} (framed). ",
    ),
    "head_links_then": ("其次：{links}（已框出）。", "Next: {links} (framed). "),
    "head_none": (
        "没有哪一行把一半以上的权重给另一个词元。",
        "No row gives another token half its weight or more. ",
    ),
    "head_none_rest": (
        "除了 {keys}，没有哪一行把一半以上的权重给另一个词元。",
        "No row gives a token other than {keys} half its weight or more. ",
    ),
    "head_shape": ("整体上，它的权重{shape}。", "Over all its rows its weights are {shape}. "),
    # a head whose rows split between two habits (read_head: "previous+sink"), not a shape
    "head_split": ("整体上，它的权重{phrase}。", "Over all its rows its weight is {phrase}. "),
    "head_top": ("多数行最看重 {k}（已框出）。", "Most rows weigh {k} most (framed). "),
    "head_shape_sharp": ("集中", "sharp"),
    "head_shape_diffuse": ("分散", "diffuse"),
    "head_link": ("{qs} → {k}", "{qs} → {k}"),
    "head_link_more": ("{qs} … → {k}", "{qs} … → {k}"),
    "story_head_habit": (
        "平均来看，这个头一半以上的权重给了{what}。",
        "On average, half or more of this head's weight goes to {what}. ",
    ),
}
