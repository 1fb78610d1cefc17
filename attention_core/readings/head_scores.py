"""What each head of a model does, measured the way the field measures it: four model-level scores
per head (issue 40), from the head's attention on repeated random tokens and from its weights.

**The sequences** (Olsson et al. 2022, "In-context learning and induction heads"): ``RECIPE.count``
= 10 sequences, each ``RECIPE.length`` = 25 token ids drawn without replacement from the model's
ordinary vocabulary (no control or special token), said twice: ``r₁ … r₂₅ r₁ … r₂₅``. The random
generator is ``numpy.random.default_rng(RECIPE.seed)`` with ``RECIPE.seed`` = 40, the sequences
drawn one after the other. Each model frames them as it frames a text
(:mod:`attention_core.models.model_scores`): MiniLM as ``[CLS] r r [SEP]``; SmolLM2, to which this
project adds no BOS, behind one more ordinary random token (drawn with the 25, never repeated),
so that in both models the first position — the one TransformerLens' ``exclude_bos`` leaves
out — holds a token outside the pattern, as TransformerLens' ``[BOS] r r`` does.

**previous, duplicate, induction** follow TransformerLens' ``head_detector.detect_head`` with
``error_measure="mul"``: a detection pattern P (n × n, ones and zeros, lower triangular) and the
head's attention A (n × n, rows are queries), and the score is

    Σᵢⱼ Aᵢⱼ Pᵢⱼ / Σᵢⱼ Aᵢⱼ     over the whole matrix, after zeroing A's column 0 (``exclude_bos``)
                              and, where the flag is set, A's diagonal (``exclude_current_token``)

— the share of the head's attention, the first token left out and the rest renormalised, that
lies on the pattern. The patterns are TransformerLens' own: *previous* Pᵢ,ᵢ₋₁ = 1; *duplicate*
Pᵢⱼ = 1 where token j equals token i, j < i; *induction* (prefix matching) Pᵢ,ⱼ₊₁ = 1 where
token j equals token i, j < i (the duplicate pattern moved one column right, column 0 cleared,
lower triangle kept). Flags: every score sets ``exclude_bos``; *duplicate* and *induction* also
set ``exclude_current_token`` (a head's weight on the token itself says nothing for or against
looking at an earlier copy; the duplicate pattern never holds the diagonal, the induction pattern
only where a token follows a copy of itself, which the recipe's sequences never hold); *previous*
does not (weight on the token itself is weight not on the previous one). One score per
sequence, then their mean (as ``detect_head`` does for a list of sequences — though its list
branch drops the flags, which we keep). Where nothing is left after the exclusions (a head that
only rests on the first token and
itself), the score is 0, not TransformerLens' 0/0. For the encoder, A is not triangular: its
weight on later tokens counts in the denominator only (the patterns look back, as
TransformerLens' do), and its [SEP] column is not excluded.

**copying** (Elhage et al. 2021; TransformerLens' ``FactoredMatrix.eigenvalues`` of the OV
circuit): Re(Σλ) / Σ|λ| over the eigenvalues λ of the head's W_V W_O (d_model × d_model, row
vectors: the head moves x into x W_V W_O). That matrix has rank ≤ d_head; its nonzero eigenvalues
are those of the small d_head × d_head product W_O W_V (if W_O W_V u = λu with λ ≠ 0 then W_V u
is an eigenvector of W_V W_O with the same λ), the rest are zero and add nothing to either sum, so
the small product is what is computed, as TransformerLens does. 1: the head writes back what it
reads (a copying head); −1: its opposite; near 0: neither. Which W_V (the head's own key/value
group's, a norm folded in or not) is the model's business:
:mod:`attention_core.models.model_scores`.

Pure NumPy: nothing here runs a model. :func:`score_heads` turns a model's attention on the
sequences and its heads' W_V, W_O into a :class:`ModelScores` (layers × heads, counted from 0).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

PATTERN_KINDS = ("previous", "duplicate", "induction")
SCORE_KINDS = (*PATTERN_KINDS, "copying")
# exclude_current_token per pattern score (exclude_bos is set for all three)
EXCLUDE_CURRENT = {"previous": False, "duplicate": True, "induction": True}


@dataclass(frozen=True)
class Recipe:
    """The sequences the scores are measured on; ``version`` changes with any change of how a
    score is computed, so a cache made by another recipe is never read."""

    count: int = 10
    length: int = 25
    seed: int = 40
    version: int = 1

    @property
    def key(self) -> str:
        """A name for the recipe, part of the cache's folder name."""
        return f"v{self.version}-n{self.count}-r{self.length}-s{self.seed}"


RECIPE = Recipe()


def repeated_sequences(
    vocab: range,
    before: Sequence[int] = (),
    after: Sequence[int] = (),
    lead: int = 0,
    recipe: Recipe = RECIPE,
) -> tuple[np.ndarray, ...]:
    """``recipe.count`` sequences ``before + x (lead ids) + r + r + after``: r is
    ``recipe.length`` ids and x ``lead`` more, all distinct, drawn from ``vocab``."""
    if len(vocab) < lead + recipe.length:
        raise ValueError(f"vocab: {len(vocab)} ids; {lead + recipe.length} distinct ones needed")
    rng = np.random.default_rng(recipe.seed)
    out = []
    for _ in range(recipe.count):
        picks = rng.choice(len(vocab), lead + recipe.length, replace=False)
        drawn = vocab.start + vocab.step * picks
        x, r = drawn[:lead], drawn[lead:]
        out.append(np.concatenate([np.asarray(before, int), x, r, r, np.asarray(after, int)]))
    return tuple(out)


def describe_sequences(words: str, n: int, recipe: Recipe = RECIPE) -> str:
    """The sequences in one sentence; ``words`` says where the ids come from and what frames
    them."""
    return (
        f"{recipe.count} sequences of {recipe.length} random token ids from {words}, said twice "
        f"(numpy default_rng seed {recipe.seed}; {n} tokens each)"
    )


def previous_pattern(n: int) -> np.ndarray:
    """Pᵢ,ᵢ₋₁ = 1 (n × n)."""
    return np.eye(n, k=-1)


def duplicate_pattern(ids: ArrayLike) -> np.ndarray:
    """Pᵢⱼ = 1 where ids[j] == ids[i] and j < i."""
    ids = np.asarray(ids)
    return np.tril(ids[:, None] == ids[None, :], k=-1).astype(float)


def induction_pattern(ids: ArrayLike) -> np.ndarray:
    """Pᵢ,ⱼ₊₁ = 1 where ids[j] == ids[i] and j < i (and j + 1 ≤ i): prefix matching."""
    dup = duplicate_pattern(ids)
    out = np.zeros_like(dup)
    out[:, 1:] = dup[:, :-1]
    return np.tril(out)


PATTERNS = {
    "previous": lambda ids: previous_pattern(len(ids)),
    "duplicate": duplicate_pattern,
    "induction": induction_pattern,
}


def pattern_share(
    weights: ArrayLike, pattern: np.ndarray, exclude_current: bool = False
) -> np.ndarray:
    """Σ A·P / Σ A per head with A's column 0 zeroed (and its diagonal, ``exclude_current``);
    ``weights`` (n, n) or (H, n, n); 0 where nothing is left."""
    A = np.array(weights, dtype=np.float64, ndmin=3)
    A[..., :, 0] = 0.0
    if exclude_current:
        idx = np.arange(A.shape[-1])
        A[..., idx, idx] = 0.0
    total = A.sum(axis=(-2, -1))
    hit = (A * pattern).sum(axis=(-2, -1))
    share = np.divide(hit, total, out=np.zeros_like(hit), where=total > 0)
    return share if np.ndim(weights) == 3 else share[0]


def copying_score(W_V: ArrayLike, W_O: ArrayLike) -> float:
    """Re(Σλ) / Σ|λ| over the eigenvalues of W_V W_O (d × d_head, d_head × d, row vectors),
    computed from those of W_O W_V (d_head × d_head: the same nonzero ones); 0 if all are 0."""
    lam = np.linalg.eigvals(np.asarray(W_O, np.float64) @ np.asarray(W_V, np.float64))
    size = np.abs(lam).sum()
    return float(lam.sum().real / size) if size > 0 else 0.0


@dataclass(frozen=True)
class HeadScores:
    """One head's model-level scores (see the module's docstring for each).

    Attributes
    ----------
    previous, duplicate, induction : float
        The shares of its attention on each pattern, in [0, 1].
    copying : float
        Its OV circuit's copying score, in [−1, 1].

    Examples
    --------
    >>> HeadScores(0.9, 0.0, 0.1, 0.2).previous
    0.9
    """

    previous: float
    duplicate: float
    induction: float
    copying: float


@dataclass(frozen=True, eq=False)
class ModelScores:
    """Every head's scores: ``scores[kind]`` is a (layers, heads) array for each of
    ``SCORE_KINDS``; ``sequences`` says what they were measured on; ``recipe`` its key.

    Attributes
    ----------
    model, sequences, recipe : str
        The model, what the scores were measured on, the recipe's key.
    scores : dict of str to ndarray
        (layers, heads) a kind.

    Examples
    --------
    >>> s = {k: np.zeros((2, 3)) for k in SCORE_KINDS}
    >>> s["induction"][1, 2] = 0.8
    >>> m = ModelScores("minilm", "", "r1", s)
    >>> m.shape, m.of(1, 2).induction
    ((2, 3), 0.8)
    """

    model: str
    sequences: str
    recipe: str
    scores: dict[str, np.ndarray]

    @property
    def shape(self) -> tuple[int, int]:
        """(layers, heads)."""
        return self.scores["copying"].shape

    def of(self, layer: int, head: int) -> HeadScores:
        """Head ``head`` of layer ``layer``, both counted from 0."""
        layers, heads = self.shape
        if not (0 <= layer < layers and 0 <= head < heads):
            raise ValueError(f"layer {layer}, head {head}: outside {layers} × {heads} (from 0)")
        return HeadScores(*(float(self.scores[k][layer, head]) for k in SCORE_KINDS))

    def top(self, kind: str, k: int = 5) -> list[tuple[int, int, float]]:
        """The ``k`` heads highest on ``kind``: (layer, head, score), from 0, best first."""
        values = self.scores[kind]
        order = np.argsort(-values, axis=None, kind="stable")[:k]
        return [(int(i) // values.shape[1], int(i) % values.shape[1], float(values.flat[i]))
                for i in order]  # fmt: skip

    def as_arrays(self) -> dict[str, np.ndarray]:
        """What the cache keeps (NumPy arrays only: no pickle)."""
        meta = {"model": self.model, "sequences": self.sequences, "recipe": self.recipe}
        return {**{k: np.asarray(v) for k, v in meta.items()}, **self.scores}

    @classmethod
    def from_arrays(cls, arrays: Mapping[str, np.ndarray]) -> ModelScores:
        """Back from :meth:`as_arrays`; ``ValueError`` when an array is missing, misshapen, not
        finite or out of its range ([0, 1] for the shares, [−1, 1] for copying)."""
        try:
            meta = [str(arrays[k][()]) for k in ("model", "sequences", "recipe")]
            scores = {k: np.asarray(arrays[k], dtype=np.float64) for k in SCORE_KINDS}
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"head scores: not a scores file ({exc})") from None
        shape = scores["copying"].shape
        for k, v in scores.items():
            low = -1.0 if k == "copying" else 0.0
            if v.ndim != 2 or v.shape != shape or not np.all(np.isfinite(v)):
                raise ValueError(f"head scores: {k} is not a finite {shape} array")
            if v.min() < low - 1e-9 or v.max() > 1.0 + 1e-9:
                raise ValueError(f"head scores: {k} lies outside [{low:g}, 1]")
        return cls(meta[0], meta[1], meta[2], scores)


def sequence_scores(ids: ArrayLike, layers: Sequence[np.ndarray]) -> dict[str, np.ndarray]:
    """previous, duplicate, induction (layers, heads) on one sequence, from each layer's
    attention (heads, n, n)."""
    out = {}
    for kind in PATTERN_KINDS:
        P = PATTERNS[kind](np.asarray(ids))
        out[kind] = np.stack([pattern_share(A, P, EXCLUDE_CURRENT[kind]) for A in layers])
    return out


def score_heads(
    model: str,
    runs: Iterable[tuple[ArrayLike, Sequence[np.ndarray]]],
    circuits: Iterable[Iterable[tuple[np.ndarray, np.ndarray]]],
    sequences: str = "",
    recipe: str = RECIPE.key,
) -> ModelScores:
    """Every head's scores: ``runs`` is one (ids, layers) per sequence, layers a (heads, n, n)
    attention per layer; ``circuits[layer][head]`` is that head's (W_V, W_O)."""
    per_sequence = [sequence_scores(ids, layers) for ids, layers in runs]
    if not per_sequence:
        raise ValueError("runs: no sequence to score the heads on")
    scores = {k: np.mean([s[k] for s in per_sequence], axis=0) for k in PATTERN_KINDS}
    scores["copying"] = np.array([[copying_score(*vo) for vo in layer] for layer in circuits])
    if scores["copying"].shape != scores["previous"].shape:
        raise ValueError(
            f"circuits: {scores['copying'].shape} heads, the runs have {scores['previous'].shape}"
        )
    return ModelScores(model, sequences, recipe, scores)
