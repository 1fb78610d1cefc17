"""Writing files safely: whole or not at all, and removing scratch. No Manim, no project imports.

Every file the tool writes goes through :func:`atomic_write` (or :func:`place` for a file made
elsewhere): it is written under a hidden temporary name in the destination's folder and renamed
into place when complete, so a reader, a concurrent render or a crash never sees half a file.
"""

from __future__ import annotations

import errno
import hashlib
import os
import shutil
import stat
import tempfile
from pathlib import Path

TMP_PREFIX = ".tmp-"


def atomic_write(path, data: bytes | str, *, encoding: str = "utf-8", mode: int = 0o644) -> Path:
    """Write ``data`` (bytes, or text in ``encoding``) to ``path`` atomically; return the path."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    blob = data.encode(encoding) if isinstance(data, str) else data
    # ends in "-<pid>", like every scratch name: a supervisor removes those of dead processes
    fd, tmp = tempfile.mkstemp(
        prefix=f"{TMP_PREFIX}{path.name}.", suffix=f"-{os.getpid()}", dir=path.parent
    )
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(blob)
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def place(src, dst) -> Path:
    """Rename ``src`` to ``dst`` (atomic on one file system), creating ``dst``'s folder."""
    dst = Path(dst)
    dst.parent.mkdir(parents=True, exist_ok=True)
    os.replace(src, dst)
    return dst


def remove(path) -> None:
    """Remove a file or a folder tree, if it exists."""
    p = Path(path)
    if p.is_dir() and not p.is_symlink():
        shutil.rmtree(p, ignore_errors=True)
    else:
        p.unlink(missing_ok=True)


def read_capped(path, limit: int) -> bytes:
    """The bytes of the regular file ``path`` (a symlink's target counts), at most ``limit``:
    OSError for a device, a FIFO or a folder, ValueError("… over N bytes") when longer. The
    size is checked while reading, so ``/dev/zero`` behind a link cannot fill the memory."""
    with open(path, "rb", buffering=0) as f:
        if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
            raise OSError(errno.EINVAL, "not a regular file")
        data = f.read(limit + 1)
    if len(data) > limit:
        raise ValueError(f"over {limit:,} bytes")
    return data


def digest(path, chunk: int = 1 << 20) -> str:
    """The SHA-256 of a file's bytes."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while block := f.read(chunk):
            h.update(block)
    return h.hexdigest()
