"""StarterScene: its title, the caption of each step (in the order the scene calls them) and its words,
Chinese and English side by side."""

SCENE = "StarterScene"
TITLE = ("起步场景：词向量的长度", "A starter scene: the tokens' lengths")

# the starter scene to copy (scenes/_template.py): not in the registry, never rendered for users
STEPS = {
    "tokens": (
        "{n} 个词元，每个词元是一个从原点出发的箭头。",
        "{n} tokens, each an arrow from the origin.",
    ),
    "lengths": ("每个箭头的长度 |x|。", "The length |x| of each arrow."),
}

WORDS = {
    "starter_heading": ("词向量 x", "the embeddings x"),
}
