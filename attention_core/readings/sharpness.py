"""What a head's rows show when no habit explains them: how sharp they are, and the strongest links
they make in this sentence (issue 40, part 2).

**Sharp or diffuse.** Row i's normalised entropy is Hᵢ = −Σⱼ wᵢⱼ ln wᵢⱼ / ln mᵢ over the mᵢ keys
the row may see (every key; under a causal mask — every later key exactly 0, :func:`is_causal` —
the keys up to the query itself): 0 when all its weight is on one key, 1 when it is spread evenly
over all of them. :func:`mean_entropy` is the mean over the rows that see at least two keys (a
decoder's first row sees only itself: its weight is forced). A head is **sharp** when that mean
is below ``SHARP_BELOW`` = 0.5, else **diffuse**: below 0.5 a row's weight is, on average, as
concentrated as an even split over fewer than √mᵢ of its keys (ln √m / ln m = ½) — 4 of 16, 5 of
25 — the picture of a few bright cells a row; at or above it, as spread as an even split over
more.

**Strongest links.** :func:`strongest_links` groups the queries by the key their row weighs most,
where that weight is at least ``LINK_AT_LEAST`` = 0.5 (the key holds the row's majority); a row
whose largest weight is on the query itself is grouped under "itself", and a forced row (one key
to see) is left out. Groups on another token come first (the links a lecturer names: "would,
soon, turn, wild → sea (0.94–0.99)"), the most queries first, then the heavier; groups on a
resting place (the first token under a causal mask, [CLS], a final [SEP]) or on the query itself
after them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from ..example.references import numbered
from .copy_heads import is_causal

SHARP_BELOW = 0.5
LINK_AT_LEAST = 0.5
SELF = -1  # the key of a group of rows on themselves


def _seen(W: np.ndarray) -> np.ndarray:
    """How many keys each row may see: all, or under a causal mask those up to the row."""
    n, m = W.shape
    return np.arange(1, n + 1) if is_causal(W) else np.full(n, m)


def row_entropy(weights: ArrayLike) -> np.ndarray:
    """Each row's normalised entropy over the keys it may see (nan where it sees one key)."""
    W = np.asarray(weights, dtype=np.float64)
    seen = _seen(W)
    with np.errstate(divide="ignore", invalid="ignore"):
        h = -np.sum(np.where(W > 0, W * np.log(np.where(W > 0, W, 1.0)), 0.0), axis=1)
        return np.where(seen > 1, h / np.log(np.maximum(seen, 2)), np.nan)


def mean_entropy(weights: ArrayLike) -> float:
    """The mean of :func:`row_entropy` over the rows that see two keys or more (0 for none)."""
    h = row_entropy(weights)
    h = h[~np.isnan(h)]
    return float(h.mean()) if h.size else 0.0


def is_sharp(weights: ArrayLike, below: float = SHARP_BELOW) -> bool:
    """Whether the head's rows are sharp: :func:`mean_entropy` below ``below``."""
    return mean_entropy(weights) < below


def row_shape(weights: ArrayLike, row: int, below: float = SHARP_BELOW) -> str:
    """Row ``row``'s own shape, read as a head's is over all its rows: ``"sharp"`` where its
    normalised entropy is below ``below`` (a forced row, one key to see, too); ``"peaked"``
    where it is not but one key holds :data:`LINK_AT_LEAST` of it or more (a strong link,
    :func:`strongest_links`); else ``"diffuse"``. A head read as diffuse may have such rows: a
    caption that names the head's shape beside one row says whose (issue 38: "diffuse" beside
    a followed row whose largest weight is 0.52).

    >>> row_shape([[1.0, 0.0], [0.5, 0.5]], 0), row_shape([[0.52, 0.16, 0.16, 0.16]], 0)
    ('sharp', 'peaked')
    """
    W = np.asarray(weights, dtype=np.float64)
    h = row_entropy(W)[row]
    if np.isnan(h) or h < below:
        return "sharp"
    return "peaked" if float(W[row].max()) >= LINK_AT_LEAST else "diffuse"


@dataclass(frozen=True)
class LinkGroup:
    """The queries whose largest weight is on one ``key`` (``SELF``: each on itself), each with
    that weight: ``queries`` and ``weights`` in the text's order; ``rest``: the key is a resting
    place (the first token under a causal mask, [CLS], a final [SEP])."""

    key: int
    queries: tuple[int, ...]
    weights: tuple[float, ...]
    rest: bool = False

    @property
    def low(self) -> float:
        return min(self.weights)

    @property
    def high(self) -> float:
        return max(self.weights)

    @property
    def content(self) -> bool:
        """A link to another token, not a resting place."""
        return self.key != SELF and not self.rest

    def heaviest(self) -> LinkGroup:
        """The group's heaviest link alone (the first query of the largest weight): where the
        group's text has no room, its brightest cell ("handed → student 0.95" of "handed,
        the₁ → student (0.58–0.95)").

        >>> LinkGroup(4, (2, 3), (0.58, 0.95)).heaviest()
        LinkGroup(key=4, queries=(3,), weights=(0.95,), rest=False)
        """
        i = max(range(len(self.weights)), key=lambda n: (self.weights[n], -n))
        return LinkGroup(self.key, (self.queries[i],), (self.weights[i],), self.rest)

    def text(self, tokens: Sequence[object], most: int = 6) -> str:
        """``"would, soon, turn, wild → sea (0.94–0.99)"``, ``"gathered → clouds 0.80"``;
        more than ``most`` queries: the first ``most`` and "…"."""
        labels = token_names(tokens)
        names = [labels[q] for q in self.queries]
        names = names[:most] + ["…"] if len(names) > most else names
        key = "itself" if self.key == SELF else labels[self.key]
        if len(self.queries) == 1:
            return f"{names[0]} → {key} {self.high:.2f}"
        low, high = f"{self.low:.2f}", f"{self.high:.2f}"
        return f"{', '.join(names)} → {key} ({low if low == high else f'{low}–{high}'})"


def token_names(tokens: Iterable[object]) -> list[str]:
    """The tokens' labels, a repeated one numbered by its occurrence (``pencil₂``), as an example
    file names it."""
    labels = [str(t) for t in tokens]
    seen: dict[str, int] = {}
    out = []
    for t in labels:
        seen[t] = seen.get(t, 0) + 1
        out.append(numbered(t, seen[t]) if labels.count(t) > 1 else t)
    return out


def resting_keys(W: ArrayLike, tokens: Sequence[str] | None = None) -> set[int]:
    """The keys a head parks weight on: the first under a causal mask or when the tokens start
    with [CLS], the last when they end with [SEP]."""
    W = np.asarray(W)
    tokens = tuple(tokens) if tokens is not None else ()
    out = {0} if is_causal(W) or tokens[:1] == ("[CLS]",) else set()
    return out | ({W.shape[1] - 1} if len(tokens) > 1 and tokens[-1] == "[SEP]" else set())


def link_cells(W: ArrayLike, tokens: Sequence[str] | None = None) -> np.ndarray:
    """The cells that may hold a link to another token: off the diagonal (a row on itself), off
    a resting place's column (:func:`resting_keys`), in a row that sees two keys or more (a
    forced row's weight says nothing); a boolean mask of ``W``'s shape."""
    W = np.asarray(W)
    n, m = W.shape
    cells = ~np.eye(n, m, dtype=bool)
    cells[:, sorted(resting_keys(W, tokens))] = False
    cells[_seen(W) < 2] = False
    return cells


def strongest_link(W: ArrayLike, tokens: Sequence[str] | None = None) -> float:
    """The largest weight of :func:`link_cells`: the head's strongest link to another token in
    this sentence (0.0 where there is no such cell)."""
    W = np.asarray(W, dtype=np.float64)
    cells = link_cells(W, tokens)
    return float(W[cells].max()) if cells.any() else 0.0


def strongest_links(
    weights: ArrayLike, tokens: Sequence[str] | None = None, at_least: float = LINK_AT_LEAST
) -> tuple[LinkGroup, ...]:
    """The rows grouped by the key each weighs most, where that weight is at least ``at_least``
    (forced rows left out): links to other tokens first (most queries, then the heavier, then
    the earlier key), then those on a resting place (:func:`resting_keys`), then on
    themselves."""
    W = np.asarray(weights, dtype=np.float64)
    seen, rest = _seen(W), resting_keys(W, tokens)
    groups: dict[int, list[tuple[int, float]]] = {}
    for i in range(W.shape[0]):
        j = int(np.argmax(W[i]))
        if seen[i] < 2 or W[i, j] < at_least:
            continue
        groups.setdefault(SELF if j == i else j, []).append((i, float(W[i, j])))
    out = [LinkGroup(k, tuple(q for q, _ in v), tuple(w for _, w in v), k in rest)
           for k, v in groups.items()]  # fmt: skip
    return tuple(sorted(out, key=lambda g: (not g.content, g.key == SELF, -len(g.queries),
                                             -sum(g.weights), g.key)))  # fmt: skip


def link_strength(links: Iterable[LinkGroup]) -> float:
    """How much a head links in this sentence: the summed weight of its links to other tokens
    (the sharp heads' order in the listing)."""
    return float(sum(sum(g.weights) for g in links if g.content))


def links_text(links: Sequence[LinkGroup], tokens: Sequence[object], groups: int = 3) -> str:
    """The first ``groups`` link groups, "; "-joined: "would, soon → sea (0.91–0.98); he → his
    0.62"."""
    return "; ".join(g.text(tokens) for g in links[:groups])
