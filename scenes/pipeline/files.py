"""Writing files safely: whole or not at all, and removing scratch. No Manim; of the project,
only ``attention_core._files`` (the one atomic write and file hash, re-exported here).

Every file the tool writes goes through :func:`atomic_write` (or :func:`place` for a file made
elsewhere): it is written under a hidden temporary name in the destination's folder and renamed
into place when complete, so a reader, a concurrent render or a crash never sees half a file.
"""

from __future__ import annotations

import errno
import os
import shutil
import stat
import tempfile
from pathlib import Path

from attention_core._files import TMP_PREFIX as TMP_PREFIX
from attention_core._files import atomic_write as atomic_write
from attention_core._files import file_sha256

digest = file_sha256  # the SHA-256 of a file's bytes
MEDIA_PREFIX = "attn-media-"  # a worker's private Manim media folder in the temp folder


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
    OSError for a device, a FIFO or a folder, ValueError("… over N bytes") when longer. It is
    opened without blocking (a FIFO with no writer would block ``open``) and its type checked
    before reading; the size is checked while reading, so ``/dev/zero`` behind a link cannot
    fill the memory."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    with os.fdopen(fd, "rb", buffering=0) as f:
        if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
            raise OSError(errno.EINVAL, "not a regular file")
        data = f.read(limit + 1)
    if len(data) > limit:
        raise ValueError(f"over {limit:,} bytes")
    return data


def read_own(path, limit: int) -> bytes | None:
    """The bytes of a file this tool wrote (a record, a marker), or None when what is there
    cannot be that file: missing, a symbolic link (never followed: its target may be any file,
    which must never be read or quoted), a folder, a FIFO (opened without blocking), unreadable,
    or over ``limit`` bytes. The caller treats None as "no record": made again, never trusted."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, flags | getattr(os, "O_NOCTTY", 0))
    except (OSError, ValueError):  # ELOOP: a link; ValueError: a NUL in the name
        return None
    try:
        with os.fdopen(fd, "rb", buffering=0) as f:
            if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
                return None
            data = f.read(limit + 1)
    except OSError:
        return None
    return data if len(data) <= limit else None


def media_dir(pid: int | None = None) -> Path:
    """A new private media folder for process ``pid`` (default: this one) in the temp folder,
    named ``attn-media-<pid>-…`` so that its supervisor can remove it (:func:`remove_media`)."""
    return Path(tempfile.mkdtemp(prefix=f"{MEDIA_PREFIX}{pid or os.getpid()}-"))


def remove_media(pid: int) -> None:
    """Remove the media folders of process ``pid`` (a worker that ended or was killed)."""
    for p in Path(tempfile.gettempdir()).glob(f"{MEDIA_PREFIX}{pid}-*"):
        remove(p)


def sweep_media() -> int:
    """Remove the media folders whose process is gone: those that killed workers left before
    their supervisor could remove them; return how many."""
    swept = 0
    for p in Path(tempfile.gettempdir()).glob(f"{MEDIA_PREFIX}*"):
        pid = p.name[len(MEDIA_PREFIX) :].split("-", 1)[0]
        if p.is_dir() and not p.is_symlink() and pid.isdigit() and not alive(int(pid)):
            remove(p)
            swept += 1
    return swept


def alive(pid: int) -> bool:
    """Whether ``pid`` is a running process (a zombie, killed but not yet reaped, is not)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return True
    return state not in ("Z", "X")
