"""Shared argument checks: every public function validates its arrays the same way."""

from __future__ import annotations

from typing import TypeAlias

import numpy as np
from numpy.typing import ArrayLike, NDArray

# The core's array types: what a function returns (inputs are ArrayLike: lists convert)
FloatArray: TypeAlias = NDArray[np.float64]
BoolArray: TypeAlias = NDArray[np.bool_]
IntArray: TypeAlias = NDArray[np.int64]


def as_matrix(name: str, value: ArrayLike, *, ndim: int = 2) -> FloatArray:
    """Return ``value`` as a finite float64 array of ``ndim`` dimensions, or raise ``ValueError``.

    The message names the argument and the shape that was received.
    """
    try:
        arr = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name}: expected a {ndim}-D array of numbers ({exc})") from None
    if arr.ndim != ndim:
        raise ValueError(f"{name}: expected a {ndim}-D array, got shape {arr.shape}")
    if arr.size == 0:
        raise ValueError(f"{name}: must not be empty, got shape {arr.shape}")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name}: contains NaN or infinity (shape {arr.shape})")
    return arr


def as_mask(name: str, value: ArrayLike, shape: tuple[int, int]) -> BoolArray:
    """Return ``value`` as a boolean mask of ``shape`` (True = may attend), or raise."""
    arr = np.asarray(value)
    if arr.dtype != np.bool_:
        if not np.issubdtype(arr.dtype, np.number) or not np.all(np.isin(arr, (0, 1))):
            raise ValueError(f"{name}: expected booleans or 0/1 values, got dtype {arr.dtype}")
        arr = arr.astype(bool)
    if arr.shape != shape:
        raise ValueError(f"{name}: expected shape {shape} (queries × keys), got {arr.shape}")
    return arr


def same_width(
    name_a: str, a: np.ndarray, name_b: str, b: np.ndarray, axis_a: int = 1, axis_b: int = 1
) -> None:
    if a.shape[axis_a] != b.shape[axis_b]:
        raise ValueError(
            f"{name_b}: shape {b.shape} does not fit {name_a} of shape {a.shape} "
            f"({a.shape[axis_a]} ≠ {b.shape[axis_b]})"
        )


def project(name: str, X: FloatArray, W: FloatArray, b: ArrayLike | None = None) -> FloatArray:
    """X W (+ b): a linear map of row vectors, with an optional bias of W's width.

    X (n, d_in), W (d_in, d_out), b (d_out,) or None -> (n, d_out).
    """
    out = X @ W  # (n, d_out)
    if b is None:
        return out
    b = as_matrix(f"b_{name[-1]}" if name.startswith("W_") else f"{name} bias", b, ndim=1)
    if b.shape != (W.shape[1],):
        raise ValueError(
            f"b_{name[-1]}: shape {b.shape} does not fit {name} of shape {W.shape} "
            f"(one bias per column: {W.shape[1]})"
        )
    return out + b
