"""The named 2-D views: which vectors a plane of arrows shows, in one registry.

A plane of several vectors with more than two dimensions draws them in one shared 2-D view
(``attention_core.plane_view``); a note such as "2-D view: keeps 87 %" names the view, so a test
can rebuild it from the trace alone. Every view a scene draws is a small function here,
``fn(trace, *args) -> (k, d) array`` of the stacked vectors, listed in :data:`VIEWS` — one
registry, whichever scene modules were imported. A new scene adds its view here (or reuses one).
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

import attention_core as ac

if TYPE_CHECKING:
    from attention_core.readings.moved_vector import MovedVector

# a view's name, or a tuple (name, *args)
ViewName = str | tuple

ViewRecipe = Callable[..., np.ndarray]  # (trace, *args) -> the stacked vectors, (k, d)


def embeddings(trace: ac.ExampleTrace) -> np.ndarray:
    """The tokens' vectors X."""
    return trace.X


def queries(trace: ac.ExampleTrace) -> np.ndarray:
    """The first head's queries as Q = X W_q gives them (before RoPE turns them)."""
    return ac.linear_maps(trace).head(0)[0]


def keys(trace: ac.ExampleTrace) -> np.ndarray:
    """The first head's keys as K = X W_k gives them (before RoPE turns them)."""
    return ac.linear_maps(trace).head(0)[1]


def values(trace: ac.ExampleTrace) -> np.ndarray:
    """The first head's values."""
    return ac.linear_maps(trace).head(0)[2]


def queries_keys(trace: ac.ExampleTrace, h: int = 0) -> np.ndarray:
    """Head ``h``'s queries and keys in one view (MultiHeadSplit's head planes, and
    CrossAttention's queries with the source's keys)."""
    return np.vstack([trace.heads[h].Q, trace.heads[h].K])


def values_outputs(trace: ac.ExampleTrace) -> np.ndarray:
    """The values and the outputs (convex mixes of them) in one view."""
    head = trace.attention
    return np.vstack([head.V, head.output])


def adds_back(trace: ac.ExampleTrace) -> bool:
    """Whether the output can be added back to the query's own embedding (same space)."""
    return not trace.example.is_cross and trace.attention.V.shape[1] == trace.X.shape[1]


def weighted_sum(trace: ac.ExampleTrace) -> np.ndarray:
    """The shown query's plane: the values, the output, the chain's points, and the token's own
    vector with the residual E + ΔE."""
    head = trace.attention
    i = ac.followed_choice(trace).row  # the row WeightedSum follows
    parts, starts = ac.tip_to_tail(head.weights[i], head.V)
    stack = [head.V, head.output[i : i + 1], starts + parts]
    if adds_back(trace):
        stack += [trace.X[i : i + 1], ac.residual(trace.X, head.output)[i : i + 1]]
    return np.vstack(stack)


_MOVED: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def moved_of(trace: ac.ExampleTrace, h: int | None = None, i: int | None = None) -> MovedVector:
    """``attention_core.moved_vector`` of the trace (head ``h``, query ``i``; default the
    followed ones), kept per trace: a SmolLM2 file's readout runs the model again."""
    kept = _MOVED.setdefault(trace, {})
    if (h, i) not in kept:
        kept[(h, i)] = ac.moved_vector(trace, head=h, query=i)
    return kept[(h, i)]


MOST_TERMS = 4  # HeadMoved draws the largest terms (and the followed key's); the rest summed


def moved_parts(trace: ac.ExampleTrace, mv: MovedVector) -> tuple[list[int], list[int]]:
    """The keys whose terms HeadMoved draws, largest first (the followed key's among them), and
    the rest that the query weighs at all (summed into one arrow and counted)."""
    row = np.asarray(trace.heads[mv.head].weights)[mv.query]
    seen = [j for j in range(len(row)) if row[j] > 0]
    shown = [j for j in mv.largest(len(row)) if j in seen][:MOST_TERMS]
    if mv.key not in shown and mv.key in seen:
        shown = [*shown[: MOST_TERMS - 1], mv.key]
    return shown, [j for j in seen if j not in shown]


def head_moved(trace: ac.ExampleTrace) -> np.ndarray:
    """What the head moved into the followed token: its terms αⱼ · vⱼ · W_Oʰ (the drawn ones and
    the rest's sum), seen in the plane of E and ΔE (:data:`BASES`), where E, ΔE and E + ΔE are
    exact: the view's share kept is the terms'."""
    mv = moved_of(trace)
    shown, rest = moved_parts(trace, mv)
    parts = [mv.terms[j] for j in shown] + ([mv.terms[rest].sum(axis=0)] if rest else [])
    return np.array(parts)


def head_moved_basis(trace: ac.ExampleTrace) -> np.ndarray | None:
    """The plane of E and ΔE (None where they span no plane: then the terms' own best view)."""
    mv = moved_of(trace)
    if mv.E.shape[0] <= 2:
        return None
    try:
        return ac.pair_plane(mv.E, mv.delta).basis
    except ValueError:  # E = 0
        return None


def residual1(trace: ac.ExampleTrace) -> np.ndarray:
    """Each token's vector before and after the first residual add: X, then X + A."""
    enc = ac.trace_encoder(trace.example)
    return np.vstack([enc.X, enc.residual1])


def residual2(trace: ac.ExampleTrace) -> np.ndarray:
    """Each token's vector before and after the second residual add: H, then H + F."""
    enc = ac.trace_encoder(trace.example)
    return np.vstack([enc.norm1, enc.residual2])


VIEWS: dict[str, ViewRecipe] = {
    "X": embeddings,
    "Q": queries,
    "K": keys,
    "V": values,
    "queries_keys": queries_keys,
    "values_outputs": values_outputs,
    "weighted_sum": weighted_sum,
    "residual1": residual1,
    "residual2": residual2,
    "head_moved": head_moved,
}

# the views drawn in a plane of their own choosing, not the best one for their vectors
BASES: dict[str, ViewRecipe] = {"head_moved": head_moved_basis}


def view_stack(trace: ac.ExampleTrace, which: ViewName) -> np.ndarray:
    """The vectors drawn in view ``which``: a name, or a tuple (name, *args)."""
    name, *args = (which,) if isinstance(which, str) else which
    if name not in VIEWS:
        raise KeyError(f"unknown view {which!r} (the views are listed in scenes/kit/views.py)")
    return VIEWS[name](trace, *args)


def plane_view_of(trace: ac.ExampleTrace, which: ViewName) -> ac.PlaneView:
    """The 2-D view (coordinates, basis, share kept) of view ``which``: the best one for its
    vectors, or the plane :data:`BASES` names for it (its share kept: of those vectors)."""
    vectors = view_stack(trace, which)
    name, *args = (which,) if isinstance(which, str) else which
    basis = BASES[name](trace, *args) if name in BASES else None
    if basis is None:
        return ac.plane_view(vectors)
    coords = vectors @ basis
    total = float(np.sum(vectors * vectors))
    kept = 1.0 if total == 0 else min(1.0, float(np.sum(coords * coords)) / total)
    return ac.PlaneView(coords=coords, basis=basis, kept=kept)
