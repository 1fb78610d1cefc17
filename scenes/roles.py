"""Where each number on screen comes from: a role names a value of the trace (or of a core call).

Scenes tag every :class:`scenes.mobjects.text.Num` with a role such as ``("scores", h, i, j)``;
:func:`resolve` looks that value up with the core alone, so a test can check each number on
screen against ``attention_core``. Roles only look values up: everything is computed by the core.

A 2-D view of several vectors (a plane of arrows) is named too, so the test can rebuild the view a
note such as "keeps 87 %" describes: the generic views live here, a scene's own drawing recipe is
registered by its scene module with :func:`view_recipe`.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

import attention_core as ac
from attention_core.rotary_view import rotary_view

HEAD_ARRAYS = ("Q", "K", "V", "scores", "scaled", "masked", "weights", "output")

# -- named 2-D views ---------------------------------------------------------------------------
ViewRecipe = Callable[..., np.ndarray]  # (trace, *args) -> the stacked vectors, (n, d)
_VIEWS: dict[str, ViewRecipe] = {
    "X": lambda trace: trace.X,
    "Q": lambda trace: trace.heads[0].Q,
    "K": lambda trace: trace.heads[0].K,
    "V": lambda trace: trace.heads[0].V,
}


def view_recipe(name: str):
    """Register ``fn(trace, *args)`` as the vectors of view ``name`` (a scene's own recipe)."""

    def register(fn: ViewRecipe) -> ViewRecipe:
        _VIEWS[name] = fn
        return fn

    return register


def view_stack(trace: ac.ExampleTrace, which) -> np.ndarray:
    """The vectors drawn in view ``which``: a name, or a tuple (name, *args)."""
    name, *args = (which,) if isinstance(which, str) else which
    try:
        return _VIEWS[name](trace, *args)
    except KeyError:
        raise KeyError(f"unknown view {which!r}") from None


def plane_view_of(trace: ac.ExampleTrace, which) -> ac.PlaneView:
    return ac.plane_view(view_stack(trace, which))


# -- the roles: one small look-up each --------------------------------------------------------
def _head_array(kind):
    return lambda tr, h, *ij: getattr(tr.heads[h], kind)[tuple(ij)]


def _weights_matrix(kind):
    index = ("W_q", "W_k", "W_v").index(kind)
    return lambda tr, h, i, j: tr.example.weights.head(h, len(tr.heads))[index][i, j]


def _encoder(tr, name, *ij):
    enc = ac.trace_encoder(tr.example)
    value = enc.attention.output if name == "attention" else getattr(enc, name)
    return value[tuple(ij)]


def _moved(tr, h, i):
    out = tr.heads[h].output
    return ac.norm(out[i] - tr.X[i]) if out.shape[1] == tr.X.shape[1] else math.nan


def _shuffle_diff(tr, which):
    check = ac.shuffle_check(tr.example)
    return check.diff_without if which == "without" else check.diff_with


def _row64(which, stat):
    """A look-up in the d = 64 score row (raw or scaled): its scores, softmax weights, largest
    weight or Σ s(1 − s)."""

    def look(tr, *j):
        row = ac.random_score_row()
        scores = row.raw if which == "raw" else row.scaled
        if stat == "score":
            return scores[j[0]]
        w = ac.softmax(scores)
        return {"weight": lambda: w[j[0]], "max": w.max, "saturation": lambda: ac.saturation(w)}[
            stat
        ]()

    return look


def _tip(tr, h, i, j, c):
    _, starts = ac.tip_to_tail(tr.heads[h].weights[i], tr.heads[h].V)
    return starts[j, c]


def _illustrative_qk(tr, seed, which, i, j):
    if which in ("W_q", "W_k"):
        return ac.illustrative_projections(tr.X.shape[1], seed)[which == "W_k"][i, j]
    Q, K, S = ac.illustrative_queries_keys(tr.X, seed, tr.source)
    return {"Q": Q, "K": K, "S": S}[which][i, j]


ROLES: dict[str, Callable[..., float]] = {
    **{kind: _head_array(kind) for kind in HEAD_ARRAYS},
    **{kind: _weights_matrix(kind) for kind in ("W_q", "W_k", "W_v")},
    "X": lambda tr, *ij: tr.X[tuple(ij)],
    "rotary": lambda tr, field: getattr(rotary_view(tr), field),  # RotaryPositions
    "embeddings": lambda tr, *ij: tr.example.embeddings[tuple(ij)],
    "source": lambda tr, *ij: tr.source[tuple(ij)],
    "concat": lambda tr, *ij: tr.multihead.concat[tuple(ij)],
    "final": lambda tr, *ij: tr.output[tuple(ij)],
    "W_o": lambda tr, *ij: tr.multihead.W_o[tuple(ij)],  # MultiHeadSplit
    # geometry of one query and one key
    "norm_q": lambda tr, h, i: ac.norm(tr.heads[h].Q[i]),
    "norm_k": lambda tr, h, j: ac.norm(tr.heads[h].K[j]),
    "norm_x": lambda tr, i: ac.norm(tr.X[i]),
    "cos": lambda tr, h, i, j: math.cos(ac.angle(tr.heads[h].Q[i], tr.heads[h].K[j])),
    "angle_deg": lambda tr, h, i, j: math.degrees(ac.angle(tr.heads[h].Q[i], tr.heads[h].K[j])),
    "shadow": lambda tr, h, i, j: ac.scalar_projection(tr.heads[h].K[j], tr.heads[h].Q[i]),
    "sqrt_dk": lambda tr, h: math.sqrt(tr.heads[h].d_k),
    "d_k": lambda tr, h: tr.heads[h].d_k,
    # softmax: exponentials, shares, sharper scores and saturation
    "exp": lambda tr, h, i, j: ac.exponentials(tr.heads[h].masked[i])[j],
    "exp_plain": lambda tr, h, i, j: ac.exponentials(tr.heads[h].masked[i], shift=False)[j],
    "exp_sum": lambda tr, h, i: np.sum(ac.exponentials(tr.heads[h].masked[i])),
    "rowsum": lambda tr, h, i: np.sum(tr.heads[h].weights[i]),
    "sharpened": lambda tr, h, i, f, j: ac.sharpened(tr.heads[h].masked[i], f)[j],
    "gradient": lambda tr, h, i, f, j: ac.softmax_gradient_factor(
        ac.sharpened(tr.heads[h].masked[i], f)
    )[j],
    "gradient_sum": lambda tr, h, i, f: ac.saturation(ac.sharpened(tr.heads[h].masked[i], f)),
    # the same before any mask (Softmax comes before masks are taught)
    "exp_scaled": lambda tr, h, i, j: ac.exponentials(tr.heads[h].scaled[i])[j],
    "exp_plain_scaled": lambda tr, h, i, j: ac.exponentials(tr.heads[h].scaled[i], shift=False)[j],
    "sharpened_scaled": lambda tr, h, i, f, j: ac.sharpened(tr.heads[h].scaled[i], f)[j],
    "gradient_sum_scaled": lambda tr, h, i, f: ac.saturation(
        ac.sharpened(tr.heads[h].scaled[i], f)
    ),
    # one random row of scores at d = 64, unscaled and ÷√64
    **{
        f"row64_{stat}_{which}": _row64(which, stat)
        for which in ("raw", "scaled")
        for stat in ("score", "weight", "max", "saturation")
    },
    # the weighted sum
    "share_others": lambda tr, h, i: ac.share_from_others(tr.heads[h].weights)[i],
    "share_others_pct": lambda tr, h, i: 100.0 * ac.share_from_others(tr.heads[h].weights)[i],
    "moved": _moved,
    "tip": _tip,
    "residual": lambda tr, h, i, c: ac.residual(tr.X, tr.heads[h].output)[i, c],
    "norm_output": lambda tr, h, i: ac.norm(tr.heads[h].output[i]),
    # other scenes' numbers
    "enc": _encoder,
    "shuffle_diff": _shuffle_diff,
    "kept_pct": lambda tr, which: 100.0 * plane_view_of(tr, which).kept,
    "variance_raw": lambda tr, k: ac.scaling_experiment()[k].raw_variance,
    "variance_scaled": lambda tr, k: ac.scaling_experiment()[k].scaled_variance,
    "illustrative": lambda tr, seed, i, j: ac.illustrative_weights(2, seed)[i, j],
    # Projections' separate query and key spaces: ("illustrative_qk", seed, which, i, j) with
    # which = "W_q" | "W_k" (the maps), "Q" | "K" (the vectors), "S" (their dot products)
    "illustrative_qk": _illustrative_qk,
    "seed": lambda tr, name: {"illustrative": ac.ILLUSTRATIVE_SEED, "ffn": ac.FFN_SEED}[name],
    "cells": lambda tr: ac.attention_cost(tr.example.n, tr.example.n_keys, tr.heads[0].d_k)[0],
    "work": lambda tr: ac.attention_cost(tr.example.n, tr.example.n_keys, tr.heads[0].d_k)[1],
    "cells_at": lambda tr, n: ac.attention_cost(n, n, 1)[0],
    "head_mass": lambda tr, h: max(
        ac.read_head(tr.heads[h].weights, tr.example.tokens).masses.values()
    ),
}


def resolve(trace: ac.ExampleTrace, role: tuple) -> float:
    """The exact value a role names (raises KeyError for an unknown role)."""
    kind, *idx = role
    if kind not in ROLES:
        raise KeyError(f"unknown role {role!r}")
    return float(ROLES[kind](trace, *idx))
