"""A disk cache of Pango text mobjects and character widths, shared by every render process.

Making a ``Text`` costs Pango plus parsing its SVG (about 0.03 s a string); profiling showed it
to be over half of a stills run, repeated in every process and every run. Finished ``Text``
objects are kept pickled (loading one costs about a quarter of making it), and measured
character advances in one small JSON file. Keys include Manim's and Pango's versions, so an
upgrade starts afresh. Files are written under a temporary name and renamed, so processes
rendering at once never read a half-written entry. ``ATTN_TEXT_CACHE=off`` turns it off;
``ATTN_TEXT_CACHE=/path`` moves it.

The cache has a size cap, ``ATTN_TEXT_CACHE_MB`` (default 200 MB): when a process has added
entries, the least recently used ones (a hit touches its file) are removed until the cache is
under 90 % of the cap. An entry that cannot be read back (truncated, corrupt, from another
version) is removed and made again, never fatal.
"""

from __future__ import annotations

import atexit
import contextlib
import hashlib
import json
import os
import pickle
from functools import lru_cache
from pathlib import Path

from attention_core._files import atomic_write

FORMAT = 3  # 2: right-to-left labels drawn through escaped MarkupText; 3: never wrapped
DEFAULT_CAP_MB = 200.0
_stored = 0  # bytes this process added since the last pruning
_registered = False


@lru_cache(maxsize=1)
def cache_dir() -> Path | None:
    setting = os.environ.get("ATTN_TEXT_CACHE", "")
    if setting.lower() == "off":
        return None
    from importlib.metadata import version

    import manimpango

    if setting:
        base = Path(setting)
    else:
        import platformdirs

        base = Path(platformdirs.user_cache_path("attention-explainer"))
    d = base / f"text-v{FORMAT}-manim{version('manim')}-pango{manimpango.pango_version()}"
    try:
        d.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return d


def cap_bytes() -> int:
    """The size cap: ``$ATTN_TEXT_CACHE_MB`` megabytes (default 200)."""
    try:
        mb = float(os.environ.get("ATTN_TEXT_CACHE_MB", "") or DEFAULT_CAP_MB)
    except ValueError:
        mb = DEFAULT_CAP_MB
    return max(0, int(mb * 1_000_000))


def prune(limit: int | None = None) -> int:
    """Remove the least recently used entries until the cache holds under 90 % of ``limit``
    (default: the cap); return the bytes it then holds."""
    d = cache_dir()
    if d is None:
        return 0
    limit = cap_bytes() if limit is None else limit
    entries = []
    for p in d.glob("*/*.pkl"):
        try:
            st = p.stat()
        except OSError:
            continue
        entries.append((st.st_mtime_ns, st.st_size, p))
    total = sum(size for _, size, _ in entries)
    if total <= limit:
        return total
    entries.sort()  # oldest use first
    for _, size, p in entries:
        if total <= 0.9 * limit:
            break
        p.unlink(missing_ok=True)
        total -= size
    return total


def _atomic_write(path: Path, data: bytes) -> None:
    """Write a cache file whole (the one atomic write); a cache that cannot be written is no
    error: the entry is made again next time."""
    with contextlib.suppress(OSError):
        atomic_write(path, data)


def _path(key: tuple) -> Path | None:
    d = cache_dir()
    if d is None:
        return None
    digest = hashlib.sha1(repr(key).encode()).hexdigest()
    return d / digest[:2] / f"{digest}.pkl"


def load(key: tuple):
    path = _path(key)
    if path is None:
        return None
    try:
        with open(path, "rb") as f:
            mob = pickle.load(f)
    except FileNotFoundError:
        return None
    except Exception:  # noqa: BLE001 - a corrupt entry is made again, never fatal
        path.unlink(missing_ok=True)
        return None
    with contextlib.suppress(OSError):
        os.utime(path)  # recently used: pruned last
    return mob


def store(key: tuple, mob) -> None:
    path = _path(key)
    if path is None:
        return
    global _stored, _registered
    path.parent.mkdir(exist_ok=True)
    data = pickle.dumps(mob, protocol=pickle.HIGHEST_PROTOCOL)
    _atomic_write(path, data)
    if not _registered:
        atexit.register(_prune_if_grown)
        _registered = True
    _stored += len(data)
    if _stored > cap_bytes() // 20:  # a long render prunes as it goes
        _prune_if_grown()


def _prune_if_grown() -> None:
    global _stored
    if _stored:
        _stored = 0
        with contextlib.suppress(OSError):
            prune()


# -- character widths --------------------------------------------------------------------------
_widths: dict[str, float] | None = None
_new = 0


def _widths_file() -> Path | None:
    d = cache_dir()
    return None if d is None else d / "char-widths.json"


def widths() -> dict[str, float]:
    global _widths
    if _widths is None:
        _widths = {}
        path = _widths_file()
        if path is not None:
            try:
                _widths = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                _widths = {}
            atexit.register(save_widths)
    return _widths


def remember_width(key: str, value: float) -> None:
    global _new
    widths()[key] = value
    _new += 1
    if _new >= 200:
        save_widths()


def save_widths() -> None:
    """Merge this process's new widths into the file (another process may have added some)."""
    global _new
    path = _widths_file()
    if path is None or not _new or _widths is None:
        return
    try:
        on_disk = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        on_disk = {}
    on_disk.update(_widths)
    _atomic_write(path, json.dumps(on_disk, ensure_ascii=False).encode("utf-8"))
    _new = 0


def segmenter_cache_dir(version: str) -> Path | None:
    """Where jieba keeps its prefix dictionary (9 MB, built in about a second): beside the text
    cache (``$ATTN_TEXT_CACHE`` when it names a folder, else the user cache folder,
    ``~/.cache/attention-explainer``), one folder per jieba version; None if it cannot be made
    (jieba then uses the temporary folder, as it does by default)."""
    setting = os.environ.get("ATTN_TEXT_CACHE", "")
    if setting and setting.lower() != "off":
        base = Path(setting)
    else:
        import platformdirs

        base = Path(platformdirs.user_cache_path("attention-explainer"))
    d = base / f"jieba-{version}"
    try:
        d.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return d
