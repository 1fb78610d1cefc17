"""A score matrix too big for its numbers is a grid of cells each FILLED in its score's colour on
the diverging scale, its colour bar beside it, as a weight's cell is on the 0–1 scale (issue 38:
as squares of area |score|, Projections' Q·Kᵀ, DotProducts' matrix and CausalMask's scores on a
22-token sentence read as grey dots when projected). A cell the mask blocks (−∞) stays one flat
faint tone, plainly neither a value nor the empty panel. Built directly: no scene is rendered."""

from __future__ import annotations

import numpy as np
import pytest

from scenes.mobjects.blocked import blocked_look, blocked_tone
from scenes.mobjects.colour_bar import ColorBar
from scenes.mobjects.matrix import LabelledMatrix, square_gap
from scenes.mobjects.theme import THEMES, delta_e, diverging, score_limit

SIDE = 0.3  # a cell's side (scene units), as a 22-token grid at 1:1 has


def _causal_scores(n: int = 8) -> tuple[np.ndarray, np.ndarray]:
    """Scores of a causal head: signed, one of them 0.01 (near zero), the blocked ones −∞."""
    rng = np.random.default_rng(3)
    scores = rng.uniform(-6.0, 9.0, (n, n))
    scores[3, 1] = 0.01
    mask = np.tril(np.ones((n, n), dtype=bool))
    return np.where(mask, scores, -np.inf), mask


def _hex(colour) -> str:
    return colour.to_hex().lower()


@pytest.mark.parametrize("name", ["dark", "light"])
def test_a_score_grid_fills_each_cell_in_its_colour_and_blocked_cells_stay_apart(name):
    theme = THEMES[name]
    scores, mask = _causal_scores()
    n = len(scores)
    tokens = [f"t{k}" for k in range(n)]
    m = LabelledMatrix(scores, ("masked", 0), theme, tokens, tokens, squares=SIDE, named=[(5, 2)])
    blocked_look(m, mask, theme)
    limit = score_limit(scores)
    inner = (SIDE - 0.08) ** 2  # the square in its cell, as a weight's (0.08 apart)
    finite = [(i, j) for i in range(n) for j in range(n) if mask[i, j]]
    for i, j in finite:  # every score, however small, fills its cell in its colour
        sq = m.squares[i, j]
        assert sq.get_fill_opacity() == 1
        assert sq.width * sq.height == pytest.approx(inner, abs=2e-6), (i, j, scores[i, j])
        assert _hex(sq.get_fill_color()) == _hex(diverging(scores[i, j], limit))
    # the number a caption names stays, on its badge
    assert list(m.cells) == [(5, 2)] and len(m.badges)
    # the colour bar of the diverging scale beside the grid
    bars = [b for b in m.colorbar.get_family() if isinstance(b, ColorBar)]
    assert len(bars) == 1
    strip = bars[0].strip
    assert _hex(strip[0].get_fill_color()) == _hex(diverging(-limit * 39 / 40, limit))
    assert _hex(strip[-1].get_fill_color()) == _hex(diverging(limit * 39 / 40, limit))
    # the blocked cells: one flat tone, no square of a value on them
    tone = blocked_tone(theme)
    blocked = [(i, j) for i in range(n) for j in range(n) if not mask[i, j]]
    for i, j in blocked:
        assert _hex(m.cell_rect(i, j).get_fill_color()) == _hex(tone)
        assert (i, j) not in m.squares
    # the near-zero score is plainly neither the blocked tone nor the empty panel (CIEDE2000 ≥ 5;
    # about 2 is just noticeable), and the blocked tone is fainter than any value on the scale
    zero = m.squares[3, 1].get_fill_color()
    assert delta_e(zero, tone) >= 5, (name, delta_e(zero, tone))
    assert delta_e(zero, m.cell_rect(3, 1).get_fill_color()) >= 5  # the rim of its cell
    faintest = min(delta_e(diverging(v, limit), theme.background) for v in np.linspace(-1, 1, 41))
    assert delta_e(tone, theme.background) < faintest


def test_small_cells_keep_most_of_their_room_for_the_colour():
    """At 22 tokens in a 16:9 frame a cell is 0.17 wide: 0.08 between squares left them 0.09,
    28 % of the cell's area (dots); the gap is at most a third of a cell."""
    for side in (0.17, 0.2, 0.24):
        assert ((side - square_gap(side)) / side) ** 2 >= 0.44, side
    assert square_gap(0.3) == pytest.approx(0.08) == square_gap(0.9)


def test_a_compact_grid_fills_its_cells_too():
    """The grid of a matrix too big even for a labelled grid of squares (MultiHeadSplit's Q, K,
    V of a real model) draws each value as the same square in its colour: one look for a value
    in every scene (its squares' areas were |value|: small values specks)."""
    from scenes.mobjects.compact_grid import CompactGrid

    values = np.array([[0.001, -2.0, 0.5], [3.0, -0.02, 1.0]])
    grid = CompactGrid(values, THEMES["dark"], ["a", "b"], cell=0.3)
    limit = score_limit(values)
    sides = {round(sq.width, 6) for sq in grid.cells.values()}
    assert sides == {round(0.3 * 0.86, 6)}
    for (i, j), sq in grid.cells.items():
        assert _hex(sq.get_fill_color()) == _hex(diverging(values[i, j], limit))


@pytest.mark.parametrize("name", ["dark", "light"])
def test_the_mask_on_a_grid_of_weights_carries_less_ink_than_the_weights(name):
    """Issue 38 (CausalMask at 24 tokens): the blocked cells, tiles of a grey lighter than the
    weights' dark purple, outshone the weights. They are one patch now (each blocked cell as
    wide as its whole room, so that side by side they touch), standing out from the background
    at most a third as much as the faintest weight (CIEDE2000)."""
    from scenes.mobjects.theme import heat

    theme = THEMES[name]
    n = 8
    weights = np.tril(np.random.default_rng(5).dirichlet(np.ones(n), n))
    weights /= weights.sum(axis=1, keepdims=True)
    mask = np.tril(np.ones((n, n), dtype=bool))
    tokens = [f"t{k}" for k in range(n)]
    m = LabelledMatrix(weights, ("weights", 0), theme, tokens, tokens, heat=True, squares=SIDE)
    blocked_look(m, mask, theme)
    for i, j in zip(*np.nonzero(~mask)):
        rect = m.cell_rect(i, j)
        assert min(rect.width, rect.height) >= SIDE  # (a hair more: no seam between)
        assert rect.get_stroke_width() == 0
    tone = blocked_tone(theme)
    faintest = min(delta_e(heat(w), theme.background) for w in np.linspace(0, 1, 41))
    assert 3 * delta_e(tone, theme.background) <= faintest, (name, delta_e(tone, theme.background))


def test_the_key_check_sees_a_grid_of_squares_without_its_colour_bar():
    """``key_checks.unkeyed_grids`` (run on every still of the scene runs): a grid of squares
    drawn without its colour bar is named; with its own bar, or a shared one of its scale and
    bound, it is not."""
    from types import SimpleNamespace

    from key_checks import unkeyed_grids
    from manim import VGroup

    scores, _ = _causal_scores()
    scores = np.where(np.isfinite(scores), scores, 0.0)
    tokens = [f"t{k}" for k in range(len(scores))]
    theme = THEMES["dark"]
    bare = LabelledMatrix(
        scores, ("scores", 0), theme, tokens, tokens, squares=SIDE, colorbar=False
    )
    keyed = LabelledMatrix(scores, ("scores", 0), theme, tokens, tokens, squares=SIDE)
    shared = ColorBar(theme, "scores", score_limit(scores))
    assert unkeyed_grids(SimpleNamespace(mobjects=[bare])) == [
        "a 8 × 8 grid of scores squares without its colour bar"
    ]
    assert unkeyed_grids(SimpleNamespace(mobjects=[keyed])) == []
    assert unkeyed_grids(SimpleNamespace(mobjects=[VGroup(bare), shared])) == []
    other = ColorBar(theme, "scores", 2 * score_limit(scores))  # another bound: not its key
    assert unkeyed_grids(SimpleNamespace(mobjects=[bare, other]))


def test_a_one_row_grid_of_squares_has_its_key_flat_under_it():
    """A query's row of scores as squares (Projections at 21 keys, 1:1): an upright key as tall
    as the row was unreadable, so the scene drew none and the row's colours said nothing. The
    key lies flat under the row, a line lower (room for the framed score under its cell), and
    the fitted grid keeps every key as wide as without it."""
    from scenes.mobjects.grid_labels import ROW_NOTE_ROOM
    from scenes.mobjects.layout import Box, box_of

    scores = np.random.default_rng(2).uniform(-30, 30, (1, 21))
    keys = [f"key{j}" for j in range(21)]
    box = Box(-3.75, -2.09, 3.75, 2.09)
    args = (scores, ("scores_row", 0, 3), THEMES["dark"], ["query"], keys, box)
    m = LabelledMatrix.fitted(*args, any_squares=True, title_room=0.0)
    bare = LabelledMatrix.fitted(*args, any_squares=True, title_room=0.0, colorbar=False)
    assert m.style.squares and len(m.shown_columns) == 21
    assert m.style.squares == pytest.approx(bare.style.squares)
    bar = [b for b in m.colorbar.get_family() if isinstance(b, ColorBar)][0]
    assert bar.strip.width > 4 * bar.strip.height  # flat
    gap = box_of(m.backgrounds).y0 - box_of(bar).y1
    assert gap >= ROW_NOTE_ROOM - 1e-6
    assert m.width <= box.width + 1e-6 and m.height <= box.height + 1e-6


def test_some_rows_of_a_larger_matrix_are_numbered_as_their_tokens():
    """A query's row of scores with numbered columns (Projections at 22 keys, 1:1) numbers its
    row as its token, not as the grid's first row (a review: "1 it" where "it" is token 16,
    its columns numbered 1 to 22 above it)."""
    from scenes.mobjects.layout import Box

    scores = np.random.default_rng(2).uniform(-30, 30, (1, 22))
    keys = [f"professorial{j}" for j in range(22)]  # too long to stand in a short grid
    box = Box(-3.75, -1.0, 3.75, 1.0)
    args = (scores, ("scores_row", 0, 15), THEMES["dark"], ["it"], keys, box)
    m = LabelledMatrix.fitted(*args, any_squares=True, title_room=0.0, first_row=16)
    assert m.style.squares and [c.source_text for c in m.col_labels][:2] == ["1", "2"]
    assert [t.source_text for t in m.row_labels] == ["16 it"]
