"""Where each number on screen comes from: a role names a value of the trace (or of a core call).

Scenes tag every :class:`scenes.mobjects.text.Num` with a role; :func:`resolve` recomputes that
value with the core alone, so a test can check each number on screen against ``attention_core``.
"""

from __future__ import annotations

import math

import numpy as np

import attention_core as ac

# The √d_k experiment shown in the Scaling scene (text 002 §4: 1000 random Gaussian vectors).
VARIANCE_DIMS = (16, 32, 64)
VARIANCE_SAMPLES = 1000
VARIANCE_SEED = 0

HEAD_ARRAYS = ("Q", "K", "V", "scores", "scaled", "masked", "weights", "output")


def variance_experiment():
    return ac.dot_product_variance(VARIANCE_DIMS, VARIANCE_SAMPLES, VARIANCE_SEED)


def view_stack(trace: ac.ExampleTrace, name: str) -> np.ndarray:
    """The vectors a scene draws in one 2-D view, by name (so the test rebuilds the same view)."""
    head = trace.heads[0]
    if name == "X":
        return trace.X
    if name in ("Q", "K", "V"):
        return getattr(head, name)
    if name == "weighted_sum":  # WeightedSum, query 0: values, output, the chain, own vector
        parts, starts = ac.tip_to_tail(head.weights[0], head.V)
        stack = [head.V, head.output[:1], starts + parts]
        if not trace.example.is_cross and head.V.shape[1] == trace.X.shape[1]:
            stack.append(trace.X[:1])
        return np.vstack(stack)
    if name.startswith("head"):  # MultiHeadSplit: head h's queries and keys in one view
        h = int(name[4:])
        return np.vstack([trace.heads[h].Q, trace.heads[h].K])
    if name == "overview_out":
        return np.vstack([head.V, head.output])
    raise KeyError(f"unknown view {name!r}")


def plane_view_of(trace: ac.ExampleTrace, name: str) -> ac.PlaneView:
    return ac.plane_view(view_stack(trace, name))


def resolve(trace: ac.ExampleTrace, role: tuple) -> float:
    """The exact value a role names (raises KeyError for an unknown role)."""
    kind, *idx = role
    heads = trace.heads
    if kind in HEAD_ARRAYS:
        h, *ij = idx
        return float(getattr(heads[h], kind)[tuple(ij)])
    if kind == "X":
        return float(trace.X[tuple(idx)])
    if kind == "embeddings":
        return float(trace.example.embeddings[tuple(idx)])
    if kind == "source":
        return float(trace.source[tuple(idx)])
    if kind == "concat":
        return float(trace.multihead.concat[tuple(idx)])
    if kind == "final":
        return float(trace.output[tuple(idx)])
    if kind == "norm_q":
        h, i = idx
        return ac.norm(heads[h].Q[i])
    if kind == "norm_k":
        h, j = idx
        return ac.norm(heads[h].K[j])
    if kind == "norm_x":
        return ac.norm(trace.X[idx[0]])
    if kind == "cos":
        h, i, j = idx
        return math.cos(ac.angle(heads[h].Q[i], heads[h].K[j]))
    if kind == "angle_deg":
        h, i, j = idx
        return math.degrees(ac.angle(heads[h].Q[i], heads[h].K[j]))
    if kind == "shadow":
        h, i, j = idx
        return ac.scalar_projection(heads[h].K[j], heads[h].Q[i])
    if kind == "sqrt_dk":
        return math.sqrt(heads[idx[0]].d_k)
    if kind == "d_k":
        return float(heads[idx[0]].d_k)
    if kind == "exp":  # e^(s − max s) of the row: the unnormalised share softmax divides
        h, i, j = idx
        row = heads[h].masked[i]
        return float(np.exp(row[j] - np.max(row)))
    if kind == "exp_sum":
        h, i = idx
        row = heads[h].masked[i]
        return float(np.sum(np.exp(row - np.max(row))))
    if kind == "rowsum":
        h, i = idx
        return float(np.sum(heads[h].weights[i]))
    if kind == "sharpened":  # softmax of the row's scores times a factor
        h, i, factor, j = idx
        return float(ac.softmax(heads[h].masked[i] * factor)[j])
    if kind == "gradient":  # s(1 − s) for that sharpened softmax
        h, i, factor, j = idx
        return float(ac.softmax_gradient_factor(ac.softmax(heads[h].masked[i] * factor))[j])
    if kind == "share_others":
        h, i = idx
        return float(ac.share_from_others(heads[h].weights)[i])
    if kind == "share_others_pct":
        h, i = idx
        return 100.0 * float(ac.share_from_others(heads[h].weights)[i])
    if kind == "moved":
        h, i = idx
        return (
            ac.norm(heads[h].output[i] - trace.X[i])
            if heads[h].output.shape[1] == trace.X.shape[1]
            else float("nan")
        )
    if kind == "enc":  # EncoderBlock: a matrix of the encoder trace
        name, *ij = idx
        enc = ac.trace_encoder(trace.example, 7)
        value = enc.attention.output if name == "attention" else getattr(enc, name)
        return float(value[tuple(ij)])
    if kind == "shuffle_diff":  # PositionalEncoding: outputs after shuffling, without/with PE
        check = ac.shuffle_check(trace.example)
        return check.diff_without if idx[0] == "without" else check.diff_with
    if kind == "kept_pct":
        return 100.0 * plane_view_of(trace, idx[0]).kept
    if kind == "variance_raw":
        return variance_experiment()[idx[0]].raw_variance
    if kind == "variance_scaled":
        return variance_experiment()[idx[0]].scaled_variance
    if kind == "illustrative":  # the seeded example map of the Projections scene
        seed, i, j = idx
        return float(ac.illustrative_weights(2, seed)[i, j])
    if kind in ("W_q", "W_k", "W_v"):  # the matrices of head h
        h, i, j = idx
        w = trace.example.weights.head(h, len(heads))[("W_q", "W_k", "W_v").index(kind)]
        return float(w[i, j])
    if kind == "cells":
        return float(trace.example.n * trace.example.n_keys)
    if kind == "work":
        return float(trace.example.n * trace.example.n_keys * heads[0].d_k)
    if kind == "cells_at":
        return float(idx[0] ** 2)
    if kind == "exp_plain":
        h, i, j = idx
        return float(np.exp(heads[h].masked[i, j]))
    if kind == "gradient_sum":
        h, i, factor = idx
        s = ac.softmax(heads[h].masked[i] * factor)
        return float(np.sum(ac.softmax_gradient_factor(s)))
    if kind == "tip":  # the chain of the weighted sum: where part j starts
        h, i, j, c = idx
        parts, starts = ac.tip_to_tail(heads[h].weights[i], heads[h].V)
        return float(starts[j, c])
    raise KeyError(f"unknown role {role!r}")
