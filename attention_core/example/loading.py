"""Loading an example: a preset name, or a TOML/JSON file (named by its stem).

A file may keep its large matrices in a sidecar NumPy ``.npz`` file that it names,
``arrays = "cat.npz"`` (a path relative to the file's folder): its arrays fill in the fields of
those names (``embeddings``, ``source_embeddings``, ``W_q`` … ``W_o``, ``b_q`` … ``b_o``, and a
trained encoder layer's ``W_1``, ``b_1``, ``W_2``, ``b_2``, ``gamma_1`` … ``beta_2`` under
``[block]``), and are
checked like any input (size, numbers only, finite, shapes). ``attn-explain from-model`` writes
such pairs, since one head of a real model is about 40,000 numbers.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .block_fields import BLOCK_ARRAYS
from .file_format import parse_example_text
from .model import Example
from .presets import PRESETS
from .user_files import check_regular, display, inside_folder, read_user_file

if TYPE_CHECKING:
    import numpy as np

MAX_FILE_BYTES = 1_000_000
MAX_ARRAYS_BYTES = 16_000_000  # the .npz file on disk
MAX_ARRAYS_UNPACKED = 64_000_000  # its arrays, uncompressed
ARRAY_FIELDS = ("embeddings", "source_embeddings")
ARRAY_WEIGHTS = ("W_q", "W_k", "W_v", "W_o", "b_q", "b_k", "b_v", "b_o")


def load_example(path_or_preset_name: str | os.PathLike[str]) -> Example:
    """Return the preset of that name, or the example in that ``.toml`` / ``.json`` file.

    Every problem is a ``ValueError`` whose message names the field (or the file) and the fix.

    Parameters
    ----------
    path_or_preset_name : str or path
        A preset's name (``attn-explain examples``) or an example file.

    Returns
    -------
    Example

    Examples
    --------
    >>> ex = load_example("zao-shang-hao")
    >>> ex.tokens, ex.d_model
    (('早', '上', '好'), 2)
    """
    key = os.fspath(path_or_preset_name)
    if key in PRESETS:
        return PRESETS[key]
    path = _example_path(key)
    text = _decode(_read_example_bytes(path), path.name)
    data = parse_example_text(text, path.suffix.lower(), path.name)
    if "arrays" in data:
        data = merge_arrays(data, path.parent)
    return Example.from_dict(data, name=path.stem)


def _example_path(key: str) -> Path:
    """The example file ``key`` names: a .toml or .json path where something exists (a file,
    or a link to be reported as what it is), else the nearest preset is suggested."""
    path = Path(key)
    if not os.path.lexists(path):
        import difflib

        close = difflib.get_close_matches(key[:100], list(PRESETS), n=1, cutoff=0.6)
        hint = f"did you mean {close[0]!r}? " if close else ""
        raise ValueError(
            f"example: {display(key)} is neither a preset nor an existing file; {hint}"
            f"known presets: {', '.join(PRESETS)}"
        )
    if path.is_dir():
        raise ValueError(f"example: {display(key)} is a folder; give a .toml or .json file")
    if path.suffix.lower() not in (".toml", ".json"):
        raise ValueError(f"example: {display(path.name)} must end in .toml or .json")
    return path


def _read_example_bytes(path: Path) -> bytes:
    """The file's bytes, at most ``MAX_FILE_BYTES`` of them, from a regular file only (checked
    before it is opened: a FIFO or a device is refused, never read)."""
    name = display(path.name)
    try:
        return read_user_file(path, MAX_FILE_BYTES, "example", name=name)
    except ValueError as exc:
        if " bytes; at most " in str(exc):
            size = os.stat(path).st_size
            raise ValueError(
                f"example: {name} is {max(size, MAX_FILE_BYTES + 1):,} bytes; an example file "
                f"is at most {MAX_FILE_BYTES:,}"
            ) from None
        raise


def _decode(raw: bytes, filename: str) -> str:
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ValueError(
            f"example: {display(filename)} is not UTF-8 text (a binary file?)"
        ) from None
    if "\x00" in text:
        raise ValueError(f"example: {display(filename)} is not UTF-8 text (a binary file?)")
    return text


def merge_arrays(data: dict, folder: Path) -> dict:
    """``data`` with the arrays of its ``arrays = "FILE.npz"`` sidecar filled in.

    Each array of the file fills the field of its name (``W_q`` … ``b_o`` go under
    ``[weights]``, ``W_1`` … ``beta_2`` under ``[block]``); a field given both in the file and
    in the sidecar, an unknown array name, a file too large, a pickled or non-numeric array: each
    is a ``ValueError`` naming it.
    """
    name = data["arrays"]
    arrays = _read_sidecar(_sidecar_path(name, folder), name)
    out = {k: v for k, v in data.items() if k != "arrays"}
    weights = out.get("weights", {})
    if not isinstance(weights, dict):
        raise ValueError("weights: expected a table with W_q, W_k, W_v (and W_o)")
    block = out.get("block", {})
    if not isinstance(block, dict):
        raise ValueError(f"block: expected a table with {', '.join(BLOCK_ARRAYS)}")
    weights, block = dict(weights), dict(block)
    for key, arr in arrays.items():
        _check_sidecar_array(key, arr, name)
        target, field = (out, key)
        if key in ARRAY_WEIGHTS:
            target, field = (weights, f"weights.{key}")
        elif key in BLOCK_ARRAYS:
            target, field = (block, f"block.{key}")
        if key in target:
            raise ValueError(f"{field}: given both in the file and in {display(name)}; keep one")
        target[key] = arr
    for key, table in (("weights", weights), ("block", block)):
        if table:
            out[key] = table
    return out


def _sidecar_path(name: object, folder: Path) -> Path:
    """The .npz file that ``arrays = NAME`` names: relative to the example's folder, existing."""
    if not isinstance(name, str) or not name.strip():
        raise ValueError('arrays: expected a file name in quotes, e.g. arrays = "cat.npz"')
    rel = Path(inside_folder(name, "arrays", "the example's"))
    if rel.suffix.lower() != ".npz":
        raise ValueError(f"arrays: {display(name)} must be a NumPy .npz file")
    path = folder / rel
    if not os.path.lexists(path):
        raise ValueError(f"arrays: {display(name)} does not exist next to the example file")
    check_regular(path, "arrays", display(name))
    return path


def _read_sidecar(path: Path, name: str) -> dict:
    """Every array of the .npz file, within the size limits, never unpickled. Its bytes are read
    once, as every user file is (:func:`read_user_file`: the type checked before opening, so a
    FIFO swapped in never blocks), and unpacked from memory."""
    import io
    import zipfile

    import numpy as np

    raw = read_user_file(path, MAX_ARRAYS_BYTES, "arrays", display(name))
    try:
        with zipfile.ZipFile(io.BytesIO(raw)) as zf:
            unpacked = sum(i.file_size for i in zf.infolist())
        if unpacked > MAX_ARRAYS_UNPACKED:
            raise ValueError(
                f"arrays: {display(name)} unpacks to {unpacked:,} bytes; at most "
                f"{MAX_ARRAYS_UNPACKED:,}"
            )
        with np.load(io.BytesIO(raw), allow_pickle=False) as npz:
            return {key: _sidecar_member(npz, key, name) for key in npz.files}
    except zipfile.BadZipFile:
        raise ValueError(f"arrays: {display(name)} is not a NumPy .npz file") from None
    except OSError as exc:
        raise ValueError(f"arrays: cannot read {display(name)} ({exc.strerror or exc})") from None
    except ValueError as exc:
        if str(exc).startswith("arrays:"):
            raise
        raise ValueError(
            f"arrays: {display(name)} holds something other than numbers ({str(exc)[:120]})"
        ) from None


def _sidecar_member(npz: Any, key: str, name: str) -> np.ndarray:
    """One member of the .npz file: a NumPy array of plain values (never a pickled object)."""
    import numpy as np

    try:
        value = npz[key]
    except ValueError:
        value = None
    if not isinstance(value, np.ndarray) or value.dtype.hasobject:
        raise ValueError(
            f"arrays: {display(key)} in {display(name)} is not a NumPy array of numbers (a "
            "pickled object or another kind of file); save plain arrays with numpy.savez"
        )
    return value


def _check_sidecar_array(key: str, arr: np.ndarray, name: str) -> None:
    """An array of a field this tool uses, of numbers."""
    import numpy as np

    known = ARRAY_FIELDS + ARRAY_WEIGHTS + BLOCK_ARRAYS
    if key not in known:
        import difflib

        close = difflib.get_close_matches(key[:100], known, n=1, cutoff=0.5)
        hint = f"did you mean {close[0]!r}?" if close else f"known: {', '.join(known)}"
        raise ValueError(
            f"arrays: {display(name)} holds an array {display(key)} this tool does not use; {hint}"
        )
    if arr.dtype == np.bool_ or not (
        np.issubdtype(arr.dtype, np.integer) or np.issubdtype(arr.dtype, np.floating)
    ):
        raise ValueError(
            f"arrays: {display(key)} in {display(name)} has dtype {arr.dtype}; expected numbers"
        )


def named_files(path: str | os.PathLike[str]) -> list[Path]:
    """The other files the example file ``path`` names (its ``arrays`` sidecar, there yet or
    not), for ``watch``: none when the file cannot be read or names none, or names one
    ``load_example`` refuses (its error is that function's to say)."""
    path = Path(path)
    try:
        text = _decode(_read_example_bytes(path), path.name)
        name = parse_example_text(text, path.suffix.lower(), path.name).get("arrays")
    except (ValueError, TypeError, OSError):
        return []
    try:
        return [path.parent / inside_folder(name, "arrays", "the example's")]
    except ValueError:
        return []
