"""The input model a lecturer edits: an :class:`Example`, validated with errors that say the fix.

An example is tokens, their embeddings and (optionally) projection weights, heads, a mask,
positional encoding and a second sequence for cross-attention. Every check raises ``ValueError``
with a message that starts with the field's name, so the CLI can show it as one line.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .masks import causal_mask, padding_mask

MAX_TOKENS = 12  # tokens (and source tokens) per sequence
MAX_LABEL = 12  # characters per token label
MAX_ABS = 1e6  # every input number satisfies |x| ≤ MAX_ABS
MAX_DIM = 16  # d_model, d_k and d_v at most this (a lecture shows the numbers)
MAX_HEADS = 8
MAX_TITLE = 60
# An example that names its `source` (a head of a trained model, `attn-explain from-model`) may be
# as large as all-MiniLM-L6-v2's layers: d_model ≤ 384, d_k and d_v ≤ 64 per head, 12 heads.
MODEL_MAX_DIM = 384
MODEL_MAX_HEAD_DIM = 64
MODEL_MAX_HEADS = 12
MAX_SOURCE = 200  # characters of the `source` note

HEAD_FORMS = ("split", "independent")


@dataclass(frozen=True, eq=False)
class Weights:
    """Resolved projection weights.

    ``form`` is ``"identity"`` (Q = K = V = X), ``"split"`` (one matrix per role, columns split
    among heads as ``torch.nn.MultiheadAttention`` does, then ``W_o``) or ``"independent"`` (text
    000: one matrix per head and role, stacked as (H, d_model, d_k), concatenated without W_o).
    ``seed`` is set when the matrices were drawn at random. ``b_q``, ``b_k``, ``b_v`` (and ``b_o``)
    are optional biases, Q = X W_q + b_q …: one vector of the matrix's width in split form, one
    row per head, (H, d_k), in per-head form; None means no bias.
    """

    form: str
    W_q: np.ndarray
    W_k: np.ndarray
    W_v: np.ndarray
    W_o: np.ndarray | None = None
    seed: int | None = None
    b_q: np.ndarray | None = None
    b_k: np.ndarray | None = None
    b_v: np.ndarray | None = None
    b_o: np.ndarray | None = None

    @property
    def has_bias(self) -> bool:
        """True when any projection has a bias."""
        return any(b is not None for b in (self.b_q, self.b_k, self.b_v, self.b_o))

    def head(self, h: int, heads: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The (W_q, W_k, W_v) that head ``h`` of ``heads`` uses."""
        if self.form == "independent":
            return self.W_q[h], self.W_k[h], self.W_v[h]
        dk, dv = self.W_q.shape[1] // heads, self.W_v.shape[1] // heads
        return (
            self.W_q[:, h * dk : (h + 1) * dk],
            self.W_k[:, h * dk : (h + 1) * dk],
            self.W_v[:, h * dv : (h + 1) * dv],
        )

    def head_biases(self, h: int, heads: int) -> tuple:
        """The (b_q, b_k, b_v) that head ``h`` of ``heads`` uses (each a vector or None)."""
        if self.form == "independent":
            return tuple(None if b is None else b[h] for b in (self.b_q, self.b_k, self.b_v))
        dk, dv = self.W_q.shape[1] // heads, self.W_v.shape[1] // heads
        return tuple(
            None if b is None else b[h * d : (h + 1) * d]
            for b, d in ((self.b_q, dk), (self.b_k, dk), (self.b_v, dv))
        )


@dataclass(frozen=True, eq=False)
class Example:
    """One attention example, validated on construction.

    Construct it directly (``Example(tokens=[...], embeddings=[[...]])``), from a mapping with
    :meth:`from_dict`, or from a file or preset with :func:`attention_core.load_example`.
    ``weights`` may be a mapping with ``W_q``, ``W_k``, ``W_v`` (and ``W_o``): split form when each
    is a matrix, per-head form when each is a list of matrices. Without weights, ``seed`` (with
    ``d_k``, ``d_v``) draws them from a standard normal; without either, they are identities.
    After construction ``weights`` is always a :class:`Weights`.
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
    _mask_matrix: np.ndarray | None = field(default=None, init=False, repr=False)

    # -- construction ---------------------------------------------------------------------------
    def __post_init__(self):
        set_ = object.__setattr__
        set_(self, "name", _check_name(self.name))
        set_(self, "title", _check_text("title", self.title, MAX_TITLE, allow_empty=True))
        set_(self, "tokens", _check_labels("tokens", self.tokens))
        set_(self, "source", _check_text("source", self.source, MAX_SOURCE, allow_empty=True))
        emb = _check_matrix("embeddings", self.embeddings)
        if emb.shape[0] != len(self.tokens):
            raise ValueError(
                f"embeddings: {emb.shape[0]} rows for {len(self.tokens)} tokens; give one "
                "embedding row per token"
            )
        set_(self, "embeddings", emb)
        d_model = emb.shape[1]
        if d_model > self.max_dim:
            more = "" if self.source else f" ({MODEL_MAX_DIM} in a file with a `source` note)"
            raise ValueError(
                f"embeddings: {d_model} dimensions; at most {self.max_dim} are supported{more}"
            )

        if (self.source_tokens is None) != (self.source_embeddings is None):
            missing = "source_embeddings" if self.source_embeddings is None else "source_tokens"
            raise ValueError(
                f"{missing}: cross-attention needs both source_tokens and source_embeddings"
            )
        if self.source_tokens is not None:
            set_(self, "source_tokens", _check_labels("source_tokens", self.source_tokens))
            src = _check_matrix("source_embeddings", self.source_embeddings)
            if src.shape[0] != len(self.source_tokens):
                raise ValueError(
                    f"source_embeddings: {src.shape[0]} rows for {len(self.source_tokens)} "
                    "source tokens; give one row per source token"
                )
            if src.shape[1] != d_model:
                raise ValueError(
                    f"source_embeddings: {src.shape[1]} dimensions, but embeddings have "
                    f"{d_model}; both sequences must share d_model"
                )
            set_(self, "source_embeddings", src)

        set_(self, "heads", _check_int("heads", self.heads, 1, self.max_heads))
        set_(
            self,
            "positional_encoding",
            _check_bool("positional_encoding", self.positional_encoding),
        )
        set_(self, "scale", _check_bool("scale", self.scale))
        if self.head_form not in HEAD_FORMS:
            raise ValueError(f"head_form: {self.head_form!r} is not one of {', '.join(HEAD_FORMS)}")
        set_(self, "weights", self._resolve_weights())
        set_(self, "_mask_matrix", self._resolve_mask())

    def _resolve_weights(self) -> Weights:
        d_model, h = self.d_model, self.heads
        if isinstance(self.weights, Weights):
            w = self.weights
            given = {"W_q": w.W_q, "W_k": w.W_k, "W_v": w.W_v}
            if w.W_o is not None:
                given["W_o"] = w.W_o
            if w.form == "identity":
                return w
            seed = w.seed
        elif self.weights is not None:
            if not isinstance(self.weights, dict):
                raise ValueError("weights: expected a table with W_q, W_k, W_v (and W_o)")
            given = dict(self.weights)
            seed = None
        else:
            given = None
        for name in ("d_k", "d_v"):
            if getattr(self, name) is not None:
                value = _check_int(name, getattr(self, name), 1, self.max_head_dim)
                object.__setattr__(self, name, value)
                if self.seed is None:
                    raise ValueError(
                        f"{name}: only used with seed (random weights); add seed = 0 or remove it"
                    )
        if self.seed is not None:
            object.__setattr__(self, "seed", _check_int("seed", self.seed, 0, 2**32 - 1))

        if given is not None:
            if self.seed is not None and not isinstance(self.weights, Weights):
                raise ValueError("seed: give either weights or seed (random weights), not both")
            if isinstance(self.weights, Weights):
                for b in ("b_q", "b_k", "b_v", "b_o"):
                    if getattr(w, b) is not None:
                        given[b] = getattr(w, b)
            return _explicit_weights(given, d_model, h, self.d_model, seed, self.max_head_dim)
        if self.seed is not None:
            return _random_weights(self.seed, d_model, h, self.d_k, self.d_v, self.head_form)
        if d_model % h:
            raise ValueError(
                f"heads: d_model = {d_model} does not divide by heads = {h}; choose "
                f"heads among {_divisors(d_model)}"
            )
        eye = np.eye(d_model)
        if self.head_form == "independent" and h > 1:
            raise ValueError(
                "head_form: 'independent' needs seed or per-head weights (identity "
                "weights are one split form)"
            )
        return Weights("identity", eye, eye.copy(), eye.copy(), eye.copy() if h > 1 else None)

    def _resolve_mask(self) -> np.ndarray | None:
        m, n = self.n, self.n_keys
        mask = self.mask
        if isinstance(mask, str):
            if mask not in ("none", "causal"):
                raise ValueError(f"mask: {mask!r} is not 'none', 'causal' or a 0/1 matrix")
            if mask == "causal" and self.is_cross:
                raise ValueError(
                    "mask: 'causal' needs a query and key sequence of the same "
                    "positions; cross-attention takes an explicit 0/1 matrix"
                )
            matrix = causal_mask(n) if mask == "causal" else None
        elif mask is None:
            object.__setattr__(self, "mask", "none")
            matrix = None
        else:
            arr = np.asarray(mask)
            if arr.dtype == np.bool_:
                arr = arr.astype(int)
            arr = _check_matrix("mask", arr, limit=None)
            if arr.shape != (m, n):
                raise ValueError(
                    f"mask: shape {arr.shape[0]}×{arr.shape[1]}, expected {m}×{n} "
                    "(one row per query, one column per key)"
                )
            if not np.all(np.isin(arr, (0, 1))):
                raise ValueError("mask: entries must be 0 (blocked) or 1 (may attend)")
            matrix = arr.astype(bool)
            object.__setattr__(self, "mask", matrix.copy())
        if self.padding is not None:
            keep = self.padding
            if (
                not isinstance(keep, (list, tuple, np.ndarray))
                or len(keep) != n
                or not all(_is_01(v) for v in keep)
            ):
                raise ValueError(
                    f"padding: expected {n} entries of 0/1 (1 = real token, one per key)"
                )
            keep = tuple(bool(v) for v in keep)
            if not any(keep):
                raise ValueError(
                    "padding: every position is padding; mark at least one real token with 1"
                )
            object.__setattr__(self, "padding", keep)
            pad = padding_mask(keep, n_queries=m)
            matrix = pad if matrix is None else (matrix & pad)
        if matrix is not None:
            dead = np.flatnonzero(~matrix.any(axis=1))
            if dead.size:
                r = int(dead[0])
                raise ValueError(
                    f"mask: row {r} (token {self.tokens[r]!r}) blocks every key; "
                    "allow each query at least one key"
                )
        return matrix

    @classmethod
    def from_dict(cls, data: dict, name: str = "example") -> Example:
        """Build from a parsed TOML/JSON mapping, rejecting unknown keys with a suggestion."""
        if not isinstance(data, dict):
            raise ValueError("example: expected a table of keys (tokens, embeddings, …)")
        if "arrays" in data:
            raise ValueError(
                "arrays: only an example file names a .npz file (relative to its folder); "
                "load it with load_example"
            )
        _reject_unknown("", data, FILE_KEYS)
        if "tokens" not in data:
            raise ValueError('tokens: missing; add tokens = ["…", …]')
        if "embeddings" not in data:
            raise ValueError("embeddings: missing; add one row of numbers per token")
        weights = data.get("weights")
        if weights is not None:
            if not isinstance(weights, dict):
                raise ValueError("weights: expected a table with W_q, W_k, W_v (and W_o)")
            _reject_unknown("weights.", weights, WEIGHT_KEYS)
        kwargs = {k: v for k, v in data.items() if k in FILE_KEYS}
        return cls(name=name, **kwargs)

    def to_dict(self) -> dict:
        """A JSON/TOML-ready mapping that :meth:`from_dict` turns back into an equal example."""
        out: dict[str, Any] = {
            "title": self.title,
            "tokens": list(self.tokens),
            "embeddings": self.embeddings.tolist(),
            "heads": self.heads,
        }
        w = self.weights
        if w.seed is not None:
            out["seed"] = w.seed
            out["d_k"] = int(self.weights.head(0, self.heads)[0].shape[1])
            out["d_v"] = int(self.weights.head(0, self.heads)[2].shape[1])
            out["head_form"] = w.form
        elif w.form != "identity":
            out["weights"] = {k: getattr(w, k).tolist() for k in ("W_q", "W_k", "W_v")}
            for k in ("W_o", "b_q", "b_k", "b_v", "b_o"):
                if getattr(w, k) is not None:
                    out["weights"][k] = getattr(w, k).tolist()
        out["mask"] = self.mask if isinstance(self.mask, str) else self.mask.astype(int).tolist()
        if self.padding is not None:
            out["padding"] = [int(v) for v in self.padding]
        out["positional_encoding"] = self.positional_encoding
        out["scale"] = self.scale
        if self.is_cross:
            out["source_tokens"] = list(self.source_tokens)
            out["source_embeddings"] = self.source_embeddings.tolist()
        if self.source:
            out["source"] = self.source
        return out

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
    def is_cjk(self) -> bool:
        """True when any label or the title uses CJK characters (the default language is zh)."""
        text = "".join(self.tokens) + "".join(self.key_tokens) + self.title
        return any(_is_cjk_char(c) for c in text)


FILE_KEYS = (
    "title",
    "tokens",
    "embeddings",
    "heads",
    "weights",
    "seed",
    "d_k",
    "d_v",
    "head_form",
    "mask",
    "padding",
    "positional_encoding",
    "source_tokens",
    "source_embeddings",
    "scale",
    "source",
)
WEIGHT_KEYS = ("W_q", "W_k", "W_v", "W_o", "b_q", "b_k", "b_v", "b_o")
BIAS_KEYS = ("b_q", "b_k", "b_v", "b_o")


# -- checks (each raises ValueError("<field>: <what is wrong>; <the fix>")) ----------------------
def _reject_unknown(prefix: str, data: dict, known) -> None:
    import difflib

    for key in data:
        if key not in known:
            close = difflib.get_close_matches(str(key), known, n=1, cutoff=0.5)
            hint = f"did you mean {close[0]!r}?" if close else f"known keys: {', '.join(known)}"
            raise ValueError(f"{prefix}{key}: unknown key; {hint}")


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


def _is_01(v) -> bool:
    return isinstance(v, (bool, int, np.integer, np.bool_)) and v in (0, 1)


def _divisors(n: int) -> str:
    return ", ".join(str(d) for d in range(1, min(n, MAX_HEADS) + 1) if n % d == 0)


def _check_name(name) -> str:
    if not isinstance(name, str):
        raise ValueError(f"name: expected text, got {type(name).__name__}")
    safe = re.sub(r"[^\w.-]+", "-", name, flags=re.UNICODE).strip(".-") or "example"
    return safe[:64]


def _check_text(fieldname: str, value, limit: int, allow_empty=False) -> str:
    if not isinstance(value, str):
        raise ValueError(f"{fieldname}: expected text in quotes, got {type(value).__name__}")
    if any(unicodedata.category(c) in ("Cc", "Cs") for c in value):
        raise ValueError(
            f"{fieldname}: {value!r} contains control characters (newline, tab …); remove them"
        )
    if not allow_empty and not value.strip():
        raise ValueError(f"{fieldname}: a label must not be empty or only spaces")
    if len(value) > limit:
        raise ValueError(
            f"{fieldname}: {value[:20]!r}… has {len(value)} characters; at most {limit} are allowed"
        )
    return value


def _check_labels(fieldname: str, labels) -> tuple[str, ...]:
    if isinstance(labels, str) or not isinstance(labels, (list, tuple)):
        raise ValueError(f'{fieldname}: expected a list of labels, e.g. ["早", "上", "好"]')
    if not labels:
        raise ValueError(f"{fieldname}: the list is empty; give 1 to {MAX_TOKENS} tokens")
    if len(labels) > MAX_TOKENS:
        raise ValueError(f"{fieldname}: {len(labels)} tokens; at most {MAX_TOKENS} are supported")
    out = tuple(_check_text(f"{fieldname}[{i}]", t, MAX_LABEL) for i, t in enumerate(labels))
    for i, t in enumerate(out):
        if any(_is_emoji(c) for c in t):
            raise ValueError(
                f"{fieldname}[{i}]: {t!r} contains emoji, which the videos cannot draw (colour "
                "emoji have no outlines); use a word instead"
            )
    return out


def _is_emoji(c: str) -> bool:
    o = ord(c)
    return 0x1F000 <= o <= 0x1FAFF or o in (0xFE0F, 0x200D) or 0x2600 <= o <= 0x27BF


def _check_int(fieldname: str, value, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise ValueError(f"{fieldname}: expected a whole number, got {value!r}")
    if not lo <= value <= hi:
        raise ValueError(f"{fieldname}: {value} is outside {lo} … {hi}")
    return int(value)


def _check_bool(fieldname: str, value) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{fieldname}: expected true or false, got {value!r}")
    return bool(value)


def _check_matrix(fieldname: str, value, ndim: int = 2, limit: float | None = MAX_ABS):
    """A rectangular matrix of finite numbers with |x| ≤ limit (bools and strings rejected)."""
    if isinstance(value, np.ndarray):
        if value.dtype == np.bool_ or not np.issubdtype(value.dtype, np.number):
            raise ValueError(f"{fieldname}: expected numbers, got dtype {value.dtype}")
        arr = value.astype(np.float64)
    else:
        _check_nested(fieldname, value, ndim)
        arr = np.array(value, dtype=np.float64)
    if arr.ndim != ndim:
        raise ValueError(f"{fieldname}: expected {_shape_word(ndim)}, got shape {arr.shape}")
    if arr.size == 0:
        raise ValueError(f"{fieldname}: is empty; give at least one row of numbers")
    if not np.all(np.isfinite(arr)):
        bad = tuple(int(i) for i in np.argwhere(~np.isfinite(arr))[0])
        raise ValueError(f"{fieldname}{list(bad)}: NaN or infinity; every number must be finite")
    if limit is not None and np.max(np.abs(arr)) > limit:
        bad = tuple(int(i) for i in np.argwhere(np.abs(arr) > limit)[0])
        raise ValueError(
            f"{fieldname}{list(bad)}: {arr[bad]:g} is beyond the limit |x| ≤ {limit:g}"
        )
    return arr + 0.0  # −0.0 → 0.0 keeps printing tidy


def _shape_word(ndim: int) -> str:
    return {1: "a row of numbers", 2: "a matrix (a list of rows)", 3: "a list of matrices"}.get(
        ndim, f"{ndim}-D numbers"
    )


def _check_nested(fieldname: str, value, ndim: int, path=()) -> None:
    """Walk nested lists: right depth, rectangular, numbers only — naming the first bad spot."""
    where = fieldname + "".join(f"[{i}]" for i in path)
    if ndim == 0:
        if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
            raise ValueError(f"{where}: expected a number, got {value!r}")
        return
    if not isinstance(value, (list, tuple)):
        raise ValueError(
            f"{where}: expected {_shape_word(ndim) if ndim > 1 else 'a row of numbers'}"
            f", got {type(value).__name__}"
        )
    if not value:
        raise ValueError(f"{where}: is empty; give at least one {'row' if ndim > 1 else 'number'}")
    lengths = set()
    for i, item in enumerate(value):
        _check_nested(fieldname, item, ndim - 1, path + (i,))
        if ndim > 1:
            lengths.add(len(item))
    if len(lengths) > 1:
        raise ValueError(
            f"{where}: ragged rows (lengths {sorted(lengths)}); every row needs the "
            "same number of values"
        )


def _explicit_weights(
    given: dict, d_model: int, h: int, kv_dim: int, seed, max_head_dim: int = MAX_DIM
) -> Weights:
    for key in ("W_q", "W_k", "W_v"):
        if key not in given:
            raise ValueError(f"weights.{key}: missing; give W_q, W_k and W_v together")
    sample = given["W_q"]
    per_head = (isinstance(sample, np.ndarray) and sample.ndim == 3) or (
        isinstance(sample, (list, tuple))
        and sample
        and isinstance(sample[0], (list, tuple))
        and sample[0]
        and isinstance(sample[0][0], (list, tuple))
    )
    ndim = 3 if per_head else 2
    mats = {k: _check_matrix(f"weights.{k}", given[k], ndim=ndim) for k in ("W_q", "W_k", "W_v")}
    if per_head:
        if "W_o" in given or "b_o" in given:
            key = "W_o" if "W_o" in given else "b_o"
            raise ValueError(
                f"weights.{key}: not used with per-head matrices (text 000's form "
                "concatenates the heads); remove it or use one matrix per role"
            )
        for k, m in mats.items():
            if m.shape[0] != h:
                raise ValueError(f"weights.{k}: {m.shape[0]} per-head matrices for heads = {h}")
            if m.shape[1] != d_model:
                raise ValueError(
                    f"weights.{k}: each matrix needs {d_model} rows (d_model), got {m.shape[1]}"
                )
            if m.shape[2] > max_head_dim:
                raise ValueError(f"weights.{k}: {m.shape[2]} columns; at most {max_head_dim}")
        if mats["W_q"].shape != mats["W_k"].shape:
            raise ValueError(
                f"weights.W_k: shape {mats['W_k'].shape} must equal W_q's "
                f"{mats['W_q'].shape} (q·k needs equal d_k)"
            )
        biases = _biases(given, mats, per_head=True)
        return Weights("independent", mats["W_q"], mats["W_k"], mats["W_v"], None, seed, **biases)
    for k, m in mats.items():
        rows = d_model if k == "W_q" else kv_dim
        if m.shape[0] != rows:
            raise ValueError(
                f"weights.{k}: shape {m.shape[0]}×{m.shape[1]}; it needs {rows} rows "
                f"(d_model) to multiply the embeddings"
            )
        if m.shape[1] % h:
            raise ValueError(f"weights.{k}: {m.shape[1]} columns do not split into heads = {h}")
        if m.shape[1] > max_head_dim * h:
            raise ValueError(f"weights.{k}: {m.shape[1]} columns; at most {max_head_dim} per head")
    if mats["W_q"].shape != mats["W_k"].shape:
        raise ValueError(
            f"weights.W_k: shape {mats['W_k'].shape[0]}×{mats['W_k'].shape[1]} must "
            f"equal W_q's {mats['W_q'].shape[0]}×{mats['W_q'].shape[1]} "
            "(q·k needs equal d_k)"
        )
    W_o = None
    if "W_o" in given:
        W_o = _check_matrix("weights.W_o", given["W_o"])
        if W_o.shape[0] != mats["W_v"].shape[1]:
            raise ValueError(
                f"weights.W_o: {W_o.shape[0]} rows; it needs {mats['W_v'].shape[1]} "
                "(the width of the concatenated heads)"
            )
        if W_o.shape[1] > max(max_head_dim, d_model):
            raise ValueError(
                f"weights.W_o: {W_o.shape[1]} columns; at most {max(max_head_dim, d_model)}"
            )
        mats["W_o"] = W_o
    elif h > 1:
        raise ValueError(
            "weights.W_o: needed for several heads in split form; add W_o, or give "
            "per-head matrices (text 000's form)"
        )
    elif "b_o" in given:
        raise ValueError("weights.b_o: the bias of W_o needs W_o; add W_o or remove b_o")
    biases = _biases(given, mats, per_head=False)
    return Weights("split", mats["W_q"], mats["W_k"], mats["W_v"], W_o, seed, **biases)


def _biases(given: dict, mats: dict, per_head: bool) -> dict:
    """The biases given, checked against their matrices: split form one vector as wide as the
    matrix; per-head form one row per head, (H, d_k)."""
    out = {}
    for b in BIAS_KEYS:
        if b not in given:
            continue
        W = mats["W_" + b[-1]]
        arr = _check_matrix(f"weights.{b}", given[b], ndim=2 if per_head else 1)
        want = (W.shape[0], W.shape[2]) if per_head else (W.shape[1],)
        if arr.shape != want:
            shape = "×".join(str(v) for v in arr.shape)
            raise ValueError(
                f"weights.{b}: shape {shape}; W_{b[-1]} needs "
                + (f"{want[0]} rows of {want[1]} (one per head)" if per_head else f"{want[0]}")
                + " numbers"
            )
        out[b] = arr
    return out


def _random_weights(seed: int, d_model: int, h: int, d_k, d_v, form: str) -> Weights:
    """Standard-normal weights from ``seed`` (text 000 draws np.random.randn the same way)."""
    if d_k is None:
        if d_model % h:
            raise ValueError(
                f"heads: d_model = {d_model} does not divide by heads = {h}; set d_k "
                f"or choose heads among {_divisors(d_model)}"
            )
        d_k = d_model // h
    d_v = d_k if d_v is None else d_v
    rng = np.random.default_rng(seed)
    if form == "independent":
        W_q, W_k, W_v = (rng.standard_normal((h, d_model, d)) for d in (d_k, d_k, d_v))
        return Weights("independent", W_q, W_k, W_v, None, seed)
    W_q, W_k, W_v = (rng.standard_normal((d_model, h * d)) for d in (d_k, d_k, d_v))
    W_o = rng.standard_normal((h * d_v, d_model)) if h > 1 else None
    return Weights("split", W_q, W_k, W_v, W_o, seed)
