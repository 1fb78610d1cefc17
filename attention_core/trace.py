"""From an :class:`Example` to every number the scenes show: :func:`trace_example`."""

from __future__ import annotations

from dataclasses import dataclass, replace

from ._checks import BoolArray, FloatArray, project
from .attention import AttentionTrace, scaled_dot_product_attention
from .example.model import Example
from .grouped_query import grouped_query_attention
from .multihead import MultiHeadTrace, independent_heads_attention, multi_head_attention
from .positional import sinusoidal_positional_encoding


@dataclass(frozen=True, eq=False)
class ExampleTrace:
    """The whole computation for one example.

    ``X`` is the query input (embeddings, plus ``pe`` when positional encoding is on), ``source``
    the key/value input (``X`` itself for self-attention). ``heads`` holds one
    :class:`AttentionTrace` per head (one for single-head examples); ``multihead`` is the
    :class:`MultiHeadTrace` when there are several heads (or a W_o), else None. ``output`` is the
    final output.

    Attributes
    ----------
    example : Example
        The example traced.
    X, source : ndarray
        The query input and the key/value input.
    pe : ndarray or None
        The positional codes added to the embeddings.
    mask : ndarray of bool or None
        The combined mask (True = may attend).
    heads : tuple of AttentionTrace
        One per head.
    multihead : MultiHeadTrace or None
        The heads together.
    output : ndarray
        The final output.

    Examples
    --------
    >>> from attention_core import PRESETS
    >>> t = trace_example(PRESETS["two-heads"])
    >>> len(t.heads), t.output.shape, t.attention is t.heads[0]
    (2, (3, 4), True)
    """

    example: Example
    X: FloatArray
    source: FloatArray
    pe: FloatArray | None
    mask: BoolArray | None
    heads: tuple[AttentionTrace, ...]
    multihead: MultiHeadTrace | None
    output: FloatArray

    @property
    def attention(self) -> AttentionTrace:
        """The single head's trace: with several, the one the example names (``head``), else
        the first."""
        return self.heads[self.example.head_index]

    @property
    def seed(self) -> int | None:
        return self.example.weights.seed


def trace_example(example: Example) -> ExampleTrace:
    """Run attention on ``example`` exactly as its fields say, keeping every intermediate.

    Parameters
    ----------
    example : Example
        The example (a preset, or :func:`~attention_core.load_example`'s).

    Returns
    -------
    ExampleTrace

    Examples
    --------
    >>> from attention_core import PRESETS
    >>> trace_example(PRESETS["zao-shang-hao"]).attention.weights.shape
    (3, 3)
    """
    X = example.embeddings
    src = example.source_embeddings if example.is_cross else X
    pe = None
    if example.positional_encoding:
        pe = sinusoidal_positional_encoding(max(example.n, example.n_keys), example.d_model)
        X = X + pe[: example.n]
        src = src + pe[: example.n_keys] if example.is_cross else X
    mask = example.mask_matrix
    w = example.weights
    source = src if example.is_cross else None
    biases = {"b_q": w.b_q, "b_k": w.b_k, "b_v": w.b_v}  # each None when not given
    if example.rotary_base is not None or w.kv_heads is not None:
        return _trace_decoder(example, X, mask)
    if w.form == "independent":
        mh = independent_heads_attention(
            X, w.W_q, w.W_k, w.W_v, mask=mask, source=source, scale=example.scale, **biases
        )
    elif example.heads > 1 or w.W_o is not None:
        mh = multi_head_attention(
            X,
            w.W_q,
            w.W_k,
            w.W_v,
            w.W_o,
            example.heads,
            mask=mask,
            source=source,
            scale=example.scale,
            b_o=w.b_o,
            **biases,
        )
    else:
        mh = None
    if mh is None:
        trace = scaled_dot_product_attention(
            project("W_q", X, w.W_q, w.b_q),  # Q = X W_q + b_q  (n, d_k)
            project("W_k", src, w.W_k, w.b_k),  # K  (n_keys, d_k)
            project("W_v", src, w.W_v, w.b_v),  # V  (n_keys, d_v)
            mask=mask,
            scale=example.scale,
        )
        heads: tuple[AttentionTrace, ...] = (replace(trace, X=X),)
        output = trace.output
    else:
        heads = tuple(mh.heads)
        output = mh.output
    return ExampleTrace(
        example=example, X=X, source=src, pe=pe, mask=mask, heads=heads, multihead=mh, output=output
    )


def _trace_decoder(example: Example, X: FloatArray, mask: BoolArray | None) -> ExampleTrace:
    """Rotary positions and/or shared key/value heads (:func:`grouped_query_attention`): each
    head's Q and K are the rotated ones, so every score is the one the model computes."""
    w = example.weights
    H = example.heads
    mh = grouped_query_attention(
        X, w.W_q, w.W_k, w.W_v, w.W_o, H, w.kv_count(H), mask,
        rotary_base=example.rotary_base, positions=example.rotary_positions, scale=example.scale,
        biases={"b_q": w.b_q, "b_k": w.b_k, "b_v": w.b_v, "b_o": w.b_o},
    )  # fmt: skip
    heads = tuple(replace(t, X=X) for t in mh.heads) if H == 1 else tuple(mh.heads)
    multihead = mh if H > 1 or w.W_o is not None else None
    return ExampleTrace(
        example=example, X=X, source=X, pe=None, mask=mask, heads=heads, multihead=multihead,
        output=mh.output,
    )  # fmt: skip
