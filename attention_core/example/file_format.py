"""An example as a plain mapping (the keys of a TOML/JSON file) and as TOML/JSON text.

:func:`example_from_dict` and :func:`example_to_dict` back :meth:`Example.from_dict` and
:meth:`Example.to_dict`; :func:`parse_example_text` turns a file's text into the mapping, with
the parser's complaint on one line.
"""

from __future__ import annotations

import json
import math
import re
import sys
import tomllib
from collections.abc import Callable, Mapping
from typing import Any, NoReturn, TypeVar

from .validation import OverflowNumber, WholeNumber, reject_unknown
from .weights import WEIGHT_KEYS

# ``cls`` is Example and ``example`` an Example: model.py imports this module, so no import back
# (not even for type hints: the floor plan has no circle)
T = TypeVar("T")

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
    "kv_heads",
    "rotary_base",
    "positions",
    "query",
    "key",
    "key_pieces",
    "head",
    "block",
    "model_text",
    "head_scores",
)

_FILE_KEY_SET = frozenset(FILE_KEYS)


def example_from_dict(cls: Callable[..., T], data: dict, name: str = "example") -> T:
    """``cls(name=name, **data)`` for a parsed file's mapping, rejecting unknown keys with a
    suggestion (``cls`` is :class:`~attention_core.Example`)."""
    if not isinstance(data, dict):
        raise ValueError("example: expected a table of keys (tokens, embeddings, …)")
    if "arrays" in data:
        raise ValueError(
            "arrays: only an example file names a .npz file (relative to its folder); "
            "load it with load_example"
        )
    if not data.keys() <= _FILE_KEY_SET:
        reject_unknown("", data, FILE_KEYS)
    if "tokens" not in data:
        raise ValueError('tokens: missing; add tokens = ["…", …]')
    if "embeddings" not in data:
        raise ValueError("embeddings: missing; add one row of numbers per token")
    weights = data.get("weights")
    if weights is not None:
        if not isinstance(weights, dict):
            raise ValueError("weights: expected a table with W_q, W_k, W_v (and W_o)")
        reject_unknown("weights.", weights, WEIGHT_KEYS)
    return cls(name=name, **data)  # every key is one of FILE_KEYS


def example_to_dict(example: Any) -> dict:
    """A JSON/TOML-ready mapping that :func:`example_from_dict` turns back into an equal
    example."""
    out: dict[str, Any] = {
        "title": example.title,
        "tokens": list(example.tokens),
        "embeddings": example.embeddings.tolist(),
        "heads": example.heads,
    }
    out.update(_weights_fields(example))
    mask = example.mask
    out["mask"] = mask if isinstance(mask, str) else mask.astype(int).tolist()
    if example.padding is not None:
        out["padding"] = [int(v) for v in example.padding]
    out["positional_encoding"] = example.positional_encoding
    out["scale"] = example.scale
    if example.is_cross:
        out["source_tokens"] = list(example.source_tokens)
        out["source_embeddings"] = example.source_embeddings.tolist()
    if example.source:
        out["source"] = example.source
    if example.model_text:
        out["model_text"] = example.model_text
    for key in ("kv_heads", "rotary_base", "positions", "query", "key", "key_pieces", "head"):
        if getattr(example, key) is not None:  # when set
            value = getattr(example, key)
            out[key] = list(value) if key in ("positions", "key_pieces") else value
    if example.block is not None:  # a trained encoder layer's own feed-forward and LayerNorms
        out["block"] = example.block.given()
    if example.head_scores is not None:  # each head's model-level scores (from-model)
        out["head_scores"] = [dict(row) for row in example.head_scores]
    return out


def _weights_fields(example: Any) -> dict:
    """The keys that give the weights: the seed (and sizes) of random ones, the matrices of
    explicit ones, nothing for identities."""
    w = example.weights
    if w.seed is not None:
        return {
            "seed": w.seed,
            "d_k": int(w.head(0, example.heads)[0].shape[1]),
            "d_v": int(w.head(0, example.heads)[2].shape[1]),
            "head_form": w.form,
        }
    if w.form != "identity":
        return {"weights": {k: v.tolist() for k, v in w.given().items()}}
    return {}


def parse_example_text(
    text: str, suffix: str, filename: str = "example", what: str = "example"
) -> dict:
    """Parse TOML or JSON text into a mapping, with the parser's complaint on one line.

    The one parser of what a user writes: example files, a course file and each line of its
    ``examples_jsonl`` (``what`` names it in the message: ``course``), so every one of them is
    refused alike, as ``"<what>: 'FILE' nests too deeply"`` for brackets nested past what the
    parser can follow (20,000 deep) rather than a RecursionError.

    A whole number too long for Python to read (thousands of digits) becomes a
    :class:`~attention_core.example.validation.WholeNumber`, so the field's own check names it.
    """
    try:
        if suffix == ".toml":
            return _parse_toml(text, filename)
        data = json.loads(
            text, parse_constant=_reject_constant, parse_int=_parse_int, parse_float=_parse_float
        )
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"{what}: {filename!r} is not valid TOML ({exc})") from None
    except json.JSONDecodeError as exc:
        raise ValueError(
            f"{what}: {filename!r} is not valid JSON ({exc.msg}, line {exc.lineno} "
            f"column {exc.colno})"
        ) from None
    except RecursionError:
        raise ValueError(f"{what}: {filename!r} nests too deeply") from None
    if not isinstance(data, dict):
        raise ValueError(f"{what}: {filename!r} must hold one object of keys (tokens, …)")
    return data


def _max_digits() -> int:
    limit = sys.get_int_max_str_digits()
    return limit if limit > 0 else 4300


def _parse_int(digits: str) -> int:
    n = len(digits.lstrip("-"))
    if n > _max_digits():
        return WholeNumber(n, digits.startswith("-"))
    return int(digits)


# strings and comments (kept as they are), or a run of digits outside them (group 1)
_NUMBER_RUN = re.compile(
    r'''"""[\s\S]*?"""|\'\'\'[\s\S]*?\'\'\'|"(?:\\.|[^"\\\n])*"|'[^'\n]*'|#[^\n]*'''
    r"|(?<![\w.])(\d(?:_?\d)*)(?![\w.])"
)
_STAND_IN = 10**4299  # a 4,300-digit number: stand-in k is _STAND_IN + k


def _parse_toml(text: str, filename: str) -> dict:
    """tomllib; when a whole number is longer than Python reads, each such run of digits is
    swapped for a stand-in number, turned into a :class:`WholeNumber` after parsing."""
    try:
        return tomllib.loads(text, parse_float=_parse_float)
    except ValueError as exc:
        if isinstance(exc, tomllib.TOMLDecodeError):
            raise
    runs: list[int] = []

    def stand_in(match: re.Match[str]) -> str:
        if match.group(1) is None:
            return match.group(0)  # a string or a comment
        digits = len(match.group(1).replace("_", ""))
        if digits <= _max_digits():
            return match.group(1)
        runs.append(digits)
        return str(_STAND_IN + len(runs) - 1)

    try:
        data = tomllib.loads(_NUMBER_RUN.sub(stand_in, text), parse_float=_parse_float)
    except ValueError as exc:
        if isinstance(exc, tomllib.TOMLDecodeError):
            raise
        raise ValueError(
            f"example: {filename!r} holds a number too long to read; every number must "
            "satisfy |x| ≤ 1,000,000"
        ) from None
    return _restore(data, runs)


def _parse_float(text: str) -> float:
    """A float, or an :class:`OverflowNumber` for a finite number written too large for one."""
    value = float(text)
    if math.isinf(value) and text.lstrip("+-").lower() not in ("inf", "infinity"):
        return OverflowNumber(text)
    return value


def _restore(value: Any, runs: list[int]) -> Any:
    """``value`` with each stand-in number replaced by the :class:`WholeNumber` it stands for."""
    if isinstance(value, dict):
        return {k: _restore(v, runs) for k, v in value.items()}
    if isinstance(value, list):
        return [_restore(v, runs) for v in value]
    if type(value) is int and abs(value) >= _STAND_IN and abs(value) - _STAND_IN < len(runs):
        return WholeNumber(runs[abs(value) - _STAND_IN], value < 0)
    return value


def _reject_constant(name: str) -> NoReturn:
    raise ValueError(
        f"example: {name} is not a number this tool accepts; every number must be finite"
    )


# -- a value as TOML text: the one writer (`init`'s template, from-model, the lecture page) -----
_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


def toml_string(text: str) -> str:
    """A TOML basic string that reads back as ``text``: quotes and backslashes escaped, every
    control character (and DEL) as ``\\uXXXX``; all else (accents, CJK, emoji beyond the BMP)
    written as itself. A lone surrogate has no TOML form: ``ValueError``."""
    out = []
    for ch in text:
        if ch in '"\\':
            out.append("\\" + ch)
        elif ch < " " or ch == "\x7f":
            out.append(f"\\u{ord(ch):04X}")
        elif "\ud800" <= ch <= "\udfff":
            raise ValueError(f"{text!r}: a lone surrogate (U+{ord(ch):04X}) has no TOML form")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def toml_key(key: str) -> str:
    """A TOML key: bare where TOML allows (letters, digits, ``_``, ``-``), else quoted."""
    return key if _BARE_KEY.fullmatch(key) else toml_string(key)


def toml_value(value: Any) -> str:
    """A TOML value (inline) for a string, bool, int, float, a mapping (an inline table) or a
    sequence (an array) of them: ``tomllib`` reads back the same value. A float is written as
    its shortest repr (the same double when read back), nan and ±inf as TOML's ``nan``/``inf``;
    None has no TOML form: ``TypeError``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return toml_string(value)
    if isinstance(value, int):
        return int.__repr__(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return float.__repr__(value)
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{toml_key(k)} = {toml_value(v)}" for k, v in value.items()) + "}"
    if value is None:
        raise TypeError("TOML has no null: leave the key out")
    return "[" + ", ".join(toml_value(v) for v in value) + "]"
