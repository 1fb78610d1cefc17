"""Reliability and security, through the real `attn-explain` script where a user would meet it:
the bad-input matrix, hostile labels in every output, numeric extremes, interrupted and
concurrent renders, determinism, timeouts on every render path, and fuzzed examples."""

import hashlib
import json
import math
import signal
import subprocess
import time
from pathlib import Path

import faults
import numpy as np
import pytest
import srt
from conftest import CLI
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_example_validation import CASES, _materialize

import attention_core as ac


def tree(root: Path) -> dict:
    """Every file under ``root`` with a hash of its bytes."""
    return (
        {
            str(p.relative_to(root)): hashlib.sha1(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*"))
            if p.is_file()
        }
        if root.exists()
        else {}
    )


@pytest.fixture
def lecture(tmp_path):
    """A folder with an earlier good render in renders/ (what bad input must leave alone)."""
    good = tmp_path / "renders" / "zao-shang-hao" / "480p15"
    good.mkdir(parents=True)
    (good / "Softmax.mp4").write_bytes(b"an earlier good render")
    return tmp_path


# -- 1. the bad-input matrix -------------------------------------------------------------------
OPTION_CASES = [
    ("quality", ["-q", "x"], "-q/--quality"),
    ("format", ["--format", "avi"], "--format"),
    ("lang", ["--lang", "fr"], "--lang"),
    ("theme", ["--theme", "blue"], "--theme"),
    ("aspect", ["--aspect", "2:1"], "--aspect"),
    ("scene", ["--scene", "Softmx"], "--scene"),
    ("slides-format", ["--slides", "--slides-format", "key"], "--slides-format"),
    ("alpha-mp4", ["--transparent"], "--transparent"),
    ("jobs", ["--jobs", "-1"], "Invalid value for '-j' / '--jobs'"),
    ("timeout", ["--timeout", "-5"], "Invalid value for '--timeout'"),
]


def _file_case(kind: str, tmp: Path) -> tuple[str, str]:
    if kind == "binary":
        (tmp / "bin.toml").write_bytes(b"\x89PNG\r\n\x1a\n\x00\xff\xfe")
        return str(tmp / "bin.toml"), "not UTF-8"
    if kind == "too-large":
        (tmp / "big.toml").write_text("# " + "x" * 1_100_000)
        return str(tmp / "big.toml"), "at most"
    if kind == "folder":
        (tmp / "dir.toml").mkdir()
        return str(tmp / "dir.toml"), "folder"
    if kind == "suffix":
        (tmp / "x.txt").write_text("tokens = []")
        return str(tmp / "x.txt"), ".toml or .json"
    return str(tmp / "missing.toml"), "example"


FILE_CASES = ["binary", "too-large", "folder", "suffix", "missing"]


def _one_clean_line(r, field):
    lines = r.stderr.strip().splitlines()
    assert r.returncode == 2, r.stderr
    assert len(lines) == 1 and lines[0].startswith("attn-explain: error: "), r.stderr
    assert field in lines[0] and "Traceback" not in r.stderr


@pytest.mark.parametrize("case_id,data,field,phrase", CASES, ids=[c[0] for c in CASES])
def test_bad_examples_through_render_leave_renders_as_it_was(
    case_id, data, field, phrase, write_example, cli, lecture
):
    before = tree(lecture / "renders")
    r = cli("render", _materialize(data, write_example, case_id), cwd=lecture)
    _one_clean_line(r, field)
    assert phrase in r.stderr
    assert tree(lecture / "renders") == before


@pytest.mark.parametrize("kind", FILE_CASES)
def test_bad_files_through_render(kind, cli, lecture, tmp_path):
    path, phrase = _file_case(kind, tmp_path)
    before = tree(lecture / "renders")
    r = cli("render", path, cwd=lecture)
    _one_clean_line(r, "example" if kind != "suffix" else "")
    assert phrase in r.stderr and tree(lecture / "renders") == before


@pytest.mark.parametrize("case_id,args,field", OPTION_CASES, ids=[c[0] for c in OPTION_CASES])
def test_bad_options_through_render(case_id, args, field, cli, lecture):
    before = tree(lecture / "renders")
    r = cli("render", *args, cwd=lecture)
    _one_clean_line(r, field)
    assert tree(lecture / "renders") == before


def test_an_output_folder_that_cannot_be_written(cli, lecture):
    (lecture / "blocker").write_text("a file, not a folder")
    r = cli("render", "--out", lecture / "blocker" / "sub", cwd=lecture)
    _one_clean_line(r, "--out")


def test_the_matrix_has_at_least_thirty_cases():
    assert len(CASES) + len(FILE_CASES) + len(OPTION_CASES) + 1 >= 30


# -- 2. hostile labels ----------------------------------------------------------------------------
HOSTILE_A = {
    "title": '#read("/etc/passwd")',
    "tokens": ["<b>x</b>", "&amp;", "</span>", "$x$", "{", "%", "|", '#read("/x")'],
    "embeddings": np.round(np.random.default_rng(1).normal(size=(8, 2)), 2).tolist(),
}
HOSTILE_B = {
    "title": "\\input{/etc/passwd}",
    "tokens": ["\\input{/x}", "<script>", "ÿ̈x", "שלום", "مرحبا", "longlabel12c"],
    "embeddings": np.round(np.random.default_rng(2).normal(size=(6, 2)), 2).tolist(),
}
ASCII_MARKUP = ["<b>x</b>", "&amp;", "</span>", "$x$", '#read("/x")', "\\input{/x}", "<script>"]


def _texts_on_screen(scene):
    from manim import Text
    from manim.mobject.text.typst_mobject import Typst

    from scene_checks import on_screen

    def glyphs(m) -> int:  # its characters drawn (not the label's line: text_line.Strut)
        return sum(not getattr(s, "is_line", False) for s in m.submobjects)

    texts = [
        (m.source_text if hasattr(m, "source_text") else m.text, glyphs(m))
        for m in on_screen(scene, Text)
    ]
    typst = [str(getattr(m, "typst_code", "")) for m in on_screen(scene, Typst)]
    return texts, typst


@pytest.mark.slow
@pytest.mark.parametrize("data", [HOSTILE_A, HOSTILE_B], ids=["markup", "scripts"])
def test_hostile_labels_appear_literally_on_screen_in_every_scene(data):
    """Pango draws each label as its own characters (markup would collapse `<b>x</b>` into one
    glyph), and no label reaches Typst."""
    from scenes.kit.registry import SCENES
    from scenes.pipeline.stills import run_steps

    ex = ac.Example.from_dict(data, name="hostile")
    seen = set()
    for scene in SCENES:
        for still in run_steps(scene.load(), ex, frames=False, snapshot=_texts_on_screen):
            texts, typst = still.snapshot
            for text, glyphs in texts:
                for lab in ASCII_MARKUP:
                    if text == lab:
                        seen.add(lab)
                        assert glyphs == len(lab.replace(" ", "")), (scene.name, lab, glyphs)
            for code in typst:
                assert not any(lab in code for lab in ASCII_MARKUP + ["/etc/passwd"]), code
    assert seen == {lab for lab in ASCII_MARKUP if lab in data["tokens"]}


@pytest.mark.parametrize("data", [HOSTILE_A, HOSTILE_B], ids=["markup", "scripts"])
def test_hostile_labels_in_every_form_of_numbers(data, cli, write_example):
    path = write_example(data, name="hostile.json")
    as_json = cli("numbers", path, "--json")
    assert as_json.returncode == 0, as_json.stderr
    parsed = json.loads(as_json.stdout)
    assert parsed["tokens"] == data["tokens"] and parsed["title"] == data["title"]
    text = cli("numbers", path).stdout
    assert all(t in text for t in data["tokens"]) and data["title"] in text
    md = cli("numbers", path, "--markdown").stdout
    assert "<b>" not in md and "<script>" not in md
    if "<b>x</b>" in data["tokens"]:
        assert "&lt;b&gt;x&lt;/b&gt;" in md and "\\|" in md


@pytest.mark.slow
def test_hostile_labels_in_captions_and_slides(cli, write_example, tmp_path):
    path = write_example(HOSTILE_A, name="hostile.json")
    r = cli(
        "render",
        path,
        "--scene",
        "Embeddings",
        "--captions",
        "--slides",
        "--out",
        tmp_path,
        timeout=900,
    )
    assert r.returncode == 0, r.stderr
    folder = tmp_path / "hostile" / "480p15"
    cues = list(srt.parse((folder / "Embeddings.srt").read_text(encoding="utf-8")))
    listed = [c.content for c in cues if "<b>x</b>" in c.content]
    assert listed and all(t in listed[0] for t in HOSTILE_A["tokens"])
    vtt = (folder / "Embeddings.vtt").read_text(encoding="utf-8")
    assert "<b>" not in vtt and "&lt;b&gt;x&lt;/b&gt;" in vtt
    deck = (tmp_path / "hostile" / "slides" / "hostile-480p15.html").read_text(encoding="utf-8")
    assert "<b>x</b>" not in deck and "#read(" not in deck


# -- 3. numeric extremes ---------------------------------------------------------------------------
EXTREME = ac.Example(
    name="extreme",
    tokens=["big", "small", "zero"],
    embeddings=[[1e6, -1e6], [1e6, 1e6], [-0.0, 5e-324]],
)


def test_extremes_give_finite_one_hot_weights():
    tr = ac.trace_example(EXTREME)
    head = tr.heads[0]
    assert np.abs(head.scores).max() >= 1e12
    assert np.all(np.isfinite(head.weights)) and np.all(np.isfinite(head.output))
    np.testing.assert_allclose(head.weights.sum(axis=1), 1.0)
    assert head.weights[0].max() == pytest.approx(1.0, abs=1e-12)  # one-hot


@pytest.mark.slow
def test_a_scene_says_one_hot_instead_of_nan():
    from scene_checks import layout_problems, numbers_problems
    from scenes.kit.registry import SCENES
    from scenes.pipeline.stills import run_steps

    def check(scene):
        texts, _ = _texts_on_screen(scene)
        words = " ".join(t for t, _ in texts)
        return layout_problems(scene) + numbers_problems(scene), words

    for s in SCENES:
        for still in run_steps(s.load(), EXTREME, lang="en", frames=False, snapshot=check):
            problems, words = still.snapshot
            assert not problems, (s.name, still.key, problems[:3])
            assert "nan" not in words.lower().split() and "NaN" not in words, (s.name, words)
            if s.name == "Softmax" and still.key == "rows":  # big, small: one-hot rows
                assert "the weights are one-hot" in words


# -- 4. interrupted renders ------------------------------------------------------------------------
def _at_a_terminal() -> None:
    """A child's SIGINT as at a terminal (default), whatever the test process inherited: an
    ignored SIGINT is inherited by a child, and Python then never raises KeyboardInterrupt."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _start(args, cwd):
    return subprocess.Popen(
        [CLI, *map(str, args)],
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=_at_a_terminal,
    )


def _wait_for_scratch(folder: Path, proc, seconds=60):
    end = time.monotonic() + seconds
    while time.monotonic() < end and proc.poll() is None:
        if folder.exists() and any(p.name.startswith(".tmp-") for p in folder.iterdir()):
            time.sleep(1.0)  # well inside the render
            return True
        time.sleep(0.1)
    return False


@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGKILL], ids=["SIGINT", "SIGKILL"])
def test_an_interrupted_render_keeps_the_previous_output(sig, cli, tmp_path):
    args = ["render", "--scene", "Softmax", "--out", tmp_path]
    assert cli(*args).returncode == 0
    folder = tmp_path / "zao-shang-hao" / "480p15"
    before = (folder / "Softmax.mp4").read_bytes()
    proc = _start(args + ["--force"], tmp_path)
    assert _wait_for_scratch(folder, proc), "the render never started"
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=60)
    if sig == signal.SIGINT:
        assert (
            proc.returncode == 130
            and err.strip().splitlines()[-1] == "attn-explain: interrupted"
            and "Traceback" not in err
        ), f"exit {proc.returncode}, SIGINT here {signal.getsignal(signal.SIGINT)}: {err[-800:]}"
        assert not [p for p in folder.iterdir() if p.name.startswith(".tmp-")]
    time.sleep(1.0)  # SIGKILL: the workers die with their supervisor
    assert (folder / "Softmax.mp4").read_bytes() == before
    assert sorted(p.name for p in folder.iterdir() if not p.name.startswith(".")) == ["Softmax.mp4"]
    if sig == signal.SIGINT:  # its scratch is gone already (above): no render again (suite time)
        return
    again = cli(*args, "--force")
    assert again.returncode == 0, again.stderr
    assert not [p for p in folder.iterdir() if p.name.startswith(".tmp-")]  # stale ones gone
    assert (folder / "Softmax.mp4").read_bytes()[:12] == before[:12]


# -- 5. concurrency --------------------------------------------------------------------------------
@pytest.mark.slow
def test_two_renders_into_one_folder_at_once(tmp_path):
    import av

    args = [
        "render",
        "--scene",
        "Embeddings",
        "--scene",
        "Overview",
        "--captions",
        "-j",
        "2",
        "--out",
        tmp_path,
    ]
    procs = [_start(args, tmp_path) for _ in range(2)]
    results = [p.communicate(timeout=600) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], results
    folder = tmp_path / "zao-shang-hao" / "480p15"
    for name in ("Embeddings", "Overview"):
        with av.open(str(folder / f"{name}.mp4")) as c:
            assert sum(1 for _ in c.decode(c.streams.video[0])) > 100
        record = json.loads((folder / ".keys" / f"{name}.mp4.json").read_text())
        assert set(record["files"]) == {f"{name}.mp4", f"{name}.srt", f"{name}.vtt"}
        assert len(list(srt.parse((folder / f"{name}.srt").read_text()))) == len(record["steps"])
    assert not [p for p in folder.iterdir() if p.name.startswith(".tmp-")]
    again = subprocess.run([CLI, *map(str, args)], capture_output=True, text=True)
    assert "0 rendered, 2 up to date" in again.stderr


# -- 6. determinism --------------------------------------------------------------------------------
@pytest.mark.slow
def test_the_same_example_renders_identical_frames(cli, tmp_path):
    from PIL import Image

    base = ["render", "numpy-3x4", "--stills", "--scene", "Projections", "--scene", "Scaling"]
    a = cli(*base, "--out", tmp_path / "a")
    b = cli(*base, "--out", tmp_path / "b", env={"ATTN_TEXT_CACHE": str(tmp_path / "cache")})
    assert a.returncode == 0 and b.returncode == 0, b.stderr
    fa = sorted((tmp_path / "a" / "numpy-3x4" / "480p15" / "stills").iterdir())
    fb = sorted((tmp_path / "b" / "numpy-3x4" / "480p15" / "stills").iterdir())
    assert [p.name for p in fa] == [p.name for p in fb] and len(fa) >= 6
    for x, y in zip(fa, fb):
        assert np.array_equal(np.asarray(Image.open(x)), np.asarray(Image.open(y))), x.name
    numbers = cli("numbers", "numpy-3x4")
    assert "seed = " in numbers.stdout  # the seed of the random weights is printed


# -- 7. timeouts on every render path --------------------------------------------------------------
@pytest.mark.slow
@pytest.mark.parametrize("command", [["render", "--slides"], ["pack"]], ids=["slides", "pack"])
def test_a_hang_in_slides_or_pack_is_killed_and_reported(command, cli, tmp_path):
    r = cli(
        *command,
        "--scene",
        "Embeddings",
        "--timeout",
        "8",
        "--out",
        tmp_path,
        env=faults.env("hang:Embeddings"),
        timeout=120,
    )
    assert r.returncode == 1
    assert "rendering Embeddings" in r.stderr and "timed out after 8 s" in r.stderr
    assert "Traceback" not in r.stderr
    assert not (tmp_path / "zao-shang-hao" / "index.html").exists()
    assert not list((tmp_path / "zao-shang-hao").rglob("*.html"))


# -- 8. fuzzing ------------------------------------------------------------------------------------
labels = st.text(min_size=0, max_size=14)
numbers = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True, width=64),
    st.integers(-(10**7), 10**7),
    st.sampled_from([1e6, -1e6, 5e-324, -0.0]),
    st.text(max_size=3),
    st.booleans(),
    st.none(),
)


@st.composite
def examples(draw):
    n = draw(st.integers(0, 13))
    d = draw(st.integers(0, 5))
    valid_numbers = draw(st.booleans())
    cell = st.floats(-1e6, 1e6, allow_nan=False, width=64) if valid_numbers else numbers
    data = {
        "tokens": draw(st.lists(labels, min_size=n, max_size=n)),
        "embeddings": draw(
            st.lists(
                st.lists(cell, min_size=d, max_size=d),
                min_size=n,
                max_size=n + draw(st.integers(0, 1)),
            )
        ),
    }
    if draw(st.booleans()):
        data["heads"] = draw(st.one_of(st.integers(0, 4), numbers))
    if draw(st.booleans()):
        data["mask"] = draw(
            st.one_of(
                st.sampled_from(["none", "causal", "bad"]),
                st.lists(
                    st.lists(st.integers(0, 1), min_size=n, max_size=n), min_size=n, max_size=n
                ),
            )
        )
    if draw(st.booleans()):
        data["seed"] = draw(st.one_of(st.integers(0, 99), numbers))
    if draw(st.booleans()):
        data[draw(st.sampled_from(["tokns", "positional_encoding", "scale"]))] = draw(
            st.one_of(st.booleans(), numbers)
        )
    return data


def _torch_reference(ex, trace):
    import torch
    import torch.nn.functional as F

    for head in trace.heads:
        q, k, v = (torch.tensor(a, dtype=torch.float64) for a in (head.Q, head.K, head.V))
        mask = None if head.mask is None else torch.tensor(head.mask)
        out = F.scaled_dot_product_attention(
            q[None], k[None], v[None], attn_mask=mask, scale=head.scale
        )[0].numpy()
        scale = max(1.0, float(np.abs(head.V).max()))
        np.testing.assert_allclose(head.output, out, rtol=1e-9, atol=1e-9 * scale)


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(examples())
def test_fuzzed_examples_load_cleanly_or_match_torch(data):
    try:
        ex = ac.Example.from_dict(data, name="fuzz")
    except ValueError as exc:
        msg = str(exc)
        assert msg and "\n" not in msg and ":" in msg  # "<field>: <what is wrong>; <fix>"
        return
    trace = ac.trace_example(ex)
    assert all(np.all(np.isfinite(h.weights)) for h in trace.heads)
    _torch_reference(ex, trace)


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.function_scoped_fixture,
    ],
)
@given(examples(), st.sampled_from([[], ["--json"], ["--markdown"]]))
def test_fuzzed_numbers_never_a_traceback(tmp_path, capsys, data, form):
    from scenes.cli import main

    path = tmp_path / "fuzz.json"
    path.write_text(json.dumps(data, allow_nan=True), encoding="utf-8")
    rc = main(["numbers", str(path), *form])
    out, err = capsys.readouterr()
    assert rc in (0, 2), err
    if rc == 2:
        assert out == "" and err.count("\n") == 1 and err.startswith("attn-explain: error: ")
    elif form == ["--json"]:
        parsed = json.loads(out)
        assert len(parsed["tokens"]) == len(data["tokens"])
        assert all(math.isfinite(w) for row in parsed["weights"] for w in row)
