"""How a :class:`~scenes.mobjects.matrix.LabelledMatrix` draws its cells (its style), and
the style a matrix's keyword arguments make."""

from __future__ import annotations

from dataclasses import dataclass, fields, replace

from scenes.mobjects.theme import SMALL


@dataclass(frozen=True)
class MatrixStyle:
    """How a :class:`LabelledMatrix` draws its cells.

    Parameters
    ----------
    digits : int
        Decimals of each number.
    size : float
        Font size of numbers and labels (the cells are sized to the widest number).
    heat : bool or {"weights", "scores"}
        ``"weights"`` (or True) shades each cell on the one fixed 0 → 1 attention scale,
        ``"scores"`` on the diverging score scale around 0; False leaves cells plain.
    colorbar : bool
        With ``heat``, a labelled colour bar under the grid (False for small multiples that
        share one).
    cell_pad : float or None
        Room around each number; None: a little more at larger sizes.
    squares : float or None
        A cell side (scene units): each cell is then filled in its value's colour on the
        scale (a weight's on the 0 → 1 one, a score's on the diverging one around 0), the colour
        bar beside the grid its key; only the ``named`` cells keep their numbers, on badges. For
        a grid too big for numbers at the minimum text size (:meth:`LabelledMatrix.fitted`
        chooses it).
    upright : bool
        Column labels wider than a cell stand upright (reading upwards) instead of becoming
        their numbers (a grid of squares always does so).
    split : bool
        The row labels alternate between the grid's sides: odd rows (1st, 3rd, …) on the left,
        even rows on the right (rows too close for their labels on one side: 24 tokens).
    stagger : bool
        The row labels in two columns left of the grid, each level with its row: odd rows
        (1st, 3rd, …) beside the grid, even rows further left (rows too close for their labels
        in one column, named on one side: AttentionMatrix at 20-odd tokens).
    tiers : int
        The column labels stand in this many tiers above the grid (column j in tier j mod
        tiers, the first nearest the grid): labels wider than a cell, side by side.
    first_row : int
        The number of the first row where the rows are numbered with the columns: a grid of
        some rows of a larger matrix numbers them as their tokens are (a review: Projections'
        one-row grid of "it"'s scores at 1:1 read "1 it" where "it" is token 16).
    """

    digits: int = 2
    size: float = SMALL
    heat: bool | str = False
    colorbar: bool = True
    cell_pad: float | None = None
    squares: float | None = None
    upright: bool = False
    split: bool = False
    stagger: bool = False
    tiers: int = 1
    first_row: int = 1

    @property
    def scale(self) -> str | None:
        """The colour scale of the cells: "weights", "scores" or None."""
        return "weights" if self.heat is True else (self.heat or None)

    @property
    def pad(self) -> float:
        return self.cell_pad if self.cell_pad is not None else 0.05 + 0.003 * self.size


STYLE_FIELDS = frozenset(f.name for f in fields(MatrixStyle))


def style_part(kwargs: dict) -> dict:
    """The style fields among a matrix's keyword arguments."""
    return {k: v for k, v in kwargs.items() if k in STYLE_FIELDS}


def style_of(style: MatrixStyle | None, overrides: dict) -> MatrixStyle:
    """``style`` (default the plain one) with the fields given as keywords replaced."""
    unknown = set(overrides) - STYLE_FIELDS
    if unknown:
        raise TypeError(f"LabelledMatrix got unexpected keyword(s) {sorted(unknown)}")
    return replace(style or MatrixStyle(), **overrides)
