"""Reading a file a user names: only a regular file, checked before it is opened, and at most a
size cap — so a FIFO, a device, a socket or a folder is refused at once (never a hang, never
``/dev/zero`` filling the memory), and a broken link is named as what it is.

:func:`read_user_file` is the one reader for every file of user input (examples, course files,
a course's ``examples_jsonl``); :func:`check_regular` the check alone (for a file another
library opens, such as a ``.npz``). Each problem is ``ValueError("<what>: <name> …")``.
"""

from __future__ import annotations

import errno
import os
import stat

KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


NAME_MAX = 255  # bytes of one file or folder name, on every common file system
PATH_MAX = 4096  # bytes of a whole path (Linux), its final NUL included


def display(path: str | os.PathLike[str], limit: int = 80) -> str:
    """How a message names ``path``: its repr, cut to ``limit`` characters in the middle (the
    start of the path and its file name are what a reader needs)."""
    text = os.fspath(path)
    if len(text) <= limit:
        return repr(text)
    head = limit * 3 // 8
    return repr(text[:head] + "…" + text[-(limit - head - 1) :])


def inside_folder(name: object, what: str, whose: str) -> str:
    """``name`` as a path relative to the folder of the file that names it (``whose``: "the
    example's", "the course's"), or ``ValueError`` naming ``what``: an absolute path or one with
    ``..`` would read outside that folder (``examples_jsonl = "../../etc/passwd"``)."""
    if not isinstance(name, str) or not name.strip():
        raise ValueError(f"{what}: expected a file name in quotes")
    if os.path.isabs(name) or ".." in name.split("/"):
        raise ValueError(
            f"{what}: {display(name, 40)} must be a path relative to {whose} folder, without '..'"
        )
    return name


def length_problem(path: str | os.PathLike[str], room: int = 0) -> str | None:
    """Why ``path`` is too long for the file system, or None: a name in it over ``NAME_MAX``
    bytes, or the whole path (absolute) over ``PATH_MAX`` once ``room`` more bytes are added
    below it (what a command writes under a folder). Said before any work, in one short line."""
    raw = _encoded(os.fspath(path))
    for part in raw.split(b"/"):
        if len(part) > NAME_MAX:
            shown = display(part.decode("utf-8", "replace"), 40)
            return f"the name {shown} is {len(part):,} bytes; a name is at most {NAME_MAX}"
    total = len(_encoded(os.path.abspath(path)))
    if total + room >= PATH_MAX:
        most = PATH_MAX - 1 - room
        why = f" (what is made in it needs {room:,} more of the system's {PATH_MAX:,})"
        return f"its path is {total:,} bytes; at most {most:,}{why if room else ''}"
    return None


def _encoded(text: str) -> bytes:
    try:
        return os.fsencode(text)
    except UnicodeEncodeError:  # a lone surrogate not from the file system: count it as UTF-8
        return text.encode("utf-8", "surrogatepass")


def check_regular(
    path: str | os.PathLike[str], what: str, name: str | None = None
) -> os.stat_result:
    """``os.stat(path)`` of a regular file (links followed), or ``ValueError`` saying what the
    path is instead: missing, a link loop, a link to nothing or to a device, a FIFO, a folder …
    ``name`` is how the message names the path (default: the path itself)."""
    shown = display(path) if name is None else name
    try:
        st = os.stat(path)
    except OSError as exc:
        raise ValueError(f"{what}: {shown} {_stat_problem(path, exc)}") from None
    except ValueError:  # a NUL character
        raise ValueError(f"{what}: {shown} holds a NUL character, which no file name can") from None
    if not stat.S_ISREG(st.st_mode):
        kind = next((k for test, k in KINDS if test(st.st_mode)), "not a regular file")
        link = _link_note(path)
        raise ValueError(f"{what}: {shown} {link}is {kind}, not a regular file")
    return st


def _link_note(path: str | os.PathLike[str]) -> str:
    """``"is a link to '/dev/null', which "`` for a symbolic link, else ``""``."""
    if not os.path.islink(path):
        return ""
    return f"is a link to {display(os.readlink(path))}, which "


def _stat_problem(path: str | os.PathLike[str], exc: OSError) -> str:
    if exc.errno == errno.ELOOP:
        return "is a symbolic link loop (following it leads back to itself); fix or remove the link"
    if exc.errno == errno.ENOENT and os.path.islink(path):
        return f"is a link to {display(os.readlink(path))}, which does not exist"
    if exc.errno == errno.ENOENT:
        return "does not exist"
    if exc.errno == errno.ENOTDIR:
        return "does not exist (a part of its path is a file, not a folder)"
    if exc.errno == errno.ENAMETOOLONG:
        return "is a name too long for the file system"
    return f"cannot be read ({exc.strerror or exc})"


def read_user_file(
    path: str | os.PathLike[str], limit: int, what: str, name: str | None = None
) -> bytes:
    """The bytes of the regular file ``path``, at most ``limit`` of them, or ``ValueError``.

    The type is checked before opening (:func:`check_regular`); the file is then opened without
    blocking and checked again (it may have been swapped meanwhile), and read at most one byte
    past the limit, so a file that grows cannot fill the memory either.
    """
    shown = display(path) if name is None else name
    st = check_regular(path, what, shown)
    if st.st_size > limit:
        raise ValueError(f"{what}: {shown} is {st.st_size:,} bytes; at most {limit:,} are read")
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(path, flags)
        with os.fdopen(fd, "rb", buffering=0) as f:
            if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
                raise ValueError(f"{what}: {shown} is not a regular file")
            data = f.read(limit + 1)
    except OSError as exc:
        raise ValueError(f"{what}: cannot read {shown} ({exc.strerror or exc})") from None
    if len(data) > limit:
        raise ValueError(f"{what}: {shown} is over {limit:,} bytes; at most {limit:,} are read")
    return data
