"""Naming one token of an example by its label: ``it``, or ``it₂`` / ``it#2`` for the second of
a repeated one — as ``heads --find`` names words and an example file names its followed pair
(``query = "it"``, ``key = "cat"``, and ``key_pieces`` for a key word cut into pieces; checked
here like every other field).

Names match after Unicode NFC normalisation (``café`` typed as one character or as ``e`` and a
combining accent is one name). A number after ``#`` (or in subscript digits) that is not a whole
number from 1 is refused as a number, not as a name.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from .._checks import BoolArray
from .validation import listed, shown

SUBSCRIPTS = "₀₁₂₃₄₅₆₇₈₉"
_NUMBERED = re.compile(r"^(.+?)(?:#(\d+)|([₀-₉]+))$")
# a name, '#', and what should be an occurrence number but is not one (``the#-1``, ``the#1.5``,
# ``the##2``, ``the#``): something with a digit in it, or nothing
_BAD_NUMBER = re.compile(r"^(.+?)#(.*\d.*|)$")
MAX_DIGITS = 6  # an occurrence number of more digits names no occurrence of any text


class NotFound(ValueError):
    """A name that is none of the words or labels it was looked for among."""


def nfc(text: str) -> str:
    """``text`` in Unicode's composed form (NFC): how names are compared."""
    return unicodedata.normalize("NFC", text)


def split_numbered(ref: str) -> tuple[str, int | None]:
    """``"it₂"`` or ``"it#2"`` → ``("it", 2)``; ``"it"`` → ``("it", None)``."""
    m = _NUMBERED.match(ref)
    if not m:
        return ref, None
    digits = m.group(2) or "".join(str(SUBSCRIPTS.index(c)) for c in m.group(3))
    digits = digits.lstrip("0") or "0"
    return m.group(1), int(digits) if len(digits) <= MAX_DIGITS else 10**MAX_DIGITS


def numbered(label: str, k: int) -> str:
    """``label`` with occurrence ``k`` (from 1) as subscript digits: ``numbered("it", 2)`` →
    ``"it₂"``."""
    return label + "".join(SUBSCRIPTS[int(c)] for c in str(k))


def pick_occurrence(
    names: Sequence[str], ref: str, what: str, field: str, fold: bool = False
) -> int:
    """The index in ``names`` that ``ref`` picks: the name itself when it occurs once, its k-th
    occurrence for ``name₂`` / ``name#2`` (``fold``: in any case); names compared in NFC.
    ``ValueError`` naming ``field`` when it does not occur (:class:`NotFound`), occurs more than
    once without a number, or the number is not a whole number from 1 up to its occurrences
    (the message blames the number, not the name)."""
    key = (lambda s: nfc(s).casefold()) if fold else nfc
    names = [key(n) for n in names]
    exact = [i for i, n in enumerate(names) if n == key(ref)]
    if len(exact) == 1:
        return exact[0]
    base, k = split_numbered(ref) if not exact else (ref, None)
    hits = [i for i, n in enumerate(names) if n == key(base)]
    bad = _BAD_NUMBER.match(ref) if not exact else None
    if not hits and bad is not None and key(bad.group(1)) in names:
        base, number = bad.group(1), bad.group(2)
        hits = [i for i, n in enumerate(names) if n == key(base)]
    elif hits and k == 0:
        number = ref[len(base) :].lstrip("#")
    else:
        number = None
    if number is not None:  # the number is wrong, not the name
        raise ValueError(f"{field}: {shown(ref)}: {shown(number)} is not an occurrence number "
                         f"(they count from 1); {_occurrences(base, len(hits))}")  # fmt: skip
    if not hits:
        raise NotFound(f"{field}: {shown(ref)} is not {what}")
    if k is None and len(hits) > 1:
        raise ValueError(f"{field}: {shown(base)} occurs {len(hits)} times; "
                         f"{_occurrences(base, len(hits))}")  # fmt: skip
    k = 1 if k is None else k
    if k > len(hits):
        asked = (
            f"occurrence {k}"
            if k < 10**MAX_DIGITS
            else f"an occurrence of more than {MAX_DIGITS} digits"
        )
        raise ValueError(f"{field}: {shown(ref)} asks for {asked}, but {shown(base)} occurs "
                         f"{len(hits)} time{'s' if len(hits) > 1 else ''}")  # fmt: skip
    return hits[k - 1]


def _occurrences(base: str, count: int) -> str:
    """How to pick one of ``count`` occurrences of ``base``: "pick one as it₁ … it₂ (or it#1 …
    it#2)", or, for one, the name alone."""
    b = base if len(base) <= 40 else base[:39] + "…"
    if count == 1:
        return f"write {b} (it occurs once)"
    return f"pick one as {numbered(b, 1)} … {numbered(b, count)} (or {b}#1 … {b}#{count})"


def _resolve(field: str, ref: object, labels: Sequence[str]) -> int:
    if not isinstance(ref, str) or not ref:
        raise ValueError(f'{field}: expected a token label such as "it", got {shown(ref)}')
    try:
        return pick_occurrence(labels, ref, "a token", field)
    except NotFound:
        tokens = listed(labels, sep=" ")
        raise ValueError(f"{field}: {shown(ref)} is not one of the tokens ({tokens})") from None


def check_followed(
    query: object,
    key: object,
    tokens: Sequence[str],
    key_tokens: Sequence[str],
    mask_matrix: BoolArray | None,
    key_pieces: object = None,
) -> tuple[int | None, int | None, tuple[int, ...] | None]:
    """The rows ``query`` and ``key`` name and the keys ``key_pieces`` names (None when not
    given): each a label of the tokens (``key``, ``key_pieces``: of the key tokens), ``it₂`` /
    ``it#2`` for a repeated one; ``key`` only with ``query`` and not blocked for it by the mask;
    ``key_pieces`` (:func:`check_key_pieces`) only with ``query``, ``key`` one of them.
    ``ValueError`` naming the field otherwise."""
    q = None if query is None else _resolve("query", query, list(tokens))
    k = None if key is None else _resolve("key", key, list(key_tokens))
    if k is not None and q is None:
        raise ValueError('key: needs query (the token that looks at it); add query = "…"')
    if k is not None and mask_matrix is not None and not mask_matrix[q, k]:
        raise ValueError(
            f"key: the mask blocks {shown(key)} for query {shown(query)} (its weight is 0); name "
            "a key that query may look at"
        )
    pieces = None
    if key_pieces is not None:
        if q is None:
            raise ValueError("key_pieces: needs query (the token that looks at them); add query")
        pieces = check_key_pieces(key_pieces, list(key_tokens))
        if k is not None and k not in pieces:
            raise ValueError(
                f"key: {shown(key)} is not one of key_pieces; name one of the word's pieces "
                "(or leave key out: the piece the query weighs most)"
            )
        blocked = [p for p in pieces if mask_matrix is not None and not mask_matrix[q, p]]
        if blocked:
            raise ValueError(
                f"key_pieces: the mask blocks {shown(key_tokens[blocked[0]])} for query "
                f"{shown(query)} (its weight is 0); name pieces that query may look at"
            )
    return q, k, pieces


def check_key_pieces(key_pieces: object, labels: Sequence[str]) -> tuple[int, ...]:
    """The keys ``key_pieces`` names: the token pieces of one key word (``["fish", "##erman"]``),
    2 or more labels (numbered when repeated) of tokens that follow one another, in order."""
    if isinstance(key_pieces, str) or not isinstance(key_pieces, (list, tuple)):
        raise ValueError(
            'key_pieces: expected a list of the key word\'s token labels, e.g. ["fish", "##erman"]'
        )
    if not 2 <= len(key_pieces) <= len(labels):
        raise ValueError(
            f"key_pieces: {len(key_pieces)} labels; a word cut into pieces has 2 to "
            f"{len(labels)} here (a word of one token is named by key alone)"
        )
    pieces = tuple(_resolve(f"key_pieces[{i}]", r, labels) for i, r in enumerate(key_pieces))
    for i, (a, b) in enumerate(zip(pieces, pieces[1:])):
        if b != a + 1:
            raise ValueError(
                f"key_pieces[{i + 1}]: {shown(key_pieces[i + 1])} is not the token after "
                f"{shown(key_pieces[i])}; list one word's pieces in order, each the next token"
            )
    return pieces


def check_explained_head(head: object, heads: int) -> int | None:
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
