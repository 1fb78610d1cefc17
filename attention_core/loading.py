"""Loading an example: a preset name, or a TOML/JSON file (named by its stem)."""

from __future__ import annotations

import json
import os
import stat
import tomllib
from pathlib import Path

from .example import Example
from .presets import PRESETS

MAX_FILE_BYTES = 1_000_000


def load_example(path_or_preset_name) -> Example:
    """Return the preset of that name, or the example in that ``.toml`` / ``.json`` file.

    Every problem is a ``ValueError`` whose message names the field (or the file) and the fix.
    """
    key = os.fspath(path_or_preset_name)
    if key in PRESETS:
        return PRESETS[key]
    path = Path(key)
    if not path.exists():
        import difflib

        close = difflib.get_close_matches(key, list(PRESETS), n=1, cutoff=0.6)
        hint = f"did you mean {close[0]!r}? " if close else ""
        raise ValueError(
            f"example: {key!r} is neither a preset nor an existing file; {hint}"
            f"known presets: {', '.join(PRESETS)}"
        )
    if path.is_dir():
        raise ValueError(f"example: {key!r} is a folder; give a .toml or .json file")
    suffix = path.suffix.lower()
    if suffix not in (".toml", ".json"):
        raise ValueError(f"example: {path.name!r} must end in .toml or .json")
    try:
        # opened without blocking (a FIFO), checked to be a regular file (not /dev/zero behind
        # a link), and read at most one byte past the limit
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb", buffering=0) as f:
            if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
                raise ValueError(f"example: {path.name!r} is not a regular file")
            raw = f.read(MAX_FILE_BYTES + 1)
        if len(raw) > MAX_FILE_BYTES:
            size = max(len(raw), path.stat().st_size)
            raise ValueError(
                f"example: {path.name!r} is {size:,} bytes; an example file is at "
                f"most {MAX_FILE_BYTES:,}"
            )
    except OSError as exc:
        raise ValueError(f"example: cannot read {path.name!r} ({exc.strerror or exc})") from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ValueError(f"example: {path.name!r} is not UTF-8 text (a binary file?)") from None
    if "\x00" in text:
        raise ValueError(f"example: {path.name!r} is not UTF-8 text (a binary file?)")
    data = parse_example_text(text, suffix, path.name)
    return Example.from_dict(data, name=path.stem)


def parse_example_text(text: str, suffix: str, filename: str = "example") -> dict:
    """Parse TOML or JSON text into a mapping, with the parser's complaint on one line."""
    try:
        if suffix == ".toml":
            return tomllib.loads(text)
        data = json.loads(text, parse_constant=_reject_constant)
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"example: {filename!r} is not valid TOML ({exc})") from None
    except json.JSONDecodeError as exc:
        raise ValueError(
            f"example: {filename!r} is not valid JSON ({exc.msg}, line {exc.lineno} "
            f"column {exc.colno})"
        ) from None
    except RecursionError:
        raise ValueError(f"example: {filename!r} nests too deeply") from None
    if not isinstance(data, dict):
        raise ValueError(f"example: {filename!r} must hold one object of keys (tokens, …)")
    return data


def _reject_constant(name: str):
    raise ValueError(
        f"example: {name} is not a number this tool accepts; every number must be finite"
    )
