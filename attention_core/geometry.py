"""Geometry of attention: lengths, angles, shadows, and faithful 2-D views.

q · k = |q| |k| cos θ = |q| · (the signed length of k's shadow on q's direction)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._checks import ArrayLike, FloatArray, as_matrix


def _vector(name: str, v: ArrayLike) -> FloatArray:
    return as_matrix(name, np.atleast_1d(np.asarray(v, dtype=np.float64)), ndim=1)


def norm(v: ArrayLike) -> float:
    """Euclidean length |v|.

    Parameters
    ----------
    v : array_like
        A vector.

    Returns
    -------
    float

    Examples
    --------
    >>> norm([3.0, 4.0])
    5.0
    """
    return float(np.linalg.norm(_vector("v", v)))


def norms(vectors: ArrayLike) -> FloatArray:
    """Length of each row of ``vectors`` (n, d).

    Parameters
    ----------
    vectors : array_like
        (n, d) row vectors.

    Returns
    -------
    ndarray of float64
        (n,) lengths.

    Examples
    --------
    >>> norms([[3.0, 4.0], [1.0, 0.0]]).tolist()
    [5.0, 1.0]
    """
    return np.linalg.norm(as_matrix("vectors", vectors), axis=1)


def angle(q: ArrayLike, k: ArrayLike) -> float:
    """The angle θ between q and k, in radians (0 … π). Zero vectors have no angle: ValueError.

    Parameters
    ----------
    q, k : array_like
        Two vectors of the same width.

    Returns
    -------
    float
        θ in radians.

    Examples
    --------
    >>> import math
    >>> round(math.degrees(angle([1.0, 0.0], [1.0, 1.0])), 6)
    45.0
    """
    q, k = _vector("q", q), _vector("k", k)
    nq, nk = np.linalg.norm(q), np.linalg.norm(k)
    if nq == 0 or nk == 0:
        raise ValueError("q, k: a zero vector has no direction, so no angle")
    return float(np.arccos(np.clip(np.dot(q, k) / (nq * nk), -1.0, 1.0)))


def scalar_projection(k: ArrayLike, q: ArrayLike) -> float:
    """Signed length of k's shadow on q's direction: k·q / |q| = |k| cos θ.

    Parameters
    ----------
    k : array_like
        The vector whose shadow is taken.
    q : array_like
        The direction (not zero).

    Returns
    -------
    float

    Examples
    --------
    >>> scalar_projection([3.0, 4.0], [2.0, 0.0])
    3.0
    """
    q, k = _vector("q", q), _vector("k", k)
    nq = np.linalg.norm(q)
    if nq == 0:
        raise ValueError("q: a zero vector has no direction to project on")
    return float(np.dot(k, q) / nq)


def random_cos_spread(d: int) -> float:
    """The standard deviation of cos θ between two random directions in ``d`` dimensions:
    exactly 1/√d (cos θ of a direction drawn uniformly on the sphere with a fixed one is one
    coordinate of a random unit vector, whose d squares average 1/d). In 64 dimensions 0.125:
    two random directions are nearly at right angles.

    Parameters
    ----------
    d : int
        The dimensions (at least 1).

    Returns
    -------
    float
        1/√d.

    Examples
    --------
    >>> random_cos_spread(64)
    0.125
    """
    if int(d) < 1:
        raise ValueError(f"d: a space has at least one dimension, not {d}")
    return 1.0 / float(np.sqrt(int(d)))


def cos_against_random(q: ArrayLike, k: ArrayLike) -> float:
    """How far q and k's cos θ is from that of random directions in their d dimensions, in
    random pairs' standard deviations (:func:`random_cos_spread`): cos θ · √d. About 1 is what
    chance gives; DotProducts says it beside the followed pair's cos θ (issue 38: cos θ = 0.14
    between q(he) and k(farmer) looked small, yet in 64 dimensions it is 1.1 of those).

    Parameters
    ----------
    q, k : array_like
        Two non-zero vectors of one width d.

    Returns
    -------
    float
        cos θ · √d.

    Examples
    --------
    >>> round(cos_against_random([1.0, 0.0, 0.0, 0.0], [1.0, 1.0, 0.0, 0.0]), 6)
    1.414214
    """
    q, k = _vector("q", q), _vector("k", k)
    angle(q, k)  # two directions (a zero vector has none: ValueError), of one width
    cos = np.clip(np.dot(q, k) / (np.linalg.norm(q) * np.linalg.norm(k)), -1.0, 1.0)
    return float(cos / random_cos_spread(q.shape[0]))


def projection(k: ArrayLike, q: ArrayLike) -> FloatArray:
    """The shadow of k on q's line, as a vector: (k·q / |q|²) q.

    Parameters
    ----------
    k : array_like
        The vector whose shadow is taken.
    q : array_like
        The direction (not zero).

    Returns
    -------
    ndarray of float64

    Examples
    --------
    >>> projection([3.0, 4.0], [2.0, 0.0]).tolist()
    [3.0, 0.0]
    """
    q, k = _vector("q", q), _vector("k", k)
    nq2 = float(np.dot(q, q))
    if nq2 == 0:
        raise ValueError("q: a zero vector has no direction to project on")
    return (np.dot(k, q) / nq2) * q


@dataclass(frozen=True)
class PairPlane:
    """q and k in the exact plane they span: q on the x axis, k above it. Dot product preserved.

    Attributes
    ----------
    q, k : ndarray
        (2,) coordinates in the plane.
    basis : ndarray
        (d, 2) the plane's orthonormal axes.

    Examples
    --------
    >>> p = pair_plane([0.0, 2.0, 0.0], [1.0, 1.0, 0.0])
    >>> p.q.tolist(), p.k.round(6).tolist()
    ([2.0, 0.0], [1.0, 1.0])
    """

    q: FloatArray  # (2,) = (|q|, 0)
    k: FloatArray  # (2,) = (|k| cos θ, |k| sin θ)
    basis: FloatArray  # (d, 2) orthonormal columns e1 = q/|q|, e2 ⟂ e1 in span(q, k)


def pair_plane(q: ArrayLike, k: ArrayLike) -> PairPlane:
    """Coordinates of q and k in the plane they span, so angle and shadow are exact for any d.

    For d = 2 the plane is the plane itself, rotated so q lies on the x axis. Parallel vectors
    span only a line; e2 is then any unit vector orthogonal to q.

    Parameters
    ----------
    q, k : array_like
        Two vectors of the same width; q not zero.

    Returns
    -------
    PairPlane

    Examples
    --------
    >>> p = pair_plane([3.0, 4.0], [4.0, 3.0])
    >>> p.q.tolist(), p.k.round(2).tolist(), float(p.q @ p.k)
    ([5.0, 0.0], [4.8, 1.4], 24.0)
    """
    q, k = _vector("q", q), _vector("k", k)
    if q.shape != k.shape:
        raise ValueError(f"q, k: dimensions differ ({q.shape[0]} vs {k.shape[0]})")
    nq = np.linalg.norm(q)
    if nq == 0:
        raise ValueError("q: a zero vector has no direction to build a plane on")
    e1 = q / nq
    rest = k - np.dot(k, e1) * e1
    if np.linalg.norm(rest) > 1e-12 * max(1.0, float(np.linalg.norm(k))):
        e2 = rest / np.linalg.norm(rest)
    else:  # k ∥ q: choose the standard axis least aligned with q
        if q.size == 1:
            e2 = np.zeros(1)
        else:
            axis = np.zeros_like(q)
            axis[int(np.argmin(np.abs(e1)))] = 1.0
            e2 = axis - np.dot(axis, e1) * e1
            e2 /= np.linalg.norm(e2)
    basis = np.stack([e1, e2], axis=1)  # (d, 2)
    return PairPlane(q=np.array([nq, 0.0]), k=np.array([np.dot(k, e1), np.dot(k, e2)]), basis=basis)


@dataclass(frozen=True)
class PlaneView:
    """Vectors seen in a 2-D plane through the origin.

    ``coords`` (n, 2) are the vectors' coordinates in the plane, ``basis`` (d, 2) its orthonormal
    axes, and ``kept`` the share of the vectors' total squared length that the plane keeps
    (1.0 when d ≤ 2: the view is exact).

    Attributes
    ----------
    coords : ndarray
        (n, 2) the vectors in the plane.
    basis : ndarray
        (d, 2) the plane's orthonormal axes.
    kept : float
        The share of the squared length the plane keeps.

    Examples
    --------
    >>> plane_view([[1.0, 0.0, 0.0], [0.0, 2.0, 0.0]]).kept
    1.0
    """

    coords: FloatArray
    basis: FloatArray
    kept: float

    @property
    def exact(self) -> bool:
        return self.kept >= 1.0 - 1e-12


def plane_view(vectors: ArrayLike) -> PlaneView:
    """The best 2-D view of row vectors (n, d) as arrows from the origin.

    d = 2: the vectors themselves. d = 1: on the x axis. d > 2: projected on the two leading
    right-singular vectors (uncentred PCA: the plane through the origin that keeps the most squared
    length), signs fixed so the view is deterministic.

    Parameters
    ----------
    vectors : array_like
        (n, d) row vectors.

    Returns
    -------
    PlaneView

    Examples
    --------
    >>> v = plane_view([[2.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 0.5]])
    >>> v.coords.shape, round(v.kept, 4), v.exact
    ((3, 2), 0.9524, False)
    """
    V = as_matrix("vectors", vectors)
    n, d = V.shape
    if d <= 2:
        basis = np.eye(d, 2)
        return PlaneView(coords=V @ basis, basis=basis, kept=1.0)
    total = float(np.sum(V * V))
    _, s, vt = np.linalg.svd(V, full_matrices=True)
    basis = vt[:2].T.copy()  # (d, 2)
    for j in range(2):  # deterministic orientation: the largest component of each axis positive
        if basis[int(np.argmax(np.abs(basis[:, j]))), j] < 0:
            basis[:, j] *= -1
    kept = 1.0 if total == 0 else float(np.sum(s[:2] ** 2) / total)
    return PlaneView(coords=V @ basis, basis=basis, kept=min(kept, 1.0))


def convex_hull_2d(points: ArrayLike) -> FloatArray:
    """Vertices of the convex hull of 2-D points, counter-clockwise (monotone chain).

    Parameters
    ----------
    points : array_like
        (n, 2) points.

    Returns
    -------
    ndarray of float64
        (m, 2) the hull's vertices, from the lowest-leftmost point.

    Examples
    --------
    >>> convex_hull_2d([[0, 0], [1, 0], [0.2, 0.2], [0, 1]]).tolist()
    [[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]]
    """
    P = as_matrix("points", points)
    if P.shape[1] != 2:
        raise ValueError(f"points: expected shape (n, 2), got {P.shape}")
    pts = sorted(set(map(tuple, P.tolist())))
    if len(pts) <= 2:
        return np.array(pts)

    def cross(o: tuple[float, ...], a: tuple[float, ...], b: tuple[float, ...]) -> float:
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    lower: list[tuple[float, ...]] = []
    upper: list[tuple[float, ...]] = []
    for p in pts:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    for p in reversed(pts):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    return np.array(lower[:-1] + upper[:-1])
