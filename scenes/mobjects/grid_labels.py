"""How a grid of squares labels its rows and columns: every token in full where it fits, else
upright columns, else numbered columns with row labels that start with their number; where even
those rows are too tall for the cells (24 tokens), the numbered rows split between the grid's
two sides (odd rows on the left, even on the right, each beside its row) and the column numbers
stand in tiers (:class:`LabelChoice`). A label of at most :data:`SHORT_LABEL` characters is never
shortened."""

from __future__ import annotations

import itertools
from typing import NamedTuple

import numpy as np
from manim import PI

from scenes.mobjects.colour_bar import upright_bar_room
from scenes.mobjects.text import SHORT_LABEL, ellipsize, label_box, label_reach, shown, text_width
from scenes.mobjects.theme import score_limit
from scenes.mobjects.token_text import Followed

LABEL_WIDTH = 2.2  # row labels longer than this are shortened with "…"
# rows split between the grid's sides only past this many (24 tokens); a grid of 12 rows that
# cannot label them in one column is elided, keeping the numbers of the rows its story names
SPLIT_FROM = 12
MAX_SQUARE = 0.9  # the largest cell of a grid of squares (a small grid stays compact)
ROW_NOTE_ROOM = 0.65  # between a one-row grid of squares and its flat key: a line for a note
FLAT_BAR_HEIGHT = 0.5  # a flat colour key with its values under it
TIER_GAP = 0.03  # between two tiers of column labels
LABEL_GAP = 0.12  # between a row label and the grid
STAGGER_GAP = 0.15  # between the two columns of a staggered grid's row labels


def fit_label(t, room: float, size: float, prefix: str = "") -> str:
    """``t`` as drawn in ``room`` (:func:`ellipsize`, after ``prefix``, a row's number "12 "),
    a :class:`Followed` label whole (and still marked): the followed pair's name is never
    shortened."""
    if isinstance(t, Followed):
        return Followed(prefix + t)
    return ellipsize(shown(t), room, size, prefix)


class LabelChoice(NamedTuple):
    """The texts of a grid's row and column labels and how they stand: ``upright`` columns,
    rows ``split`` between the two sides of the grid (odd rows left, even rows right) and the
    columns in ``tiers`` (column j in tier j mod tiers, the first tier nearest the grid)."""

    rows: list
    cols: list
    upright: bool
    split: bool = False
    tiers: int = 1
    stagger: bool = False


def row_pitch(rows, size: float) -> float:
    """The least row spacing at which no two neighbouring row labels overlap."""
    heights = [label_box(t, size)[1] for t in rows]
    return max([(a + b) / 2 - 0.015 for a, b in zip(heights, heights[1:])], default=0.0)


def label_choices(
    row_labels, col_labels, size: float, upright_room: float, one_side=False, first_row: int = 1
):
    """The ways to label a grid of squares, best first: every token in full (the columns
    flat, then upright), the columns upright and shortened to ``upright_room`` (at least an
    inch of text), and the columns numbered (flat, then upright; each row label starts with its
    number; a long label shortened to :data:`LABEL_WIDTH`, then to the widest short one); last
    the numbered rows split between the grid's sides with the numbers in two or three tiers
    (flat), or two upright. ``one_side``: before the split, the numbered rows all on the left
    with the numbers in two or three tiers (AttentionMatrix, issue 38: rows named on both
    sides read as two lists). ``first_row``: the number of the first row (some rows of a
    larger matrix, numbered as their tokens are)."""
    rows, cols = square_label_texts(row_labels, col_labels, size)
    yield LabelChoice(rows, cols, False)
    yield LabelChoice(rows, cols, True)
    if 0.9 <= upright_room < LABEL_WIDTH:
        yield LabelChoice(rows, [fit_label(t, upright_room, size) for t in col_labels], True)
    numbers = [str(j + 1) for j in range(len(col_labels))]
    for room, (upright, tiers) in itertools.product(
        _numbered_rooms(row_labels, size, first_row), ((False, 1), (False, 2), (True, 1))
    ):  # flat numbers in two tiers before upright ones (a turned digit read as 'ro', 'N')
        rows = [fit_label(t, room, size, f"{i + first_row} ") for i, t in enumerate(row_labels)]
        yield LabelChoice(rows, numbers, upright, False, tiers)
    if len(row_labels) > SPLIT_FROM:
        rows = [
            fit_label(t, LABEL_WIDTH, size, f"{i + first_row} ") for i, t in enumerate(row_labels)
        ]
        for tiers in (2, 3) if one_side else ():
            yield LabelChoice(rows, numbers, False, False, tiers, stagger=True)
        for upright, tiers in ((False, 2), (False, 3), (True, 2)):
            yield LabelChoice(rows, numbers, upright, True, tiers)


def _numbered_rooms(row_labels, size: float, first_row: int = 1) -> list[float]:
    """The widths to try for numbered row labels: :data:`LABEL_WIDTH`, then only as wide as the
    widest short label (which is never shortened) needs, so that a long label gives way to the
    squares before they become too small for the rows (12 tokens at 1:1)."""
    short = [
        text_width(f"{i + first_row} {t}", size)
        for i, t in enumerate(row_labels)
        if len(str(t)) <= SHORT_LABEL
    ]
    least = max([*short, 1.0])
    return [LABEL_WIDTH] + ([least] if least < LABEL_WIDTH - 0.05 else [])


def square_label_texts(row_labels, col_labels, size: float):
    """A grid of squares keeps every token label (shortened past LABEL_WIDTH): the columns'
    stand upright when they are wider than a cell."""
    rows = [fit_label(t, LABEL_WIDTH, size) for t in row_labels]
    return rows, [fit_label(t, LABEL_WIDTH, size) for t in col_labels]


def label_sides(rows, size: float, split: bool, stagger: bool = False) -> tuple[float, float]:
    """The widths of the row label columns left and right of the grid (0 on the right unless
    the rows are ``split``: then the odd rows, 1st, 3rd, …, go left; ``stagger``: two columns
    on the left)."""
    widths = [text_width(t, size) for t in rows] or [0.0]
    if stagger:
        inner, outer = max(widths[0::2]), max(widths[1::2], default=0.0)
        return inner + 0.2 + STAGGER_GAP + outer, 0.0  # as LabelledMatrix places them
    if not split:
        return max(widths) + 0.2, 0.0
    # a split grid's labels stand LABEL_GAP from it (as LabelledMatrix places them)
    return max(widths[0::2]) + LABEL_GAP, max(widths[1::2], default=0.0) + LABEL_GAP


def column_header(cols, size: float, upright: bool, tiers: int) -> float:
    """The height the column labels take above the grid (``tiers`` of them)."""
    tier = tier_height(cols, size, upright)
    return tiers * tier + (tiers - 1) * TIER_GAP


def tier_height(cols, size: float, upright: bool) -> float:
    """The height of one tier of column labels: the longest upright; flat, set on one baseline
    (scenes.mobjects.text_line), the deepest reach below it and the highest above."""
    if upright:
        return max(text_width(c, size) for c in cols)
    reach = [label_reach(c, size) for c in cols if c]
    ink = max((label_box(c, size)[1] for c in cols), default=0.0)
    return max(ink, max(r[0] for r in reach) + max(r[1] for r in reach)) if reach else ink


def grid_of_squares(
    args,
    width: float,
    height: float,
    size: float,
    colorbar: bool,
    scale: str | None = None,
    one_side: bool = False,
    first_row: int = 1,
):
    """``(args, side, choice)`` for a grid of squares that fits ``width`` × ``height`` with every
    row and column labelled at ``size`` (a :class:`LabelChoice`), or None when the cells would be
    shorter than a row label. ``args``: (values, role, theme, row labels, column labels);
    ``scale``: the cells' colour scale (None: the scores'), whose key's width is measured;
    ``one_side``: the rows named on the left only where that fits (:func:`label_choices`);
    ``first_row``: the number of the first row, where numbered."""
    values, role, theme, row_labels, col_labels = args
    m, n = np.shape(values)
    scale = scale or "scores"  # a grid of squares always has a scale (numbers: the scores')
    limit = score_limit(values) if scale == "scores" else 1.0
    pitch = row_pitch(square_label_texts(row_labels, col_labels, size)[0], size)
    upright_room = height - 0.25 - m * (pitch + 0.015)  # the most an upright label may take
    for choice in label_choices(row_labels, col_labels, size, upright_room, one_side, first_row):
        rows, cols, upright, split, tiers, stagger = choice
        left, right = label_sides(rows, size, split, stagger)
        header = column_header(cols, size, upright, tiers)
        if not (upright or split or tiers > 1):  # one flat tier is as tall as a row label
            header = max(label_box(t, size)[1] for t in rows)
        tiered = split or tiers > 1  # many rows: a slim key, the title nearer
        gap = 0.15 if tiered else 0.25  # between the labels (0.12 above the grid) and the title
        bar = upright_bar_room(theme, scale, limit, tiered) if colorbar else 0.0  # on the right
        under = 0.0
        if colorbar and m == 1:  # one row: the key flat under it (LabelledMatrix._colorbar)
            bar, under = 0.0, ROW_NOTE_ROOM + FLAT_BAR_HEIGHT
        side = min(
            (width - left - right - bar) / n, (height - header - gap - under) / m, MAX_SQUARE
        )
        rows_need, cols_need = _least_side(rows, cols, size, choice)
        if side >= rows_need and (side >= cols_need or n == 1):
            return (values, role, theme, rows, cols), side, choice
    return None


def _least_side(rows, cols, size: float, choice: LabelChoice) -> tuple[float, float]:
    """The smallest cell at which no two row labels on one side overlap, and at which no two
    column labels in one tier do."""
    widest = max(text_width(c, size) for c in cols)
    if not (
        choice.split or choice.stagger
    ):  # flat: as :func:`too_wide` has it, a space between neighbours (in one tier)
        widths, t = [text_width(c, size) for c in cols], choice.tiers
        gap = 0.12 if t == 1 else 0.04
        pair = max([(a + b) / 2 + gap for a, b in zip(widths, widths[t:])], default=0.0)
        return row_pitch(rows, size), (0.0 if choice.upright else max(widest + 0.04, pair) / t)
    rows_need = max(row_pitch(rows[0::2], size), row_pitch(rows[1::2], size)) / 2
    across = max(label_box(c, size)[1] for c in cols) + 0.02 if choice.upright else widest + 0.06
    return rows_need, across / choice.tiers


def stand_up(text) -> None:
    """Turn a label to read upwards, keeping its ``font_size`` true (Manim derives it from the
    height, which turning swaps for the width)."""
    before = text.height
    text.rotate(PI / 2)
    if hasattr(text, "initial_height") and before > 0:
        text.initial_height *= text.height / before


def too_wide(texts, cw: float, size: float, tiers: int = 1) -> bool:
    """Whether flat column labels ``cw`` apart (in ``tiers``: a tier's labels ``tiers`` cells
    apart) would touch: each wider than its room, or two neighbours in one tier closer than a
    space (a review: "drum₁lemon" read as one word, 0.04 apart)."""
    if len(texts) < 2:
        return False
    widths = [label_box(t, size)[0] for t in texts]
    room, gap = cw * tiers, (0.12 if tiers == 1 else 0.04)
    near = zip(widths, widths[tiers:])
    return any(w > room - 0.04 for w in widths) or any((a + b) / 2 > room - gap for a, b in near)
