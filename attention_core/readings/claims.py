"""Claims: every sentence a scene says about the numbers, decided here from the trace.

A scene never decides in its own code whether "this query's attention is spread most widely",
"the outputs were only reordered", "there is no mask" or "back to the model's 4 dimensions": it
asks a function of this module, and words the answer from a caption template chosen by the
answer's ``kind`` (``scenes/kit/captions/``). ``tests/test_claims.py`` checks every kind against
the trace over random examples (masks, one-hot rows, ties, one token, d = 1, narrow W_O,
cross-attention, trained heads).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import ArrayLike

from ..example.model import Example

if TYPE_CHECKING:
    from ..attention import AttentionTrace
    from ..trace import ExampleTrace

PEAKED = 0.9  # every row putting at least this on one key: "nearly one-hot"
TIE = 5e-4  # weights closer than this print alike at three places: not told apart
ALIKE = 0.05  # every row's largest weight within this of every other's: the rows spread alike


# -- which query a per-query step follows ------------------------------------------------------
@dataclass(frozen=True)
class RowChoice:
    """The query row a per-query step follows, and what may truthfully be said about it.

    ``kind``:

    - ``"widest"``: no candidate row has a smaller largest weight (within :data:`TIE`): its
      attention is spread at least as widely as any query's;
    - ``"widest_seeing_all"``: the same, among the rows that see every key (a mask blocks keys in
      the others; such a row's weights are the same before and after the mask);
    - ``"seeing_all"``: the only candidate row that sees every key (a causal mask's last row);
    - ``"widest_among"``: the same, among the candidate rows given (not every row);
    - ``"alike"``: every row's largest weight is within :data:`ALIKE` of every other's (and none
      nearly one-hot): the first row is followed, as good as any;
    - ``"peaked"``: every row puts at least :data:`PEAKED` on one key (nearly one-hot);
    - ``"only"``: there is one candidate row.

    ``top`` is the row's largest weight, ``blocked`` how many keys the mask blocks in that row.

    Attributes
    ----------
    row : int
        The query followed (from 0).
    top : float
        Its largest weight.
    kind : str
        What may be said of it (above).
    blocked : int
        The keys the mask blocks in it.
    candidates : tuple of int
        The rows it was chosen among.

    Examples
    --------
    >>> demo_row([[0.9, 0.1], [0.5, 0.5]]).row
    1
    """

    row: int
    top: float
    kind: str
    blocked: int
    candidates: tuple[int, ...]


def demo_row(
    weights: ArrayLike,
    blocked: ArrayLike | None = None,
    rows: Sequence[int] | None = None,
    every: Sequence[int] | None = None,
) -> RowChoice:
    """The row a per-query step follows: the one whose largest weight is smallest (its attention
    spread most widely), preferring rows that see every key; ties go to the first row.

    ``weights`` (m, n) rows summing to 1; ``blocked`` (m, n) True where a mask blocks a key (or
    None); ``rows`` the candidate rows (default: all with finite weights); ``every`` the rows
    that count as "every query" (default: all with finite weights; padded queries are not).

    Parameters
    ----------
    weights : array_like
        (m, n) rows summing to 1.
    blocked : array_like of bool, optional
        (m, n) True where a mask blocks a key.
    rows, every : sequence of int, optional
        The candidate rows, and the rows that count as every query.

    Returns
    -------
    RowChoice

    Examples
    --------
    >>> demo_row([[0.9, 0.1], [0.5, 0.5]])
    RowChoice(row=1, top=0.5, kind='widest', blocked=0, candidates=(0, 1))
    """
    w = np.asarray(weights, dtype=np.float64)
    if w.ndim != 2 or w.shape[0] == 0:
        raise ValueError(f"weights: expected a non-empty (m, n) matrix, got shape {w.shape}")
    finite = np.all(np.isfinite(w), axis=1)
    cand = [int(r) for r in (range(w.shape[0]) if rows is None else rows) if finite[r]]
    if not cand:
        cand = [int(next(iter(rows))) if rows is not None and len(rows) else 0]
    b = np.zeros(w.shape, bool) if blocked is None else np.asarray(blocked, bool)
    seeing_all = [r for r in cand if not b[r].any()]
    pool = seeing_all or cand
    tops = {r: float(np.max(w[r])) if finite[r] else 1.0 for r in pool}
    best = min(tops.values())
    row = next(r for r in pool if tops[r] <= best + TIE)
    every = [r for r in (range(w.shape[0]) if every is None else every) if finite[r]]
    if len(cand) == 1:
        kind = "only"
    elif all(float(np.max(w[r])) >= PEAKED for r in every):
        kind = "peaked"
    elif len(pool) == 1 < len(cand):
        kind = "seeing_all"  # the one row that sees every key (a causal mask's last)
    elif len(pool) < len(cand):
        kind = "widest_seeing_all"
    elif len(cand) < len(every):
        kind = "widest_among"
    elif max(tops.values()) - best < ALIKE:
        kind, row = "alike", pool[0]
    else:
        kind = "widest"
    return RowChoice(row, tops[row], kind, int(b[row].sum()), tuple(cand))


def head_demo_row(
    trace: ExampleTrace,
    rows: Sequence[int] | None = None,
    before_mask: bool = False,
    head: int | None = None,
) -> RowChoice:
    """:func:`demo_row` for one head of an example's trace: its weights (``before_mask``: the
    softmax of the scaled scores, as a step that teaches softmax before masking shows them), the
    mask's blocked keys, and as candidates ``rows`` (default: every query) less the padding
    tokens (a padded query is no query to follow).

    Parameters
    ----------
    trace : ExampleTrace
    rows : sequence of int, optional
        The candidate rows.
    before_mask : bool, default False
        Read the weights before the mask.
    head : int, optional
        The head (from 0; default the example's).

    Returns
    -------
    RowChoice

    Examples
    --------
    >>> from attention_core import PRESETS, trace_example
    >>> c = head_demo_row(trace_example(PRESETS["zao-shang-hao"]))
    >>> c.row, c.kind, round(c.top, 3)
    (0, 'alike', 0.359)
    """
    from ..softmax import softmax

    h = trace.heads[trace.example.head_index if head is None else head]
    w = softmax(h.scaled) if before_mask else h.weights
    blocked = None if h.mask is None else ~np.asarray(h.mask, bool)
    every = list(range(w.shape[0]))
    pad = trace.example.padding
    if pad is not None and not trace.example.is_cross:
        every = [r for r in every if pad[r]] or every
    rows = every if rows is None else [r for r in rows if r in every] or list(rows)
    return demo_row(w, blocked, rows, every)


# -- which terms a weighted sum adds --------------------------------------------------------
@dataclass(frozen=True)
class SumTerms:
    """The value vectors a query's output adds: ``kind`` ``"all"`` (every key's) or ``"allowed"``
    (the mask blocks ``blocked`` of the ``total`` keys; their weight is exactly 0).

    Attributes
    ----------
    kind : {"all", "allowed"}
    allowed, blocked, total : int
        The keys the sum adds, those the mask blocks, all of them.

    Examples
    --------
    >>> SumTerms("allowed", 2, 1, 3).allowed
    2
    """

    kind: str
    allowed: int
    blocked: int
    total: int


def sum_terms(head: AttentionTrace, i: int) -> SumTerms:
    """Which value vectors output ``i`` is the weighted sum of.

    Parameters
    ----------
    head : AttentionTrace
        One head's trace.
    i : int
        The query (from 0).

    Returns
    -------
    SumTerms

    Examples
    --------
    >>> import numpy as np
    >>> from attention_core import causal_mask, scaled_dot_product_attention
    >>> t = scaled_dot_product_attention(np.eye(3), np.eye(3), np.eye(3), mask=causal_mask(3))
    >>> sum_terms(t, 0)
    SumTerms(kind='allowed', allowed=1, blocked=2, total=3)
    """
    total = head.weights.shape[1]
    blocked = 0 if head.mask is None else int(np.sum(~np.asarray(head.mask, bool)[i]))
    return SumTerms("allowed" if blocked else "all", total - blocked, blocked, total)


# -- whether there is a mask, and what it blocks ---------------------------------------------
@dataclass(frozen=True)
class MaskClaim:
    """``kind``: ``"none"`` (no mask), ``"blocks_nothing"`` (a mask that blocks no cell: one token
    under a causal mask), ``"blocks"`` (it blocks ``blocked`` of the ``cells``).

    Attributes
    ----------
    kind : {"none", "blocks_nothing", "blocks"}
    blocked, cells : int
        The cells blocked, all of them.

    Examples
    --------
    >>> mask_claim([[True]]).kind
    'blocks_nothing'
    """

    kind: str
    blocked: int
    cells: int


def mask_claim(mask: ArrayLike | None, shape: tuple[int, ...] | None = None) -> MaskClaim:
    """What a boolean mask (True = may attend; None = no mask) does to a matrix of ``shape``.

    Parameters
    ----------
    mask : array_like of bool or None
        True = may attend.
    shape : tuple of int, optional
        The matrix's shape where there is no mask (to count its cells).

    Returns
    -------
    MaskClaim

    Examples
    --------
    >>> from attention_core import causal_mask
    >>> mask_claim(causal_mask(3))
    MaskClaim(kind='blocks', blocked=3, cells=9)
    >>> mask_claim(None, (2, 3))
    MaskClaim(kind='none', blocked=0, cells=6)
    """
    if mask is None:
        cells = int(np.prod(shape)) if shape is not None else 0
        return MaskClaim("none", 0, cells)
    m = np.asarray(mask, bool)
    blocked = int(np.sum(~m))
    return MaskClaim("blocks" if blocked else "blocks_nothing", blocked, int(m.size))


# -- whether order matters -----------------------------------------------------------------
@dataclass(frozen=True)
class OrderCheck:
    """Self-attention with the tokens in another order (the example's own mask kept: a causal
    mask stays causal, an explicit or padding mask moves with its tokens), outputs put back in
    the original order, without and with sinusoidal positional encoding.

    ``diff_*`` the largest absolute differences; ``changes_*`` whether they exceed the
    tolerance. ``kind``: ``"pe_orders"`` (without PE the outputs only move, with PE they change:
    the textbook case), ``"mask_orders"`` (a causal mask already makes order matter),
    ``"alike"`` (the shuffle changes nothing either way: the reordered tokens are alike), or
    ``"pe_undoes"`` (changes without PE, not with it; no known example). ``mask_off``: the
    check was made with the example's causal mask off (:func:`order_argument`).

    Attributes
    ----------
    perm : tuple of int
        The order tried.
    diff_without, diff_with : float
        The largest differences without and with positional encoding.
    changes_without, changes_with : bool
        Whether they exceed the tolerance.
    kind : str
        As above.
    mask_off : bool
        Whether the causal mask was off.

    Examples
    --------
    >>> from attention_core import PRESETS
    >>> order_check(PRESETS["zao-shang-hao"]).kind
    'pe_orders'
    """

    perm: tuple[int, ...]
    diff_without: float
    diff_with: float
    changes_without: bool
    changes_with: bool
    kind: str
    mask_off: bool = False


def _permuted(example: Example, perm: Sequence[int]) -> Example:
    p = list(perm)
    mask = example.mask
    if not isinstance(mask, str):  # an explicit matrix moves with its tokens
        mask = np.asarray(mask)[np.ix_(p, p)]
    padding = None if example.padding is None else [example.padding[k] for k in p]
    return replace(
        example,
        tokens=tuple(example.tokens[k] for k in p),
        embeddings=example.embeddings[p],
        mask=mask,
        padding=padding,
        query=None,  # the followed pair is no part of the order check (a shuffled causal
        key=None,  # mask may block the key it names)
    )


def order_check(
    example: Example, perm: Sequence[int] | None = None, rel_tol: float = 1e-9
) -> OrderCheck:
    """Shuffle the tokens (default: reversed) with the example's mask, compare outputs without
    and with positional encoding.

    Parameters
    ----------
    example : Example
        A self-attention example.
    perm : sequence of int, optional
        The order (default: reversed).
    rel_tol : float, default 1e-9
        What counts as a change, relative to the outputs.

    Returns
    -------
    OrderCheck

    Examples
    --------
    >>> from attention_core import PRESETS
    >>> c = order_check(PRESETS["zao-shang-hao"])
    >>> c.perm, c.changes_without, c.changes_with
    ((2, 1, 0), False, True)
    """
    from ..trace import trace_example

    if example.is_cross:
        raise ValueError("example: the order check is for self-attention (no source sequence)")
    n = example.n
    perm = tuple(range(n - 1, -1, -1)) if perm is None else tuple(int(p) for p in perm)
    if sorted(perm) != list(range(n)):
        raise ValueError(f"perm: {perm} is not a permutation of 0 … {n - 1}")
    inverse = np.argsort(perm)
    diffs, changes = [], []
    for pe_on in (False, True):
        # sinusoidal encoding alone: rotary positions (if any) left out
        base = replace(example, positional_encoding=pe_on, rotary_base=None, positions=None)
        out = trace_example(base).output
        back = trace_example(_permuted(base, perm)).output[inverse]
        diff = float(np.max(np.abs(out - back)))
        diffs.append(diff)
        changes.append(diff > rel_tol * max(1.0, float(np.max(np.abs(out)))))
    kind = {
        (False, True): "pe_orders",
        (True, True): "mask_orders",
        (False, False): "alike",
        (True, False): "pe_undoes",
    }[(changes[0], changes[1])]
    return OrderCheck(perm, diffs[0], diffs[1], changes[0], changes[1], kind)


def order_argument(example: Example, perm: Sequence[int] | None = None) -> OrderCheck:
    """The shuffle argument PositionalEncoding plays: :func:`order_check` on the example, but
    where its causal mask already makes order matter (``"mask_orders"``: the argument "without
    the code, shuffling only moves the outputs" is defeated), the same check with the causal
    mask off (``mask_off``; a padding mask, which moves with its tokens, kept): what the code
    alone does, said to be with the mask off.

    Parameters
    ----------
    example : Example
        A self-attention example.
    perm : sequence of int, optional
        The order (default: reversed).

    Returns
    -------
    OrderCheck

    Examples
    --------
    >>> from attention_core import PRESETS
    >>> c = order_argument(PRESETS["causal"])
    >>> c.kind, c.mask_off
    ('pe_orders', True)
    """
    check = order_check(example, perm)
    if check.kind != "mask_orders":
        return check
    return replace(order_check(replace(example, mask="none"), check.perm), mask_off=True)


# -- the size of a multi-head output ---------------------------------------------------------
@dataclass(frozen=True)
class OutputWidth:
    """``kind`` ``"model"`` when W_O maps back to d_model, else ``"other"`` (a W_O narrower or
    wider than the model); ``width`` the output's columns.

    Attributes
    ----------
    kind : {"model", "other"}
    width, d_model : int
        The output's columns and the model's width.

    Examples
    --------
    >>> OutputWidth("other", 4, 2).kind
    'other'
    """

    kind: str
    width: int
    d_model: int


def output_width(trace: ExampleTrace) -> OutputWidth:
    """How many dimensions the layer's output has, against the model's.

    Parameters
    ----------
    trace : ExampleTrace

    Returns
    -------
    OutputWidth

    Examples
    --------
    >>> from attention_core import PRESETS, trace_example
    >>> output_width(trace_example(PRESETS["zao-shang-hao"]))
    OutputWidth(kind='model', width=2, d_model=2)
    """
    width = int(np.asarray(trace.output).shape[1])
    d = int(trace.example.d_model)
    return OutputWidth("model" if width == d else "other", width, d)


# -- what an attention matrix says ---------------------------------------------------------
def matrix_reading(
    weights: np.ndarray,
    is_cross: bool,
    mask: ArrayLike | None = None,
    real: Sequence[bool] | None = None,
    prefer: int | None = None,
) -> tuple[tuple[int, int] | None, tuple[int, int] | None]:
    """What the matrix honestly says: a row whose largest weight is clearly not on the diagonal
    (row ``prefer`` — the query the other scenes follow — where it is one, else the clearest
    margin, more than :data:`TIE`; a mask-forced second row had read "students attends most to
    when (1.000 > 0.000)" beside scenes following another): ``(i, j)`` or None; and the most
    asymmetric pair ``(a, b)`` (w_ab and w_ba differ by more than :data:`TIE`) or None — both
    among real (unpadded, ``real``) queries and allowed cells only, so a blocked 0 or a padded
    row never makes a claim (AttentionMatrix's reading)."""
    m, n = weights.shape
    allowed = np.ones((m, n), bool) if mask is None else np.asarray(mask, bool)
    rows = [i for i in range(m) if real is None or real[i]] if m == n else []
    other = None
    if not is_cross and m == n:
        best = TIE
        for i in rows:
            j = int(np.argmax(np.where(allowed[i], weights[i], -1.0)))
            if j != i and allowed[i, i] and weights[i, j] - weights[i, i] > TIE and i == prefer:
                other, best = (i, j), np.inf
            elif j != i and allowed[i, i] and weights[i, j] - weights[i, i] > best:
                best, other = weights[i, j] - weights[i, i], (i, j)
    pair = None
    if not is_cross and m == n and m > 1:
        both = allowed & allowed.T
        keep = np.zeros((m, n), bool)
        keep[np.ix_(rows, rows)] = True
        diff = np.where(both & keep, np.abs(weights - weights.T), 0.0)
        a, b = np.unravel_index(int(np.argmax(diff)), diff.shape)
        pair = (int(a), int(b)) if diff[a, b] > TIE else None
    return other, pair


def comparable_pairs(mask: ArrayLike | None, real: Sequence[bool] | None) -> bool:
    """Whether some pair i ≠ j of real queries may attend both ways (else symmetry is moot)."""
    if mask is None:
        n = len(real) if real is not None else 2
        return n - (0 if real is None else list(real).count(False)) > 1
    both = np.asarray(mask, bool) & np.asarray(mask, bool).T
    np.fill_diagonal(both, False)
    if real is not None:
        keep = np.asarray(real, bool)
        both = both[np.ix_(keep, keep)]
    return bool(both.any())


def self_first(weights: np.ndarray, mask: ArrayLike | None, real: Sequence[bool] | None) -> bool:
    """Whether every real query puts clearly the most weight on itself."""
    allowed = np.ones(weights.shape, bool) if mask is None else np.asarray(mask, bool)
    for i in range(weights.shape[0]):
        if real is not None and not real[i]:
            continue
        others = np.where(allowed[i] & (np.arange(weights.shape[1]) != i), weights[i], -1.0)
        if weights[i, i] - others.max() <= TIE:
            return False
    return True


# -- what exponentiating one row gives each key ------------------------------------------------
@dataclass(frozen=True)
class ExpClaim:
    """What softmax's first step gives the keys of one row of scores: ``kind`` ``"positive"``
    (no key blocked: every e^s > 0, so every share is positive), ``"later"`` (the ``blocked``
    keys are exactly the ones after the query, a causal row: their score is −∞, their e^s and
    share exactly 0, every other key's positive), ``"blocked"`` (the same for keys blocked
    elsewhere, a padding mask's) or ``"underflow"`` (some key it may see has a score so far
    below the largest that its e^(s − max) is 0 in float64: nothing is said of signs).
    ``seen``: the keys not blocked.

    Attributes
    ----------
    kind : {"positive", "later", "blocked", "underflow"}
    blocked, seen : int
        The keys blocked and those not.

    Examples
    --------
    >>> exp_claim([0.0, 1.0], 0).kind
    'positive'
    """

    kind: str
    blocked: int
    seen: int


def exp_claim(row: ArrayLike, query: int) -> ExpClaim:
    """What may be said of the e^s of ``row`` (one row of scores, −∞ where blocked), the row
    of ``query`` (its index among the queries: the keys after it are the later ones).

    Parameters
    ----------
    row : array_like
        One row of scores, −∞ where blocked.
    query : int
        The row's query (from 0).

    Returns
    -------
    ExpClaim

    Examples
    --------
    >>> import numpy as np
    >>> exp_claim([0.0, 1.0, -np.inf], 1)
    ExpClaim(kind='later', blocked=1, seen=2)
    """
    from ..softmax import exponentials

    x = np.asarray(row, dtype=np.float64)
    blocked = np.isneginf(x)
    e = exponentials(x)
    n_blocked, seen = int(np.sum(blocked)), int(np.sum(~blocked))
    if np.any(e[~blocked] <= 0.0):
        kind = "underflow"
    elif not n_blocked:
        kind = "positive"
    elif np.array_equal(blocked, np.arange(len(x)) > query):
        kind = "later"
    else:
        kind = "blocked"
    return ExpClaim(kind, n_blocked, seen)


# -- how much sharper scores saturate softmax --------------------------------------------------
LITTLE = 0.05  # Σ s(1 − s) moving by less than this fraction when unscaled: "changes little"
FLAT = 1e-9  # Σ s(1 − s) the same at every factor (equal scores, one key): "changes nothing"


@dataclass(frozen=True)
class Sharpening:
    """Σ s(1 − s) of one row of scaled scores multiplied by 1 (as scaled), √d_k (unscaled), 10
    and 100: ``g`` maps each factor's name (``"×1"``, ``"√d_k"`` when d_k > 1, ``"×10"``,
    ``"×100"``) to it. ``kind``: ``"flat"`` (the same at every factor: equal scores),
    ``"one"`` (d_k = 1: scaling changes nothing; the factors make it fall), ``"little"``
    (unscaled moves it by less than :data:`LITTLE` of its value), ``"more"`` (it falls more).
    ``falls``: it never rises from one factor to the next (what "falls from … to …" says)."""

    kind: str
    g: dict
    falls: bool


def sharpening(scaled_row: ArrayLike, d_k: int) -> Sharpening:
    """What multiplying one row of scaled scores does to softmax's Σ s(1 − s)."""
    from ..softmax import saturation, sharpened

    row = np.asarray(scaled_row, dtype=np.float64)
    factors = [("×1", 1.0)] + ([("√d_k", float(np.sqrt(d_k)))] if d_k > 1 else [])
    factors += [("×10", 10.0), ("×100", 100.0)]
    g = {name: float(saturation(sharpened(row, f))) for name, f in factors}
    values = list(g.values())
    falls = all(b <= a + FLAT for a, b in zip(values, values[1:]))
    if max(values) - min(values) <= FLAT:
        kind = "flat"
    elif d_k == 1:
        kind = "one"
    elif abs(g["×1"] - g["√d_k"]) < LITTLE * g["×1"]:
        kind = "little"
    else:
        kind = "more"
    return Sharpening(kind, g, falls)


# -- whether the followed row itself saturates unscaled ----------------------------------------
SATURATED = 0.05  # Σ s(1 − s) below this: the weights are all but one-hot, the gradient gone


@dataclass(frozen=True)
class SaturationClaim:
    """Whether one row of scaled scores saturates softmax when left unscaled (× √d_k):
    ``kind`` ``"saturated"`` (d_k > 1, Σ s(1 − s) unscaled ``raw`` below :data:`SATURATED`,
    scaled ``scaled`` not) or ``"not"`` (a scene then shows a random d = 64 row instead)."""

    kind: str
    scaled: float
    raw: float


def saturation_claim(scaled_row: ArrayLike, d_k: int) -> SaturationClaim:
    """What dividing by √d_k does for this row: keeps it out of saturation, or not.

    Parameters
    ----------
    scaled_row : array_like
        One row of scaled scores.
    d_k : int
        The width they were divided by (√d_k).

    Returns
    -------
    SaturationClaim

    Examples
    --------
    >>> saturation_claim([2.0, 0.0, -1.0], 64).kind
    'saturated'
    >>> saturation_claim([0.1, 0.0], 4).kind
    'not'
    """
    from ..softmax import saturation, sharpened

    row = np.asarray(scaled_row, dtype=np.float64)
    g1 = float(saturation(sharpened(row, 1.0)))
    graw = float(saturation(sharpened(row, float(np.sqrt(d_k)))))
    kind = "saturated" if d_k > 1 and graw < SATURATED <= g1 else "not"
    return SaturationClaim(kind, g1, graw)


# -- how the model's dimensions go to the heads ------------------------------------------------
@dataclass(frozen=True)
class HeadSplit:
    """``kind`` ``"even"`` when the heads' d_k add up to d_model (the model's dimensions split
    among them), else ``"other"`` (each head maps d_model to its own d_k; together ``width``)."""

    kind: str
    heads: int
    d_k: int
    width: int
    d_model: int


def head_split(trace: ExampleTrace) -> HeadSplit:
    """Whether H heads of d_k are the model's d_model dimensions split among them."""
    H, d_k = len(trace.heads), int(trace.heads[0].d_k)
    d = int(trace.example.d_model)
    return HeadSplit("even" if H * d_k == d else "other", H, d_k, H * d_k, d)
