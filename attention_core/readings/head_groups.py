"""What a layer's heads do together: the heads grouped by their reading (:func:`~.heads.read_head`)
and the one thing a gallery's title may say of them — every head its own pattern, all alike, most
of them alike, or a few patterns shared (HeadGallery, issue 38: "each its own pattern" stood over
eight heads that all rested on the first token).

Heads read alike when their readings have the same pattern and, for a fixed token or a resting
place, the same key. A head without a habit that rests a quarter of its weight or more on a
resting place (the first token, [CLS], [SEP]) is told by it (:func:`tell_head`), as
AttentionMatrix's head step tells it (:func:`~.heads.summarise_head`, :data:`~.heads.
REST_AT_LEAST`), with the heads that rest there as a sink (issue 38: "6 of 9 heads are diffuse"
over nine heads that all rested 0.36–0.65 of a row on the first token).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from numpy.typing import ArrayLike

from . import head_kinds
from .heads import HABIT_AT_LEAST, RESTING, summarise_head

if TYPE_CHECKING:
    from .head_scores import HeadScores
    from .heads import HeadReading
    from .sharpness import LinkGroup

KINDS = ("each_own", "alike", "most", "mixed")


@dataclass(frozen=True)
class HeadGroup:
    """Heads that read alike: their ``pattern`` (a :data:`~.head_kinds.READINGS` key), the
    fixed token's ``key`` (else None) and the ``heads`` (their places in the readings given,
    from 0, in order)."""

    pattern: str
    key: int | None
    heads: tuple[int, ...]
    masses: tuple[float, ...] = ()  # each head's average weight on the group's key

    @property
    def resting(self) -> bool:
        """Whether the group's heads rest on a resting place (the first token, [CLS], [SEP]):
        as a sink (a habit, half or more) or with no habit (a quarter or more)."""
        return self.pattern in RESTING

    @property
    def sinks(self) -> int:
        """How many of a resting group's heads rest half their weight or more there (a sink
        habit, :data:`~.heads.HABIT_AT_LEAST`); 0 for any other group."""
        return sum(m >= HABIT_AT_LEAST for m in self.masses) if self.resting else 0

    @property
    def span(self) -> tuple[float, float]:
        """The least and the largest of the heads' averages (0, 0 where none is known)."""
        return (min(self.masses), max(self.masses)) if self.masses else (0.0, 0.0)

    @property
    def habitual(self) -> bool:
        """Whether a habit names the group's heads (not sharp or diffuse)."""
        return head_kinds.reading(self.pattern).habitual

    @property
    def verb(self) -> str:
        """How a sentence says what the group does: ``"rest"`` on a key where weight goes with
        nowhere better to go (the first token, the sink, [CLS], [SEP]), ``"attend"`` to a habit's
        key, or ``"are"`` sharp or diffuse (no habit)."""
        r = head_kinds.reading(self.pattern)
        if not r.habitual:
            return "are"
        return "rest" if r.group == "rest" else "attend"


@dataclass(frozen=True)
class LayerReading:
    """The heads of a layer read together. ``kind``: ``"each_own"`` (no two heads read alike),
    ``"alike"`` (one reading for all), ``"most"`` (one reading for more than half, the others
    something else) or ``"mixed"`` (no reading for more than half, but some shared); ``groups``
    the most common first (the first seen first on ties); ``heads`` how many."""

    kind: str
    groups: tuple[HeadGroup, ...]
    heads: int

    @property
    def common(self) -> HeadGroup:
        """The most common reading's group (the first seen on a tie)."""
        return self.groups[0]

    @property
    def others(self) -> int:
        """How many heads read otherwise than the most common reading."""
        return self.heads - len(self.common.heads)

    @property
    def outlined(self) -> HeadGroup | None:
        """The group a gallery outlines, of the same groups the title counts: where one reading
        holds more than half the heads, the most common other habit (the heads that differ),
        else the most common habit; None where no head with a habit differs (an outline on
        every head says nothing) or no head has a habit."""
        majority = self.common if 2 * len(self.common.heads) > self.heads else None
        return next((g for g in self.groups if g.habitual and g is not majority), None)


def tell_head(weights: ArrayLike, tokens: Sequence[str] | None = None) -> HeadReading:
    """What a gallery tells of a head on this sentence: its rows' :func:`~.heads.read_head`,
    but where that finds no habit (sharp or diffuse) and the rows rest on average at least
    :data:`~.heads.REST_AT_LEAST` of their weight on a resting place
    (:func:`~.heads.summarise_head`'s ``rest``), that place's reading with ``rests`` set and
    ``mass`` that average; a resting place's reading carries its column as ``key`` (the first
    token's heads, sink or resting, read alike).

    >>> import numpy as np
    >>> W = np.tril(np.ones((4, 4)))
    >>> W[:, 0] += 0.3
    >>> r = tell_head(W / W.sum(axis=1, keepdims=True))
    >>> r.pattern, r.rests, r.key, round(r.mass, 2)
    ('sink', True, 0, 0.42)
    """
    s = summarise_head(weights, tokens)
    r = s.rows
    if r.pattern in RESTING and s.rest == r.pattern:
        return replace(r, key=s.rest_key)
    if r.pattern not in ("sharp", "diffuse") or s.rest is None:
        return r
    return replace(r, pattern=s.rest, mass=s.rest_share, key=s.rest_key, rests=True)


def top_link(weights: ArrayLike, tokens: Sequence[str] | None = None) -> LinkGroup | None:
    """The link a gallery's card names under a head's reading: the first of
    :func:`~.heads.summarise_head`'s links, as AttentionMatrix's head step names it first (the
    group with the brightest link off a resting place and off the query itself, at least half
    its row); None where it names none (a habit of its own, or no such link).

    >>> import numpy as np
    >>> W = np.tril(np.ones((5, 5)))
    >>> W[4, 2] = 6.0
    >>> top_link(W / W.sum(axis=1, keepdims=True), list("abcde")).text(list("abcde"))
    'e → c 0.60'
    """
    links = summarise_head(weights, tokens).links
    return links[0] if links else None


def on_sentence(
    weights: ArrayLike, tokens: Sequence[str] | None = None, scores: HeadScores | None = None
) -> tuple[HeadReading, tuple[str, float] | None]:
    """What a head does on this sentence, and what the model-level ``scores`` name it where
    that is a different habit: (its rows' reading, :func:`tell_head`, without scores;
    ``(pattern, score)`` or None). Issue 38: a gallery labelled heads whose rows rest on the
    first token "induction 0.89", the model-level score read as their average here.

    >>> import numpy as np
    >>> here, scored = on_sentence(np.eye(3))
    >>> here.pattern, scored
    ('self', None)
    """
    from .heads import read_head

    here = tell_head(weights, tokens)
    if scores is None:
        return here, None
    named = read_head(weights, tokens, scores)
    if named.score is None or named.pattern == here.pattern:
        return here, None
    return here, (named.pattern, named.score)


def group_heads(readings: Sequence) -> tuple[HeadGroup, ...]:
    """The heads grouped by reading (``pattern`` and ``key`` of each :class:`~.heads.HeadReading`),
    the largest group first, the first seen first on ties.

    >>> from attention_core.readings.heads import HeadReading
    >>> rs = [HeadReading(p, 0.9, {}) for p in ("sink", "diffuse", "sink")]
    >>> [(g.pattern, g.heads) for g in group_heads(rs)]
    [('sink', (0, 2)), ('diffuse', (1,))]
    """
    members: dict[tuple, list[int]] = {}
    for h, r in enumerate(readings):
        members.setdefault((r.pattern, r.key), []).append(h)
    order = sorted(members, key=lambda g: -len(members[g]))  # stable: first seen first
    return tuple(
        HeadGroup(p, k, tuple(members[p, k]), tuple(readings[h].mass for h in members[p, k]))
        for p, k in order
    )


def layer_reading(readings: Sequence) -> LayerReading:
    """What the heads (their readings, at least one) do together: see :class:`LayerReading`.

    >>> from attention_core.readings.heads import HeadReading
    >>> rs = [HeadReading(p, 0.9, {}) for p in ("sink", "sink", "sink", "previous")]
    >>> r = layer_reading(rs)
    >>> r.kind, r.common.pattern, len(r.common.heads), r.others
    ('most', 'sink', 3, 1)
    """
    if not readings:
        raise ValueError("readings: no head to read; give at least one head's reading")
    groups = group_heads(readings)
    H, top = len(readings), len(groups[0].heads)
    if len(groups) == 1:
        kind = "alike" if H > 1 else "each_own"
    elif top == 1:
        kind = "each_own"
    elif 2 * top > H:
        kind = "most"
    else:
        kind = "mixed"
    return LayerReading(kind, groups, H)
