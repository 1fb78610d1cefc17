"""How a grid of squares labels its rows and columns: every token in full where it fits, else
upright columns, else numbered columns with row labels that start with their number. A label of
at most :data:`SHORT_LABEL` characters is never shortened."""

from __future__ import annotations

import itertools

from scenes.mobjects.text import SHORT_LABEL, ellipsize, label, text_width

LABEL_WIDTH = 2.2  # row labels longer than this are shortened with "…"


def row_pitch(rows, size: float) -> float:
    """The least row spacing at which no two neighbouring row labels overlap."""
    heights = [label(t, size).height for t in rows]
    return max([(a + b) / 2 - 0.015 for a, b in zip(heights, heights[1:])], default=0.0)


def label_choices(row_labels, col_labels, size: float, upright_room: float):
    """The ways to label a grid of squares, best first: every token in full (the columns
    flat, then upright), the columns upright and shortened to ``upright_room`` (at least an
    inch of text), and the columns numbered (flat, then upright; each row label starts with its
    number; a long label shortened to :data:`LABEL_WIDTH`, then to the widest short one)."""
    rows, cols = square_label_texts(row_labels, col_labels, size)
    yield rows, cols, False
    yield rows, cols, True
    if 0.9 <= upright_room < LABEL_WIDTH:
        yield rows, [ellipsize(str(t), upright_room, size) for t in col_labels], True
    numbers = [str(j + 1) for j in range(len(col_labels))]
    for room, upright in itertools.product(_numbered_rooms(row_labels, size), (False, True)):
        rows = [ellipsize(str(t), room, size, f"{i + 1} ") for i, t in enumerate(row_labels)]
        yield rows, numbers, upright


def _numbered_rooms(row_labels, size: float) -> list[float]:
    """The widths to try for numbered row labels: :data:`LABEL_WIDTH`, then only as wide as the
    widest short label (which is never shortened) needs, so that a long label gives way to the
    squares before they become too small for the rows (12 tokens at 1:1)."""
    short = [
        text_width(f"{i + 1} {t}", size)
        for i, t in enumerate(row_labels)
        if len(str(t)) <= SHORT_LABEL
    ]
    least = max([*short, 1.0])
    return [LABEL_WIDTH] + ([least] if least < LABEL_WIDTH - 0.05 else [])


def square_label_texts(row_labels, col_labels, size: float):
    """A grid of squares keeps every token label (shortened past LABEL_WIDTH): the columns'
    stand upright when they are wider than a cell."""
    rows = [ellipsize(str(t), LABEL_WIDTH, size) for t in row_labels]
    return rows, [ellipsize(str(t), LABEL_WIDTH, size) for t in col_labels]
