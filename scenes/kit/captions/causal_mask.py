"""CausalMask: its title, the caption of each step (in the order the scene calls them) and its words,
Chinese and English side by side."""

SCENE = "CausalMask"
TITLE = ("掩码：不该看的位置设为 −∞", "Masking: what may not be seen becomes −∞")

STEPS = {
    "scores": (
        "先看缩放后的分数矩阵，每个查询对每个键都有一个分数。",
        "Start from the scaled scores: every query has a score for every key.",
    ),
    "mask": (
        "掩码盖住不该看的格子（{kind}）。",
        "A mask covers the cells that may not be seen ({kind}).",
    ),
    "blocked": (
        "被盖住的分数一律改成 −∞，其余分数保持不变。",
        "Every covered score becomes −∞; the others stay as they were.",
    ),
    "unmasked": (
        "这个例子没有掩码：每个查询都能看到所有键。",
        "This example has no mask: every query sees every key.",
    ),
    "blocks_nothing": (
        "这个例子的掩码（{kind}）在这里一个格子也没有挡住：每个查询都能看到所有键。",
        "This example's mask ({kind}) blocks no cell here: every query sees every key.",
    ),
    "softmax": (
        "softmax 只在允许的键之间分配：−∞ 的权重恰好是 0，每行之和仍是 1。",
        "softmax shares only among the allowed keys: a −∞ gets exactly 0, and every row still sums to 1.",
    ),
    # what the head does with its followed pair (attention_core.pair_row's sight): a trained or
    # asked head only; two sentences, so that a caption in pages breaks between them (a 22-token
    # one at 1:1 ended its last page on "links here.")
    "pair_before": (
        "在掩码下，{q} 只能看到它前面的 {n} 个词元和它自己，给 {k} 的权重是 {w}。{lead}：{does}。",
        "Under the mask, {q} may see only the {n} tokens before it, and itself, and gives {w} to {k}. {lead}: {does}.",
    ),
    "pair_some": (
        "掩码让 {q} 只能看到 {n} 个键，它给 {k} 的权重是 {w}。{lead}：{does}。",
        "The mask lets {q} see {n} keys, and it gives {w} to {k}. {lead}: {does}.",
    ),
    "pair_all": (
        "掩码在 {q} 这一行什么也没挡住，它给 {k} 的权重是 {w}。{lead}：{does}。",
        "The mask blocks nothing in the row of {q}, and it gives {w} to {k}. {lead}: {does}.",
    ),
    "pair_blocked": (
        "所问的一对 {q} → {k} 被掩码挡住了：{q} 这一行里 {k} 的权重恰好是 {w}。",
        "The pair asked about, {q} → {k}, is blocked by the mask: the weight of {k} in the row of {q} is exactly {w}.",
    ),
}

WORDS: dict[str, tuple[str, str]] = {
    "blocked_cell": ("被掩码挡住：权重恰好为 0", "blocked by the mask: weight exactly 0"),
    "sight_before": (
        "{q} 能看到它前面的 {n} 个词元和它自己",
        "{q} may see the {n} tokens before it, and itself",
    ),
    "sight_some": ("掩码让 {q} 只能看到 {n} 个键", "the mask lets {q} see {n} keys"),
    "sight_all": ("{q} 能看到所有的键", "{q} sees every key"),
    "sight_blocked": ("掩码挡住了 {q} 看 {k}", "the mask hides {k} from {q}"),
}
