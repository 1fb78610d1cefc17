"""What the RotaryPositions scene shows: one query and one key of a rotary example in the plane of
one frequency pair, turned by their positions, then both moved by the same shift.

:func:`rotary_view` picks, for a trained or asked head, the pair every other scene follows
(:func:`~attention_core.followed_pair`), else the last query (it sees every key under a causal
mask) and the key it weighs most among the others (itself when it is alone), and the pair whose
term adds the largest part to their score (:func:`attention_core.rotary.pair_scores`); with one
pair (d_k = 2) that pair. Every number is computed here: the pair's coordinates before and
after turning, the angle per position ω_i (radians and degrees), the pair's term and the whole
score at positions (m, n) and again at (m + s, n + s) — equal, since only m − n enters — and the
fastest and slowest pairs' ω.

``shown`` holds the pairs the scene draws side by side (:func:`shown_pairs`: where the score lives
and the fastest pair with a visible share), each a :class:`PairTurn` with its angle per position
and the decimals that print it non-zero; :func:`score_reading` says whether the score lives in a
slow pair (CONTENT) or a fast one (POSITION).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import ArrayLike

from ..rotary import apply_rotary, pair_scores, rotary_frequencies, rotary_pair

if TYPE_CHECKING:
    from ..example.model import Example
    from ..trace import ExampleTrace

SHIFT = 3  # how far the scene moves both positions
STUB = 0.35  # a vector shorter than this share of its pair's longer one is drawn as a direction


@dataclass(frozen=True, eq=False)
class RotaryView:
    """One query/key pair of a rotary head in one frequency pair's plane (see the module)."""

    query: int  # token index (from 0)
    key: int
    m: int  # their positions
    n: int
    shift: int
    pair: int  # the frequency pair (from 0): dimensions (pair, pair + d_k/2)
    pairs: int  # d_k / 2
    base: float
    frequency: float  # ω, radians per position
    degrees: float  # ω in degrees per position
    q: np.ndarray  # (2,) the query's pair before turning
    k: np.ndarray
    q_turned: np.ndarray  # at m
    k_turned: np.ndarray  # at n
    q_shifted: np.ndarray  # at m + s
    k_shifted: np.ndarray  # at n + s
    term: float  # q_turned · k_turned: this pair's part of the score
    term_shifted: float
    score: float  # rot(q, m) · rot(k, n): the head's score (unscaled)
    score_shifted: float  # rot(q, m + s) · rot(k, n + s)
    fastest: float  # ω of pair 0 (radians per position)
    slowest: float  # ω of the last pair
    shown: tuple = ()  # the pairs drawn side by side (PairTurn), fastest first: see shown_pairs
    span: int = 0  # the text's positions: last − first

    @property
    def directions(self) -> bool:
        """Whether the planes draw directions (unit arrows, the lengths in the table) rather
        than coordinates: where in a shown pair the shorter of q and k is under :data:`STUB` of
        the longer (drawn to scale it would be a stub whose turn cannot be seen)."""
        return any(min(t.q_norm, t.k_norm) < STUB * max(t.q_norm, t.k_norm) for t in self.shown)

    @property
    def angle_m(self) -> float:
        """The query's turn m·ω in degrees."""
        return self.m * self.degrees

    @property
    def angle_n(self) -> float:
        """The key's turn n·ω in degrees."""
        return self.n * self.degrees


def rotary_example(example: Example) -> Example:
    """``example`` itself when it has a rotary base; else a rotary stand-in the scene can show:
    its tokens with the first two coordinates of their embeddings (identity weights, causal mask,
    base 10000; in 2-D the one pair turns 1 rad per position whatever the base)."""
    from ..example.model import Example

    if example.rotary_base is not None:
        return example
    return Example(
        name=example.name, title=example.title, tokens=tuple(example.tokens),
        embeddings=example.embeddings[:, :2], mask="causal", rotary_base=10000.0,
    )  # fmt: skip


def _pick(trace: ExampleTrace) -> tuple[int, int]:
    """The pair the other scenes follow (:func:`~attention_core.followed_pair`) for a trained or
    asked head (an induction head's second occurrence and the token after the first; the pair
    asked for), else the last query and the key it weighs most among the others."""
    ex = trace.example
    if ex.source or ex.query is not None:
        from .followed import followed_pair

        pair = followed_pair(trace)
        return pair.query, pair.key
    weights = trace.attention.weights
    i = weights.shape[0] - 1
    others = [j for j in range(weights.shape[1]) if j != i and weights[i, j] > 0]
    if not others:
        return i, i
    return i, max(others, key=lambda j: weights[i, j])


def rotary_view(trace: ExampleTrace) -> RotaryView:
    """The view of ``trace`` (an :class:`~attention_core.ExampleTrace` of an example with a
    rotary base): the head it explains (``head``, else the first), see the module."""
    ex = trace.example
    if ex.rotary_base is None:
        raise ValueError("rotary_base: this example has no rotary positions")
    base = float(ex.rotary_base)
    h = ex.head_index  # the head the example names, else the first
    W_q, W_k, _ = ex.weights.head(h, ex.heads)
    b_q, b_k, _ = ex.weights.head_biases(h, ex.heads)
    Q = trace.X @ W_q + (0 if b_q is None else b_q)  # before turning
    K = trace.X @ W_k + (0 if b_k is None else b_k)
    pos = ex.rotary_positions
    assert pos is not None  # an example with a rotary base has its positions
    i, j = _pick(trace)
    m, n = int(pos[i]), int(pos[j])
    d_k = Q.shape[1]
    q_rot = apply_rotary(Q[i : i + 1], [m], base)[0]
    k_rot = apply_rotary(K[j : j + 1], [n], base)[0]
    pair = int(np.argmax(pair_scores(q_rot, k_rot)))
    freqs = rotary_frequencies(d_k, base)

    def at(M: np.ndarray, p: int) -> np.ndarray:
        return rotary_pair(apply_rotary(M, [p], base), pair)[0]

    qi, kj = Q[i : i + 1], K[j : j + 1]
    q_t, k_t, q_s, k_s = at(qi, m), at(kj, n), at(qi, m + SHIFT), at(kj, n + SHIFT)
    score = float(q_rot @ k_rot)
    shifted = float(apply_rotary(qi, [m + SHIFT], base)[0] @ apply_rotary(kj, [n + SHIFT], base)[0])
    return RotaryView(
        query=i, key=j, m=m, n=n, shift=SHIFT, pair=pair, pairs=d_k // 2, base=base,
        frequency=float(freqs[pair]), degrees=math.degrees(freqs[pair]),
        q=rotary_pair(qi, pair)[0], k=rotary_pair(kj, pair)[0], q_turned=q_t, k_turned=k_t,
        q_shifted=q_s, k_shifted=k_s, term=float(q_t @ k_t), term_shifted=float(q_s @ k_s),
        score=score, score_shifted=shifted, fastest=float(freqs[0]), slowest=float(freqs[-1]),
        shown=tuple(pair_turn(qi[0], kj[0], p, (m, n), base) for p in shown_pairs(q_rot, k_rot)),
        span=int(max(pos) - min(pos)),
    )  # fmt: skip


# -- a fast pair and a slow pair, and where the score lives --------------------------------------
# a pair takes part in the score from 1 % of the largest |term|; each pair has its own plane, drawn
# at its own scale, so a fast pair with a small share still shows its turn (5 % kept only slow ones)
VISIBLE = 0.01
CONTENT, POSITION = "content", "position"  # what score_reading returns


def angle_decimals(degrees: float) -> int:
    """Decimals that print ``degrees`` with two significant digits, at least one: 57.3, 0.53,
    0.043, 0.0024 (never 0.0 for an angle that is not zero)."""
    x = abs(float(degrees))
    if x == 0 or not math.isfinite(x):
        return 1
    return max(1, 1 - math.floor(math.log10(x)))


@dataclass(frozen=True, eq=False)
class PairTurn:
    """One pair's plane for the query at m and the key at n (see :func:`pair_turn`)."""

    pair: int  # from 0
    frequency: float  # ω, radians per position
    degrees: float  # ω in degrees per position
    decimals: int  # digits that show ``degrees`` non-zero
    q: np.ndarray  # (2,) before turning
    k: np.ndarray
    q_turned: np.ndarray  # at m
    k_turned: np.ndarray  # at n
    q_shifted: np.ndarray  # at m + SHIFT
    k_shifted: np.ndarray  # at n + SHIFT
    term: float  # this pair's part of the score at (m, n)
    angle_m: float  # m·ω in degrees
    angle_n: float
    angle_m_shifted: float  # (m + SHIFT)·ω in degrees
    angle_n_shifted: float
    reach: float  # the longest of q and k: the plane shows −reach … reach on both axes
    q_norm: float = 0.0  # |q| and |k| in this pair (turning keeps them)
    k_norm: float = 0.0

    @property
    def lengths(self) -> float:
        """|q|·|k| in this pair: its part of the score is that times cos of their angle."""
        return self.q_norm * self.k_norm


def pair_turn(
    q: np.ndarray, k: np.ndarray, pair: int, at: tuple[int, int], base: float
) -> PairTurn:
    """Pair ``pair`` of the unturned query ``q`` and key ``k`` (vectors of width d_k), the query
    at position ``at[0]`` and the key at ``at[1]``, then both ``SHIFT`` further."""
    m, n = at
    w = float(rotary_frequencies(q.size, base)[pair])

    def turned(x: np.ndarray, p: int) -> np.ndarray:
        return rotary_pair(apply_rotary(x[None, :], [p], base), pair)[0]

    q0, k0 = rotary_pair(q[None, :], pair)[0], rotary_pair(k[None, :], pair)[0]
    q_t, k_t = turned(q, m), turned(k, n)
    deg = math.degrees(w)
    return PairTurn(
        pair=pair, frequency=w, degrees=deg, decimals=angle_decimals(deg), q=q0, k=k0,
        q_turned=q_t, k_turned=k_t, q_shifted=turned(q, m + SHIFT), k_shifted=turned(k, n + SHIFT),
        term=float(q_t @ k_t), angle_m=m * deg, angle_n=n * deg,
        angle_m_shifted=(m + SHIFT) * deg, angle_n_shifted=(n + SHIFT) * deg,
        reach=float(max(np.linalg.norm(q0), np.linalg.norm(k0))),
        q_norm=float(np.linalg.norm(q0)), k_norm=float(np.linalg.norm(k0)),
    )  # fmt: skip


def shown_pairs(q_rot: ArrayLike, k_rot: ArrayLike) -> tuple[int, ...]:
    """The pairs RotaryPositions draws for the turned query ``q_rot`` and key ``k_rot``, fastest
    first: the pair where the score lives (the largest term) and the fastest-turning pair whose
    term is a visible share of the score (|term| ≥ VISIBLE × the largest |term|); when those are
    one pair, it and the slowest pair with a visible share. One pair when d_k = 2 (or when no
    other pair has a visible share)."""
    terms = pair_scores(q_rot, k_rot)
    main = int(np.argmax(terms))
    size = np.abs(terms)
    visible = [p for p in range(terms.size) if p != main and size[p] >= VISIBLE * size.max()]
    if not visible:
        return (main,)
    fast = visible[0]  # pairs are numbered fastest first
    other = fast if fast < main else visible[-1]
    return tuple(sorted((main, other)))


def score_reading(view: RotaryView) -> str:
    """Where this head's score lives: CONTENT when the pair with the largest term (``view.pair``)
    turns less than a quarter turn over the whole text (``view.span`` positions: at any offset
    the text holds, its part of the score is nearly what it would be at offset 0, so it matches
    content), else POSITION (its part swings with the offset between query and key: it is tuned
    to position)."""
    return CONTENT if view.frequency * view.span < math.pi / 2 else POSITION
