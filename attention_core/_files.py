"""Writing a file whole or not at all, and a file's SHA-256: the one copy that the core, the
drawing kit, the narration and the render pipeline all use (it imports nothing of the project).

A file is written under a hidden temporary name in its own folder (``.tmp-<name>.<random>-<pid>``:
a supervisor removes those of dead processes) and renamed into place when complete, so a reader,
a concurrent render or a crash never sees half a file; a write that fails removes its temporary
file and raises. Nothing is fsynced: a rename after a crash may lose the new file, never show
half of it.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO

TMP_PREFIX = ".tmp-"


def _umask_mode() -> int:
    """The mode ``open()`` gives a new file: 0o666 less the umask."""
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


@contextmanager
def atomic_file(
    path: str | os.PathLike[str],
    mode: int | None = 0o644,
    check: Callable[[Path], object] | None = None,
) -> Iterator[BinaryIO]:
    """A binary file to write ``path`` through: renamed into place when the block ends without
    an error (after ``check(temporary path)``, which may raise to refuse it), else removed.

    ``mode``: the file's permissions (``None``: as ``open()`` makes them, 0o666 less the umask).
    The folder is created if missing.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(
        prefix=f"{TMP_PREFIX}{path.name}.", suffix=f"-{os.getpid()}", dir=path.parent
    )
    try:
        with os.fdopen(fd, "wb") as f:
            yield f
        if check is not None:
            check(Path(tmp))
        os.chmod(tmp, _umask_mode() if mode is None else mode)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def atomic_write(
    path: str | os.PathLike[str],
    data: bytes | str,
    *,
    encoding: str = "utf-8",
    mode: int | None = 0o644,
) -> Path:
    """Write ``data`` (bytes, or text in ``encoding``) to ``path`` atomically; return the path."""
    blob = data.encode(encoding) if isinstance(data, str) else data
    with atomic_file(path, mode) as f:
        f.write(blob)
    return Path(path)


def file_sha256(path: str | os.PathLike[str]) -> str:
    """The SHA-256 of a file's bytes (hex), read in blocks (``hashlib.file_digest``)."""
    with open(path, "rb") as f:
        return hashlib.file_digest(f, "sha256").hexdigest()
