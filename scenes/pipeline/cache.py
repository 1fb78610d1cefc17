"""Content keys: is an output already rendered from exactly these inputs? Decided without Manim.

A key hashes everything that determines an output: the example's values, the source code of the
core and the scenes, the look (quality, language, theme, aspect, transparency, font), the kind
of output and its format, and the pinned versions of Manim and manim-slides. Each finished output
has a small record beside it (``.keys/<name>.json``: key, files, seconds, steps, and each file's
size, modification time and SHA-256), written after the files themselves. An output is reused only
when its record has the same key and every file it lists is still there with its size; a file
whose modification time changed is hashed again, so a truncated, emptied or edited output is
rendered again, never trusted. ``verify`` hashes every file. A render killed half-way leaves no
record, so it is redone.
"""

from __future__ import annotations

import hashlib
import json
import os
from functools import lru_cache
from importlib import metadata
from pathlib import Path

from scenes.pipeline.files import atomic_write, digest

KEY_VERSION = 2  # bump when the meaning of a record changes
_PACKAGES = ("attention_core", "scenes")
_SUFFIXES = (".py", ".js")


@lru_cache(maxsize=1)
def code_digest() -> str:
    """One hash of every source file (``*.py``, ``*.js``) of the core and the scenes, found
    recursively under the folders the imported packages come from (a few ms)."""
    return tree_digest(package_roots())


def package_roots() -> list[Path]:
    """The folders of the packages whose code draws an output, as Python imported them (so a
    module moved into a subpackage is still hashed)."""
    import importlib

    return [Path(importlib.import_module(p).__file__).resolve().parent for p in _PACKAGES]


def tree_digest(roots: list[Path]) -> str:
    """One hash of the names and bytes of every ``*.py`` and ``*.js`` file under ``roots``."""
    h = hashlib.sha256()
    for root in roots:
        files = [p for p in root.rglob("*") if p.suffix in _SUFFIXES and p.is_file()]
        for path in sorted(files):
            h.update(f"{root.name}/{path.relative_to(root).as_posix()}\0".encode())
            h.update(hashlib.sha256(path.read_bytes()).digest())
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
    return Path(record_file(out_dir, name))


def record_file(out_dir, name: str) -> str:
    """:func:`record_path` as text: a course's 60,000 look-ups join strings, not paths."""
    return os.path.join(out_dir, ".keys", f"{name}.json")


def has_record(out_dir, name: str) -> bool:
    """Whether an output ``name`` in ``out_dir`` has a record (rendered before)."""
    return os.path.isfile(record_file(out_dir, name))


def read_record(out_dir: Path, name: str) -> dict | None:
    try:
        return json.loads(record_path(out_dir, name).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def problem(out_dir: Path, record: dict, verify: bool = False) -> str | None:
    """Why the files ``record`` lists are not as it recorded them (None: they are).

    A missing file or a different size is a problem; a changed modification time (or ``verify``)
    means the file is hashed and compared. A record ``--verify`` marked bad (:func:`mark_bad`)
    has that problem until the output is made again."""
    if record.get("bad"):  # --verify found it changed: it stays so until rendered again
        return str(record["bad"])
    digests = record.get("digests")
    if not isinstance(digests, dict):
        return "its record has no sizes and hashes"
    for f in record.get("files", []):
        path = Path(out_dir) / f
        want = digests.get(f)
        try:
            st = path.stat()
        except OSError:
            return f"{f} is missing"
        if not path.is_file() or not isinstance(want, dict):
            return f"{f} is missing"
        if st.st_size != want.get("size"):
            return f"{f} has {st.st_size:,} bytes, not {want.get('size'):,}"
        if (verify or st.st_mtime_ns != want.get("mtime_ns")) and digest(path) != want.get(
            "sha256"
        ):
            return f"{f} was changed (its hash differs)"
    return None


def fresh_record(out_dir: Path, name: str, key: str, verify: bool = False) -> dict | None:
    """The record of ``name`` if it was made with ``key`` and all its files are as recorded."""
    rec = read_record(out_dir, name)
    if not rec or rec.get("key") != key:
        return None
    if problem(out_dir, rec, verify) is not None:
        return None
    return rec


def write_record(out_dir: Path, name: str, record: dict) -> None:
    """Write the record atomically (temporary file, then rename), with each file's size,
    modification time and hash (the files are complete before their record is written)."""
    digests = {}
    for f in record.get("files", []):
        path = Path(out_dir) / f
        st = path.stat()
        digests[f] = {"size": st.st_size, "mtime_ns": st.st_mtime_ns, "sha256": digest(path)}
    record = {**record, "digests": digests}
    atomic_write(record_path(out_dir, name), json.dumps(record, ensure_ascii=False, indent=1))


def mark_bad(out_dir: Path, name: str, record: dict, why: str) -> None:
    """Note in the record that ``--verify`` found its output ``why`` not as recorded, so the
    next render makes it again (a file edited in place with its modification time kept looks
    unchanged to a render, which hashes only when the time differs)."""
    if record.get("bad") != why:
        text = json.dumps({**record, "bad": why}, ensure_ascii=False, indent=1)
        atomic_write(record_path(out_dir, name), text)


def keep_steps(out_dir: Path, name: str, steps: list) -> None:
    """Rewrite the record of ``name`` with ``steps`` (its key, files, sizes and hashes as they
    were): what was worked out about a finished output is kept, not worked out again."""
    record = read_record(out_dir, name)
    if record is not None:
        text = json.dumps({**record, "steps": steps}, ensure_ascii=False, indent=1)
        atomic_write(record_path(out_dir, name), text)
