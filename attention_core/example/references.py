"""Naming one token of an example by its label: ``it``, or ``it₂`` / ``it#2`` for the second of
a repeated one — as ``heads --find`` names words and an example file names its followed pair
(``query = "it"``, ``key = "cat"``, checked here like every other field).
"""

from __future__ import annotations

import re

SUBSCRIPTS = "₀₁₂₃₄₅₆₇₈₉"
_NUMBERED = re.compile(r"^(.+?)(?:#(\d+)|([₀-₉]+))$")


class NotFound(ValueError):
    """A name that is none of the words or labels it was looked for among."""


def split_numbered(ref: str) -> tuple[str, int | None]:
    """``"it₂"`` or ``"it#2"`` → ``("it", 2)``; ``"it"`` → ``("it", None)``."""
    m = _NUMBERED.match(ref)
    if not m:
        return ref, None
    digits = m.group(2) or "".join(str(SUBSCRIPTS.index(c)) for c in m.group(3))
    return m.group(1), int(digits)


def numbered(label: str, k: int) -> str:
    """``label`` with occurrence ``k`` (from 1) as subscript digits: ``numbered("it", 2)`` →
    ``"it₂"``."""
    return label + "".join(SUBSCRIPTS[int(c)] for c in str(k))


def pick_occurrence(names, ref: str, what: str, field: str, fold: bool = False) -> int:
    """The index in ``names`` that ``ref`` picks: the name itself when it occurs once, its k-th
    occurrence for ``name₂`` / ``name#2`` (``fold``: in any case). ``ValueError`` naming
    ``field`` when it does not occur (:class:`NotFound`), occurs more than once without a
    number, or has fewer occurrences than the number."""
    key = (lambda s: s.casefold()) if fold else (lambda s: s)
    names = [key(n) for n in names]
    exact = [i for i, n in enumerate(names) if n == key(ref)]
    if len(exact) == 1:
        return exact[0]
    base, k = split_numbered(ref) if not exact else (ref, None)
    hits = [i for i, n in enumerate(names) if n == key(base)]
    if not hits:
        raise NotFound(f"{field}: {ref!r} is not {what}")
    if k is None and len(hits) > 1:
        raise ValueError(
            f"{field}: {base!r} occurs {len(hits)} times; pick one as {numbered(base, 1)} … "
            f"{numbered(base, len(hits))} (or {base}#1 … {base}#{len(hits)})"
        )
    k = 1 if k is None else k
    if not 1 <= k <= len(hits):
        raise ValueError(f"{field}: {ref!r} asks for occurrence {k}, but {base!r} occurs "
                         f"{len(hits)} time{'s' if len(hits) > 1 else ''}")  # fmt: skip
    return hits[k - 1]


def _resolve(field: str, ref, labels) -> int:
    if not isinstance(ref, str) or not ref:
        raise ValueError(f'{field}: expected a token label such as "it", got {ref!r}')
    shown = " ".join(labels)
    shown = shown if len(shown) <= 80 else shown[:79] + "…"
    try:
        return pick_occurrence(labels, ref, "a token", field)
    except NotFound:
        raise ValueError(f"{field}: {ref!r} is not one of the tokens ({shown})") from None


def check_followed(query, key, tokens, key_tokens, mask_matrix) -> tuple[int | None, int | None]:
    """The rows ``query`` and ``key`` name (None when not given): each a label of the tokens
    (``key``: of the key tokens), ``it₂`` / ``it#2`` for a repeated one; ``key`` only with
    ``query`` and not blocked for it by the mask. ``ValueError`` naming the field otherwise."""
    q = None if query is None else _resolve("query", query, list(tokens))
    k = None if key is None else _resolve("key", key, list(key_tokens))
    if k is not None and q is None:
        raise ValueError('key: needs query (the token that looks at it); add query = "…"')
    if k is not None and mask_matrix is not None and not mask_matrix[q, k]:
        raise ValueError(
            f"key: the mask blocks {key!r} for query {query!r} (its weight is 0); name a key "
            "that query may look at"
        )
    return q, k


def check_explained_head(head, heads: int) -> int | None:
    """``head``: the head (counted from 1) the single-head scenes explain, 1 … ``heads``, or None
    (the first). ``ValueError`` naming the field otherwise."""
    if head is None:
        return None
    if isinstance(head, bool) or not isinstance(head, int):
        raise ValueError(f"head: expected a whole number 1 … {heads}, got {head!r}")
    if not 1 <= head <= heads:
        raise ValueError(
            f"head: {head} is outside 1 … {heads} (the head the scenes explain, counted from 1)"
        )
    return int(head)
