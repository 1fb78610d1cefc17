"""The one query (and the key it looks at) an explanation follows, chosen from what the head does.

:func:`followed_pair` decides it for an example's trace, as the claims do
(:mod:`.claims`), so that every scene and ``numbers --json`` follow the same pair:

- asked (``kind = "asked"``): the example names ``query`` (and perhaps ``key``) — as
  ``from-model --find SRC->DST`` writes them; without ``key``, the key the query weighs most;
- a trained head (an example with a ``source`` note) whose reading (:func:`read_head`) is a
  pattern: ``"induction"`` — a later occurrence of a token and the token after its earlier
  occurrence (the row putting most weight there); ``"previous"`` — a middle token and the one
  before it; ``"sink"`` / ``"first"`` / ``"cls"`` — a middle token and the first one (the sink);
  likewise a middle token for ``"next"``, ``"self"``, ``"sep"``, ``"fixed"``;
- otherwise (``kind = "demo"``): :func:`head_demo_row`'s row (the widest spread) and the key it
  weighs most.

The file fields ``query`` and ``key`` are checked here too (:func:`check_followed`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .copy_heads import induction_targets


@dataclass(frozen=True)
class FollowedPair:
    """``query`` (a row of the weights), ``key`` (a column) and ``kind`` (why these: ``"asked"``,
    ``"demo"``, or the head's reading such as ``"induction"`` or ``"previous"``)."""

    query: int
    key: int
    kind: str


def heaviest(weights, row: int) -> int:
    """The key row ``row`` weighs most (the first of equals)."""
    return int(np.argmax(np.asarray(weights)[row]))


def _middle(rows) -> int:
    return int(rows[(len(rows) - 1) // 2])


def _from_reading(W, tokens) -> FollowedPair | None:
    from .heads import READINGS, read_head

    r = read_head(W, tokens)
    if r.pattern == "spread":
        return None
    if r.pattern == "induction":
        targets = induction_targets(tokens)
        best = max(targets, key=lambda i: (float(W[i, targets[i]].sum()), -i))
        return FollowedPair(best, max(targets[best], key=lambda t: W[best, t]), "induction")
    t = next(x for x in READINGS if x.key == r.pattern).targets(W, tokens)
    rows = np.flatnonzero(t >= 0)
    q = _middle(rows)
    return FollowedPair(q, int(t[q]), r.pattern)


def followed_pair(trace, example=None, head: int = 0) -> FollowedPair:
    """The query and key ``trace`` (of ``example``, default the trace's) follows for head
    ``head``: asked, from a trained head's reading, or :func:`head_demo_row`'s row."""
    from .claims import head_demo_row

    ex = trace.example if example is None else example
    W = np.asarray(trace.heads[head].weights)
    if ex.query is not None:
        q = ex.query_index
        return FollowedPair(q, ex.key_index if ex.key is not None else heaviest(W, q), "asked")
    if ex.source and not ex.is_cross and W.shape[0] > 1:
        pair = _from_reading(W, tuple(ex.tokens))
        if pair is not None:
            return pair
    row = head_demo_row(trace, head=head).row
    return FollowedPair(row, heaviest(W, row), "demo")
