"""Where each number on screen comes from: a role names a value of the trace (or of a core call).

Scenes tag every :class:`scenes.mobjects.text.Num` with a role such as ``("scores", h, i, j)``:
its kind, then its indices. A kind whose first index is the head (``h``) is best built as a
:class:`HeadRole`, ``HeadRole("scores", self.h, i, j)``: it cannot be made without its head (a
bare ``0`` is not a :data:`Head` to the type checker; a missing one is a ``TypeError``), the
slip of issue 39 (single-head scenes tagged with head 0's roles). Each kind is one small
function here, ``fn(trace, *indices)``,
registered with :func:`role`; :func:`resolve` checks that a role carries as many indices as its
function takes (a wrong count is an error naming the role) and looks the value up with the core
alone, so a test can check each number on screen against ``attention_core``. Roles only look
values up: everything is computed by the core.

The vectors of a 2-D view (a plane of arrows) are named in :mod:`scenes.kit.views`.
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Callable
from typing import TYPE_CHECKING, NewType

import numpy as np

import attention_core as ac
from scenes.kit.views import moved_of, moved_parts, plane_view_of

if TYPE_CHECKING:
    from attention_core.readings.moved_vector import Readout

Role = Callable[..., float]
ROLES: dict[str, Role] = {}
HEAD_ARRAYS = ("Q", "K", "V", "scores", "scaled", "masked", "weights", "output")


class RoleArityError(TypeError):
    """A role tuple with the wrong number of indices for its kind."""


def role(name: str | None = None):
    """Register ``fn(trace, *indices)`` as the look-up of role kind ``name`` (default: its
    function's name). Its parameters after ``trace`` are the role's indices."""

    def register(fn: Role) -> Role:
        ROLES[name or fn.__name__] = fn
        return fn

    return register


def indices_of(kind: str) -> tuple[str, ...]:
    """The names of the indices a role of ``kind`` carries, e.g. ("h", "i", "j")."""
    return tuple(inspect.signature(ROLES[kind]).parameters)[1:]


Head = NewType("Head", int)  # a head's index (from 0) as a scene explains it (ExplainerScene.h)


class HeadRole(tuple):
    """The role of a number of one head: its kind, the head, then its other indices, e.g.
    ``HeadRole("scaled", Head(1), 2, 0)`` — a tuple equal to ``("scaled", 1, 2, 0)``, so a
    scene, a check or the notes read it as any role. ``head`` is typed :data:`Head`, so mypy
    refuses a literal such as ``0`` (write the explained head, ``self.h``); without a head, or
    for a kind that takes none, or with the wrong count of indices, it is a ``TypeError``
    (:class:`RoleArityError`) naming the role when made, not when a test resolves it."""

    __slots__ = ()

    def __new__(cls, kind: str, head: Head, *at: float) -> HeadRole:
        names = indices_of(kind) if kind in ROLES else ()
        if names[:1] != ("h",):
            raise RoleArityError(f"role {kind!r} names no head; a HeadRole is for kinds (h, …)")
        if isinstance(head, bool) or not isinstance(head, int | np.integer) or head < 0:
            raise TypeError(f"role {kind!r}: head {head!r} is not a head index (from 0)")
        if 1 + len(at) != len(names):
            raise RoleArityError(
                f"role {kind!r} takes {len(names)} indices ({', '.join(names)}), "
                f"got {1 + len(at)}: {(kind, head, *at)!r}"
            )
        return super().__new__(cls, (kind, head, *at))

    def __getnewargs__(self) -> tuple:  # copy, deepcopy, pickle: made again from its items
        return tuple(self)

    @property
    def kind(self) -> str:
        return str(self[0])

    @property
    def head(self) -> int:
        return int(self[1])


def resolve(trace: ac.ExampleTrace, which: tuple) -> float:
    """The exact value a role names. KeyError for an unknown kind; RoleArityError (a TypeError)
    when the role has the wrong number of indices."""
    kind, *idx = which
    if kind not in ROLES:
        raise KeyError(f"unknown role {which!r}")
    names = indices_of(kind)
    if len(idx) != len(names):
        raise RoleArityError(
            f"role {kind!r} takes {len(names)} indices ({', '.join(names) or 'none'}), "
            f"got {len(idx)}: {which!r}"
        )
    return float(ROLES[kind](trace, *idx))


# -- the trace's arrays --------------------------------------------------------------------------
def _head_array(kind: str) -> Role:
    def look(tr, h, i, j):
        return getattr(tr.heads[h], kind)[i, j]

    look.__name__ = kind
    return look


def _weight_matrix(kind: str) -> Role:
    index = ("W_q", "W_k", "W_v").index(kind)

    def look(tr, h, i, j):
        return tr.example.weights.head(h, len(tr.heads))[index][i, j]

    look.__name__ = kind
    return look


for _kind in HEAD_ARRAYS:
    role()(_head_array(_kind))
for _kind in ("W_q", "W_k", "W_v"):
    role()(_weight_matrix(_kind))


def _map_block(which: str) -> Role:
    def look(tr, block, i, j):
        return ac.linear_maps(tr).block(which, block)[i, j]

    look.__name__ = which + "_map"
    whose = "a query head's block" if which == "Q" else "a key/value head's block"
    look.__doc__ = f"{which} = X W_{which.lower()} as the map gives it (before RoPE): {whose}"
    return look


for _kind in ("Q", "K", "V"):
    role(_kind + "_map")(_map_block(_kind))


@role()
def scores_row(tr, h, q, r, j):
    """Query ``q``'s row of head ``h``'s scores drawn alone (a one-row grid: its cell (r, j),
    r = 0, is the score of ``q`` with key j)."""
    return tr.heads[h].scores[q + r, j]


@role("X")
def embedding(tr, i, j):
    return tr.X[i, j]


@role()
def embeddings(tr, i, j):
    return tr.example.embeddings[i, j]


@role()
def source(tr, i, j):
    return tr.source[i, j]


@role()
def concat(tr, i, j):
    return tr.multihead.concat[i, j]


@role()
def final(tr, i, j):
    """MultiHeadSplit's output, after W_O."""
    return tr.output[i, j]


@role()
def W_o(tr, i, j):  # noqa: N802  (the matrix's name)
    return tr.multihead.W_o[i, j]


@role()
def rotary(tr, field):
    """RotaryPositions: a field of the core's rotary view (frequency, score, …)."""
    from attention_core.readings.rotary_view import rotary_view

    return getattr(rotary_view(tr), field)


@role()
def rotary_pair(tr, n, field):
    """RotaryPositions: a field of the n-th pair it draws (degrees, angle_m, term, …)."""
    from attention_core.readings.rotary_view import rotary_view

    return getattr(rotary_view(tr).shown[n], field)


@role()
def enc(tr, name, i, j):
    """An array of the encoder block ("attention" for its attention output)."""
    block = ac.trace_encoder(tr.example)
    value = block.attention.output if name == "attention" else getattr(block, name)
    return value[i, j]


# -- the geometry of one query and one key -------------------------------------------------------
@role()
def norm_q(tr, h, i):
    return ac.norm(tr.heads[h].Q[i])


@role()
def norm_k(tr, h, j):
    return ac.norm(tr.heads[h].K[j])


@role()
def norm_x(tr, i):
    return ac.norm(tr.X[i])


@role()
def cos(tr, h, i, j):
    return math.cos(ac.angle(tr.heads[h].Q[i], tr.heads[h].K[j]))


@role()
def angle_deg(tr, h, i, j):
    return math.degrees(ac.angle(tr.heads[h].Q[i], tr.heads[h].K[j]))


@role()
def shadow(tr, h, i, j):
    """The key's scalar projection on the query."""
    return ac.scalar_projection(tr.heads[h].K[j], tr.heads[h].Q[i])


@role()
def sqrt_dk(tr, h):
    return math.sqrt(tr.heads[h].d_k)


@role()
def d_k(tr, h):
    return tr.heads[h].d_k


# -- softmax: exponentials, shares, sharper scores and saturation --------------------------------
@role()
def exp(tr, h, i, j):
    return ac.exponentials(tr.heads[h].masked[i])[j]


@role()
def exp_plain(tr, h, i, j):
    return ac.exponentials(tr.heads[h].masked[i], shift=False)[j]


@role()
def exp_sum(tr, h, i):
    return np.sum(ac.exponentials(tr.heads[h].masked[i]))


@role()
def rowsum(tr, h, i):
    return np.sum(tr.heads[h].weights[i])


@role()
def sharpened(tr, h, i, f, j):
    return ac.sharpened(tr.heads[h].masked[i], f)[j]


@role()
def gradient(tr, h, i, f, j):
    return ac.softmax_gradient_factor(ac.sharpened(tr.heads[h].masked[i], f))[j]


@role()
def gradient_sum(tr, h, i, f):
    return ac.saturation(ac.sharpened(tr.heads[h].masked[i], f))


# the same before any mask (Softmax comes before masks are taught)
@role()
def exp_scaled(tr, h, i, j):
    return ac.exponentials(tr.heads[h].scaled[i])[j]


@role()
def exp_plain_scaled(tr, h, i, j):
    return ac.exponentials(tr.heads[h].scaled[i], shift=False)[j]


@role()
def sharpened_scaled(tr, h, i, f, j):
    return ac.sharpened(tr.heads[h].scaled[i], f)[j]


@role()
def gradient_sum_scaled(tr, h, i, f):
    return ac.saturation(ac.sharpened(tr.heads[h].scaled[i], f))


# -- one random row of scores at d = 64, unscaled ("raw") and ÷√64 ("scaled") --------------------
def _row64_scores(which: str) -> np.ndarray:
    row = ac.random_score_row()
    return row.raw if which == "raw" else row.scaled


def _row64_roles(which: str) -> None:
    def score(tr, j):
        return _row64_scores(which)[j]

    def weight(tr, j):
        return ac.softmax(_row64_scores(which))[j]

    def largest(tr):
        return ac.softmax(_row64_scores(which)).max()

    def saturation(tr):
        return ac.saturation(ac.softmax(_row64_scores(which)))

    for stat, fn in (("score", score), ("weight", weight), ("max", largest)):
        role(f"row64_{stat}_{which}")(fn)
    role(f"row64_saturation_{which}")(saturation)


_row64_roles("raw")
_row64_roles("scaled")


# -- the weighted sum ----------------------------------------------------------------------------
@role()
def share_others(tr, h, i):
    return ac.share_from_others(tr.heads[h].weights)[i]


@role()
def share_others_pct(tr, h, i):
    return 100.0 * ac.share_from_others(tr.heads[h].weights)[i]


@role()
def moved(tr, h, i):
    """How far the output moves the token (nan when it is not in the token's space)."""
    out = tr.heads[h].output
    return ac.norm(out[i] - tr.X[i]) if out.shape[1] == tr.X.shape[1] else math.nan


@role()
def tip(tr, h, i, j, c):
    """Coordinate c of where value j's shrunk arrow starts in query i's chain."""
    _, starts = ac.tip_to_tail(tr.heads[h].weights[i], tr.heads[h].V)
    return starts[j, c]


@role()
def residual(tr, h, i, c):
    return ac.residual(tr.X, tr.heads[h].output)[i, c]


@role()
def norm_output(tr, h, i):
    return ac.norm(tr.heads[h].output[i])


# -- the other scenes' numbers -------------------------------------------------------------------
@role()
def pair_row(tr, h, field):
    """A count of the followed pair's row (``attention_core.pair_row``): ``before`` (the tokens
    before the query it may see), ``seen`` (the keys it may see), ``rank``."""
    return getattr(ac.pair_row(tr, h), field)


@role()
def word_weight(tr, h, i):
    """The weight query ``i`` of head ``h`` puts on the followed key word
    (``attention_core.FollowedPair.pieces``): a key cut into pieces (``key_pieces``) sums its
    pieces' weights."""
    pieces = list(ac.followed_pair(tr, head=h).pieces)
    return float(tr.heads[h].weights[i, pieces].sum())


@role()
def shuffle_diff(tr, which):
    """PositionalEncoding's largest change of the outputs, "without" or "with" the encoding
    (claims.order_argument: the example's own mask kept, but a causal mask that already makes
    order matter taken off)."""
    check = ac.order_argument(tr.example)
    return check.diff_without if which == "without" else check.diff_with


@role()
def kept_pct(tr, which):
    """The share of the vectors' spread a 2-D view keeps (``which`` names the view)."""
    return 100.0 * plane_view_of(tr, which).kept


@role()
def variance_raw(tr, k):
    return ac.scaling_experiment()[k].raw_variance


@role()
def variance_scaled(tr, k):
    return ac.scaling_experiment()[k].scaled_variance


@role()
def illustrative(tr, seed, i, j):
    return ac.illustrative_weights(2, seed)[i, j]


@role()
def illustrative_qk(tr, seed, which, i, j):
    """Projections' separate query and key spaces: ``which`` = "W_q" | "W_k" (the maps),
    "Q" | "K" (the vectors), "S" (their dot products)."""
    if which in ("W_q", "W_k"):
        return ac.illustrative_projections(tr.X.shape[1], seed)[which == "W_k"][i, j]
    Q, K, S = ac.illustrative_queries_keys(tr.X, seed, tr.source)
    return {"Q": Q, "K": K, "S": S}[which][i, j]


@role()
def seed(tr, name):
    return {"illustrative": ac.ILLUSTRATIVE_SEED, "ffn": ac.FFN_SEED}[name]


@role()
def cells(tr):
    return ac.attention_cost(tr.example.n, tr.example.n_keys, tr.heads[0].d_k)[0]


@role()
def work(tr):
    return ac.attention_cost(tr.example.n, tr.example.n_keys, tr.heads[0].d_k)[1]


@role()
def cells_at(tr, n):
    return ac.attention_cost(n, n, 1)[0]


@role()
def head_mass(tr, h):
    """Head ``h``'s average as HeadGallery shows it: its largest habit's, or for a head without
    a habit told by its resting place (head_groups.tell_head, issue 38) that place's share."""
    from attention_core.readings.head_groups import tell_head

    r = tell_head(tr.heads[h].weights, tr.example.tokens)
    return r.mass if r.rests else max(r.masses.values())


@role()
def head_score(tr, h):
    """The model-level score that names head ``h`` (read_head with the example's scores)."""
    ex = tr.example
    return ac.read_head(tr.heads[h].weights, ex.tokens, ac.example_head_scores(ex, h)).score


# -- what a head moved into one token (HeadMoved; numbers --json's "moved") ------------------------
@role()
def moved_norm(tr, h, i, j):
    """‖tⱼ‖ = ‖αᵢⱼ · vⱼ · W_Oʰ‖."""
    return moved_of(tr, h, i).norms[j]


@role()
def moved_rest_norm(tr, h, i):
    """The norm of the terms HeadMoved sums into one arrow (those it does not draw)."""
    mv = moved_of(tr, h, i)
    return ac.norm(mv.terms[moved_parts(tr, mv)[1]].sum(axis=0))


def _readout(tr: ac.ExampleTrace, h: int, i: int) -> Readout:
    """The logit-lens readout of what head ``h`` moved into query ``i`` (a model's file's)."""
    readout = moved_of(tr, h, i).readout
    if readout is None:
        raise ValueError(f"moved readout of head {h}, query {i}: the example has no unembedding")
    return readout


@role()
def moved_before(tr, h, i, r):
    """The probability of the r-th token (from 0) of the logit lens of E."""
    return _readout(tr, h, i).before[r][1]


@role()
def moved_after_p(tr, h, i, r):
    """The probability of the r-th token of the logit lens of E + ΔE."""
    return _readout(tr, h, i).after[r][1]


@role()
def moved_pushed(tr, h, i, r):
    """ΔE's direct logit change of the r-th token it pushes up most."""
    return _readout(tr, h, i).pushed[r][1]


@role()
def moved_key_rank(tr, h, i, w):
    """The followed key's token's rank (from 1) in the readout of E (w = 0) and E + ΔE (1)."""
    r = _readout(tr, h, i)
    return (r.key_rank_before, r.key_rank_after)[w]


@role()
def moved_key_change(tr, h, i):
    """ΔE's direct logit change of the followed key's token (its rank alone can rise while its
    logit falls: the readout's others fall more)."""
    return _readout(tr, h, i).key_change


@role()
def moved_layer(tr):
    """The layer (from 1) whose input E is: a SmolLM2 file's."""
    from attention_core.models.model_residual import decoder_request

    request = decoder_request(tr.example)
    if request is None:
        raise ValueError("moved_layer: only a SmolLM2 example file names the layer it read")
    return request[1]
