"""The input model a lecturer edits: an :class:`Example`, validated on construction.

An example is tokens, their embeddings and (optionally) projection weights, heads, a mask,
positional encoding and a second sequence for cross-attention. Every check raises ``ValueError``
with a message that starts with the field's name, so the CLI can show it as one line. The checks
live in :mod:`~attention_core.example.validation` (fields) and
:mod:`~attention_core.example.weights` (weights), the limits in
:mod:`~attention_core.example.limits`, the file keys in :mod:`~attention_core.example.file_format`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .block_fields import check_block
from .decoder_fields import check_kv_heads, check_positions, check_rotary_base, check_rotary_width
from .file_format import example_from_dict, example_to_dict
from .limits import (
    HEAD_FORMS,
    MAX_ABS,
    MAX_DIM,
    MAX_HEADS,
    MAX_LABEL,
    MAX_MODEL_TEXT,
    MAX_SOURCE,
    MAX_TITLE,
    MAX_TOKENS,
    MODEL_MAX_DIM,
    MODEL_MAX_HEAD_DIM,
    MODEL_MAX_HEADS,
)
from .random_weights import random_weights
from .references import check_explained_head, check_followed
from .score_fields import check_head_scores
from .validation import (
    check_bool,
    check_int,
    check_labels,
    check_matrix,
    check_name,
    check_text,
    combined_mask,
    shown,
)
from .weights import Weights, explicit_weights, identity_weights

__all__ = [
    "Example",
    "Weights",
    "MAX_ABS",
    "MAX_DIM",
    "MAX_HEADS",
    "MAX_LABEL",
    "MAX_SOURCE",
    "MAX_TITLE",
    "MAX_TOKENS",
]


@dataclass(frozen=True, eq=False)
class Example:
    """One attention example, validated on construction.

    Construct it directly (``Example(tokens=[...], embeddings=[[...]])``), from a mapping with
    :meth:`from_dict`, or from a file or preset with :func:`attention_core.load_example`.
    ``weights`` may be a mapping with ``W_q``, ``W_k``, ``W_v`` (and ``W_o``): split form when each
    is a matrix, per-head form when each is a list of matrices. Without weights, ``seed`` (with
    ``d_k``, ``d_v``) draws them from a standard normal; without either, they are identities.
    After construction ``weights`` is always a :class:`Weights`.

    Attributes
    ----------
    tokens : tuple of str
        The tokens' labels.
    embeddings : ndarray
        (n, d_model) their vectors.
    weights : Weights
        The projections.
    heads : int
        H.
    name, title, source : str
        How the example is named, titled and sourced.
    mask, padding, positional_encoding, scale, rotary_base, positions, kv_heads
        How attention runs (see the example file format).
    source_tokens, source_embeddings
        The key/value sequence of cross-attention.
    query, key, key_pieces, head
        What an explanation follows.
    block, model_text, head_scores
        What a model's example keeps of the model.

    Examples
    --------
    >>> ex = Example(tokens=("a", "b"), embeddings=np.eye(2), mask="causal")
    >>> ex.mask_matrix.tolist(), ex.weights.form, ex.n, ex.d_model
    ([[True, False], [True, True]], 'identity', 2, 2)
    """

    tokens: tuple[str, ...]
    embeddings: np.ndarray
    name: str = "example"
    title: str = ""
    heads: int = 1
    weights: Any = None
    seed: int | None = None
    d_k: int | None = None
    d_v: int | None = None
    head_form: str = "split"
    mask: Any = "none"
    padding: Any = None
    positional_encoding: bool = False
    source_tokens: Any = None
    source_embeddings: Any = None
    scale: bool = True
    source: str = ""
    kv_heads: Any = None  # shared key/value heads (grouped-query attention), None: one per head
    rotary_base: Any = None  # rotary positions (RoPE): Q and K turned by position; None: off
    positions: Any = None  # the positions RoPE uses, None: 0 … n − 1
    query: Any = None  # the token an explanation follows ("it", "it₂"), None: chosen by the core
    key: Any = None  # the key token it follows with query, None: the one the query weighs most
    key_pieces: Any = None  # a key word cut into pieces: their labels, its weight their sum
    head: Any = None  # the head single-head scenes explain (from 1), None: the first
    block: Any = None  # a trained encoder layer's own feed-forward and LayerNorms (block_fields)
    model_text: str = ""  # the text the model read (from-model), so a reading can run it again
    head_scores: Any = None  # each head's model-level scores (from-model): score_fields
    _mask_matrix: np.ndarray | None = field(default=None, init=False, repr=False)
    _followed: tuple = field(default=(None, None, None), init=False, repr=False)

    # -- construction: each field checked in the order a file is read -------------------------
    def __post_init__(self) -> None:
        self._set("name", check_name(self.name))
        self._set("title", check_text("title", self.title, MAX_TITLE, allow_empty=True))
        self._set("tokens", check_labels("tokens", self.tokens))
        self._set("source", check_text("source", self.source, MAX_SOURCE, allow_empty=True))
        self._set("model_text", check_text("model_text", self.model_text, MAX_MODEL_TEXT, True))
        self._check_embeddings()
        self._check_source_sequence()
        self._check_options()
        self._check_decoder_fields()
        self._set("weights", self._resolve_weights())
        if self.rotary_base is not None:  # without rotary positions, no head's width to check
            check_rotary_width(self.rotary_base, self.weights.head(0, self.heads)[0].shape[1])
        self._set("block", check_block(self.block, self.d_model, self.max_dim))
        mask, padding, matrix = combined_mask(
            self.mask, self.padding, self.tokens, self.n_keys, self.is_cross
        )
        self._set("mask", mask)
        self._set("padding", padding)
        self._set("_mask_matrix", matrix)
        followed = check_followed(
            self.query, self.key, self.tokens, self.key_tokens, matrix, self.key_pieces
        )
        self._set("_followed", followed)
        if self.key_pieces is not None:
            self._set("key_pieces", tuple(self.key_pieces))
        self._set("head", check_explained_head(self.head, self.heads))
        self._set("head_scores", check_head_scores(self.head_scores, self.heads))

    # ``self._set(name, value)``: a field set while constructing (the class is frozen); the slot
    # itself, not a method calling it (an example sets about 17 fields)
    _set = object.__setattr__

    def _check_embeddings(self) -> None:
        emb = check_matrix("embeddings", self.embeddings)
        if emb.shape[0] != len(self.tokens):
            raise ValueError(
                f"embeddings: {emb.shape[0]} rows for {len(self.tokens)} tokens; give one "
                "embedding row per token"
            )
        self._set("embeddings", emb)
        d_model = emb.shape[1]
        if d_model > self.max_dim:
            more = "" if self.source else f" ({MODEL_MAX_DIM} in a file with a `source` note)"
            raise ValueError(
                f"embeddings: {d_model} dimensions; at most {self.max_dim} are supported{more}"
            )

    def _check_source_sequence(self) -> None:
        """Cross-attention's second sequence: both fields or neither, one row per source token,
        the same d_model as the embeddings."""
        if (self.source_tokens is None) != (self.source_embeddings is None):
            missing = "source_embeddings" if self.source_embeddings is None else "source_tokens"
            raise ValueError(
                f"{missing}: cross-attention needs both source_tokens and source_embeddings"
            )
        if self.source_tokens is None:
            return
        self._set("source_tokens", check_labels("source_tokens", self.source_tokens))
        src = check_matrix("source_embeddings", self.source_embeddings)
        if src.shape[0] != len(self.source_tokens):
            raise ValueError(
                f"source_embeddings: {src.shape[0]} rows for {len(self.source_tokens)} "
                "source tokens; give one row per source token"
            )
        if src.shape[1] != self.d_model:
            raise ValueError(
                f"source_embeddings: {src.shape[1]} dimensions, but embeddings have "
                f"{self.d_model}; both sequences must share d_model"
            )
        self._set("source_embeddings", src)

    def _check_options(self) -> None:
        self._set("heads", check_int("heads", self.heads, 1, self.max_heads))
        self._set(
            "positional_encoding", check_bool("positional_encoding", self.positional_encoding)
        )
        self._set("scale", check_bool("scale", self.scale))
        if self.head_form not in HEAD_FORMS:
            raise ValueError(
                f"head_form: {shown(self.head_form)} is not one of {', '.join(HEAD_FORMS)}"
            )

    def _check_decoder_fields(self) -> None:
        """kv_heads, rotary_base and positions (:mod:`~attention_core.example.decoder_fields`)."""
        w = self.weights
        explicit = isinstance(w, dict) or (isinstance(w, Weights) and w.form == "split")
        self._set("kv_heads", check_kv_heads(self.kv_heads, self.heads, explicit))
        base = check_rotary_base(self.rotary_base, self.positional_encoding, self.is_cross)
        self._set("rotary_base", base)
        self._set("positions", check_positions(self.positions, base, self.n))

    def _resolve_weights(self) -> Weights:
        """Explicit weights (a mapping, or a :class:`Weights` of an example being replaced),
        else random ones from ``seed``, else identities."""
        w = self.weights
        if isinstance(w, Weights) and w.form == "identity":
            return w
        if w is not None and not isinstance(w, (Weights, dict)):
            raise ValueError("weights: expected a table with W_q, W_k, W_v (and W_o)")
        self._check_random_fields()
        if w is not None:
            if self.seed is not None and not isinstance(w, Weights):
                raise ValueError("seed: give either weights or seed (random weights), not both")
            given, seed = (w.given(), w.seed) if isinstance(w, Weights) else (dict(w), None)
            d = self.d_model
            kv = self.kv_heads
            return explicit_weights(given, d, self.heads, d, seed, self.max_head_dim, kv)
        if self.seed is not None:
            return random_weights(
                self.seed, self.d_model, self.heads, self.d_k, self.d_v, self.head_form
            )
        return identity_weights(self.d_model, self.heads, self.head_form)

    def _check_random_fields(self) -> None:
        """``d_k`` and ``d_v`` (only with a seed) and the ``seed`` itself."""
        for name in ("d_k", "d_v"):
            if getattr(self, name) is not None:
                self._set(name, check_int(name, getattr(self, name), 1, self.max_head_dim))
                if self.seed is None:
                    raise ValueError(
                        f"{name}: only used with seed (random weights); add seed = 0 or remove it"
                    )
        if self.seed is not None:
            self._set("seed", check_int("seed", self.seed, 0, 2**32 - 1))

    # -- as a mapping ---------------------------------------------------------------------------
    @classmethod
    def from_dict(cls, data: dict, name: str = "example") -> Example:
        """Build from a parsed TOML/JSON mapping, rejecting unknown keys with a suggestion."""
        return example_from_dict(cls, data, name)

    def to_dict(self) -> dict:
        """A JSON/TOML-ready mapping that :meth:`from_dict` turns back into an equal example."""
        return example_to_dict(self)

    # -- derived facts --------------------------------------------------------------------------
    @property
    def max_dim(self) -> int:
        """The largest d_model allowed: 384 with a `source` note (a real model), else 16."""
        return MODEL_MAX_DIM if self.source else MAX_DIM

    @property
    def max_head_dim(self) -> int:
        """The largest d_k and d_v per head: 64 with a `source` note, else 16."""
        return MODEL_MAX_HEAD_DIM if self.source else MAX_DIM

    @property
    def max_heads(self) -> int:
        """The most heads allowed: 12 with a `source` note, else 8."""
        return MODEL_MAX_HEADS if self.source else MAX_HEADS

    @property
    def n(self) -> int:
        """Number of query tokens."""
        return len(self.tokens)

    @property
    def d_model(self) -> int:
        return int(self.embeddings.shape[1])

    @property
    def is_cross(self) -> bool:
        return self.source_tokens is not None

    @property
    def key_tokens(self) -> tuple[str, ...]:
        """Labels of the keys/values: the source sequence for cross-attention, else the tokens."""
        return self.source_tokens if self.is_cross else self.tokens

    @property
    def n_keys(self) -> int:
        return len(self.key_tokens)

    @property
    def mask_matrix(self) -> np.ndarray | None:
        """The boolean (n, n_keys) mask (causal/explicit and padding combined), or None."""
        return None if self._mask_matrix is None else self._mask_matrix.copy()

    @property
    def rotary_positions(self) -> np.ndarray | None:
        """The positions rotary embeddings use (0 … n − 1 unless given), or None without RoPE."""
        if self.rotary_base is None:
            return None
        return np.array(self.positions if self.positions is not None else range(self.n))

    @property
    def query_index(self) -> int | None:
        """The row ``query`` names (None when not given)."""
        return self._followed[0]

    @property
    def head_index(self) -> int:
        """The head (from 0) single-head scenes explain and whose pair is followed: ``head``
        less one, else the first."""
        return 0 if self.head is None else self.head - 1

    @property
    def key_index(self) -> int | None:
        """The key ``key`` names (None when not given)."""
        return self._followed[1]

    @property
    def key_piece_indices(self) -> tuple[int, ...] | None:
        """The keys ``key_pieces`` names, in order (None when not given): one word's pieces,
        whose weights the followed pair sums."""
        return self._followed[2]

    @property
    def is_cjk(self) -> bool:
        """True when any label or the title uses CJK characters (the default language is zh)."""
        text = "".join(self.tokens) + "".join(self.key_tokens) + self.title
        return max(map(ord, text), default=0) >= 0x3040 and any(_is_cjk_char(c) for c in text)


def _is_cjk_char(c: str) -> bool:
    o = ord(c)
    return (
        0x4E00 <= o <= 0x9FFF
        or 0x3400 <= o <= 0x4DBF
        or 0x3040 <= o <= 0x30FF
        or 0xAC00 <= o <= 0xD7AF
        or 0xF900 <= o <= 0xFAFF
        or 0x20000 <= o <= 0x2FFFF
    )
