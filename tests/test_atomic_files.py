"""The one atomic write and file hash (attention_core/_files.py), which the pipeline, the text
cache, the narration's voice files and from-model all write through: a file is there whole or
not at all, its temporary file never left behind."""

from __future__ import annotations

import hashlib
import os

import pytest

from attention_core import _files


def _left(folder):
    return sorted(p.name for p in folder.iterdir())


def test_a_write_that_fails_half_way_keeps_the_old_file_and_leaves_no_scratch(tmp_path):
    target = tmp_path / "deep" / "out.bin"
    _files.atomic_write(target, b"old")
    with pytest.raises(OSError, match="disk full"), _files.atomic_file(target) as f:
        f.write(b"half of the new")
        raise OSError("disk full")
    assert target.read_bytes() == b"old" and _left(target.parent) == ["out.bin"]
    assert oct(target.stat().st_mode & 0o777) == "0o644"


def test_a_check_that_refuses_the_file_keeps_the_old_one(tmp_path):
    target = tmp_path / "model.onnx"
    target.write_bytes(b"old")
    seen = []

    def refuse(tmp):
        seen.append((tmp.name, tmp.read_bytes()))
        raise ValueError("damaged")

    with pytest.raises(ValueError, match="damaged"), _files.atomic_file(target, check=refuse) as f:
        f.write(b"new")
    assert seen and seen[0][0].startswith(".tmp-model.onnx.") and seen[0][1] == b"new"
    assert target.read_bytes() == b"old" and _left(tmp_path) == ["model.onnx"]


def test_mode_none_is_what_open_makes(tmp_path):
    old = os.umask(0o027)
    try:
        _files.atomic_write(tmp_path / "a.toml", "title = 1\n", mode=None)
    finally:
        os.umask(old)
    assert oct((tmp_path / "a.toml").stat().st_mode & 0o777) == "0o640"


def test_the_file_hash_is_sha256_of_the_bytes(tmp_path):
    data = os.urandom(3 << 20)
    (tmp_path / "x").write_bytes(data)
    assert _files.file_sha256(tmp_path / "x") == hashlib.sha256(data).hexdigest()
