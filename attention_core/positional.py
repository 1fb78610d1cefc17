"""Sinusoidal positional encoding (Vaswani et al., 2017, §3.5).

    PE(pos, 2i)   = sin(pos / 10000^(2i / d_model))
    PE(pos, 2i+1) = cos(pos / 10000^(2i / d_model))

Added to the embeddings so that attention, which is otherwise blind to order, can tell positions
apart.
"""

from __future__ import annotations

import numpy as np

from ._checks import ArrayLike, FloatArray


def sinusoidal_positional_encoding(
    n_positions: int, d_model: int, base: float = 10000.0
) -> FloatArray:
    """(n_positions, d_model) array of sinusoidal position codes; odd d_model is allowed.

    PE[p, 2i] = sin(p / base^(2i/d)), PE[p, 2i + 1] = cos(p / base^(2i/d)).

    Parameters
    ----------
    n_positions : int
        Positions 0 … n_positions − 1.
    d_model : int
        The width of each code.
    base : float, default 10000
        The base of the wavelengths.

    Returns
    -------
    ndarray of float64
        (n_positions, d_model).

    Examples
    --------
    >>> sinusoidal_positional_encoding(2, 2).round(3).tolist()
    [[0.0, 1.0], [0.841, 0.54]]
    """
    if (
        not isinstance(n_positions, (int, np.integer))
        or isinstance(n_positions, bool)
        or n_positions < 1
    ):
        raise ValueError(f"n_positions: expected a positive integer, got {n_positions!r}")
    return positional_encoding_at(np.arange(n_positions, dtype=np.float64), d_model, base)


def positional_encoding_at(positions: ArrayLike, d_model: int, base: float = 10000.0) -> FloatArray:
    """The same code at any (also fractional) positions: (len(positions), d_model). The waves of
    the PositionalEncoding scene are drawn from it.

    Parameters
    ----------
    positions : array_like of float
        The positions.
    d_model : int
        The width of each code.
    base : float, default 10000
        The base of the wavelengths.

    Returns
    -------
    ndarray of float64
        (len(positions), d_model).

    Examples
    --------
    >>> positional_encoding_at([0.5], 3).round(3).tolist()
    [[0.479, 0.878, 0.001]]
    """
    if not isinstance(d_model, (int, np.integer)) or isinstance(d_model, bool) or d_model < 1:
        raise ValueError(f"d_model: expected a positive integer, got {d_model!r}")
    pos = np.asarray(positions, dtype=np.float64).reshape(-1)[:, None]  # (n, 1)
    i2 = np.arange(0, d_model, 2, dtype=np.float64)  # 2i for i = 0 … ⌈d/2⌉ − 1
    angle = pos / base ** (i2 / d_model)  # (n, ⌈d/2⌉)
    pe = np.zeros((pos.shape[0], d_model))
    pe[:, 0::2] = np.sin(angle)
    pe[:, 1::2] = np.cos(angle[:, : d_model // 2])
    return pe
