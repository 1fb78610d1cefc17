"""Why positions matter: self-attention with the tokens shuffled, without and with positional
encoding (:func:`shuffle_check`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from ..example.model import Example
from ..trace import trace_example


@dataclass(frozen=True)
class ShuffleCheck:
    """Self-attention with the tokens in another order, outputs put back in the original order.

    Without positional encoding the outputs only move with their tokens (``equal_without`` is
    True: attention is permutation-equivariant); with it they change (``equal_with`` False).
    ``diff_*`` are the largest absolute differences.

    Attributes
    ----------
    perm : tuple of int
        The order tried.
    diff_without, diff_with : float
        The largest differences without and with positional encoding.
    equal_without, equal_with : bool
        Whether they are within the tolerance.

    Examples
    --------
    >>> from attention_core import PRESETS
    >>> c = shuffle_check(PRESETS["zao-shang-hao"])
    >>> c.perm, c.equal_without, c.equal_with
    ((2, 1, 0), True, False)
    """

    perm: tuple[int, ...]
    diff_without: float
    diff_with: float
    equal_without: bool
    equal_with: bool


def shuffle_check(
    example: Example, perm: Sequence[int] | None = None, tol: float = 1e-9
) -> ShuffleCheck:
    """Shuffle the example's tokens (default: reversed) and compare outputs, without and with
    sinusoidal positional encoding.

    Parameters
    ----------
    example : Example
        A self-attention example.
    perm : sequence of int, optional
        The order (default: reversed).
    tol : float, default 1e-9
        What counts as equal.

    Returns
    -------
    ShuffleCheck

    Examples
    --------
    >>> from attention_core import PRESETS
    >>> shuffle_check(PRESETS["zao-shang-hao"], perm=(1, 0, 2)).equal_without
    True
    """
    if example.is_cross:
        raise ValueError("example: the shuffle check is for self-attention (no source sequence)")
    n = example.n
    perm = tuple(range(n - 1, -1, -1)) if perm is None else tuple(int(p) for p in perm)
    if sorted(perm) != list(range(n)):
        raise ValueError(f"perm: {perm} is not a permutation of 0 … {n - 1}")
    inverse = np.argsort(perm)
    diffs = []
    for pe_on in (False, True):
        base = replace(  # sinusoidal encoding alone: rotary positions (if any) left out
            example, positional_encoding=pe_on, mask="none", padding=None, rotary_base=None,
            positions=None,
        )  # fmt: skip
        shuffled = replace(
            base,
            tokens=tuple(example.tokens[p] for p in perm),
            embeddings=example.embeddings[list(perm)],
        )
        out = trace_example(base).output
        back = trace_example(shuffled).output[inverse]  # rows in the original order again
        diffs.append(float(np.max(np.abs(out - back))))
    return ShuffleCheck(perm, diffs[0], diffs[1], diffs[0] <= tol, diffs[1] <= tol)
