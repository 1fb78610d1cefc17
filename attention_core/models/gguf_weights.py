"""A GGUF file's tensors and tokenizer, read with the ``gguf`` package (the ``[model]`` extra).

:class:`GGUFIndex` is what a GGUF file says about itself: its scalar metadata (sizes, rope base,
epsilon …), the vocabulary, merges and token types, and where each tensor lies in the file (byte
offset, GGML type, stored shape). Parsing it with ``gguf.GGUFReader`` is the slow part of loading
(seconds: 49,152 tokens and 48,900 merges), so the index can be saved as JSON and read back in
milliseconds. :class:`GGUFTensors` then maps one tensor at a time from the file (``np.memmap``)
and dequantizes it with ``gguf.quants.dequantize`` (no dequantizer of our own), float32.

Llama's query and key matrices are stored permuted in GGUF (llama.cpp interleaves each head's two
rotary halves); :func:`unpermute_rotary_rows` undoes it exactly as transformers does on load, so
the weights here are transformers' ``q_proj`` / ``k_proj`` and rotary pairs are (i, i + d/2).

:func:`byte_level_tokenizer` builds the tokenizer from the metadata with the ``tokenizers``
library, as transformers' ``AutoTokenizer.from_pretrained(folder, gguf_file=…)`` does for a
``gpt2`` (byte-level BPE) vocabulary: BPE with the file's merges, the byte-level pre-tokenizer
(GPT-2's split, no prefix space), its decoder, the control tokens kept whole; no BOS is added.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

INDEX_VERSION = 1
_ARRAYS = ("tokenizer.ggml.tokens", "tokenizer.ggml.merges", "tokenizer.ggml.token_type")


def need(module: str, hint: str) -> ModuleType:
    """Import an optional dependency, or raise a one-line ``ValueError`` saying how to get it."""
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError:
        raise ValueError(f"model: the Python package {module!r} is missing; {hint}") from None


@dataclass(frozen=True)
class TensorEntry:
    """Where one tensor lies in the file: ``offset`` (bytes from the start), ``n_bytes``, its
    GGML type (``gguf.GGMLQuantizationType`` value), the stored array's ``raw_shape`` and
    ``raw_dtype`` (bytes per row for quantized types) and its logical ``shape`` (rows, cols)."""

    name: str
    ggml_type: int
    offset: int
    n_bytes: int
    raw_shape: tuple[int, ...]
    raw_dtype: str
    shape: tuple[int, ...]


@dataclass(frozen=True, eq=False)
class GGUFIndex:
    """A GGUF file's metadata (scalars), vocabulary and tensor table."""

    metadata: dict
    tokens: tuple[str, ...]
    merges: tuple[str, ...]
    token_types: tuple[int, ...]
    tensors: dict  # name → TensorEntry

    @classmethod
    def read(cls, path: str | os.PathLike[str], hint: str = "install the model extra") -> GGUFIndex:
        """Parse ``path`` with ``gguf.GGUFReader`` (seconds for a 49k-token vocabulary)."""
        gguf = need("gguf", hint)
        try:
            reader = gguf.GGUFReader(str(path))
        except (OSError, ValueError) as exc:
            raise ValueError(f"model: cannot read {Path(path).name} ({exc})") from None
        metadata, arrays = {}, {}
        for key, field in reader.fields.items():
            if key in _ARRAYS:
                arrays[key] = field.contents()
            elif len(field.types) == 1:  # a scalar: str, int, float or bool
                metadata[key] = field.contents()
        tensors = {}
        for t in reader.tensors:
            rows_cols = tuple(int(x) for x in reversed(t.shape.tolist()))  # numpy order
            tensors[t.name] = TensorEntry(
                t.name, int(t.tensor_type), int(t.data_offset), int(t.n_bytes),
                tuple(int(x) for x in t.data.shape), t.data.dtype.str, rows_cols,
            )  # fmt: skip
        return cls(
            metadata,
            tuple(arrays.get(_ARRAYS[0], ())),
            tuple(arrays.get(_ARRAYS[1], ())),
            tuple(int(x) for x in arrays.get(_ARRAYS[2], ())),
            tensors,
        )

    def to_json(self) -> str:
        return json.dumps(
            {
                "version": INDEX_VERSION,
                "metadata": self.metadata,
                "tokens": list(self.tokens),
                "merges": list(self.merges),
                "token_types": list(self.token_types),
                "tensors": [e.__dict__ for e in self.tensors.values()],
            },
            ensure_ascii=False,
        )

    @classmethod
    def from_json(cls, text: str) -> GGUFIndex:
        """Read back :meth:`to_json`; a ``ValueError`` if it is of another version or damaged."""
        try:
            data = json.loads(text)
            if data.get("version") != INDEX_VERSION:
                raise ValueError("another index version")
            tensors = {}
            for e in data["tensors"]:
                e = dict(e, raw_shape=tuple(e["raw_shape"]), shape=tuple(e["shape"]))
                tensors[e["name"]] = TensorEntry(**e)
            return cls(
                data["metadata"],
                tuple(data["tokens"]),
                tuple(data["merges"]),
                tuple(data["token_types"]),
                tensors,
            )
        except (KeyError, TypeError, AttributeError, json.JSONDecodeError) as exc:
            raise ValueError(f"the cached GGUF index is damaged ({exc})") from None


class GGUFTensors:
    """The tensors of one GGUF file, each mapped from the file and dequantized when asked for."""

    def __init__(
        self, path: str | os.PathLike[str], index: GGUFIndex, hint: str = "install the model extra"
    ) -> None:
        self.path = Path(path)
        self.index = index
        self._hint = hint

    def __contains__(self, name: str) -> bool:
        return name in self.index.tensors

    def raw(self, name: str) -> np.ndarray:
        """The stored bytes (quantized) or numbers (F32) of tensor ``name``, mapped read-only."""
        try:
            e = self.index.tensors[name]
        except KeyError:
            raise ValueError(f"weights: {name} is missing from {self.path.name}") from None
        return np.memmap(
            self.path, dtype=np.dtype(e.raw_dtype), mode="r", offset=e.offset, shape=e.raw_shape
        )

    def array(self, name: str, rows: Sequence[int] | None = None) -> np.ndarray:
        """Tensor ``name`` dequantized (float32), shape (rows, cols) as PyTorch stores it (out,
        in); ``rows`` (indices) dequantizes only those rows (e.g. a few token embeddings)."""
        gguf = need("gguf", self._hint)
        from gguf.quants import dequantize

        e = self.index.tensors.get(name)
        if e is None:
            raise ValueError(f"weights: {name} is missing from {self.path.name}")
        raw = self.raw(name)
        if rows is not None:
            raw = raw[np.asarray(rows, dtype=np.intp)]
        out = dequantize(np.ascontiguousarray(raw), gguf.GGMLQuantizationType(e.ggml_type))
        want = e.shape if rows is None else (len(raw), *e.shape[1:])
        return np.asarray(out, dtype=np.float32).reshape(want)


def unpermute_rotary_rows(weight: np.ndarray, n_head: int) -> np.ndarray:
    """Undo llama.cpp's row permutation of a query or key matrix (out, in), as transformers'
    ``LlamaTensorProcessor`` does: within each of ``n_head`` heads, rows stored as interleaved
    rotary pairs (0, 1), (2, 3) … go back to halves (i, i + d/2)."""
    rows = weight.shape[0]
    if rows % (2 * n_head):
        raise ValueError(f"weights: {rows} rows do not split into {n_head} heads of pairs")
    half = rows // n_head // 2
    w = weight.reshape(n_head, half, 2, *weight.shape[1:])
    return w.swapaxes(2, 1).reshape(weight.shape)


def _bytes_to_unicode() -> dict[int, str]:
    """GPT-2's byte → printable character table (the byte-level BPE alphabet)."""
    keep = list(range(ord("!"), ord("~") + 1))
    keep += list(range(ord("¡"), ord("¬") + 1)) + list(range(ord("®"), ord("ÿ") + 1))
    chars = list(keep)
    extra = 0
    for b in range(256):
        if b not in keep:
            keep.append(b)
            chars.append(256 + extra)
            extra += 1
    return dict(zip(keep, (chr(c) for c in chars)))


BYTE_TO_CHAR = _bytes_to_unicode()
CHAR_TO_BYTE = {c: b for b, c in BYTE_TO_CHAR.items()}
CONTROL = 3  # GGUF token type of control tokens such as <|im_start|>


def byte_level_tokenizer(index: GGUFIndex, hint: str = "install the model extra") -> Any:
    """A ``tokenizers.Tokenizer`` for a GGUF ``gpt2`` (byte-level BPE) vocabulary."""
    tk = need("tokenizers", hint)
    kind = index.metadata.get("tokenizer.ggml.model")
    if kind != "gpt2":
        raise ValueError(f"model: tokenizer {kind!r} is not byte-level BPE ('gpt2')")
    alphabet = set(BYTE_TO_CHAR.values())
    vocab = {}
    for i, token in enumerate(index.tokens):  # a token outside the alphabet is spelled in it
        spelled = (
            token if set(token) <= alphabet else "".join(BYTE_TO_CHAR[b] for b in token.encode())
        )
        vocab[spelled] = i
    merges = [tuple(m.split(" ")) for m in index.merges]
    tok = tk.Tokenizer(
        tk.models.BPE(
            vocab=vocab, merges=merges, dropout=None, continuing_subword_prefix="",
            end_of_word_suffix="", fuse_unk=False,
        )
    )  # fmt: skip
    tok.pre_tokenizer = tk.pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = tk.decoders.ByteLevel()
    control = [
        tk.AddedToken(t, normalized=False, special=True)
        for t, kind in zip(index.tokens, index.token_types)
        if kind == CONTROL and set(t) <= alphabet
    ]
    if control:
        tok.add_special_tokens(control)
    return tok
