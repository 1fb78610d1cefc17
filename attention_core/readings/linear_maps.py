"""The three linear maps of an example as matrices: Q = X W_q, K = S W_k, V = S W_v, each with
its column blocks by head — and, where query heads share key/value heads (grouped-query
attention), which query heads share which block.

These are the maps *before* any rotation: with rotary positions (RoPE) a head's scores use q and
k turned by their positions (:mod:`attention_core.rotary`), so the trace's ``heads[h].Q`` and
``.K`` are the turned ones, while ``Q = X W_q`` is what the map gives. A scene that writes
"Q = X W_q" shows these numbers; without rotation they are the trace's own.

    Q: (n, H·d_k), block h is query head h's      K: (n_keys, G·d_k), block g is key/value head g's
    V: (n_keys, G·d_v)                            query head h reads block g = h // (H / G)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from .._checks import project
from ..trace import ExampleTrace


@dataclass(frozen=True, eq=False)
class LinearMaps:
    """Q, K and V of an example as the maps give them (see the module).

    Attributes
    ----------
    Q, K, V : ndarray
        (n, H·d_k), (n_keys, G·d_k), (n_keys, G·d_v).
    heads, kv_heads : int
        H and G.
    d_k, d_v : int
        A head's widths.
    rotated : bool
        Whether the scores turn q and k by position.

    Examples
    --------
    >>> from attention_core import PRESETS, trace_example
    >>> m = linear_maps(trace_example(PRESETS["two-heads"]))
    >>> m.Q.shape, m.heads, m.shared, m.block("Q", 1).shape
    ((3, 4), 2, False, (3, 2))
    """

    Q: np.ndarray  # (n, H·d_k)
    K: np.ndarray  # (n_keys, G·d_k)
    V: np.ndarray  # (n_keys, G·d_v)
    heads: int  # H, query heads
    kv_heads: int  # G, key/value heads (H unless shared)
    d_k: int
    d_v: int
    rotated: bool  # whether the scores use q and k turned by position (RoPE)

    @property
    def shared(self) -> bool:
        """Whether query heads share key/value heads (G < H)."""
        return self.kv_heads < self.heads

    @property
    def group_size(self) -> int:
        """Query heads per key/value head (H / G)."""
        return self.heads // self.kv_heads

    def group(self, h: int) -> int:
        """The key/value head (from 0) that query head ``h`` (from 0) reads."""
        return h // self.group_size

    def members(self, g: int) -> tuple[int, ...]:
        """The query heads (from 0) that share key/value head ``g``."""
        return tuple(range(g * self.group_size, (g + 1) * self.group_size))

    def block(self, which: str, index: int) -> np.ndarray:
        """Block ``index`` of ``which`` ("Q": a query head's; "K", "V": a key/value head's)."""
        width = self.d_v if which == "V" else self.d_k
        return getattr(self, which)[:, index * width : (index + 1) * width]

    def head(self, h: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(Q_h, K_g, V_g): query head ``h``'s block and those of the key/value head it reads."""
        g = self.group(h)
        return self.block("Q", h), self.block("K", g), self.block("V", g)


@lru_cache(maxsize=16)  # a trace is hashed by identity; scenes and tests ask many times
def linear_maps(trace: ExampleTrace) -> LinearMaps:
    """The example's Q = X W_q, K = S W_k, V = S W_v (biases added), blocks by head, unturned
    (read-only arrays).

    Parameters
    ----------
    trace : ExampleTrace

    Returns
    -------
    LinearMaps

    Examples
    --------
    >>> from attention_core import PRESETS, trace_example
    >>> t = trace_example(PRESETS["two-heads"])
    >>> bool((linear_maps(t).head(1)[0] == t.heads[1].Q).all())
    True
    """
    ex, heads = trace.example, trace.heads
    H = len(heads)
    d_k, d_v = heads[0].Q.shape[1], heads[0].V.shape[1]
    w = ex.weights
    G = w.kv_count(H) if w.form != "independent" else H
    rotated = ex.rotary_base is not None
    if not rotated and G == H:  # the trace's own projections, exactly
        Q = np.hstack([h.Q for h in heads])
        K = np.hstack([h.K for h in heads])
        V = np.hstack([h.V for h in heads])
    else:
        firsts = [g * (H // G) for g in range(G)]  # a query head of each key/value head

        def maps(h: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
            W_q, W_k, W_v = w.head(h, H)
            b_q, b_k, b_v = w.head_biases(h, H)
            return (
                project("W_q", trace.X, W_q, b_q),
                project("W_k", trace.source, W_k, b_k),
                project("W_v", trace.source, W_v, b_v),
            )

        Q = np.hstack([maps(h)[0] for h in range(H)])
        K = np.hstack([maps(h)[1] for h in firsts])
        V = np.hstack([maps(h)[2] for h in firsts])
    for a in (Q, K, V):
        a.setflags(write=False)
    return LinearMaps(Q=Q, K=K, V=V, heads=H, kv_heads=G, d_k=d_k, d_v=d_v, rotated=rotated)
