"""A disk cache of Pango text mobjects and character widths, shared by every render process.

Making a ``Text`` costs Pango plus parsing its SVG (about 0.03 s a string); profiling showed it
to be over half of a stills run, repeated in every process and every run. Finished ``Text``
objects are kept pickled (loading one costs about a quarter of making it), and measured
character advances in one small JSON file. Keys include Manim's and Pango's versions, so an
upgrade starts afresh. Files are written under a temporary name and renamed, so processes
rendering at once never read a half-written entry. ``ATTN_TEXT_CACHE=off`` turns it off;
``ATTN_TEXT_CACHE=/path`` moves it.
"""

from __future__ import annotations

import atexit
import hashlib
import json
import os
import pickle
import tempfile
from functools import lru_cache
from pathlib import Path

FORMAT = 2  # 2: right-to-left labels drawn through escaped MarkupText


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


def _atomic_write(path: Path, data: bytes) -> None:
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}-", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except OSError:
        Path(tmp).unlink(missing_ok=True)


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
            return pickle.load(f)
    except (OSError, EOFError, pickle.UnpicklingError, AttributeError, ImportError):
        return None


def store(key: tuple, mob) -> None:
    path = _path(key)
    if path is None:
        return
    path.parent.mkdir(exist_ok=True)
    _atomic_write(path, pickle.dumps(mob, protocol=pickle.HIGHEST_PROTOCOL))


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
