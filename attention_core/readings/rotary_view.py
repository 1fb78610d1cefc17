"""What the RotaryPositions scene shows: one query and one key of a rotary example in the plane of
one frequency pair, turned by their positions, then both moved by the same shift.

:func:`rotary_view` picks the last query (it sees every key under a causal mask), the key it
weighs most among the others (itself when it is alone), and the pair whose term carries most of
their score (:func:`attention_core.rotary.pair_scores`); with one pair (d_k = 2) that pair. Every
number is computed here: the pair's coordinates before and after turning, the angle per position
ω_i (radians and degrees), the pair's term and the whole score at positions (m, n) and again at
(m + s, n + s) — equal, since only m − n enters — and the fastest and slowest pairs' ω.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..rotary import apply_rotary, pair_scores, rotary_frequencies, rotary_pair

SHIFT = 3  # how far the scene moves both positions


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

    @property
    def angle_m(self) -> float:
        """The query's turn m·ω in degrees."""
        return self.m * self.degrees

    @property
    def angle_n(self) -> float:
        """The key's turn n·ω in degrees."""
        return self.n * self.degrees


def rotary_example(example):
    """``example`` itself when it has a rotary base; else a rotary stand-in the scene can show:
    its tokens with the first two coordinates of their embeddings (identity weights, causal mask,
    base 10000; in 2-D the one pair turns 1 rad per position whatever the base)."""
    from ..example.model import Example

    if example.rotary_base is not None:
        return example
    return Example(
        name=example.name, title=example.title, tokens=list(example.tokens),
        embeddings=example.embeddings[:, :2], mask="causal", rotary_base=10000.0,
    )  # fmt: skip


def _pick(trace) -> tuple[int, int]:
    """The last query and the key it weighs most among the others."""
    weights = trace.heads[0].weights
    i = weights.shape[0] - 1
    others = [j for j in range(weights.shape[1]) if j != i and weights[i, j] > 0]
    if not others:
        return i, i
    return i, max(others, key=lambda j: weights[i, j])


def rotary_view(trace) -> RotaryView:
    """The view of ``trace`` (an :class:`~attention_core.ExampleTrace` of an example with a
    rotary base): its first head, its last query, see the module."""
    ex = trace.example
    if ex.rotary_base is None:
        raise ValueError("rotary_base: this example has no rotary positions")
    base = float(ex.rotary_base)
    W_q, W_k, _ = ex.weights.head(0, ex.heads)
    b_q, b_k, _ = ex.weights.head_biases(0, ex.heads)
    Q = trace.X @ W_q + (0 if b_q is None else b_q)  # before turning
    K = trace.X @ W_k + (0 if b_k is None else b_k)
    pos = ex.rotary_positions
    i, j = _pick(trace)
    m, n = int(pos[i]), int(pos[j])
    d_k = Q.shape[1]
    q_rot = apply_rotary(Q[i : i + 1], [m], base)[0]
    k_rot = apply_rotary(K[j : j + 1], [n], base)[0]
    pair = int(np.argmax(pair_scores(q_rot, k_rot)))
    freqs = rotary_frequencies(d_k, base)

    def at(M, p):
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
    )  # fmt: skip
