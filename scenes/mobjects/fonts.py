"""The font every text on screen uses, checked against the fonts installed on this machine.

A scene renders with its look's font (:func:`using`, for the length of the render). A requested
family that is missing falls back to the first installed of :data:`FALLBACKS`, with
one clear warning: CJK labels need ``fonts-noto-cjk`` (``make setup`` installs it).
"""

from __future__ import annotations

import sys
from contextlib import contextmanager
from functools import lru_cache

DEFAULT_FONT = "Noto Sans CJK SC"  # fonts-noto-cjk: CJK and Latin in one family

FALLBACKS = (DEFAULT_FONT, "Noto Sans", "DejaVu Sans", "sans-serif")

_active = DEFAULT_FONT
_warned: set[str] = set()


@lru_cache(maxsize=1)
def installed() -> frozenset[str]:
    import manimpango

    return frozenset(manimpango.list_fonts())


def resolve(requested: str) -> tuple[str, str | None]:
    """``(family to use, warning or None)`` for ``requested``."""
    have = installed()
    if requested in have:
        return requested, None
    fallback = next((f for f in FALLBACKS if f in have), "sans-serif")
    return fallback, (
        f"font {requested!r} is not installed; using {fallback!r} instead "
        "(install it, e.g. `apt-get install fonts-noto-cjk`, or choose --font)"
    )


def checked(requested: str | None) -> str:
    """The family texts will use for ``requested`` (its fallback when missing); warns once."""
    family, warning = resolve(requested or DEFAULT_FONT)
    if warning and warning not in _warned:
        _warned.add(warning)
        print(f"attn-explain: warning: {warning}", file=sys.stderr, flush=True)
    return family


@contextmanager
def using(requested: str | None):
    """Every text made inside the ``with`` block uses ``requested`` (or its fallback)."""
    global _active
    before, _active = _active, checked(requested)
    try:
        yield _active
    finally:
        _active = before


def active() -> str:
    return _active
