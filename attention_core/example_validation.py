"""The checks of an example's fields: each returns the clean value or raises
``ValueError("<field>: <what is wrong>; <the fix>")``, so the CLI can show it as one line.

Text and labels, whole numbers and booleans, matrices of numbers (nested lists walked so the
first bad spot is named), unknown keys (with a suggestion), and the mask with its padding.
"""

from __future__ import annotations

import re
import unicodedata

import numpy as np

from .example_limits import MAX_ABS, MAX_HEADS, MAX_LABEL, MAX_TOKENS
from .masks import causal_mask, padding_mask


def reject_unknown(prefix: str, data: dict, known) -> None:
    """Raise for the first key of ``data`` not in ``known``, suggesting the closest known one."""
    import difflib

    for key in data:
        if key not in known:
            close = difflib.get_close_matches(str(key), known, n=1, cutoff=0.5)
            hint = f"did you mean {close[0]!r}?" if close else f"known keys: {', '.join(known)}"
            raise ValueError(f"{prefix}{key}: unknown key; {hint}")


def is_01(v) -> bool:
    """True for a 0 or 1 given as a whole number or a boolean."""
    return isinstance(v, (bool, int, np.integer, np.bool_)) and v in (0, 1)


def divisors(n: int) -> str:
    """The head counts that divide ``n``, as text for a message ("1, 2, 4")."""
    return ", ".join(str(d) for d in range(1, min(n, MAX_HEADS) + 1) if n % d == 0)


# -- text ----------------------------------------------------------------------------------------
def check_name(name) -> str:
    """The example's name made safe for a folder name (at most 64 characters)."""
    if not isinstance(name, str):
        raise ValueError(f"name: expected text, got {type(name).__name__}")
    safe = re.sub(r"[^\w.-]+", "-", name, flags=re.UNICODE).strip(".-") or "example"
    return safe[:64]


def check_text(fieldname: str, value, limit: int, allow_empty=False) -> str:
    """One line of text of at most ``limit`` characters, without control characters."""
    if not isinstance(value, str):
        raise ValueError(f"{fieldname}: expected text in quotes, got {type(value).__name__}")
    if any(unicodedata.category(c) in ("Cc", "Cs") for c in value):
        raise ValueError(
            f"{fieldname}: {value!r} contains control characters (newline, tab …); remove them"
        )
    if not allow_empty and not value.strip():
        raise ValueError(f"{fieldname}: a label must not be empty or only spaces")
    if len(value) > limit:
        raise ValueError(
            f"{fieldname}: {value[:20]!r}… has {len(value)} characters; at most {limit} are allowed"
        )
    return value


def check_labels(fieldname: str, labels) -> tuple[str, ...]:
    """1 to ``MAX_TOKENS`` token labels, each text the videos can draw."""
    if isinstance(labels, str) or not isinstance(labels, (list, tuple)):
        raise ValueError(f'{fieldname}: expected a list of labels, e.g. ["早", "上", "好"]')
    if not labels:
        raise ValueError(f"{fieldname}: the list is empty; give 1 to {MAX_TOKENS} tokens")
    if len(labels) > MAX_TOKENS:
        raise ValueError(f"{fieldname}: {len(labels)} tokens; at most {MAX_TOKENS} are supported")
    out = tuple(check_text(f"{fieldname}[{i}]", t, MAX_LABEL) for i, t in enumerate(labels))
    for i, t in enumerate(out):
        if any(_is_emoji(c) for c in t):
            raise ValueError(
                f"{fieldname}[{i}]: {t!r} contains emoji, which the videos cannot draw (colour "
                "emoji have no outlines); use a word instead"
            )
    return out


def _is_emoji(c: str) -> bool:
    o = ord(c)
    return 0x1F000 <= o <= 0x1FAFF or o in (0xFE0F, 0x200D) or 0x2600 <= o <= 0x27BF


# -- numbers -------------------------------------------------------------------------------------
def check_int(fieldname: str, value, lo: int, hi: int) -> int:
    """A whole number (not a boolean) in ``lo … hi``."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise ValueError(f"{fieldname}: expected a whole number, got {value!r}")
    if not lo <= value <= hi:
        raise ValueError(f"{fieldname}: {value} is outside {lo} … {hi}")
    return int(value)


def check_bool(fieldname: str, value) -> bool:
    """true or false (not 0 or 1)."""
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{fieldname}: expected true or false, got {value!r}")
    return bool(value)


def check_matrix(fieldname: str, value, ndim: int = 2, limit: float | None = MAX_ABS):
    """A rectangular matrix of finite numbers with |x| ≤ limit (bools and strings rejected)."""
    if isinstance(value, np.ndarray):
        if value.dtype == np.bool_ or not np.issubdtype(value.dtype, np.number):
            raise ValueError(f"{fieldname}: expected numbers, got dtype {value.dtype}")
        arr = value.astype(np.float64)
    else:
        check_nested(fieldname, value, ndim)
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
            f"{fieldname}{list(bad)}: {arr[bad]:g} is beyond the limit |x| ≤ {limit:g}"
        )
    return arr + 0.0  # −0.0 → 0.0 keeps printing tidy


def shape_word(ndim: int) -> str:
    """What an array of ``ndim`` dimensions is called in a message."""
    return {1: "a row of numbers", 2: "a matrix (a list of rows)", 3: "a list of matrices"}.get(
        ndim, f"{ndim}-D numbers"
    )


def check_nested(fieldname: str, value, ndim: int, path=()) -> None:
    """Walk nested lists: right depth, rectangular, numbers only — naming the first bad spot."""
    where = fieldname + "".join(f"[{i}]" for i in path)
    if ndim == 0:
        if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
            raise ValueError(f"{where}: expected a number, got {value!r}")
        return
    if not isinstance(value, (list, tuple)):
        raise ValueError(
            f"{where}: expected {shape_word(ndim) if ndim > 1 else 'a row of numbers'}"
            f", got {type(value).__name__}"
        )
    if not value:
        raise ValueError(f"{where}: is empty; give at least one {'row' if ndim > 1 else 'number'}")
    lengths = set()
    for i, item in enumerate(value):
        check_nested(fieldname, item, ndim - 1, path + (i,))
        if ndim > 1:
            lengths.add(len(item))
    if len(lengths) > 1:
        raise ValueError(
            f"{where}: ragged rows (lengths {sorted(lengths)}); every row needs the "
            "same number of values"
        )


# -- mask and padding ----------------------------------------------------------------------------
def check_mask(mask, n_queries: int, n_keys: int, is_cross: bool):
    """``(field value, boolean matrix or None)`` of the ``mask`` field: "none", "causal" or an
    (n_queries, n_keys) matrix of 0/1 (booleans become 0/1)."""
    if isinstance(mask, str):
        if mask not in ("none", "causal"):
            raise ValueError(f"mask: {mask!r} is not 'none', 'causal' or a 0/1 matrix")
        if mask == "causal" and is_cross:
            raise ValueError(
                "mask: 'causal' needs a query and key sequence of the same "
                "positions; cross-attention takes an explicit 0/1 matrix"
            )
        return mask, (causal_mask(n_queries) if mask == "causal" else None)
    if mask is None:
        return "none", None
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


def check_padding(padding, n_keys: int) -> tuple[bool, ...]:
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


def check_mask_rows(matrix: np.ndarray | None, tokens) -> None:
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


def combined_mask(mask, padding, tokens, n_keys: int, is_cross: bool):
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
