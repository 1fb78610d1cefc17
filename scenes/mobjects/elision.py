"""Which rows or columns of a matrix are drawn when not all fit: the first ones, the wanted
ones (the followed pair's, the cells a caption names: the most wanted never dropped), the last,
and an ellipsis for each gap; and the error of a step that frames a cell not drawn."""

from __future__ import annotations


class ElidedCellError(LookupError):
    """A step framed or pointed at a cell its matrix did not draw (a bug in the scene)."""


def elide(count: int, room: float, step: float, keep=(), last: bool = True) -> list[int | None]:
    """Indices to show when ``count`` items of size ``step`` must fit ``room``: all, or the
    first ones, None (an ellipsis), and the last (the narrowest room: the first and None), and
    as many of ``keep`` as fit, in its order (the first most wanted: never dropped; one that
    does not fit is passed over for the next that does, issue 38: a 24-token row kept the first
    columns where the cast's fitted), then the first ones in the slots left; without ``last``,
    the last only where it is wanted."""
    if count <= 1 or count * step <= room + 1e-9:  # one row or column cannot be elided
        return list(range(count))
    slots = max(2, int(room // step))
    wanted = list(dict.fromkeys(int(k) for k in keep if 0 <= k < count))
    if slots == 2:
        return [wanted[0] if wanted else 0, None]
    if wanted and elided_sequence(count, slots, wanted[:1], last) is None:
        return [wanted[0], None]  # not even the most wanted with the last: it alone
    chosen: list[int] = []
    for k in wanted:
        if elided_sequence(count, slots, [*chosen, k], last) is not None:
            chosen.append(k)
    return elided_sequence(count, slots, chosen, last) or [0, None]


def elided_sequence(count: int, slots: int, keep, last: bool = True) -> list[int | None] | None:
    """The first ones, ``keep``, the last (with ``last``) and None for each gap in ``slots``,
    or None."""
    for first in range(slots - 2, -1, -1):
        shown = sorted({*range(first), *keep, *([count - 1] if last else [])})
        seq: list[int | None] = []
        for k in shown:
            if k != (seq[-1] + 1 if seq and seq[-1] is not None else 0):
                seq.append(None)
            seq.append(k)
        if not last and shown[-1] != count - 1:
            seq.append(None)  # the items after the last shown: an ellipsis
        if len(seq) <= slots:
            return seq
    return None
