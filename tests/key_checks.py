"""Where colour alone carries a number, its key is on screen (issue 38: a grid of squares fills
each cell in its value's colour, so a grid without its colour bar says nothing). Run on each
still of the scene runs that already happen (``scene_checks.geometry_problems`` calls
:func:`unkeyed_grids`)."""

from __future__ import annotations

from scenes.mobjects.colour_bar import ColorBar
from scenes.mobjects.matrix import LabelledMatrix


def _drawn(mob) -> bool:
    """Whether any part of ``mob`` is drawn (not faded out)."""
    parts = mob.family_members_with_points()
    return max((max(m.get_fill_opacity(), m.get_stroke_opacity()) for m in parts), default=0) > 0.05


def unkeyed_grids(scene) -> list[str]:
    """Every grid of squares on screen (a :class:`LabelledMatrix` whose cells are drawn in
    colour only) with a colour bar of its scale on screen: its own or one it shares (a score
    scale's with the same bound)."""
    seen, grids, bars = set(), [], []
    for top in scene.mobjects:
        for mob in top.get_family():
            if id(mob) in seen:
                continue
            seen.add(id(mob))
            if isinstance(mob, LabelledMatrix) and mob.style.squares and mob.scale:
                grids.append(mob)
            elif isinstance(mob, ColorBar) and _drawn(mob.strip):
                bars.append(mob)
    out = []
    for grid in grids:
        if not any(_drawn(sq) for sq in grid.squares.values()):
            continue
        keyed = any(
            bar.keys[0] == grid.scale and (grid.scale == "weights" or bar.keys[1] == grid.limit)
            for bar in bars
        )
        if not keyed:
            rows, cols = grid.shape
            out.append(f"a {rows} × {cols} grid of {grid.scale} squares without its colour bar")
    return out
