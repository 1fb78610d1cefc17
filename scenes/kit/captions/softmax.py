"""Softmax: its title, the caption of each step (in the order the scene calls them) and its words,
Chinese and English side by side."""

SCENE = "Softmax"
TITLE = ("Softmax：一个整体的份额", "Softmax: shares of one whole")

STEPS = {
    "exp": (
        "先对 {q} 的缩放后分数取指数：分数越大，份额越大{shares}。",
        "First exponentiate the scaled scores of {q}: a larger score gets a larger share{shares}.",
    ),
    "exp_widest": (
        "看 {q} 这一行：没有哪一行的权重分得比它更开。先取指数：分数越大，份额越大{shares}。",
        "Take the row of {q}: no row's weights are spread more widely. First exponentiate: a larger score gets a larger share{shares}.",
    ),
    "exp_widest_seeing_all": (
        "看 {q} 这一行，它能看到所有的键：这样的行中，没有哪一行分得比它更开。先取指数：分数越大，份额越大{shares}。",
        "Take the row of {q}, which sees every key: of such rows, none is spread more widely. First exponentiate: a larger score gets a larger share{shares}.",
    ),
    "exp_alike": (
        "看第一行 {q}：每一行最大的权重彼此相差不到 {alike}。先取指数：分数越大，份额越大{shares}。",
        "Take the first row, that of {q}: every row's largest weight is within {alike} of the others'. First exponentiate: a larger score gets a larger share{shares}.",
    ),
    "exp_seeing_all": (
        "看 {q} 这一行：只有它能看到所有的键，所以掩码前后它的权重相同。先取指数：分数越大，份额越大{shares}。",
        "Take the row of {q}: only it sees every key, so the mask leaves its weights as they are. Exponentiate first: a larger score gets a larger share{shares}.",
    ),
    "exp_peaked": (
        "看 {q} 这一行：每一行的权重都几乎集中在一个键上。先取指数：分数越大，份额越大{shares}。",
        "Take the row of {q}: every row's weights are nearly one-hot. First exponentiate: a larger score gets a larger share{shares}.",
    ),
    "exp_followed": (
        "看 {q} 这一行：{does}。先取指数：分数越大，份额越大{shares}。",
        "Take the row of {q}: {does}. First exponentiate: a larger score gets a larger share{shares}.",
    ),
    "exp_asked": (
        "看 {q} 这一行：{does}。先取指数：分数越大，份额越大{shares}。",
        "Take the row of {q}: {does}. First exponentiate: a larger score gets a larger share{shares}.",
    ),
    "share": (
        "再除以总和：{q} 的权重是 {weights}，合起来正好是 1。",
        "Then divide by the total: the weights of {q} are {weights}, exactly 1 together.",
    ),
    "share_masked": (
        "再除以总和：{q} 的权重是 {weights}，合起来正好是 1。被掩码挡住的键（−∞）分不到份额。",
        "Then divide by the total: the weights of {q} are {weights}, exactly 1 together. Masked keys (−∞) get no share.",
    ),
    # more keys than a caption can name (attention_core.named_weights): the largest few
    "share_largest": (
        "再除以总和：{q} 最大的几个权重是 {weights}。所有权重合起来正好是 1。",
        "Then divide by the total: the largest weights of {q} are {weights}. All of them together make exactly 1.",
    ),
    "share_masked_largest": (
        "再除以总和：{q} 最大的几个权重是 {weights}。所有权重合起来正好是 1，被掩码挡住的键（−∞）分不到份额。",
        "Then divide by the total: the largest weights of {q} are {weights}. All together make exactly 1; masked keys (−∞) get none.",
    ),
    "rows": (
        "每一行都把一个整体分给所有的键；每一段是它那个键的颜色（和左边的词元一样）。",
        "Every row shares out one whole among the keys, each share in its key's colour (as the labels beside the rows).",
    ),
    "rows_masked": (
        "加上掩码：每一行只把一个整体分给它能看到的键，每一段是它那个键的颜色；被挡住的键分不到任何份额。",
        "With the mask: every row shares out one whole among the keys it may see, each share in its key's colour; the keys it blocks get no share.",
    ),
    "sharper_little": (
        "本例 $d_k$ = {dk}，不缩放只是 ×{sqrt}：Σ s(1−s)（权重还能变动多少）从 {g1} 到 {graw}，变化很小；×10、×100 时为 {g10}、{g100}。",
        "Here $d_k$ = {dk}: unscaled is only ×{sqrt}, and Σ s(1−s), how much the weights can still move, goes {g1} → {graw}, little change. ×10, ×100: {g10}, {g100}.",
    ),
    "sharper_more": (
        "本例 $d_k$ = {dk}，不缩放即 ×{sqrt}：Σ s(1−s)（权重还能变动多少）从 {g1} 降到 {graw}；×10、×100 时为 {g10}、{g100}。",
        "Here $d_k$ = {dk}: unscaled is ×{sqrt}, and Σ s(1−s), how much the weights can still move, falls {g1} → {graw}. ×10, ×100: {g10}, {g100}.",
    ),
    "sharper_flat": (
        "这一行的分数都相同：乘以任何倍数，权重都不变，Σ s(1−s)（权重还能变动多少）一直是 {g1}（×10、×100 时为 {g10}、{g100}）。",
        "Every score in this row is the same: multiplying changes no weight, and Σ s(1−s), how much the weights can still move, stays {g1} (×10, ×100: {g10}, {g100}).",
    ),
    "sharper_one": (
        "本例 $d_k$ = 1，缩放不改变分数。乘以倍数后 Σ s(1−s)（权重还能变动多少）从 {g1} 降到 {g10}（×10）、{g100}（×100）。",
        "Here $d_k$ = 1: scaling changes nothing. Multiplied, Σ s(1−s), how much the weights can still move, falls from {g1} to {g10} (×10) and {g100} (×100).",
    ),
    # the followed row itself saturates unscaled (attention_core.saturation_claim): it, not a
    # random row
    "saturation_followed": (
        "不缩放（分数 ×$sqrt({dk})$）时，{q} 这一行饱和了：最大权重 {maxraw}，Σ s(1−s) = {graw}，梯度几乎为零。除以 $sqrt({dk})$ 后：最大权重 {maxscaled}，Σ s(1−s) = {gscaled}。",
        "Unscaled (scores × $sqrt({dk})$), the row of {q} saturates: its largest weight is {maxraw}, Σ s(1−s) = {graw}, the gradient all but gone. Divided by $sqrt({dk})$: its largest weight is {maxscaled}, Σ s(1−s) = {gscaled}.",
    ),
    "saturation": (
        "d = {d} 时随机一行 {n} 个分数。不缩放时最大权重 {maxraw}，Σ s(1−s) = {graw}，这就是饱和。除以 $sqrt({d})$ 后：最大权重 {maxscaled}，Σ s(1−s) = {gscaled}。",
        "A random row of {n} scores at d = {d}. Unscaled, the largest weight is {maxraw}, Σ s(1−s) = {graw}: saturated. Divided by $sqrt({d})$: the largest weight is {maxscaled}, Σ s(1−s) = {gscaled}.",
    ),
}

WORDS = {
    # Softmax
    # what exponentiating gives the keys (attention_core.exp_claim's kind), ending the exp caption
    "exp_shares_positive": ("，而且每份都是正的", ", and every share is positive"),
    "exp_shares_later": (
        "；它能看到的每个键都分到正的份额，后面 {n} 个键（−∞）分到 0",
        ", positive for each key it sees, 0 for the {n} later keys (−∞)",
    ),
    "exp_shares_blocked": (
        "；它能看到的每个键都分到正的份额，被挡住的 {n} 个键（−∞）分到 0",
        ", positive for each key it sees, 0 for the {n} blocked keys (−∞)",
    ),
    "exp_shares_later_one": (
        "；它能看到的每个键都分到正的份额，后面 1 个键（−∞）分到 0",
        ", positive for each key it sees, 0 for the one later key (−∞)",
    ),
    "exp_shares_blocked_one": (
        "；它能看到的每个键都分到正的份额，被挡住的 1 个键（−∞）分到 0",
        ", positive for each key it sees, 0 for the one blocked key (−∞)",
    ),
    "exp_shares_underflow": ("", ""),
    # the masked keys' marker under the exp bars, and the keys a picture leaves unlabelled
    "exp_masked_later": ("后面 {n} 个键：exp(−∞) = 0", "{n} later keys: exp(−∞) = 0"),
    "exp_masked_blocked": ("被挡住的 {n} 个键：exp(−∞) = 0", "{n} blocked keys: exp(−∞) = 0"),
    "exp_masked_later_one": ("后面 {n} 个键：exp(−∞) = 0", "{n} later key: exp(−∞) = 0"),
    "exp_masked_blocked_one": ("被挡住的 {n} 个键：exp(−∞) = 0", "{n} blocked key: exp(−∞) = 0"),
    "share_masked_keys": ("{n} 个被挡住的键：份额 0", "{n} masked keys: share 0"),
    "share_masked_keys_one": ("{n} 个被挡住的键：份额 0", "{n} masked key: share 0"),
    "exp_shifted": (
        "先减去这一行最大的分数（softmax 实际就这样算）：份额不变，数字不会溢出。",
        "The row's largest score (max) is subtracted first, as softmax is computed: the same shares, and no overflow.",
    ),
    "saturated_rows": (
        "{rows}：分数极大，权重已是独热",
        "{rows}: huge scores, the weights are one-hot",
    ),
}
