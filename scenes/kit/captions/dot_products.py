"""DotProducts: its title, the caption of each step (in the order the scene calls them) and its words,
Chinese and English side by side."""

SCENE = "DotProducts"
TITLE = ("点积就是投影", "The dot product as a projection")

STEPS = {
    # which query is followed: the kind of attention_core.readings.claims.demo_row
    "query_widest": (
        "我们跟着查询 {q} 走：没有哪个查询的注意力分得比它更开（它最大的权重 {top} 是所有查询中最小的）。",
        "We follow one query, {q}: no query spreads its attention more widely (its largest weight, {top}, is the smallest of any query's).",
    ),
    "query_widest_seeing_all": (
        "我们跟着查询 {q} 走，它能看到所有的键：这样的查询中，没有哪个的注意力分得比它更开（它最大的权重是 {top}）。",
        "We follow one query, {q}, which sees every key: of such queries, none spreads its attention more widely (its largest weight is {top}).",
    ),
    "query_seeing_all": (
        "我们跟着查询 {q} 走：只有它能看到所有的键（它最大的权重是 {top}）。",
        "We follow one query, {q}, the only one that sees every key (its largest weight is {top}).",
    ),
    "query_widest_among": (
        "我们跟着查询 {q} 走：这里跟随的查询中，没有哪个的注意力分得比它更开（它最大的权重是 {top}）。",
        "We follow one query, {q}: of the queries followed here, none spreads its attention more widely (its largest weight is {top}).",
    ),
    "query_alike": (
        "我们跟着第一个查询 {q} 走：每个查询最大的权重彼此相差不到 {alike}，注意力分得差不多开（它的是 {top}）。",
        "We follow the first query, {q}: every query's largest weight is within {alike} of the others', so they spread alike (this one's is {top}).",
    ),
    "query_peaked": (
        "我们跟着查询 {q} 走：每个查询都几乎把全部注意力放在一个键上，它放了 {top}。",
        "We follow one query, {q}: every query puts nearly all its attention on one key, this one {top}.",
    ),
    # the followed pair's query (attention_core.followed_choice): a trained head's, or asked
    # two sentences: a long story ("… and that₁ looks most at soup too: this head's strongest
    # links here") pages between them, never inside one (at 1:1 a page ended on "strongest")
    "query_followed": (
        "我们跟着查询 {q} 走，它最大的权重是 {top}。在这个头里，{does}。",
        "We follow one query, {q}, whose largest weight is {top}. In this head, {does}.",
    ),
    "query_asked": (
        "我们跟着所问的查询 {q} 走，它最大的权重是 {top}。在这个头里，{does}。",
        "We follow the query asked for, {q}, whose largest weight is {top}. In this head, {does}.",
    ),
    "query_only": (
        "我们跟着唯一的查询 {q} 走（它最大的权重是 {top}）。",
        "We follow the one query, {q} (its largest weight is {top}).",
    ),
    "pair": (
        "{q}·{k}：{k} 在 {q} 方向上的影子长 {shadow}，乘以 |{q}| = {nq}，得 {score}。",
        "{q}·{k}: the shadow of {k} on {q}'s direction is {shadow}; times |{q}| = {nq} gives {score}.",
    ),
    # the followed pair in d_k > 2: its cos θ against random directions' (cos_against_random)
    "pair_random": (
        "{q}·{k}：{k} 在 {q} 方向上的影子长 {shadow}，乘以 |{q}| = {nq}，得 {score}。{d} 维里两个随机方向的 cos θ 大约在 ±{spread} 之内（一个标准差），这一对的 {cos} 是它的 {times} 倍。",
        "{q}·{k}: the shadow of {k} on {q}'s direction is {shadow}; times |{q}| = {nq} gives {score}. In {d} dimensions two random directions have cos θ within about ±{spread} (one standard deviation): this pair's {cos} is {times} times that.",
    ),
    "matrix": (
        "每个查询都这样做：每个格子来自它自己的影子，得到分数矩阵 $Q K^top$（{m}×{n}）。",
        "Every query does the same, each cell from its own shadow: the score matrix $Q K^top$ ({m}×{n}).",
    ),
    # a frame too small for the whole matrix beside the plane (1:1): the still ends on the plane
    "again": (
        "回到 {q}：每个分数都是键的影子乘以 |q|：{scores}。",
        "Back to {q}: each score is its key's shadow times |q|: {scores}.",
    ),
}

WORDS = {
    # DotProducts
    "scores_typeset": ("分数 $Q K^top$", "scores $Q K^top$"),
    "legend_q": ("查询 $q$", "query $q$"),
    "legend_k": ("键 $k$（空心）", "key $k$ (outlined)"),
    # a narrow frame's plane column, where the long note (common.py) takes two lines
    "pair_plane_short": ("q 与 k 的平面（精确）", "the plane of q and k (exact)"),
    # under the followed pair's arithmetic (d_k > 2): the caption's comparison, on its still
    "random_cos": (
        "{d} 维随机方向：cos\u00a0θ ≈ ±{spread}，此处 {times} 倍",
        "random in {d} dimensions: cos\u00a0θ ≈ ±{spread}; here {times}×",
    ),
    "legend_k_short": (
        "键 $k$",
        "key $k$",
    ),  # where the longer one does not fit: the arrow shows it,
}
