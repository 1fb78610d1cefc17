"""Issue 16: outputs checked rather than trusted (sizes and hashes in records, --verify, web-ready
MP4s), nothing dropped silently (course names, file reads, signals, interrupted batches), stdout
only paths, watch, the text cache's cap, the table of output kinds, and the smaller things."""

import json
import os
import signal
import struct
import subprocess
import time
from pathlib import Path

import faults
import pytest
from conftest import CLI
from test_cli_render import files_under

import attention_core as ac
from scenes.kit.look import Look
from scenes.kit.registry import SCENES, find
from scenes.pipeline import cache, kinds
from scenes.pipeline.course import expand, load_course
from scenes.pipeline.files import atomic_write, read_capped
from scenes.pipeline.jobs import Request, plan


def leftovers(root):
    return [p for p in root.rglob("*") if p.name.startswith(".tmp-")]


def top_level_boxes(path: Path) -> list[str]:
    """The ISO-BMFF (MP4/MOV) top-level box types, in file order."""
    data, i, out = path.read_bytes(), 0, []
    while i + 8 <= len(data):
        size, kind = struct.unpack(">I4s", data[i : i + 8])
        if size == 1:
            size = struct.unpack(">Q", data[i + 8 : i + 16])[0]
        elif size == 0:
            size = len(data) - i
        out.append(kind.decode("latin-1"))
        i += size
    return out


# -- the table of output kinds and atomic writes (no rendering) -----------------------------------
def test_the_table_of_kinds_decides_names_outputs_formats_and_makers(tmp_path):
    assert kinds.FORMATS == ("mp4", "webm", "mov", "gif", "png")
    assert kinds.ALPHA_FORMATS == ("webm", "mov", "png")
    ex = ac.PRESETS["zao-shang-hao"]
    request = Request(
        ex, [find("Softmax")], Look.for_example(ex), tmp_path, fmt="webm", stills=True, slides=True
    )
    jobs = plan(request)
    assert [(j.kind, j.name, j.output.relative_to(request.out_dir).as_posix()) for j in jobs] == [
        ("video", "Softmax.webm", "Softmax.webm"),
        ("stills", "stills-Softmax", "stills"),
        ("slides", "slides-Softmax", "slides-src/Softmax.json"),
    ]
    for kind in kinds.KINDS.values():
        assert callable(kind.maker())  # every entry names a function that exists
    slides = jobs[2].scratch(123)
    assert slides[0].name.endswith("-123") and slides[1].parts[-3:] == (
        "slides-src",
        "files",
        "Softmax",
    )
    with pytest.raises(ValueError, match="--format: 'avi'"):
        kinds.for_format("avi")


def test_atomic_write_replaces_whole_and_leaves_nothing(tmp_path):
    target = tmp_path / "sub" / "a.txt"
    atomic_write(target, "one")
    atomic_write(target, b"two")
    assert target.read_text() == "two" and sorted(p.name for p in target.parent.iterdir()) == [
        "a.txt"
    ]


# -- records with sizes and hashes --------------------------------------------------------------
def test_a_truncated_emptied_or_changed_file_is_not_fresh(tmp_path):
    (tmp_path / "a.mp4").write_bytes(b"0123456789")
    cache.write_record(tmp_path, "a.mp4", {"key": "k", "files": ["a.mp4"]})
    record = cache.read_record(tmp_path, "a.mp4")
    assert (
        record["digests"]["a.mp4"]["size"] == 10 and len(record["digests"]["a.mp4"]["sha256"]) == 64
    )
    assert cache.fresh_record(tmp_path, "a.mp4", "k")
    (tmp_path / "a.mp4").write_bytes(b"")  # `: > a.mp4`
    assert cache.fresh_record(tmp_path, "a.mp4", "k") is None
    assert "has 0 bytes, not 10" in cache.problem(tmp_path, record)
    (tmp_path / "a.mp4").write_bytes(b"0123456780")  # same size, other bytes, new mtime
    assert cache.fresh_record(tmp_path, "a.mp4", "k") is None
    assert "hash differs" in cache.problem(tmp_path, record)
    # the same bytes with only a new mtime: hashed, and still fresh
    (tmp_path / "a.mp4").write_bytes(b"0123456789")
    os.utime(tmp_path / "a.mp4", ns=(1, 1))
    assert cache.fresh_record(tmp_path, "a.mp4", "k")
    # a record without sizes and hashes (an older version) is not trusted
    (tmp_path / ".keys" / "old.json").write_text(json.dumps({"key": "k", "files": ["a.mp4"]}))
    assert cache.fresh_record(tmp_path, "old", "k") is None


# -- course files: nothing dropped silently -------------------------------------------------------
def test_two_course_files_with_one_stem_are_refused_naming_both(cli, tmp_path):
    for folder in ("A", "B"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "lesson.toml").write_text(
            'tokens = ["a", "b"]\nembeddings = [[1, 0], [0, 1]]\n'
        )
    (tmp_path / "c.toml").write_text(
        'examples = ["A/lesson.toml", "B/lesson.toml"]\nformats = ["png"]\n'
    )
    r = cli("batch", tmp_path / "c.toml", "--dry-run", "--out", tmp_path / "r")
    assert r.returncode == 2 and r.stderr.count("\n") == 1, r.stderr
    assert "'A/lesson.toml' and 'B/lesson.toml' are both named 'lesson'" in r.stderr


def test_a_jsonl_example_named_like_a_listed_preset_is_refused(tmp_path):
    (tmp_path / "s.jsonl").write_text(
        json.dumps({"name": "causal", "tokens": ["a"], "embeddings": [[1.0]]}) + "\n"
    )
    (tmp_path / "c.toml").write_text('examples = ["causal"]\nexamples_jsonl = "s.jsonl"\n')
    with pytest.raises(ValueError, match="both named 'causal'"):
        load_course(tmp_path / "c.toml")


def test_an_example_name_without_suffix_finds_the_file_beside_the_course(tmp_path):
    (tmp_path / "cross.toml").write_text('tokens = ["a", "b"]\nembeddings = [[1, 0], [0, 1]]\n')
    (tmp_path / "c.toml").write_text(
        'examples = ["cross", "causal"]\nformats = ["png"]\nscenes = ["Embeddings"]\n'
    )
    course = load_course(tmp_path / "c.toml")
    assert [(label, ex.name, err) for label, ex, err in course.examples] == [
        ("cross", "cross", ""),
        ("causal", "causal", ""),
    ]
    jobs, broken = expand(course, tmp_path / "r")
    assert broken == [] and len(jobs) == 2


def test_files_are_checked_regular_and_read_with_the_cap(cli, tmp_path):
    (tmp_path / "zero.toml").symlink_to("/dev/zero")
    t0 = time.monotonic()
    r = cli("numbers", tmp_path / "zero.toml")
    assert r.returncode == 2 and "character device, not a regular file" in r.stderr, r.stderr
    (tmp_path / "course.toml").symlink_to("/dev/zero")
    r = cli("batch", tmp_path / "course.toml", "--dry-run")
    assert r.returncode == 2 and "not a regular file" in r.stderr
    assert time.monotonic() - t0 < 30  # nothing read without bound
    big = tmp_path / "big.toml"
    big.write_bytes(b"#" * 1_000_001)
    r = cli("numbers", big)
    assert r.returncode == 2 and "at most 1,000,000" in r.stderr
    with pytest.raises(ValueError, match="over 10 bytes"):
        read_capped(big, 10)


# -- the smaller things (no rendering) ----------------------------------------------------------
def test_listings_keep_their_columns_aligned(cli):
    for command, names in (("scenes", [s.name for s in SCENES]), ("presets", list(ac.PRESETS))):
        lines = cli(command).stdout.splitlines()
        assert [line.split()[0] for line in lines] == names
        starts = {len(line) - len(line[len(name) :].lstrip()) for line, name in zip(lines, names)}
        assert len(starts) == 1, (command, starts)  # every description starts in one column


def test_options_that_do_nothing_alone_imply_their_parent_or_warn(cli, tmp_path):
    r = cli(
        "render", "--preview", "--slides-format", "pdf", "--scene", "Softmax", "--out", tmp_path
    )
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[-1].endswith("zao-shang-hao/slides/zao-shang-hao-480p15.pdf")
    (tmp_path / "c.toml").write_text('examples = ["causal"]\nformats = ["png"]\n')
    r = cli("batch", tmp_path / "c.toml", "--collect", "--dry-run", "--out", tmp_path / "r")
    assert (
        r.returncode == 0 and "warning: --collect does nothing without --executor dask" in r.stderr
    )


def test_verify_without_renders_says_what_to_render(cli, tmp_path):
    r = cli("render", "--verify", "--scene", "Softmax", "--out", tmp_path)
    assert r.returncode == 1 and r.stdout.startswith("to render ")
    assert (
        "--verify: 1 output(s) to render again" in r.stderr
        and not tmp_path.joinpath("zao-shang-hao").exists()
    )


def test_the_text_cache_is_capped_least_recently_used_first_and_corrupt_entries_rebuilt(
    tmp_path, monkeypatch
):
    from scenes.mobjects import text_cache

    monkeypatch.setenv("ATTN_TEXT_CACHE", str(tmp_path))
    text_cache.cache_dir.cache_clear()
    try:
        for i in range(10):
            text_cache.store(("k", i), b"x" * 10_000)
            path = text_cache._path(("k", i))
            os.utime(path, ns=(i * 10**9, i * 10**9))
        assert text_cache.load(("k", 0)) == b"x" * 10_000  # used now: the most recent
        assert text_cache.prune(limit=50_000) <= 45_000
        kept = [i for i in range(10) if text_cache._path(("k", i)).exists()]
        assert 0 in kept and kept[1:] == list(range(10 - len(kept) + 1, 10))  # oldest went first
        text_cache._path(("k", 9)).write_bytes(b"\x80\x04 truncated")
        assert text_cache.load(("k", 9)) is None and not text_cache._path(("k", 9)).exists()
        monkeypatch.setenv("ATTN_TEXT_CACHE_MB", "0.02")
        assert text_cache.cap_bytes() == 20_000
    finally:
        text_cache.cache_dir.cache_clear()


# -- real renders -------------------------------------------------------------------------------
@pytest.mark.slow
def test_mp4_starts_with_its_index_and_a_truncated_output_is_rerendered(cli, tmp_path):
    args = ("render", "--scene", "Embeddings", "--out", tmp_path)
    assert cli(*args).returncode == 0
    mp4 = tmp_path / "zao-shang-hao" / "480p15" / "Embeddings.mp4"
    boxes = top_level_boxes(mp4)
    assert "moov" in boxes and boxes.index("moov") < boxes.index("mdat"), boxes
    ok = cli("render", "--verify", "--scene", "Embeddings", "--out", tmp_path)
    assert ok.returncode == 0 and ok.stdout.split()[:2] == ["ok", str(mp4)]
    mp4.write_bytes(b"")  # `: > Embeddings.mp4`
    bad = cli("render", "--verify", "--scene", "Embeddings", "--out", tmp_path)
    assert bad.returncode == 1 and bad.stdout.startswith("BAD") and "has 0 bytes" in bad.stdout
    again = cli(*args)
    assert again.returncode == 0 and "1 rendered, 0 up to date" in again.stderr
    assert (
        mp4.stat().st_size > 1000
        and cli("render", "--verify", "--scene", "Embeddings", "--out", tmp_path).returncode == 0
    )


@pytest.mark.slow
@pytest.mark.parametrize(
    "sig,code", [(signal.SIGTERM, 143), (signal.SIGHUP, 129)], ids=["TERM", "HUP"]
)
def test_sigterm_and_sighup_are_handled_like_ctrl_c(sig, code, tmp_path):
    folder = tmp_path / "zao-shang-hao" / "480p15"
    proc = subprocess.Popen(
        [CLI, "render", "--scene", "Softmax", "--out", str(tmp_path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    end = time.monotonic() + 60
    while time.monotonic() < end and not (folder.exists() and leftovers(folder)):
        time.sleep(0.1)
    assert leftovers(folder), "the render never started"
    time.sleep(1.0)
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == code, err
    assert err.strip().splitlines()[-1] == f"attn-explain: interrupted ({sig.name})"
    assert "Traceback" not in err and not leftovers(tmp_path)
    time.sleep(0.5)
    assert not leftovers(tmp_path) and files_under(tmp_path) == []


@pytest.mark.slow
def test_an_interrupted_batch_writes_the_manifest_of_what_finished(tmp_path):
    (tmp_path / "c.toml").write_text(
        'name = "w"\nexamples = ["zao-shang-hao"]\n'
        'scenes = ["Embeddings", "Softmax"]\nformats = ["png"]\n'
    )
    env = {**os.environ, **faults.env("hang:Softmax")}
    proc = subprocess.Popen(
        [CLI, "batch", str(tmp_path / "c.toml"), "-j", "2", "--out", str(tmp_path / "r")],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # as at a terminal
    )
    png = tmp_path / "r" / "zao-shang-hao" / "480p15" / "Embeddings.png"
    end = time.monotonic() + 120
    while time.monotonic() < end and not (png.parent / ".keys" / "Embeddings.png.json").exists():
        time.sleep(0.2)
    time.sleep(0.5)
    proc.send_signal(signal.SIGINT)
    try:
        _, err = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        _, err = proc.communicate()
        raise AssertionError(
            f"SIGINT did not stop the batch (here {signal.getsignal(2)}): {err}"
        ) from None
    assert proc.returncode == 130, err
    manifest = json.loads((tmp_path / "r" / "w" / "manifest.json").read_text())
    assert [(t["label"], t["status"]) for t in manifest["tasks"]] == [
        ("zao-shang-hao/480p15/Embeddings.png", "rendered")
    ]
    assert not leftovers(tmp_path / "r")


@pytest.mark.slow
def test_stdout_of_slides_quiet_is_only_paths(cli, tmp_path):
    from scenes.outputs.slides import missing_assets

    if missing_assets():
        pytest.fail("the reveal.js assets are missing: run `make setup`")
    r = cli(
        "render", "--slides", "--quiet", "--scene", "Embeddings", "--out", tmp_path, timeout=600
    )
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines and all(Path(line).exists() for line in lines), r.stdout
    assert "INFO" not in r.stderr


@pytest.mark.slow
def test_watch_renders_again_when_the_file_is_saved(tmp_path):
    example = tmp_path / "mine.toml"
    example.write_text('tokens = ["a", "b"]\nembeddings = [[1.0, 0.2], [0.3, 0.9]]\n')
    proc = subprocess.Popen(
        [
            CLI,
            "watch",
            str(example),
            "--stills",
            "--scene",
            "Embeddings",
            "-j",
            "1",
            "--out",
            str(tmp_path / "r"),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        folder = tmp_path / "r" / "mine" / "480p15" / "stills"
        assert proc.stdout.readline().strip() == str(folder)
        first = sorted(p.read_bytes() for p in folder.iterdir())
        example.write_text(example.read_text())  # saved unchanged: nothing to render
        time.sleep(1.0)
        example.write_text('tokens = ["a", "b"]\nembeddings = [[1.0, 0.9], [0.3, 0.9]]\n')
        t0 = time.monotonic()
        assert proc.stdout.readline().strip() == str(folder)
        print(f"watch: edit → stills in {time.monotonic() - t0:.2f} s (see BENCHMARKS.md)")
        assert sorted(p.read_bytes() for p in folder.iterdir()) != first
    finally:
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    assert proc.returncode == 0 and err.strip().splitlines()[-1] == "watch: stopped", err
    changed = [line for line in err.splitlines() if line.startswith("watch: changed:")]
    assert len(changed) == 2 and all("Embeddings (stills)" in line for line in changed)


@pytest.mark.slow
def test_pack_of_a_subset_keeps_the_full_page_and_each_video_has_its_last_step_as_poster(
    cli, tmp_path
):
    two = ("--scene", "Embeddings", "--scene", "Softmax", "--out", tmp_path)
    assert cli("pack", *two, timeout=600).returncode == 0
    page = tmp_path / "zao-shang-hao" / "index.html"
    assert page.read_text().count("<video") == 2
    r = cli("pack", "--scene", "Embeddings", "--out", tmp_path, timeout=600)
    assert r.returncode == 0 and r.stdout.splitlines()[-1] == str(page)
    html = page.read_text()
    assert html.count("<video") == 2  # Softmax is still on the page
    for scene in ("Embeddings", "Softmax"):
        assert f'poster="480p15/{scene}.png"' in html
        assert (tmp_path / "zao-shang-hao" / "480p15" / f"{scene}.png").is_file()


@pytest.mark.slow
def test_the_example_notebook_runs(tmp_path):
    import nbclient  # the [notebook] extra, also in [test]: a missing one fails, never skips
    import nbformat

    source = Path(__file__).resolve().parent.parent / "notebooks" / "explainer.ipynb"
    nb = nbformat.read(source, as_version=4)
    nbclient.NotebookClient(
        nb, timeout=600, resources={"metadata": {"path": str(tmp_path)}}
    ).execute()
    outputs = [o for cell in nb.cells if cell.cell_type == "code" for o in cell.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    assert any("image/png" in o.get("data", {}) for o in outputs)
    assert (tmp_path / "renders" / "zao-shang-hao" / "480p15" / "Softmax.png").is_file()
