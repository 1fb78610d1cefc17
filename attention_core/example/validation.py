"""The checks of an example's fields: each returns the clean value or raises
``ValueError("<field>: <what is wrong>; <the fix>")``, so the CLI can show it as one line.

Text and labels, whole numbers and booleans, matrices of numbers (nested lists walked so the
first bad spot is named), unknown keys (with a suggestion), and the mask with its padding.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Any

import numpy as np

from .._checks import BoolArray, FloatArray, IntArray
from ..masks import causal_mask, padding_mask
from .limits import MAX_ABS, MAX_HEADS, MAX_LABEL, MAX_TOKENS
from .visible_text import refusal

SHOWN = 40  # characters of a given value that a message echoes


def reject_unknown(prefix: str, data: dict, known: Sequence[str]) -> None:
    """Raise for the first key of ``data`` not in ``known``, suggesting the closest known one."""
    import difflib

    for key in data:
        if key not in known:
            close = difflib.get_close_matches(str(key)[:100], known, n=1, cutoff=0.5)
            hint = f"did you mean {close[0]!r}?" if close else f"known keys: {', '.join(known)}"
            name = key if len(str(key)) <= SHOWN else shown(key)
            raise ValueError(f"{prefix}{name}: unknown key; {hint}")


def is_01(v: object) -> bool:
    """True for a 0 or 1 given as a whole number or a boolean."""
    return isinstance(v, (bool, int, np.integer, np.bool_)) and v in (0, 1)


def divisors(n: int) -> str:
    """The head counts that divide ``n``, as text for a message ("1, 2, 4")."""
    return ", ".join(str(d) for d in range(1, min(n, MAX_HEADS) + 1) if n % d == 0)


class WholeNumber(int):
    """A whole number too long to read from text (more than 4,300 digits, Python's limit): it
    stands in as ±10⁴³⁰⁰, beyond every limit, and keeps its count of digits for the message."""

    digits: int

    def __new__(cls, digits: int, negative: bool = False) -> WholeNumber:
        self = super().__new__(cls, -(10**4300) if negative else 10**4300)
        self.digits = digits
        return self

    def __repr__(self) -> str:
        return f"a whole number of {self.digits:,} digits"

    __str__ = __repr__


class OverflowNumber(float):
    """A finite number written too large for a float (``9…9.5`` of 400 digits, ``1e999``): it
    stands in as ±infinity and keeps how it was written for the message."""

    text: str

    def __new__(cls, text: str) -> OverflowNumber:
        self = super().__new__(cls, "-inf" if text.lstrip().startswith("-") else "inf")
        self.text = text
        return self

    def __repr__(self) -> str:
        t = self.text
        return t if len(t) <= SHOWN else f"{t[:12]}… (a number of {len(t):,} characters)"

    __str__ = __repr__


def shown(value: object, limit: int = SHOWN) -> str:
    """``repr(value)`` for a message, at most about ``limit`` characters: a long value is cut
    (``'xxxx…' (300,000 characters)``) and a whole number of thousands of digits is named by
    its length, so an error stays one short line."""
    if isinstance(value, OverflowNumber):
        return repr(value)
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**limit:
        return f"a whole number of {int_digits(value):,} digits"
    if isinstance(value, str) and len(value) > limit:
        return f"{_escaped(value[:limit])}… ({len(value):,} characters)"
    text = _escaped(value) if isinstance(value, str) else repr(value)
    return text if len(text) <= limit else text[:limit] + "…"


def listed(items: Iterable[object], sep: str = ", ", limit: int = 2 * SHOWN) -> str:
    """Names of a user's text (words, tokens) joined by ``sep`` for a message, unquoted, at most
    about ``limit`` characters: a name over :data:`SHOWN` characters is cut as :func:`shown`
    cuts it, and a long list ends in ``… (N in all)``."""
    names = [str(t) for t in items]
    parts = [t if len(t) <= SHOWN else shown(t) for t in names]
    out = sep.join(parts)
    if len(out) <= limit:
        return out
    kept, size = [], 0
    for p in parts:
        if size + len(p) + len(sep) > limit - 16:
            break
        kept.append(p)
        size += len(p) + len(sep)
    return sep.join(kept) + f"{sep if kept else ''}… ({len(names):,} in all)"


def _escaped(text: str) -> str:
    """``repr(text)`` with invisible characters escaped too (U+3164 → ``\\u3164``): repr
    escapes control and format characters, not printable ones that draw as nothing."""
    import regex

    def escape(m: Any) -> str:
        o = ord(m.group())
        return f"\\u{o:04x}" if o <= 0xFFFF else f"\\U{o:08x}"

    return regex.sub(r"\p{Default_Ignorable_Code_Point}", escape, repr(text))


def kind(value: object) -> str:
    """The type of a value as a message names it (``int`` for every whole number)."""
    return "int" if isinstance(value, WholeNumber) else type(value).__name__


def int_digits(value: int) -> int:
    """The number of decimal digits of ``value`` (without converting it to text)."""
    if isinstance(value, WholeNumber):
        return value.digits
    n = abs(value)
    digits = max(1, int(n.bit_length() * math.log10(2)))
    return digits + (n >= 10**digits)


# what a folder name does not keep (Unicode word characters, dots and hyphens stay)
_UNSAFE = re.compile(r"[^\w.-]+")


# -- text ----------------------------------------------------------------------------------------
def check_name(name: object) -> str:
    """The example's name made safe for a folder name (at most 64 characters)."""
    if not isinstance(name, str):
        raise ValueError(f"name: expected text, got {type(name).__name__}")
    return (folder_part(name) or "example")[:64]


def folder_part(name: str) -> str:
    """What of ``name`` a folder name keeps: "" when nothing (``..``, ``...``, ``-``)."""
    return _UNSAFE.sub("-", name).strip(".-")


def check_text(
    fieldname: str, value: Any, limit: int, allow_empty: bool = False, fonts: bool = False
) -> str:
    """One line of text of at most ``limit`` characters that a viewer can read: no control,
    format, bidirectional, private-use or unassigned characters (and, with ``fonts``, only
    characters the fonts draw; see :mod:`~attention_core.example.visible_text`)."""
    if not isinstance(value, str):
        raise ValueError(f"{fieldname}: expected text in quotes, got {kind(value)}")
    if len(value) > limit:
        raise ValueError(
            f"{fieldname}: {value[:20]!r}… has {len(value):,} characters; at most {limit} are "
            "allowed"
        )
    why = refusal(value, fonts=fonts)
    if why:
        raise ValueError(f"{fieldname}: {shown(value)} {why}")
    if not allow_empty and not value.strip():
        raise ValueError(f"{fieldname}: a label must not be empty or only spaces")
    return value


def check_labels(fieldname: str, labels: Any) -> tuple[str, ...]:
    """1 to ``MAX_TOKENS`` token labels, each text a viewer can see and the fonts draw."""
    if isinstance(labels, str) or not isinstance(labels, (list, tuple)):
        raise ValueError(f'{fieldname}: expected a list of labels, e.g. ["早", "上", "好"]')
    if not labels:
        raise ValueError(f"{fieldname}: the list is empty; give 1 to {MAX_TOKENS} tokens")
    if len(labels) > MAX_TOKENS:
        raise ValueError(f"{fieldname}: {len(labels)} tokens; at most {MAX_TOKENS} are supported")
    labels = tuple(labels)
    if all(type(t) is str for t in labels):  # hashable: a list seen before is not checked again
        return _checked_labels(fieldname, labels)
    return _check_each_label(fieldname, labels)


def _check_each_label(fieldname: str, labels: tuple) -> tuple[str, ...]:
    return tuple(
        check_text(f"{fieldname}[{i}]", t, MAX_LABEL, fonts=True) for i, t in enumerate(labels)
    )


# the same token lists recur (a course of 60,000 example lines reads in seconds); a refused list
# raises, and an exception is never kept, so it is checked (and named) again each time
_checked_labels = lru_cache(maxsize=4096)(_check_each_label)


# -- numbers -------------------------------------------------------------------------------------
def check_int(fieldname: str, value: Any, lo: int, hi: int) -> int:
    """A whole number (not a boolean) in ``lo … hi``."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise ValueError(f"{fieldname}: expected a whole number, got {shown(value)}")
    if not lo <= value <= hi:
        raise ValueError(f"{fieldname}: {shown(value)} is outside {lo} … {hi}")
    return int(value)


def check_bool(fieldname: str, value: object) -> bool:
    """true or false (not 0 or 1)."""
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{fieldname}: expected true or false, got {shown(value)}")
    return bool(value)


def check_matrix(
    fieldname: str, value: Any, ndim: int = 2, limit: float | None = MAX_ABS
) -> FloatArray:
    """A rectangular matrix of finite numbers with |x| ≤ limit (bools and strings rejected)."""
    if isinstance(value, np.ndarray):
        if value.dtype == np.bool_ or not np.issubdtype(value.dtype, np.number):
            raise ValueError(f"{fieldname}: expected numbers, got dtype {value.dtype}")
        arr = value.astype(np.float64)
    elif ndim == 2 and limit is not None and _plain_rows(value, limit):
        return np.array(value, dtype=np.float64) + 0.0  # finite, within the limit: checked
    else:
        check_nested(fieldname, value, ndim)  # the walk names the first bad spot
        arr = np.array(value, dtype=np.float64)
    if arr.ndim != ndim:
        raise ValueError(f"{fieldname}: expected {shape_word(ndim)}, got shape {arr.shape}")
    if arr.size == 0:
        raise ValueError(f"{fieldname}: is empty; give at least one row of numbers")
    if not np.all(np.isfinite(arr)):
        bad = tuple(int(i) for i in np.argwhere(~np.isfinite(arr))[0])
        raise ValueError(f"{fieldname}{list(bad)}: NaN or infinity; every number must be finite")
    if limit is not None and np.max(np.abs(arr)) > limit:
        bad = tuple(int(i) for i in np.argwhere(np.abs(arr) > limit)[0])
        raise ValueError(
            f"{fieldname}{list(bad)}: {_as_given(value, bad)} is beyond the limit "
            f"|x| ≤ {limit:,.0f}"
        )
    return arr + 0.0  # −0.0 → 0.0 keeps printing tidy


def _as_given(value: Any, index: tuple[int, ...]) -> str:
    """The number at ``index`` as the input gave it (1000000.4, not the rounded 1e+06)."""
    for i in index:
        value = value[i]
    if isinstance(value, (np.integer, np.floating)):
        value = value.item()
    return shown(value)


def shape_word(ndim: int) -> str:
    """What an array of ``ndim`` dimensions is called in a message."""
    return {1: "a row of numbers", 2: "a matrix (a list of rows)", 3: "a list of matrices"}.get(
        ndim, f"{ndim}-D numbers"
    )


def check_nested(
    fieldname: str, value: Any, ndim: int, path: tuple[int, ...] = (), allow_bool: bool = False
) -> tuple:
    """Walk nested lists: right depth, rectangular, numbers only — naming the first bad spot.
    Returns the shape."""
    where = fieldname + "".join(f"[{i}]" for i in path)
    if ndim == 0:
        _check_number(where, value, allow_bool)
        return ()
    if not isinstance(value, (list, tuple)):
        raise ValueError(
            f"{where}: expected {shape_word(ndim) if ndim > 1 else 'a row of numbers'}"
            f", got {kind(value)}"
        )
    if not value:
        raise ValueError(f"{where}: is empty; give at least one {'row' if ndim > 1 else 'number'}")
    shapes = [
        check_nested(fieldname, item, ndim - 1, path + (i,), allow_bool)
        for i, item in enumerate(value)
    ]
    _check_same_shapes(where, shapes)
    return (len(value),) + shapes[0]


def _check_number(where: str, value: Any, allow_bool: bool) -> None:
    """A number (an int, a float; a bool only where 0/1 may be written as true/false) that
    converts to a float: not a whole number of 19 or more digits, not a number written too
    large for a float."""
    if isinstance(value, bool) and allow_bool:
        return
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise ValueError(f"{where}: expected a number, got {shown(value)}")
    if isinstance(value, OverflowNumber) or (isinstance(value, int) and abs(value) > 10**18):
        raise ValueError(
            f"{where}: {shown(value)} is far too large; every number of an example "
            f"satisfies |x| ≤ {MAX_ABS:,.0f}"
        )


def _check_same_shapes(where: str, shapes: list[tuple]) -> None:
    """Sibling rows (or matrices) must have one shape: ragged rows name their lengths, matrices
    of different shapes the first that differs."""
    if len({s[:1] for s in shapes}) > 1:
        lengths = sorted({s[0] for s in shapes})
        raise ValueError(
            f"{where}: ragged rows (lengths {lengths}); every row needs the same number of values"
        )
    odd = next((i for i, s in enumerate(shapes) if s != shapes[0]), None)
    if odd is not None:
        raise ValueError(
            f"{where}[{odd}]: shape {_shape_text(shapes[odd])}, but {where}[0] is "
            f"{_shape_text(shapes[0])}; every {shape_word(len(shapes[0])).split(' (')[0][2:]} "
            "here needs the same shape"
        )


def _shape_text(shape: tuple) -> str:
    return "×".join(str(n) for n in shape)


# -- mask and padding ----------------------------------------------------------------------------
def check_mask(
    mask: Any, n_queries: int, n_keys: int, is_cross: bool
) -> tuple[str | IntArray, BoolArray | None]:
    """``(field value, boolean matrix or None)`` of the ``mask`` field: "none", "causal" or an
    (n_queries, n_keys) matrix of 0/1 (booleans become 0/1)."""
    if isinstance(mask, str):
        if mask not in ("none", "causal"):
            raise ValueError(f"mask: {shown(mask)} is not 'none', 'causal' or a 0/1 matrix")
        if mask == "causal" and is_cross:
            raise ValueError(
                "mask: 'causal' needs a query and key sequence of the same "
                "positions; cross-attention takes an explicit 0/1 matrix"
            )
        return mask, (causal_mask(n_queries) if mask == "causal" else None)
    if mask is None:
        return "none", None
    if isinstance(mask, (list, tuple)):
        check_nested("mask", mask, 2, allow_bool=True)
    arr = np.asarray(mask)
    if arr.dtype == np.bool_:
        arr = arr.astype(int)
    arr = check_matrix("mask", arr, limit=None)
    if arr.shape != (n_queries, n_keys):
        raise ValueError(
            f"mask: shape {arr.shape[0]}×{arr.shape[1]}, expected {n_queries}×{n_keys} "
            "(one row per query, one column per key)"
        )
    if not np.all(np.isin(arr, (0, 1))):
        raise ValueError("mask: entries must be 0 (blocked) or 1 (may attend)")
    matrix = arr.astype(bool)
    return matrix.copy(), matrix


def check_padding(padding: Any, n_keys: int) -> tuple[bool, ...]:
    """The ``padding`` field: one 0/1 per key (1 = real token), at least one real token."""
    if (
        not isinstance(padding, (list, tuple, np.ndarray))
        or len(padding) != n_keys
        or not all(is_01(v) for v in padding)
    ):
        raise ValueError(f"padding: expected {n_keys} entries of 0/1 (1 = real token, one per key)")
    keep = tuple(bool(v) for v in padding)
    if not any(keep):
        raise ValueError("padding: every position is padding; mark at least one real token with 1")
    return keep


def check_mask_rows(matrix: np.ndarray | None, tokens: Sequence[str]) -> None:
    """Every query may attend to at least one key under the combined mask."""
    if matrix is None:
        return
    dead = np.flatnonzero(~matrix.any(axis=1))
    if dead.size:
        r = int(dead[0])
        raise ValueError(
            f"mask: row {r} (token {tokens[r]!r}) blocks every key; "
            "allow each query at least one key"
        )


def combined_mask(
    mask: Any, padding: Any, tokens: Sequence[str], n_keys: int, is_cross: bool
) -> tuple[str | IntArray, tuple[bool, ...] | None, BoolArray | None]:
    """``(mask field, padding field, boolean (n, n_keys) matrix or None)``: the mask and the
    padding checked and combined (a query may attend to a key when both allow it)."""
    n_queries = len(tokens)
    mask, matrix = check_mask(mask, n_queries, n_keys, is_cross)
    if padding is not None:
        padding = check_padding(padding, n_keys)
        pad = padding_mask(padding, n_queries=n_queries)
        matrix = pad if matrix is None else (matrix & pad)
    check_mask_rows(matrix, tokens)
    return mask, padding, matrix


def _plain_rows(value: Any, limit: float) -> bool:
    """True for a non-empty list of equally long, non-empty lists of floats and ints, each
    within ``±limit`` (so finite: NaN fails every comparison): what a file gives, checked in one
    pass. False leaves it to :func:`check_nested`'s walk and the checks after it, which name the
    first bad spot."""
    if type(value) is not list or not value or type(value[0]) is not list:
        return False
    width, low = len(value[0]), -limit
    if not width:
        return False
    for row in value:
        if type(row) is not list or len(row) != width:
            return False
        for x in row:  # exactly float or int: not a bool, not an OverflowNumber or WholeNumber
            if (type(x) is not float and type(x) is not int) or not low <= x <= limit:
                return False
    return True
