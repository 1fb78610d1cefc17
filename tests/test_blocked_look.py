"""A cell the mask blocks never reads as a weight of 0.00 (a review: AttentionMatrix and
CausalMask drew it like any near-zero weight): in AttentionMatrix, as in CausalMask, a cell with
a number has the frame's background and the mask's outline, its number readable and not crossed
out; on a grid of squares a blocked cell is one flat faint tone, no outline, no diagonal (a
24-token grid's crossed cells carried more ink than its weights)."""

from __future__ import annotations

import numpy as np
import pytest
from manim import Line
from manim.utils.color import ManimColor

import attention_core as ac
from lecturer_examples import OCR_LOOK, on_run, stills_of
from scenes.kit.registry import find
from scenes.mobjects.blocked import blocked_tone
from scenes.pipeline.stills import run_steps


def _blocked_cells(scene):
    m, mask, theme = scene.matrix, scene.head.mask, scene.theme
    look = blocked_tone(theme) if m.style.squares else theme.background
    bg = ManimColor(look).to_hex().lower()
    out = []
    for i, j in m.shown_cells:
        rect = m.cell_rect(i, j)
        filled = rect.get_fill_color().to_hex().lower() == bg
        diagonals = [
            d for d in getattr(m, "blocked_marks", []) if isinstance(d, Line) and rect_has(rect, d)
        ]
        number = m.cell(i, j)
        out.append((bool(mask[i, j]), filled, len(diagonals), number is not None))
    return out


def rect_has(rect, line) -> bool:
    c = line.get_center()
    return abs(c[0] - rect.get_center()[0]) < 1e-6 and abs(c[1] - rect.get_center()[1]) < 1e-6


# the limits' AttentionMatrix as test_scene_ocr.py runs it (English, 16:9): no run of its own
LIMITS_RUN = ("at-the-limits", "AttentionMatrix", *OCR_LOOK)


@pytest.mark.parametrize(
    "preset",
    ["causal", pytest.param("at-the-limits", marks=on_run(LIMITS_RUN, "blocked", _blocked_cells))],
)
def test_attention_matrix_draws_blocked_cells_in_a_look_of_their_own(preset):
    if preset in ac.PRESETS:
        ex = ac.PRESETS[preset]
        cells = run_steps(find("AttentionMatrix").load(), ex, frames=False, snapshot=_blocked_cells)
    else:
        cells = stills_of(LIMITS_RUN, "blocked")
    cells = cells[0].snapshot
    blocked = [c for c in cells if not c[0]]
    assert blocked, "the example blocks no shown cell"
    assert all(filled for _, filled, _, _ in blocked)
    assert not any(filled for allowed, filled, _, _ in cells if allowed)
    # no diagonal: through a number (it is read) nor on a square (a flat tone says it)
    assert all(lines == 0 for _, _, lines, number in blocked)
    assert np.any([number for *_, number in blocked]) == (preset == "causal")


def test_causal_mask_draws_the_masked_scores_in_the_scores_style():
    """A review at 4:3: the scores were a grid of squares (the blocked cells' −105.3 too wide
    for numbers) while the masked scores, those gone, fitted as numbers — so each score's
    square turned into a −∞ laid out for another grid, far off to the right, over the colour
    bar. The masked scores now take the scores' style."""
    from scenes.kit.look import Look

    n = 9
    rng = np.random.default_rng(1)
    scores = np.tril(rng.uniform(-2, 2, (n, n))) + np.triu(np.full((n, n), -105.3), 1)
    ex = ac.Example(
        tokens=[f"w{i}" for i in range(n)],
        embeddings=np.eye(n),
        weights={"W_q": np.eye(n), "W_k": scores.T * 3.0, "W_v": np.eye(n)},
        mask="causal",
    )
    look = Look.for_example(ex, lang="en", aspect="4:3")
    stills = run_steps(
        find("CausalMask").load(),
        ex,
        look=look,
        frames=False,
        pixel_height=180,
        snapshot=lambda s: (bool(s.scaled.style.squares), bool(s.masked.style.squares)),
    )
    assert stills[0].snapshot == (True, True)


@pytest.mark.parametrize("preset", ["causal", "zao-shang-hao"])
def test_scaling_crosses_the_scores_a_mask_will_block_and_says_so(preset):
    """A review of a causal head: Scaling framed drum₁'s 7.1 beside a blocked 7.7 in the same
    row, nothing to tell them apart, before CausalMask teaches the mask. The scores a mask will
    block now have its look in both matrices (background, outline, a muted number crossed),
    and the caption says what the crossed cells are; an example without a mask has neither."""

    def crossed(scene):
        shown = scene.division
        out = []
        for m, marks in (
            (shown["raw"], shown["blocked"][0]),
            (shown["scaled"], shown["blocked"][1]),
        ):
            for i, j in m.shown_cells:
                rect = m.cell_rect(i, j)
                lines = [d for d in marks if rect_has(rect, d)]
                bg = ManimColor(scene.theme.background).to_hex().lower()
                filled = rect.get_fill_color().to_hex().lower() == bg
                blocked = scene.head.mask is not None and not scene.head.mask[i, j]
                out.append((blocked, filled, len(lines)))
        return out

    ex = ac.PRESETS[preset]
    first = run_steps(find("Scaling").load(), ex, frames=False, snapshot=crossed)[0]
    cells = first.snapshot
    blocked = [c for c in cells if c[0]]
    assert all(filled and lines == 1 for _, filled, lines in blocked)
    assert not any(filled or lines for b, filled, lines in cells if not b)
    assert bool(blocked) == (preset == "causal")
    said = "划掉的格子" in first.caption or "Crossed cells" in first.caption
    assert said == (preset == "causal"), first.caption
