"""The look of a cell the mask blocks, in every matrix of weights: the background, the mask's
outline and a diagonal, its number (where shown) muted — so that "blocked" never reads as a
weight of 0.00 (CausalMask shows the mask come down; AttentionMatrix keeps the look). On a grid
of squares (many tokens) a blocked cell is one flat faint tone instead, no outline, no diagonal,
the blocked cells one patch: a 24-token causal grid's 276 outlined, crossed cells, then its
tiles of grey, carried more ink than its weights (issue 38); :func:`blocked_sample` is the
key's sample of either look."""

from __future__ import annotations

from manim import Line, Square, VGroup, interpolate_color

from scenes.mobjects.layout import box_of
from scenes.mobjects.theme import luminance


def blocked_look(matrix, mask, theme, mute: bool = True) -> VGroup:
    """Give ``matrix``'s shown cells that ``mask`` blocks their look (their numbers muted, or
    with ``mute`` False in the text's colour and not crossed out); return the diagonals (to
    appear with the matrix). No mask: an empty group."""
    marks = VGroup()
    if mask is None:
        return marks
    for i, j in matrix.shown_cells:
        if mask[i, j]:
            continue
        rect = matrix.cell_rect(i, j)
        if matrix.style.squares and matrix.cell(i, j) is None:  # a flat faint tone
            blocked_patch(rect, matrix.style.squares, theme)
            square = matrix.squares.get((i, j))  # a weight's square fills its cell: its 0 in
            if square is not None:  # the scale's colour hid the tone (the key's grey swatch)
                square.set_fill(blocked_tone(theme), opacity=1)
            continue
        rect.set_fill(theme.background, opacity=1).set_stroke(theme.muted, width=1.5)
        number = matrix.cell(i, j)
        if number is not None:  # on the background now: muted, or in the text's colour
            number.set_color(theme.muted if mute else theme.text)
        if mute or number is None:  # no line through a number that is to be read
            marks.add(diagonal(rect, theme))
    return marks


def diagonal(rect, theme) -> Line:
    """A muted line across ``rect`` (a blocked cell), corner to corner."""
    b, inset = box_of(rect), 0.2 * min(rect.width, rect.height)
    return Line(
        [b.x0 + inset, b.y0 + inset, 0], [b.x1 - inset, b.y1 - inset, 0], stroke_width=1.5
    ).set_color(theme.muted)


def blocked_tone(theme):
    """The flat tone of a blocked cell on a grid of squares: plainly no value's colour, and
    standing out from the background at most a third as much as the faintest value on either
    scale (CIEDE2000): on a dark background 15 % of the muted colour (ΔE 6.7 from it, the weights'
    0 21.6, the darkest score 27 from the tone; issue 38: at a quarter, 11.3, lighter than the
    weights' purple, the mask outshone a 24-token head's weights); on a light one 3 % (ΔE 1.1),
    since there the scores' own 0 is a light grey (ΔE 6.5 from white, 5.5 from the tone; at a
    quarter it was 3.4 from it, a blocked cell and a near-zero score one look)."""
    share = 0.15 if luminance(theme.background) < 0.5 else 0.03
    return interpolate_color(theme.background, theme.muted, share)


def blocked_patch(rect, side: float, theme, opacity: float = 1.0):
    """``rect`` (a cell of a grid of squares ``side`` apart) as a blocked cell: the flat tone,
    no outline, as wide as the cell's whole room, so that blocked cells side by side make one
    patch rather than a tiling that reads as hatching (issue 38): a hair wider, no seam of the
    background left between two of them by the edges' smoothing. Returns ``rect``."""
    rect.set_fill(blocked_tone(theme), opacity=opacity).set_stroke(width=0)
    return rect.stretch_to_fit_width(side + SEAM).stretch_to_fit_height(side + SEAM)


SEAM = 0.01  # how far two blocked cells side by side overlap


def blocked_sample(theme, squares: bool, side: float = 0.3) -> VGroup:
    """A blocked cell as the key shows it, in the look of the grid it explains: the flat tone
    on a grid of squares, else the background, the outline and the diagonal."""
    if squares:  # its rim the grid's lines round a blocked patch (on white it is nearly white)
        return VGroup(Square(side).set_fill(blocked_tone(theme), 1).set_stroke(theme.grid, 1))
    cell = Square(side).set_fill(theme.background, 1).set_stroke(theme.muted, 1.5)
    return VGroup(cell, diagonal(cell, theme))
