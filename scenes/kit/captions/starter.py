"""StarterScene: its title, the caption of each step (in the order the scene calls them) and its words,
Chinese and English side by side."""

SCENE = "StarterScene"
TITLE = ("起步场景：词向量的长度", "A starter scene: the tokens' lengths")

# the starter scene to copy (scenes/_template.py): not in the registry, never rendered for users
STEPS = {
    "tokens": ("每个词元是一个从原点出发的箭头。", "Each token is an arrow from the origin."),
    # many tokens (past scenes.mobjects.plane.CROWDED): the story's cast named, the rest counted
    "tokens_many": (
        "每个词元是一个从原点出发的箭头：故事里的词元有颜色、有名字，其余 {others} 个为灰色。",
        "Each token is an arrow from the origin: the story's tokens in colour and named, "
        "the other {others} grey.",
    ),
    "lengths": ("每个箭头的长度 |x|。", "The length |x| of each arrow."),
    "lengths_many": ("每个彩色箭头的长度 |x|。", "The length |x| of each arrow in colour."),
}

WORDS = {
    "starter_heading": ("词向量 x", "the embeddings x"),
    "starter_not_listed": ("其余 {n} 个（灰色）未列出", "{n} others (grey) not listed"),
}
