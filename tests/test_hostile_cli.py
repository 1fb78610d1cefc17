"""Hostile and unusual uses of the CLI, through the real console script: each is refused in one
line naming the right thing (exit 2, nothing written), or handled (no hang, no traceback,
nothing merged or lost, no scratch left behind). Table-driven: input → exit code, the first
line of stderr, and that nothing was written.

The classes follow the reliability issue: 1 never hang, 2 never a traceback, 4 nothing merged
or lost, 5 the right thing named before any work, 6 lifecycle (scratch, watch), 7 what users
asked for (batch --verify, --stills/--verify lines), 8 the docs match the tool.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import time
from pathlib import Path

import pytest
from conftest import CLI, ROOT
from faults import env as fault_env

EXAMPLE = 'tokens = ["a", "b"]\nembeddings = [[1.0, 0.0], [0.0, 1.0]]\n'
OTHER = 'tokens = ["u", "v"]\nembeddings = [[1.0, 0.5], [0.5, 1.0]]\n'


def run(args, *, cwd=None, env=None, timeout=120):
    """The console script with ``args`` (str or bytes: bytes reach it as they are)."""
    argv = [os.fsencode(CLI)] + [a if isinstance(a, bytes) else os.fsencode(str(a)) for a in args]
    return subprocess.run(
        argv,
        cwd=cwd,
        capture_output=True,
        timeout=timeout,
        env={**os.environ, **(env or {})},
    )


def first_line(r) -> str:
    lines = r.stderr.decode("utf-8", "replace").strip().splitlines()
    return lines[0] if lines else ""


def tree(folder: Path) -> set:
    """Every path under ``folder`` (hidden ones too)."""
    return {p.relative_to(folder) for p in folder.rglob("*")}


# -- the table ------------------------------------------------------------------------------------
def course(tmp: Path, text: str, name: str = "c.toml") -> Path:
    path = tmp / name
    path.write_text(text, encoding="utf-8")
    return path


def fifo(tmp: Path, name: str) -> Path:
    path = tmp / name
    os.mkfifo(path)
    return path


def _fifo_course(tmp):
    return ["batch", fifo(tmp, "c.toml"), "--out", tmp / "o"]


def _fifo_jsonl(tmp):
    fifo(tmp, "s.jsonl")
    return ["batch", course(tmp, 'examples_jsonl = "s.jsonl"\n'), "--out", tmp / "o"]


def _device_course(tmp):
    (tmp / "c.toml").symlink_to("/dev/zero")
    return ["batch", tmp / "c.toml", "--out", tmp / "o"]


def _folder_jsonl(tmp):
    (tmp / "s.jsonl").mkdir()
    return ["batch", course(tmp, 'examples_jsonl = "s.jsonl"\n'), "--out", tmp / "o"]


def _course_named(name: str):
    def setup(tmp):
        text = f'name = {json.dumps(name)}\nexamples = ["zao-shang-hao"]\n'
        return ["batch", course(tmp, text), "--out", tmp / "o"]

    return setup


def _loop(tmp):
    (tmp / "l1").symlink_to(tmp / "l2")
    (tmp / "l2").symlink_to(tmp / "l1")
    return ["render", "--scene", "Softmax", "--out", tmp / "l1"]


def _dangling(tmp):
    (tmp / "gone").symlink_to(tmp / "nowhere" / "x")
    return ["render", "--scene", "Softmax", "--out", tmp / "gone"]


def _dangling_below(tmp):
    (tmp / "gone").symlink_to(tmp / "nowhere")
    return ["render", "--scene", "Softmax", "--out", tmp / "gone" / "deeper"]


def _out_is_file(tmp):
    (tmp / "f").write_text("x")
    return ["render", "--scene", "Softmax", "--out", tmp / "f" / "o"]


def _read_only(tmp):
    """A read-only file system (as root: a tmpfs mounted read-only; otherwise a folder without
    write permission, which is what a user without root meets)."""
    ro = tmp / "ro"
    ro.mkdir()
    if (
        os.geteuid() == 0
        and subprocess.run(["mount", "-t", "tmpfs", "-o", "ro", "t", ro]).returncode == 0
    ):
        return ["render", "--scene", "Softmax", "--out", ro / "o"]
    ro.chmod(0o555)
    return ["render", "--scene", "Softmax", "--out", ro / "o"]


def _npz_folder(tmp):
    (tmp / "x.npz").mkdir()
    return ["from-model", "the cat sat", "--layer", "1", "--head", "1", "-o", tmp / "x.toml"]


def _bad_cache(tmp):
    return ["from-model", "the cat sat", "--layer", "1", "--head", "1", "-o", tmp / "y.toml"]


def _render(*extra):
    return lambda tmp: ["render", "--scene", "Softmax", "--out", tmp / "o", *extra]


def _batch(*extra, out=None):
    def setup(tmp):
        text = 'examples = ["zao-shang-hao"]\nscenes = ["Softmax"]\n'
        return ["batch", course(tmp, text), "--out", tmp / "o" if out is None else out, *extra]

    return setup


def _model(text):
    return lambda tmp: ["from-model", text, "--layer", "1", "--head", "1", "-o", tmp / "m.toml"]


CASES = [
    # class 1: never hang (a FIFO blocks in open; nan/inf: no limit applies)
    (
        "1-fifo-course",
        _fifo_course,
        {},
        r"error: course: '.*c\.toml' is a named pipe \(FIFO\), not a regular file",
    ),
    (
        "1-fifo-jsonl",
        _fifo_jsonl,
        {},
        r"error: course\.examples_jsonl: '.*s\.jsonl' is a named pipe \(FIFO\), not a regular",
    ),
    (
        "1-device-course",
        _device_course,
        {},
        r"error: course: '.*c\.toml' is a link to '/dev/zero', which is a character device",
    ),
    (
        "1-folder-jsonl",
        _folder_jsonl,
        {},
        r"error: course\.examples_jsonl: '.*s\.jsonl' is a folder, not a regular file",
    ),
    (
        "1-timeout-nan",
        _render("--timeout", "nan"),
        {},
        r"error: Invalid value for '--timeout': 'nan' is not a finite",
    ),
    (
        "1-timeout-inf",
        _render("--timeout", "inf"),
        {},
        r"error: Invalid value for '--timeout': 'inf' is not a finite",
    ),
    (
        "1-timeout-minus-inf",
        _render("--timeout", "-inf"),
        {},
        r"error: Invalid value for '--timeout'",
    ),
    (
        "1-batch-timeout-nan",
        _batch("--timeout", "NaN"),
        {},
        r"error: Invalid value for '--timeout': 'NaN' is not a finite",
    ),
    (
        "1-watch-interval-nan",
        lambda t: ["watch", "--interval", "nan", "--out", t / "o"],
        {},
        r"error: Invalid value for '--interval': 'nan' is not a finite",
    ),
    (
        "1-watch-interval-inf",
        lambda t: ["watch", "--interval", "inf", "--out", t / "o"],
        {},
        r"error: Invalid value for '--interval': 'inf' is not a finite",
    ),
    # class 2: never a traceback
    (
        "2-course-name-nul",
        _course_named("week\x001"),
        {},
        r"error: course\.name: give a plain folder name",
    ),
    (
        "2-course-name-escape",
        _course_named("week\x1b[31m"),
        {},
        r"error: course\.name: give a plain folder name",
    ),
    (
        "2-course-name-tab",
        _course_named("a\tb"),
        {},
        r"error: course\.name: give a plain folder name",
    ),
    (
        "2-course-name-del",
        _course_named("a\x7fb"),
        {},
        r"error: course\.name: give a plain folder name",
    ),
    (
        "2-text-not-utf8",
        _model(b"the \xff cat"),
        {},
        r"error: TEXT: not valid UTF-8 \(byte 0xff at character 5\)",
    ),
    ("2-text-truncated-utf8", _model(b"caf\xc3"), {}, r"error: TEXT: not valid UTF-8 \(byte 0xc3"),
    (
        "2-text-latin1",
        _model("café".encode("latin-1")),
        {},
        r"error: TEXT: not valid UTF-8 \(byte 0xe9",
    ),
    (
        "2-scheduler-words",
        _batch("--executor", "dask", "--scheduler", "not an address"),
        {},
        r"error: --scheduler: 'not an address' is not an address",
    ),
    (
        "2-scheduler-port",
        _batch("--executor", "dask", "--scheduler", "tcp://h:99999"),
        {},
        r"error: --scheduler: 'tcp://h:99999' is not an address",
    ),
    (
        "2-scheduler-path",
        _batch("--executor", "dask", "--scheduler", "tcp://h:8786/x"),
        {},
        r"error: --scheduler: .* is not an address",
    ),
    (
        "2-scheduler-http",
        _batch("--executor", "dask", "--scheduler", "http://h:8786"),
        {},
        r"error: --scheduler: .* is not an address",
    ),
    (
        "2-scheduler-zero",
        _batch("--executor", "dask", "--scheduler", "tcp://h:0"),
        {},
        r"error: --scheduler: .* is not an address",
    ),
    # class 4: nothing silently merged or lost
    (
        "4-out-empty",
        lambda t: ["render", "--scene", "Softmax", "--out", ""],
        {},
        r"error: --out: give a folder name \(an empty one would write into the current folder\)",
    ),
    (
        "4-out-blank",
        lambda t: ["render", "--scene", "Softmax", "--out", "  "],
        {},
        r"error: --out: give a folder name",
    ),
    (
        "4-out-newline",
        lambda t: ["render", "--scene", "Softmax", "--out", t / "a\nb"],
        {},
        r"error: --out: '.*a\\nb' holds a control character",
    ),
    (
        "4-out-return",
        lambda t: ["render", "--scene", "Softmax", "--out", t / "a\rb"],
        {},
        r"error: --out: .* holds a control character",
    ),
    (
        "4-pack-out-newline",
        lambda t: ["pack", "--scene", "Softmax", "--out", t / "a\nb"],
        {},
        r"error: --out: .* holds a control character",
    ),
    ("4-batch-out-empty", _batch(out=""), {}, r"error: --out: give a folder name"),
    (
        "4-course-name-long",
        _course_named("x" * 300),
        {},
        r"error: course\.name: 300 characters; a course name is a folder name of at most 60",
    ),
    ("4-course-name-61", _course_named("y" * 61), {}, r"error: course\.name: 61 characters"),
    ("4-course-name-long-cjk", _course_named("课" * 80), {}, r"error: course\.name: 80 characters"),
    # class 5: the right thing named, exit 2, before any work
    ("5-out-loop", _loop, {}, r"error: --out: '.*l1' is a link to nowhere \(dangling, or a loop\)"),
    ("5-out-dangling", _dangling, {}, r"error: --out: '.*gone' is a link to nowhere"),
    ("5-out-dangling-parent", _dangling_below, {}, r"error: --out: '.*gone' is a link to nowhere"),
    (
        "5-out-proc",
        lambda t: ["render", "--scene", "Softmax", "--out", "/proc/attn-x"],
        {},
        r"error: --out: cannot write to '/proc'",
    ),
    (
        "5-out-sys",
        lambda t: ["render", "--scene", "Softmax", "--out", "/sys/attn-x"],
        {},
        r"error: --out: cannot write to '/sys'",
    ),
    ("5-out-read-only", _read_only, {}, r"error: --out: cannot write to '.*ro' \("),
    ("5-out-under-a-file", _out_is_file, {}, r"error: --out: '.*f' is a file, not a folder"),
    ("5-batch-out-proc", _batch(out="/proc/attn-x"), {}, r"error: --out: cannot write to '/proc'"),
    (
        "5-text-newline",
        _model("the cat\nsat"),
        {},
        r"error: TEXT: holds a line break; give the sentence as one line",
    ),
    ("5-text-return", _model("the cat\rsat"), {}, r"error: TEXT: holds a line break"),
    ("5-text-bell", _model("the cat\x07"), {}, r"error: TEXT: holds the control character '\\x07'"),
    (
        "5-npz-is-folder",
        _npz_folder,
        {},
        r"error: FILE: '.*x\.npz' is a folder; choose another name",
    ),
    (
        "5-bad-cache-home",
        _bad_cache,
        {"XDG_CACHE_HOME": "/proc/attn-cache"},
        r"error: XDG_CACHE_HOME: cannot use the model cache",
    ),
    (
        "5-text-cache-nan",
        _render(),
        {"ATTN_TEXT_CACHE_MB": "nan"},
        r"error: ATTN_TEXT_CACHE_MB: 'nan' is not a size",
    ),
    (
        "5-text-cache-inf",
        _render(),
        {"ATTN_TEXT_CACHE_MB": "inf"},
        r"error: ATTN_TEXT_CACHE_MB: 'inf' is not a size",
    ),
    (
        "5-text-cache-negative",
        _render(),
        {"ATTN_TEXT_CACHE_MB": "-5"},
        r"error: ATTN_TEXT_CACHE_MB: '-5' is not a size",
    ),
    (
        "5-text-cache-words",
        _render(),
        {"ATTN_TEXT_CACHE_MB": "lots"},
        r"error: ATTN_TEXT_CACHE_MB: 'lots' is not a size",
    ),
    (
        "5-text-cache-batch",
        _batch(),
        {"ATTN_TEXT_CACHE_MB": "-1"},
        r"error: ATTN_TEXT_CACHE_MB: '-1' is not a size",
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_refused_in_one_line_with_exit_code_2_and_nothing_written(case, tmp_path):
    _, setup, env, pattern = case
    work = tmp_path / "w"
    work.mkdir()
    args = setup(work)
    before = tree(work)
    try:
        r = run(args, cwd=work, env=env, timeout=60)
    finally:
        if (work / "ro").is_dir():
            subprocess.run(["umount", work / "ro"], capture_output=True)
            (work / "ro").chmod(0o755)
    err = r.stderr.decode("utf-8", "replace")
    assert r.returncode == 2, err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    assert re.search(pattern, first_line(r)), first_line(r)
    assert tree(work) == before, tree(work) - before
    assert r.stdout == b""


# -- class 1: warm-up has its own limit and message -----------------------------------------------
def test_a_warm_up_past_its_limit_fails_the_scenes_once_instead_of_respawning(tmp_path):
    started = time.monotonic()
    r = run(
        [
            "render",
            "--scene",
            "Softmax",
            "--scene",
            "Scaling",
            "--stills",
            "-j",
            "2",
            "--timeout",
            "1",
            "--out",
            tmp_path / "o",
        ],
        env=fault_env("slow-warm:2"),
        timeout=60,
    )
    err = r.stderr.decode()
    assert r.returncode == 1, err
    assert time.monotonic() - started < 30
    assert "no worker got ready within 2 s" in err and "not --timeout" in err, err
    assert err.strip().splitlines()[-1].startswith("attn-explain: error: rendering "), err


# -- class 4: nothing silently merged or lost -----------------------------------------------------
def test_the_same_scene_twice_is_one_scene(tmp_path):
    r = run(["render", "--scene", "Softmax", "--scene", "Softmax", "--preview", "--out", tmp_path])
    assert r.returncode == 0, r.stderr
    assert r.stdout.decode().count("Softmax.mp4") == 1
    twice = ["--scene", "Softmax", "--scene", "Scaling", "--scene", "Softmax"]
    r = run(["render", *twice, "--preview", "--out", tmp_path])
    names = [line.split()[-1].rsplit("/", 1)[-1] for line in r.stdout.decode().splitlines()]
    assert names == ["Softmax.mp4", "Scaling.mp4"]
    r = run(["render", *twice, "--stills", "--preview", "--out", tmp_path])  # one stills folder
    assert [line.split()[-1] for line in r.stdout.decode().splitlines()] == [
        str(tmp_path / "zao-shang-hao" / "480p15" / "stills")
    ]


@pytest.mark.slow
@pytest.mark.parametrize(
    "first, second",
    [("a-b.toml", "a b.toml"), ("A/lesson.toml", "B/lesson.toml"), ("zao-shang-hao.toml", None)],
)
def test_two_example_files_of_one_name_never_share_an_output_folder(tmp_path, first, second):
    """`a b.toml` and `a-b.toml` (or A/lesson and B/lesson) are both named alike: the second
    render into one --out is refused, naming both; a file named like a preset is refused next
    to the preset's renders; --force renders over them."""
    for name, text in ((first, EXAMPLE), (second, OTHER)):
        if name:
            (tmp_path / name).parent.mkdir(exist_ok=True)
            (tmp_path / name).write_text(text, encoding="utf-8")
    out = tmp_path / "o"
    one = ["render", tmp_path / first, "--scene", "Embeddings", "--stills", "--out", out]
    two = [*one[:1], tmp_path / second if second else "zao-shang-hao", *one[2:]]
    first_run = run(one, timeout=300)
    assert first_run.returncode == 0, first_run.stderr
    listing = tree(out)
    refused = run(two, timeout=120)
    assert refused.returncode == 2, refused.stderr
    line = first_line(refused)
    assert re.search(
        r"error: --out: '.*' holds the renders of '.*" + re.escape(first.split("/")[-1]), line
    ), line
    assert tree(out) == listing
    # the first file again, and --preview/--verify of the second, are not refused
    assert run(one, timeout=120).returncode == 0
    forced = run([*two, "--force"], timeout=300)
    assert forced.returncode == 0, forced.stderr


@pytest.mark.slow
def test_a_no_op_batch_rerun_keeps_the_manifest_and_verify_reports_the_course(tmp_path):
    text = (
        'name = "w"\nexamples = ["zao-shang-hao"]\nscenes = ["Embeddings", "Softmax"]\n'
        'formats = ["png"]\n'
    )
    c = course(tmp_path, text)
    out = tmp_path / "o"
    r = run(["batch", c, "--out", out, "-j", "1"], timeout=600)
    assert r.returncode == 0, r.stderr
    manifest = out / "w" / "manifest.json"
    before = manifest.read_bytes()
    assert all(t["render_seconds"] > 0 for t in json.loads(before)["tasks"])
    again = run(["batch", c, "--out", out], timeout=120)
    assert again.returncode == 0 and "0 rendered, 2 up to date" in again.stderr.decode()
    assert manifest.read_bytes() == before
    ok = run(["batch", c, "--out", out, "--verify"], timeout=120)
    assert ok.returncode == 0, ok.stderr
    lines = ok.stdout.decode().splitlines()
    assert len(lines) == 2 and all(line.startswith("ok") for line in lines), lines
    png = out / "zao-shang-hao" / "480p15" / "Softmax.png"
    png.write_bytes(png.read_bytes()[:100])
    bad = run(["batch", c, "--out", out, "--verify"], timeout=120)
    assert bad.returncode == 1
    assert [line.split()[0] for line in bad.stdout.decode().splitlines()] == ["ok", "BAD"]
    assert "run batch without it" in bad.stderr.decode()


# -- class 6: lifecycle ----------------------------------------------------------------------------
def _media(folder: Path) -> list:
    return sorted(p.name for p in folder.glob("attn-media-*"))


@pytest.mark.slow
def test_no_worker_media_folder_is_left_after_workers_are_killed(tmp_path):
    """A worker killed at --timeout, and workers killed with their supervisor (SIGTERM, then
    SIGKILL): no attn-media-* folder stays in the temp folder (a stale one is swept)."""
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    (tmp / "attn-media-999999999-stale").mkdir()  # of a process long gone
    env = {**fault_env("hang:Softmax"), "TMPDIR": str(tmp)}
    r = run(
        [
            "render",
            "--scene",
            "Embeddings",
            "--scene",
            "Softmax",
            "--stills",
            "-j",
            "2",
            "--timeout",
            "12",
            "--out",
            tmp_path / "o",
        ],
        env=env,
        timeout=300,
    )
    assert r.returncode == 1 and "timed out after 12 s" in r.stderr.decode(), r.stderr
    assert _media(tmp) == []
    for sig in (signal.SIGTERM, signal.SIGKILL):
        p = subprocess.Popen(
            [CLI, "render", "--scene", "Softmax", "--stills", "--force", "--out", tmp_path / "p"],
            env={**os.environ, **env},
            stderr=subprocess.PIPE,
        )
        deadline = time.monotonic() + 120
        while not _media(tmp) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert _media(tmp), "the worker made no media folder"
        p.send_signal(sig)
        p.wait(60)
        if sig == signal.SIGTERM:
            assert p.returncode == 143
            assert _media(tmp) == []
    time.sleep(1)  # the workers of the SIGKILLed supervisor die with it (PDEATHSIG)
    left = _media(tmp)
    assert left, "SIGKILL left the media folder (the next run sweeps it)"
    r = run(
        ["render", "--scene", "Embeddings", "--stills", "--out", tmp_path / "o"],
        env={"TMPDIR": str(tmp)},
        timeout=300,
    )
    assert r.returncode == 0, r.stderr
    assert _media(tmp) == []


def _wait_for(stream_lines: list, pattern: str, proc, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if any(re.search(pattern, line) for line in stream_lines):
            return
        if proc.poll() is not None:
            break
        time.sleep(0.1)
    raise AssertionError(f"{pattern!r} not seen in {stream_lines}")


@pytest.mark.slow
def test_watch_says_valid_again_and_stops_on_sigint_inherited_ignored(tmp_path):
    import threading

    example = tmp_path / "w.toml"
    example.write_text(EXAMPLE, encoding="utf-8")

    def ignore_sigint():
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # as `cmd &` in a script

    p = subprocess.Popen(
        [
            CLI,
            "watch",
            example,
            "--scene",
            "Embeddings",
            "--stills",
            "-j",
            "1",
            "--out",
            tmp_path / "o",
            "--interval",
            "0.1",
        ],
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        text=True,
        preexec_fn=ignore_sigint,
    )
    lines: list = []
    reader = threading.Thread(target=lambda: lines.extend(iter(p.stderr.readline, "")), daemon=True)
    reader.start()
    try:
        _wait_for(lines, r"watching .*w\.toml", p, 300)
        example.write_text('tokens = ["a", "b"\n', encoding="utf-8")  # a half-written save
        _wait_for(lines, r"^watch: (?!changed)", p, 30)  # the file's error
        example.write_text(EXAMPLE, encoding="utf-8")  # the last good content again
        _wait_for(lines, r"watch: .*w\.toml is valid again", p, 30)
        p.send_signal(signal.SIGINT)
        p.wait(30)
    finally:
        if p.poll() is None:
            p.kill()
    assert p.returncode == 0, lines
    assert "watch: stopped" in "".join(lines)


# -- class 7: what users asked for ----------------------------------------------------------------
@pytest.mark.slow
def test_stills_print_one_line_and_verify_one_line_per_output(tmp_path):
    out = tmp_path / "o"
    args = ["render", "--scene", "Embeddings", "--scene", "Softmax", "--stills", "--out", out]
    r = run(args, timeout=600)
    assert r.returncode == 0, r.stderr
    assert r.stdout.decode().splitlines() == [str(out / "zao-shang-hao" / "480p15" / "stills")]
    v = run([*args, "--verify"], timeout=120)
    assert v.returncode == 0, v.stderr
    assert v.stdout.decode().splitlines() == [
        f"{'ok':<10}  {out / 'zao-shang-hao' / '480p15' / 'stills'}"
    ]


# -- class 8: the docs match the tool -------------------------------------------------------------
def _option_table(path: Path, header: str) -> dict:
    """The flags of the option table under ``header`` in ``path``, each with its metavar."""
    text = path.read_text(encoding="utf-8")
    start = text.index(header)
    rows = text[start:].split("\n\n", 1)[0].splitlines()[2:]
    found = {}
    for row in rows:
        cell = row.split(" | ")[0]
        for flag, metavar in re.findall(
            r"`(?:-\w/)?(--[a-z-]+)(?: ([^`]*))?`", cell.replace("\\|", "|")
        ):
            found[flag] = metavar
        for short, metavar in re.findall(r"`(-[a-z]) ([^`]*)`", cell.replace("\\|", "|")):
            found[short] = metavar
    return found


def _render_options() -> list:
    from scenes.cli import cli

    params = [p for p in cli.commands["render"].params if p.param_type_name == "option"]
    return [p for p in params if "--help" not in p.opts]


def _same_choices(params, table: dict) -> None:
    for p in params:
        metavar = p.metavar or ""
        shown = next((table[f] for f in p.opts if f in table), None)
        if shown is not None and "|" in metavar:  # a list of choices: the same in the docs
            assert shown == metavar, (p.opts, shown, metavar)


OPTIONS_PAGE = ROOT / "docs" / "options.md"


def test_the_option_page_table_matches_render_help():
    table = _option_table(OPTIONS_PAGE, "| Option | Meaning |")
    params = _render_options()
    undocumented = [p.opts for p in params if not set(p.opts) & set(table)]
    assert undocumented == []
    unknown = set(table) - {f for p in params for f in p.opts}
    assert unknown == set()
    _same_choices(params, table)
    transparent = next(p for p in params if "--transparent" in p.opts)
    row = OPTIONS_PAGE.read_text(encoding="utf-8").split("`--transparent` |")[1].split("\n")[0]
    assert "png" in transparent.help and "png" in row


def test_the_readme_short_option_table_names_only_render_options_as_they_are():
    table = _option_table(ROOT / "README.md", "| Most used options | |")
    params = _render_options()
    assert len(table) >= 8
    assert set(table) - {f for p in params for f in p.opts} == set()
    _same_choices(params, table)


def test_srt_and_vtt_times_of_a_cue_are_the_same_millisecond():
    from scenes.pipeline import subtitles

    steps = [
        {"start": 0.0, "end": 1.2346, "caption": "a"},
        {"start": 1.2346, "end": 2.9999, "caption": "b"},
        {"start": 2.9999, "end": 3.0004999, "caption": "c"},
    ]
    srt_times = re.findall(r"(\d\d:\d\d:\d\d),(\d{3})", subtitles.as_srt(steps))
    vtt_times = re.findall(r"(\d\d:\d\d:\d\d)\.(\d{3})", subtitles.as_vtt(steps))
    assert srt_times == vtt_times and ("00:00:01", "235") in srt_times


def test_the_docs_name_the_text_cache_folder_the_tool_uses():
    from scenes.mobjects import text_cache

    page = (ROOT / "docs" / "outputs.md").read_text(encoding="utf-8")  # every file written
    assert f"text-v{text_cache.FORMAT}-" in page


@pytest.mark.slow
def test_manim_slides_lines_come_once_with_the_final_paths(tmp_path):
    out = tmp_path / "o"
    r = run(["render", "--slides", "--scene", "Embeddings", "-j", "1", "--out", out], timeout=600)
    err = r.stderr.decode()
    assert r.returncode == 0, err
    said = [line for line in err.splitlines() if "manim-slides" in line or "slides of" in line]
    final = out / "zao-shang-hao" / "480p15" / "slides-src"
    assert len(said) == 1 and str(final / "files" / "Embeddings") in said[0], said
    assert ".tmp-" not in err and "Generated" not in err, err
    quiet = run(
        ["render", "--slides", "--scene", "Embeddings", "--force", "--quiet", "--out", out],
        timeout=600,
    )
    assert quiet.returncode == 0 and "slides of" not in quiet.stderr.decode()
