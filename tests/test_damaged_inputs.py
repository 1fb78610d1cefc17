"""Issue 39, "nothing damaged is trusted": a FIFO where a file was, an unreadable file, a name too
long, a file nested too deeply, a path out of its folder and damaged records under --out. Each is
refused in one short line naming it and the fix (exit 2, no traceback, nothing written, before
any work) or repaired where that is the sensible thing, through the real console script.

The tests run as root, who reads any file: unreadability is injected with the fault shim
(``faults.env("unreadable:<path>")``: opening that file fails with EACCES).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import threading
import time
from pathlib import Path

import numpy as np
import pytest
from conftest import CLI, ROOT
from faults import env as fault_env

EXAMPLE = 'tokens = ["a", "b"]\narrays = "x.npz"\n'
PNG = ["--scene", "Embeddings", "--format", "png", "-q", "l"]  # the smallest render


def run(args, *, cwd=None, env=None, timeout=60):
    argv = [CLI, *map(os.fspath, args)]
    return subprocess.run(
        argv, cwd=cwd, capture_output=True, timeout=timeout, env={**os.environ, **(env or {})}
    )


def err_lines(r) -> list[str]:
    return r.stderr.decode("utf-8", "replace").strip().splitlines()


def tree(folder: Path) -> set:
    return {p.relative_to(folder) for p in folder.rglob("*")}


def npz(path: Path, shift: float = 0.0) -> Path:
    np.savez(path, embeddings=np.array([[1.0, shift], [0.0, 1.0]]))
    return path


def example_with_sidecar(folder: Path) -> Path:
    npz(folder / "x.npz")
    (folder / "e.toml").write_text(EXAMPLE, encoding="utf-8")
    return folder / "e.toml"


# -- refused in one line, exit 2, nothing written, before any work ------------------------------
def _sidecar_fifo(tmp):
    (tmp / "e.toml").write_text(EXAMPLE, encoding="utf-8")
    os.mkfifo(tmp / "x.npz")
    return ["numbers", tmp / "e.toml"], {}


def _sidecar_fifo_render(tmp):
    args, env = _sidecar_fifo(tmp)
    return ["render", args[1], *PNG, "--out", tmp / "o"], env


def _code_unreadable(*command):
    def setup(tmp):
        env = fault_env(f"unreadable:{ROOT / 'scenes' / '_template.py'}")
        if command[0] == "batch":
            (tmp / "c.toml").write_text('examples = ["causal"]\n', encoding="utf-8")
            return ["batch", tmp / "c.toml", *command[1:], "--out", tmp / "o"], env
        return [*command, "--out", tmp / "o"], env

    return setup


LONG = "x" * 300


def _deep_out(tmp):
    return ["render", *PNG, "--out", tmp.joinpath(*["y" * 250] * 16)], {}


def _course(text: str, name: str = "c.toml"):
    def setup(tmp):
        (tmp / name).write_text(text, encoding="utf-8")
        return ["batch", tmp / name, "--dry-run", "--out", tmp / "o"], {}

    return setup


def _out_dir(tmp, *parts) -> Path:
    """A folder of an earlier render's, made by hand (the checks look before rendering)."""
    folder = tmp.joinpath("o", "zao-shang-hao", *parts)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _records(damage):
    def setup(tmp):
        damage(tmp)
        return ["render", *PNG, "--out", tmp / "o"], {}

    return setup


def _source_folder(tmp):
    _out_dir(tmp, ".keys", "source")


def _example_keys_file(tmp):
    (_out_dir(tmp) / ".keys").write_text("x")


def _look_keys_file(tmp):
    (_out_dir(tmp, "480p15") / ".keys").write_text("x")


def _look_keys_link(tmp):
    (tmp / "elsewhere").mkdir()
    (_out_dir(tmp, "480p15") / ".keys").symlink_to(tmp / "elsewhere")


def _record_folder(tmp):
    _out_dir(tmp, "480p15", ".keys", "Embeddings.png.json")


CASES = [
    # 1: a sidecar that is a FIFO is refused before it is opened (never a hang)
    ("fifo-sidecar-numbers", _sidecar_fifo, r"arrays: 'x\.npz' is a named pipe \(FIFO\)"),
    ("fifo-sidecar-render", _sidecar_fifo_render, r"arrays: 'x\.npz' is a named pipe \(FIFO\)"),
    # 2: a file of the code that cannot be read (its bytes are in every output's key)
    (
        "code-unreadable-preview",
        _code_unreadable("render", "--preview"),
        r"code: 'scenes/_template\.py' cannot be read \(Permission denied\); .*chmod a\+r",
    ),
    (
        "code-unreadable-batch",
        _code_unreadable("batch", "--dry-run"),
        r"code: 'scenes/_template\.py' cannot be read",
    ),
    # 4: names too long for the file system
    (
        "init-long-name",
        lambda t: (["init", t / f"{LONG}.toml"], {}),
        r"FILE: the name 'x{15}…x{19}\.toml' is 305 bytes; a name is at most 255",
    ),
    (
        "from-model-long-name",
        lambda t: (["from-model", "the cat", "--layer", "1", "--head", "1", "-o", t / LONG], {}),
        r"FILE: the name 'x{15}…x{24}' is 300 bytes",
    ),
    (
        "out-long-name",
        lambda t: (["render", *PNG, "--out", t / LONG], {}),
        r"--out: the name 'x{15}…x{24}' is 300 bytes; a name is at most 255; choose a shorter",
    ),
    (
        "out-long-path",
        _deep_out,
        r"--out: its path is 4,\d{3} bytes; at most 3,000 \(what is made in it needs 1,095",
    ),
    (
        "batch-out-long-name",
        lambda t: (["batch", t / "c.toml", "--out", t / LONG], {}),
        r"--out: the name .* is 300 bytes",
    ),
    # 5: nested past what the parser can follow
    (
        "course-nested",
        _course("examples = " + "[" * 20_000 + "]" * 20_000 + "\n"),
        r"course: 'c\.toml' nests too deeply$",
    ),
    # 7: a path a course names stays in the course's folder (the rule `arrays` follows)
    (
        "jsonl-outside",
        _course('examples_jsonl = "../../etc/passwd"\n'),
        r"course\.examples_jsonl: '\.\./\.\./etc/passwd' must be a path relative to the "
        r"course's folder, without '\.\.'",
    ),
    (
        "jsonl-absolute",
        _course('examples_jsonl = "/etc/passwd"\n'),
        r"course\.examples_jsonl: '/etc/passwd' must be a path relative",
    ),
    (
        "example-outside",
        _course('examples = ["causal", "../x.toml"]\n'),
        r"course\.examples: '\.\./x\.toml' must be a path relative to the course's folder",
    ),
    (
        "example-stem-outside",
        _course('examples = ["lessons/../../x"]\n'),
        r"course\.examples: 'lessons/\.\./\.\./x' must be a path relative",
    ),
    # 6: records that would stop the render's records from being written: before rendering
    (
        "source-is-folder",
        _records(_source_folder),
        r"--out: '.*/zao-shang-hao/\.keys/source' is a folder where the tool keeps a record; "
        r"remove it",
    ),
    (
        "example-keys-is-file",
        _records(_example_keys_file),
        r"--out: '.*/zao-shang-hao/\.keys' is a file, not the folder where the tool keeps",
    ),
    (
        "look-keys-is-file",
        _records(_look_keys_file),
        r"--out: '.*/480p15/\.keys' is a file, not the folder",
    ),
    (
        "look-keys-is-link",
        _records(_look_keys_link),
        r"--out: '.*/480p15/\.keys' is a link, not the folder",
    ),
    (
        "record-is-folder",
        _records(_record_folder),
        r"--out: '.*/Embeddings\.png\.json' is a folder where the tool keeps a record",
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_refused_in_one_short_line_before_any_work(case, tmp_path):
    _, setup, pattern = case
    work = tmp_path / "w"
    work.mkdir()
    args, env = setup(work)
    before = tree(work)
    r = run(args, cwd=work, env=env)
    lines = err_lines(r)
    assert r.returncode == 2, lines
    assert len(lines) == 1 and "Traceback" not in lines[0], lines
    assert re.search(pattern, lines[0]), lines[0]
    assert len(lines[0]) < 200, len(lines[0])
    assert tree(work) == before, tree(work) - before
    assert r.stdout == b""


def test_load_example_never_opens_a_fifo_sidecar(tmp_path):
    from attention_core import load_example

    (tmp_path / "e.toml").write_text(EXAMPLE, encoding="utf-8")
    os.mkfifo(tmp_path / "x.npz")
    done: list = []

    def load():
        try:
            load_example(tmp_path / "e.toml")
        except ValueError as exc:
            done.append(str(exc))

    worker = threading.Thread(target=load, daemon=True)
    worker.start()
    worker.join(10)
    assert done == ["arrays: 'x.npz' is a named pipe (FIFO), not a regular file"]


# -- a course's JSONL lines: each broken line is reported, the others go on ----------------------
def test_jsonl_lines_nested_too_deeply_or_named_dots_are_broken_lines(tmp_path):
    line = {"tokens": ["a", "b"], "embeddings": [[1, 0], [0, 1]]}
    lines = [
        json.dumps({"name": "..", **line}),
        json.dumps({"name": "...", **line}),
        '{"tokens": ' + "[" * 100_000 + "]" * 100_000 + "}",
        json.dumps({"name": "ana", **line}),
    ]
    (tmp_path / "s.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (tmp_path / "c.toml").write_text(
        'examples_jsonl = "s.jsonl"\nscenes = ["Softmax"]\nformats = ["png"]\n', encoding="utf-8"
    )
    r = run(["batch", tmp_path / "c.toml", "--dry-run", "--out", tmp_path / "o"])
    out = r.stdout.decode().splitlines()
    assert r.returncode == 0 and "Traceback" not in r.stderr.decode(), r.stderr
    assert out == [
        "to render   ana/480p15/Softmax.png",
        "broken      s.jsonl:1: name: '..' is not a usable file name (it names no folder of its "
        "own); give a plain name, such as 'ana'",
        "broken      s.jsonl:2: name: '...' is not a usable file name (it names no folder of its "
        "own); give a plain name, such as 'ana'",
        "broken      s.jsonl:3: example: 's.jsonl:3' nests too deeply",
    ]


# -- damaged records that are repaired (never followed, read or quoted) --------------------------
@pytest.fixture(scope="module")
def rendered(tmp_path_factory):
    """One render of the smallest output (copied for each test that damages it)."""
    out = tmp_path_factory.mktemp("rendered") / "o"
    r = run(["render", *PNG, "--out", out], timeout=300)
    assert r.returncode == 0, r.stderr
    return out


@pytest.fixture
def out(rendered, tmp_path):
    copy = tmp_path / "o"
    shutil.copytree(rendered, copy, symlinks=True)
    return copy


def _keys(out: Path) -> Path:
    return out / "zao-shang-hao" / ".keys"


def _record(out: Path) -> Path:
    return out / "zao-shang-hao" / "480p15" / ".keys" / "Embeddings.png.json"


def _png(out: Path) -> Path:
    return out / "zao-shang-hao" / "480p15" / "Embeddings.png"


@pytest.mark.slow
def test_a_source_marker_of_nul_bytes_is_replaced_silently(out):
    (_keys(out) / "source").write_bytes(b"ab\0\0cd\n")
    r = run(["render", *PNG, "--out", out])
    assert r.returncode == 0, r.stderr
    assert "0 rendered, 1 up to date" in r.stderr.decode()
    assert (_keys(out) / "source").read_text() == "preset:zao-shang-hao\n"


@pytest.mark.slow
def test_a_source_marker_linked_to_a_private_file_is_never_read_nor_quoted(out, tmp_path):
    private = tmp_path / "private"
    private.write_text("/SECRET-LINE-ONE\nroot:x:0:0\n")
    private.chmod(0o600)
    (_keys(out) / "source").unlink()
    (_keys(out) / "source").symlink_to(private)
    for extra in (["--preview"], []):
        r = run(["render", *PNG, *extra, "--out", out])
        assert r.returncode == 0, r.stderr
        assert b"SECRET" not in r.stderr + r.stdout
    marker = _keys(out) / "source"
    assert not marker.is_symlink() and marker.read_text() == "preset:zao-shang-hao\n"
    assert private.read_text() == "/SECRET-LINE-ONE\nroot:x:0:0\n"  # its target untouched


@pytest.mark.slow
def test_a_record_linked_to_a_fifo_or_a_private_file_is_no_record(out, tmp_path):
    """Never followed (a FIFO would block, a private file would be read): the output is to
    render, and rendering replaces the link by a record."""
    os.mkfifo(tmp_path / "pipe")
    (tmp_path / "private").write_text('{"key": "SECRET"}')
    for target in (tmp_path / "private", tmp_path / "pipe"):
        _record(out).unlink()
        _record(out).symlink_to(target)
        r = run(["render", *PNG, "--preview", "--out", out], timeout=30)
        assert r.returncode == 0 and r.stdout.decode().startswith("to render"), r.stderr
    r = run(["render", *PNG, "--out", out], timeout=300)
    assert r.returncode == 0 and "1 rendered" in r.stderr.decode(), r.stderr
    assert not _record(out).is_symlink() and json.loads(_record(out).read_text())["files"]


@pytest.mark.slow
def test_a_record_that_is_not_a_json_object_or_unreadable_is_no_record(out):
    unreadable = fault_env(f"unreadable:{_record(out)}")
    r = run(["render", *PNG, "--preview", "--out", out], env=unreadable)
    assert r.returncode == 0 and r.stdout.decode().startswith("to render"), r.stderr
    _record(out).write_text("[]")
    r = run(["render", *PNG, "--verify", "--out", out])
    assert r.returncode == 1 and "Traceback" not in r.stderr.decode(), r.stderr
    assert r.stdout.decode().startswith("to render"), r.stdout


@pytest.mark.slow
def test_an_unreadable_output_is_to_render_and_verify_reports_it_bad(out):
    unreadable = fault_env(f"unreadable:{_png(out)}")
    r = run(["render", *PNG, "--preview", "--out", out], env=unreadable)
    assert r.returncode == 0, r.stderr
    assert r.stdout.decode().split() == ["to", "render", str(_png(out))]
    r = run(["render", *PNG, "--verify", "--out", out], env=unreadable)
    assert r.returncode == 1 and "Traceback" not in r.stderr.decode(), r.stderr
    assert r.stdout.decode().strip() == (
        f"BAD         {_png(out)}  (Embeddings.png cannot be read (Permission denied))"
    )
    assert err_lines(r) == [
        "attn-explain: error: --verify: 1 output(s) to render again (run render without it)"
    ]


# -- watch: a sidecar that becomes a FIFO is said once; a real file back renders -----------------
def _wait_for(lines: list, pattern: str, proc, timeout: float, count: int = 1) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if sum(bool(re.search(pattern, line)) for line in lines) >= count:
            return
        if proc.poll() is not None:
            break
        time.sleep(0.1)
    raise AssertionError(f"{pattern!r} ×{count} not seen in {lines}")


@pytest.mark.slow
def test_watch_says_a_fifo_sidecar_once_and_renders_when_a_real_file_is_back(tmp_path):
    example = example_with_sidecar(tmp_path)
    args = [CLI, "watch", example, *PNG[:2], "-j", "1", "--out", tmp_path / "o"]
    p = subprocess.Popen(
        [*map(os.fspath, args), "--interval", "0.1"],
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        text=True,
    )
    lines: list = []
    threading.Thread(target=lambda: lines.extend(iter(p.stderr.readline, "")), daemon=True).start()
    try:
        _wait_for(lines, r"^watch: changed: Embeddings", p, 300)
        (tmp_path / "x.npz").unlink()
        os.mkfifo(tmp_path / "x.npz")
        fifo = r"^watch: arrays: 'x\.npz' is a named pipe \(FIFO\), not a regular file$"
        _wait_for(lines, fifo, p, 30)
        time.sleep(1.0)  # ten more looks: said once
        (tmp_path / "x.npz").unlink()
        npz(tmp_path / "x.npz", shift=0.5)  # a real file again, other numbers
        _wait_for(lines, r"^watch: .*e\.toml is valid again$", p, 30)
        _wait_for(lines, r"^watch: changed: Embeddings", p, 120, count=2)
        p.send_signal(signal.SIGINT)
        p.wait(30)
    finally:
        if p.poll() is None:
            p.kill()
    assert sum(bool(re.search(fifo, line)) for line in lines) == 1, lines
    assert p.returncode == 0 and "Traceback" not in "".join(lines), lines


def test_a_source_marker_naming_another_file_is_quoted_short(tmp_path):
    """The renders of another file of this name: refused, its path quoted at most about 40
    characters (a marker is text a file supplied), and the advice one that can be followed
    (a preset cannot be renamed: that file can)."""
    keys = tmp_path / "o" / "zao-shang-hao" / ".keys"
    keys.mkdir(parents=True)
    held = "/" + "z" * 3000 + "/lesson.toml"
    (keys / "source").write_text(held + "\n")
    r = run(["render", *PNG, "--preview", "--out", tmp_path / "o"])
    lines = err_lines(r)
    assert r.returncode == 2 and len(lines) == 1, lines
    assert re.search(r"holds the renders of '/z{14}…z{12}/lesson\.toml'", lines[0]), lines[0]
    assert "rename that file, choose another --out, or add --force" in lines[0], lines[0]
    assert "z" * 20 not in lines[0]
