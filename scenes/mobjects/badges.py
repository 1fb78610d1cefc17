"""Badges on a grid of squares (:class:`~scenes.mobjects.matrix.LabelledMatrix` with
``squares``): each number a caption names, wider than its cell, goes on a badge near its cell
where it hides the least of the other squares, with a leader line to the cell when they do not
touch (:func:`place_badges`)."""

from __future__ import annotations

import itertools
import math

import numpy as np
from manim import BackgroundRectangle, Line, Rectangle, VGroup

from scenes.mobjects.layout import Box, box_of, ink_to

FRAMED_MARGIN = 0.02  # how far out of a framed cell a badge keeps (its number is PAD further)
# the badge round its number: its stroke clear of the digits (0.04 touched them at 540p, and the
# number read 3.94:1 against the stroke and the cells beyond: trophy-24 Projections)
PAD = 0.07


def place_badges(matrix) -> None:
    """On a grid of squares each kept number, wider than its cell, goes on a badge near its
    cell, inside the grid, where it hides the least of the other squares (a masked or
    near-zero cell hides nothing), never over another kept number or named cell; a badge
    that does not touch its cell gets a leader line to the cell's frame. The badges are placed
    in the order that leaves none on its own cell for want of room (two named cells side by
    side in a corner: the first one's badge can shut the second in)."""
    spots = _spots_in_best_order(matrix)
    for (i, j), num in matrix.cells.items():
        cell = matrix.cell_rect(i, j)
        ink_to(num, spots[i, j].center)
        badge = BackgroundRectangle(num, color=matrix.theme.background, fill_opacity=1, buff=PAD)
        # the cell it names framed in the badge's colour
        mark = Rectangle(width=cell.width + 0.02, height=cell.height + 0.02)
        mark.set_stroke(matrix.theme.text, width=2).move_to(cell.get_center())
        badge.set_stroke(matrix.theme.text, width=1, opacity=1)
        parts = [mark, badge]
        start, end = _nearest_points(box_of(badge), box_of(mark))
        if np.linalg.norm(end - start) > 0.03:  # not touching: a leader to its cell
            parts.insert(0, Line(start, end, stroke_width=1.5, color=matrix.theme.text))
        matrix.badges.add(*parts)
        matrix.badge_of[i, j] = VGroup(*parts)


def _spots_in_best_order(matrix) -> dict:
    """Each kept number's badge box: of the orders of placing them (every order of up to four,
    else the given one), the first that puts no badge on its own cell."""
    keys = list(matrix.cells)
    orders = itertools.permutations(keys) if len(keys) <= 4 else [keys]
    best = None
    for order in orders:
        spots, stuck = _spots(matrix, order)
        if best is None or stuck < best[1]:
            best = spots, stuck
        if not stuck:
            break
    return best[0] if best else {}


def _spots(matrix, order) -> tuple[dict, int]:
    """The badge boxes placed in ``order``, and how many found no free place."""
    bounds = box_of(matrix.backgrounds)
    taken = [box_of(matrix.cell_rect(*k)) for k in matrix.cells]
    # a cell a step frames (``highlight``: 0.035 out, a stroke of 4): a badge (its number PAD
    # in) clear of the cell grown by FRAMED_MARGIN keeps its number clear of the frame's stroke
    # (its own cell's frame: the badge beside it is 0.02 out, its number PAD further, clear of it)
    framed = {k: matrix.cell_rect(*k) for k in getattr(matrix, "framed", ())}
    framed = {k: box_of(r).inset(-FRAMED_MARGIN) for k, r in framed.items() if r is not None}
    ink = [
        (box_of(sq), sq.width * sq.height)
        for k, sq in matrix.squares.items()
        if k not in matrix.cells and sq.get_fill_opacity() > 0
    ]
    spots, stuck = {}, 0
    for i, j in order:
        cell = matrix.cell_rect(i, j)
        others = [t for t in taken if not t.contains(box_of(cell), 1e-6)]
        clear = taken + [b for k, b in framed.items() if k != (i, j)]
        num = matrix.cells[i, j]
        box = _free_spot(cell.get_center(), num, matrix.style.squares, bounds, clear, ink, others)
        stuck += box is None
        if box is None:  # on the cell itself
            c, half = cell.get_center(), np.array([num.width / 2 + PAD, num.height / 2 + PAD])
            box = Box(*(c[:2] - half), *(c[:2] + half))
        spots[i, j] = box
        taken.append(box)
    return spots, stuck


def _free_spot(centre, num, side: float, bounds, taken, ink=(), crossed=()):
    """Where ``num`` (on a badge) goes near a cell at ``centre``: of the places touching it or
    further along its row or column, inside ``bounds`` and clear of ``taken``, the one that hides
    the least square area of ``ink`` ((box, area) pairs), nearer ones first on a tie, whose
    leader to the cell crosses none of ``crossed`` (where none is free: off its corners, further
    out); None when there is no such place."""
    half_w, half_h = num.width / 2 + PAD, num.height / 2 + PAD
    up = side / 2 + half_h + 0.02
    across = side / 2 + half_w + 0.02
    offsets = [(0, up), (0, -up), (-across, 0), (across, 0)]  # touching the cell
    for k in range(1, 9):  # further along its row or column: a straight leader
        offsets += [(0, up + k * side), (0, -up - k * side)]
        offsets += [(-across - k * side / 2, 0), (across + k * side / 2, 0)]
    best = _cheapest(offsets, centre, num, side, bounds, taken, ink, crossed)
    if best is None:  # shut in (a column of framed cells): off the diagonals, with a leader
        steps = itertools.product(range(7), range(7), (-1, 1), (-1, 1))
        corners = [(sx * (across + a * side / 2), sy * (up + b * side)) for a, b, sx, sy in steps]
        best = _cheapest(corners, centre, num, side, bounds, taken, ink, crossed)
    return best


def _cheapest(offsets, centre, num, side: float, bounds, taken, ink, crossed):
    """Of the badge places at ``offsets`` from ``centre`` (see :func:`_free_spot`), the one
    that hides the least, nearer first; None when none is free."""
    half_w, half_h = num.width / 2 + PAD, num.height / 2 + PAD
    best, best_cost = None, math.inf
    for dx, dy in offsets:
        x = min(max(centre[0] + dx, bounds.x0 + half_w), bounds.x1 - half_w)
        # clamped like x: a badge taller than a row of the edge still fits beside its cell
        y = min(max(centre[1] + dy, bounds.y0 + half_h), bounds.y1 - half_h)
        box = Box(x - half_w, y - half_h, x + half_w, y + half_h)
        if not bounds.contains(box) or any(box.overlaps(t, 0.0) for t in taken):
            continue
        a, b = _nearest_points(box, Box(*(centre[:2] - side / 2), *(centre[:2] + side / 2)))
        on_leader = [a + (b - a) * t for t in np.linspace(0.05, 0.95, 12)]
        if any(c.contains(Box(*p[:2], *p[:2]), 0.0) for c in crossed for p in on_leader):
            continue
        hidden = sum(_overlap(box, b) for b, _ in ink) / side**2  # in whole cells' squares
        cost = 3 * hidden + 0.3 * math.hypot(x - centre[0], y - centre[1]) / side
        cost += 0.3 if dy else 0.0  # in its own row it reads as that row's number
        if cost < best_cost - 1e-9:
            best, best_cost = box, cost
    return best


def _overlap(a, b) -> float:
    """The area two boxes share."""
    w = min(a.x1, b.x1) - max(a.x0, b.x0)
    h = min(a.y1, b.y1) - max(a.y0, b.y0)
    return max(w, 0.0) * max(h, 0.0)


def _nearest_points(a, b):
    """The nearest points of boxes ``a`` and ``b`` (a leader line's ends)."""
    ax = min(max((b.x0 + b.x1) / 2, a.x0), a.x1)
    ay = min(max((b.y0 + b.y1) / 2, a.y0), a.y1)
    bx = min(max(ax, b.x0), b.x1)
    by = min(max(ay, b.y0), b.y1)
    ax = min(max(bx, a.x0), a.x1)
    ay = min(max(by, a.y0), a.y1)
    return np.array([ax, ay, 0.0]), np.array([bx, by, 0.0])
