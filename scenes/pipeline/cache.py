"""Content keys: is an output already rendered from exactly these inputs? Decided without Manim.

A key hashes everything that determines an output: the example's values, the source code of the
core and the scenes, the look (quality, language, theme, aspect, transparency, font), the kind
of output and its format, and the pinned versions of Manim and manim-slides. Each finished output
has a small record beside it (``.keys/<name>.json``: key, files, seconds, steps, and each file's
size, modification time and SHA-256), written after the files themselves. An output is reused only
when its record has the same key and every file it lists is still there with its size; a file
whose modification time changed is hashed again, so a truncated, emptied or edited output is
rendered again, never trusted; so is one that cannot be read. ``verify`` hashes every file. A
render killed half-way leaves no record, so it is redone. A record is read only as the regular
file the tool wrote (:func:`scenes.pipeline.files.read_own`: a link is never followed, a FIFO
never blocks); anything else there is no record, and is replaced. What would stop a record from
being written after a render (``.keys`` a file or a link, a record that is a folder) is refused
before rendering (:func:`check_folder`).
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import stat
from functools import lru_cache
from importlib import metadata
from pathlib import Path

from attention_core.example.user_files import display
from scenes.pipeline.files import atomic_write, digest, read_own

KEY_VERSION = 2  # bump when the meaning of a record changes
MAX_RECORD_BYTES = 16_000_000  # a record is a few kB (its steps' words): more is not one
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
            name = f"{root.name}/{path.relative_to(root).as_posix()}"
            h.update(f"{name}\0".encode())
            try:
                h.update(hashlib.sha256(path.read_bytes()).digest())
            except OSError as exc:  # mode 000, say: every output's key needs it
                raise ValueError(
                    f"code: {display(name, 40)} cannot be read ({exc.strerror or exc}); every "
                    "file of the code is part of each output's key: make it readable (chmod a+r)"
                ) from None
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
    """The record of ``name``, or None: none there, or not one the tool wrote (a link, a
    folder, a FIFO, unreadable, not a JSON object): such an output is made again."""
    data = read_own(record_file(out_dir, name), MAX_RECORD_BYTES)
    if data is None:
        return None
    try:
        record = json.loads(data.decode("utf-8"))
    except (ValueError, RecursionError):
        return None
    return record if isinstance(record, dict) else None


def check_folder(folder, names=()) -> None:
    """ValueError naming --out when the records of ``folder`` could not be written after a
    render: its ``.keys`` is not a folder (a file, a link: followed, the records would land
    wherever it points), or one of the records ``names`` (in ``.keys``) is a folder. Checked
    before rendering. Any other damage (a record that is a link, a FIFO, garbage, unreadable)
    is no record: the render replaces it."""
    keys = os.path.join(folder, ".keys")
    try:
        st = os.lstat(keys)
    except OSError as exc:
        if exc.errno in (errno.ENOENT, errno.ENOTDIR):
            return  # made when the first record is written (an --out that is a file: its check)
        raise ValueError(f"--out: cannot look at {display(keys, 40)} ({exc.strerror})") from None
    if not stat.S_ISDIR(st.st_mode):
        what = "a link" if stat.S_ISLNK(st.st_mode) else "a file"
        raise ValueError(
            f"--out: {display(keys, 64)} is {what}, not the folder where the tool keeps its "
            "records; remove it (the next render makes it again)"
        )
    for name in names:
        path = os.path.join(keys, name)
        if os.path.isdir(path) and not os.path.islink(path):
            raise ValueError(
                f"--out: {display(path, 64)} is a folder where the tool keeps a record; "
                "remove it (the next render writes the record again)"
            )


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
        try:
            if verify or st.st_mtime_ns != want.get("mtime_ns"):
                if digest(path) != want.get("sha256"):
                    return f"{f} was changed (its hash differs)"
            else:  # not hashed: still, an output no one can open is not up to date
                os.close(os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0)))
        except OSError as exc:
            return f"{f} cannot be read ({exc.strerror or exc})"
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
