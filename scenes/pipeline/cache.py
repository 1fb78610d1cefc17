"""Content keys: is an output already rendered from exactly these inputs? Decided without Manim.

A key hashes everything that determines an output: the example's values, the source code of the
core and the scenes, the look (quality, language, theme, aspect, transparency, font), the kind
of output and its format, and the pinned versions of Manim and manim-slides. Each finished output
has a small record beside it (``.keys/<name>.json``: key, files, seconds, steps), written after
the files themselves; an output is reused only when its record has the same key and every file it
lists exists. A render killed half-way leaves no record, so it is redone.
"""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from importlib import metadata
from pathlib import Path

from scenes.pipeline.files import atomic_write

KEY_VERSION = 1  # bump when the meaning of a record changes
_PACKAGES = ("attention_core", "scenes")


@lru_cache(maxsize=1)
def code_digest() -> str:
    """One hash of every source file of the core and the scenes (a few ms)."""
    root = Path(__file__).resolve().parent.parent
    h = hashlib.sha256()
    for package in _PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            h.update(str(path.relative_to(root)).encode())
            h.update(path.read_bytes())
    return h.hexdigest()


@lru_cache(maxsize=1)
def tool_versions() -> dict:
    out = {}
    for dist in ("manim", "manim-slides", "av"):
        try:
            out[dist] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            out[dist] = None
    return out


def content_key(**parts) -> str:
    """The key of an output made from ``parts`` (JSON-able values) and this code and tools."""
    blob = json.dumps(
        {"v": KEY_VERSION, "code": code_digest(), "tools": tool_versions(), **parts},
        sort_keys=True,
        ensure_ascii=True,
        default=str,
    )
    return hashlib.sha256(blob.encode()).hexdigest()


def record_path(out_dir: Path, name: str) -> Path:
    return Path(out_dir) / ".keys" / f"{name}.json"


def read_record(out_dir: Path, name: str) -> dict | None:
    try:
        return json.loads(record_path(out_dir, name).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def fresh_record(out_dir: Path, name: str, key: str) -> dict | None:
    """The record of ``name`` if it was made with ``key`` and all its files are still there."""
    rec = read_record(out_dir, name)
    if not rec or rec.get("key") != key:
        return None
    if not all((Path(out_dir) / f).is_file() for f in rec.get("files", [])):
        return None
    return rec


def write_record(out_dir: Path, name: str, record: dict) -> None:
    """Write the record atomically (temporary file, then rename)."""
    atomic_write(record_path(out_dir, name), json.dumps(record, ensure_ascii=False, indent=1))
