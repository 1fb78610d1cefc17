"""The named 2-D views: which vectors a plane of arrows shows, in one registry.

A plane of several vectors with more than two dimensions draws them in one shared 2-D view
(``attention_core.plane_view``); a note such as "2-D view: keeps 87 %" names the view, so a test
can rebuild it from the trace alone. Every view a scene draws is a small function here,
``fn(trace, *args) -> (k, d) array`` of the stacked vectors, listed in :data:`VIEWS` — one
registry, whichever scene modules were imported. A new scene adds its view here (or reuses one).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

import attention_core as ac

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
}


def view_stack(trace: ac.ExampleTrace, which) -> np.ndarray:
    """The vectors drawn in view ``which``: a name, or a tuple (name, *args)."""
    name, *args = (which,) if isinstance(which, str) else which
    if name not in VIEWS:
        raise KeyError(f"unknown view {which!r} (the views are listed in scenes/kit/views.py)")
    return VIEWS[name](trace, *args)


def plane_view_of(trace: ac.ExampleTrace, which) -> ac.PlaneView:
    """The 2-D view (coordinates, basis, share kept) of view ``which``."""
    return ac.plane_view(view_stack(trace, which))
