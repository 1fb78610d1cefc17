"""A head's weights as coloured cells only, on the one fixed 0–1 scale: the small multiples of
HeadGallery and the heads MultiHeadSplit keeps on screen to its last still (the numbers are in
the AttentionMatrix scene; a colour bar stands beside them)."""

from __future__ import annotations

from manim import Rectangle, VGroup

from scenes.mobjects.theme import heat

MIN_HEAD = 8 / 1080 * 120  # a head drawn is at least 120 px tall and wide at 1080p (8 units)


def spans(heads) -> str:
    """Head indices as 1-based numbers and runs: [3, 4, 5, 7] → "4–6, 8"."""
    runs: list[list[int]] = []
    for h in sorted(heads):
        if runs and h == runs[-1][-1] + 1:
            runs[-1].append(h)
        else:
            runs.append([h])
    words = [
        f"{r[0] + 1}–{r[-1] + 1}" if len(r) > 2 else ", ".join(str(k + 1) for k in r) for r in runs
    ]
    return ", ".join(words)


class HeatGrid(VGroup):
    """``weights`` as a square grid ``size`` wide (its longer side), each cell the colour of its
    weight; ``weights=None``: ``n`` × ``n`` empty outlined cells. ``cell_rect(i, j)`` is cell
    (i, j)'s square (what a frame around one cell surrounds)."""

    def __init__(self, weights, size: float, theme, n: int | None = None):
        super().__init__()
        m, k = weights.shape if weights is not None else (n, n)
        cell = size / max(m, k)
        self.cell = cell
        self.shape = (m, k)
        for i in range(m):
            for j in range(k):
                rect = Rectangle(
                    width=cell,
                    height=cell,
                    stroke_width=0.5 if weights is not None else 1.0,
                    stroke_color=theme.background if weights is not None else theme.muted,
                    fill_opacity=1 if weights is not None else 0,
                    fill_color=heat(float(weights[i, j])) if weights is not None else None,
                )
                rect.move_to([(j + 0.5) * cell, -(i + 0.5) * cell, 0])
                self.add(rect)

    def cell_rect(self, i: int, j: int) -> Rectangle:
        return self.submobjects[i * self.shape[1] + j]
