"""Nothing stale (issue 31): the content key follows the code that draws an output, wherever its
modules live."""

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _digest_in(tree: Path) -> str:
    """The code digest that the source tree ``tree`` computes for itself (a fresh interpreter)."""
    out = subprocess.run(
        [sys.executable, "-c", "from scenes.pipeline import cache; print(cache.code_digest())"],
        cwd=tree,
        env={"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return out.stdout.strip()


def test_editing_a_scene_or_the_core_changes_the_content_key(tmp_path):
    ignore = shutil.ignore_patterns("__pycache__")
    for package in ("attention_core", "scenes"):
        shutil.copytree(ROOT / package, tmp_path / package, ignore=ignore)
    before = _digest_in(tmp_path)
    seen = {before}
    for module in (
        "scenes/scaling.py",  # a scene
        "attention_core/softmax.py",  # the core
        "scenes/mobjects/__init__.py",  # the drawing kit, a subpackage
        "scenes/kit/captions/softmax.py",  # a scene's words, two packages down
        "scenes/outputs/explorer.js",  # the lecture page's script
    ):
        path = tmp_path / module
        original = path.read_bytes()
        path.write_bytes(original + b"\n# edited\n")
        seen.add(_digest_in(tmp_path))
        path.write_bytes(original)
    assert len(seen) == 6, "each edit must give a new code digest (and so a new content key)"
    assert _digest_in(tmp_path) == before
    # a module moved into another subpackage is still hashed, and so is its new place
    (tmp_path / "scenes" / "moved").mkdir()
    shutil.move(
        tmp_path / "scenes" / "kit" / "roles.py", tmp_path / "scenes" / "moved" / "roles.py"
    )
    moved = _digest_in(tmp_path)
    (tmp_path / "scenes" / "moved" / "roles.py").write_text("# edited\n", encoding="utf-8")
    assert len({before, moved, _digest_in(tmp_path)}) == 3


def _save_arrays(path: Path, embeddings) -> None:
    import numpy as np

    with open(path, "wb") as f:  # rewritten in place, as an editor or a script would
        np.savez(f, embeddings=np.array(embeddings, dtype=float))


def test_watch_renders_again_when_the_npz_an_example_names_is_saved(tmp_path):
    import attention_core as ac
    from scenes.kit.look import Look
    from scenes.kit.registry import find
    from scenes.pipeline import watch
    from scenes.pipeline.jobs import Request

    example = tmp_path / "s.toml"
    example.write_text('tokens = ["a", "b"]\narrays = "s.npz"\n', encoding="utf-8")
    _save_arrays(tmp_path / "s.npz", [[1.0, 0.0], [0.0, 1.0]])

    def make_requests():
        ex = ac.load_example(example)
        return [Request(ex, [find("Scaling")], Look.for_example(ex), tmp_path / "out", fmt="png")]

    state = watch._State()
    first = watch._next_round(state, make_requests, example, 0.0, None)
    assert first and watch._next_round(state, make_requests, example, 0.0, None) is None
    _save_arrays(tmp_path / "s.npz", [[2.0, 0.0], [0.0, 1.0]])
    again = watch._next_round(state, make_requests, example, 0.0, None)
    assert again, "saving the .npz the example names must render again"
    assert {j.key for j in again}.isdisjoint(j.key for j in first)


def test_render_remakes_what_verify_called_bad_even_with_its_time_kept(tmp_path, cli):
    import os

    import attention_core as ac
    from scenes.kit.look import Look
    from scenes.kit.registry import find
    from scenes.pipeline import cache
    from scenes.pipeline.jobs import Request, plan

    ex = ac.PRESETS["zao-shang-hao"]
    (job,) = plan(Request(ex, [find("Scaling")], Look.for_example(ex), tmp_path, fmt="png"))
    job.out_dir.mkdir(parents=True)
    job.output.write_bytes(b"a rendered frame")  # stands for the render's png and its record
    cache.write_record(job.out_dir, job.name, {"key": job.key, "files": [job.name]})
    args = ["zao-shang-hao", "--scene", "Scaling", "--format", "png", "--out", tmp_path]
    assert "up to date" in cli("render", *args, "--preview").stdout
    st = job.output.stat()
    job.output.write_bytes(b"an edited frame!")  # edited in place: same size, time kept
    os.utime(job.output, ns=(st.st_atime_ns, st.st_mtime_ns))
    for _ in range(2):  # the advice holds: BAD, and render (--preview says what it would do)
        verified = cli("render", *args, "--verify")
        assert verified.returncode == 1 and "BAD" in verified.stdout, verified
        assert "run render without it" in verified.stderr
        assert cli("render", *args, "--preview").stdout.startswith("to render"), (
            "render must make again what --verify called BAD"
        )


# -- from-model: the message names the argument the user gave (TEXT, FILE) ------------------------
FROM_MODEL_REFUSALS = [
    (["the\u200dcat", "-o", "x.toml"], "TEXT: 'the\\u200dcat' contains U+200D ZERO WIDTH JOINER"),
    (["the \u202ecat", "-o", "x.toml"], "TEXT: 'the \\u202ecat' contains U+202E RIGHT-TO-LEFT"),
    (["the ⌚ cat", "--model", "smollm2", "-o", "x.toml"], "TEXT (token 2): '⌚¹' contains emoji"),
    (["the cat", "-o", "a\nb.toml"], "FILE: 'a\\nb.toml' holds a control character"),
    (["the cat", "-o", "x\t.toml"], "FILE: 'x\\t.toml' holds a control character"),
    (["the cat", "-o", ".toml"], "FILE: '.toml' has no name before .toml; give one, e.g. cat.toml"),
]


def test_from_model_names_text_and_file_in_its_refusals(tmp_path, cli):
    for args, expected in FROM_MODEL_REFUSALS:
        r = cli("from-model", *args, "--layer", "1", "--head", "1", cwd=tmp_path)
        assert r.returncode == 2 and r.stdout == "", (args, r)
        assert r.stderr.startswith(f"attn-explain: error: {expected}"), (args, r.stderr)
        assert len(r.stderr.splitlines()) == 1 and "title" not in r.stderr, r.stderr
        assert "tokens[" not in r.stderr and list(tmp_path.iterdir()) == [], (args, r.stderr)
    r = cli("init", "q\r.toml", cwd=tmp_path)
    assert r.returncode == 2 and "FILE: 'q\\r.toml' holds a control character" in r.stderr


# -- batch: a large course is planned in seconds -----------------------------------------------
def test_a_course_of_20000_example_lines_is_planned_in_seconds(tmp_path, cli):
    """Measured in CPU seconds of the command (the machine may be shared): 10 s before (two
    content keys and two record look-ups a task, a label's fonts checked for every example),
    about 4 s before each line was checked in one pass and a look made per kind of example,
    about 1.7 s now; 60,000 lines: BENCHMARKS.md (j). The work is counted in the next test."""
    import json
    import resource

    with open(tmp_path / "s.jsonl", "w", encoding="utf-8") as f:
        for i in range(20000):
            n = 2 + i % 2
            emb = [[1, 0], [0, (i % 997) / 10], [1, 1]][:n]
            f.write(json.dumps({"tokens": ["a", "b", "c"][:n], "embeddings": emb}) + "\n")
        f.write('{"tokens": ["a"], "embeddings": [[1, 2], [3, 4]]}\n')  # a broken line
    course = tmp_path / "c.toml"
    course.write_text('examples_jsonl = "s.jsonl"\nscenes = ["Softmax"]\nformats = ["png"]\n')
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    r = cli("batch", course, "--dry-run", "--out", tmp_path / "o")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    lines = r.stdout.splitlines()
    assert r.returncode == 0 and len(lines) == 20001, r.stderr
    assert lines[0] == "to render   s-1/480p15/Softmax.png"
    assert lines[-1].startswith("broken      s.jsonl:20001: embeddings: 2 rows for 1 tokens")
    assert "20000 tasks (0 up to date, 20000 to render), 1 broken" in r.stderr
    assert cpu < 3.0, f"batch --dry-run of 20,000 examples took {cpu:.1f} CPU s"


def test_a_course_validates_each_line_once_makes_a_look_per_kind_and_reads_only_records_there(
    tmp_path, monkeypatch
):
    """Counted, not timed: planning a course of 200 JSONL lines (Latin and Chinese labels, three
    languages asked) checks each line once, makes one set of looks per kind of example (not one
    a line: 600 before) and looks up the records of the example folders that exist only (one
    a task before); the answers are those of Job.fresh itself."""
    import json

    from attention_core import Example
    from scenes.kit.look import Look
    from scenes.pipeline import cache
    from scenes.pipeline.course import expand, load_course
    from scenes.pipeline.jobs import Job, up_to_date

    calls = {"check": 0, "look": 0, "fresh": 0}

    def counted(name, f):
        def wrapper(*args, **kwargs):
            calls[name] += 1
            return f(*args, **kwargs)

        return wrapper

    monkeypatch.setattr(Example, "__post_init__", counted("check", Example.__post_init__))
    monkeypatch.setattr(Look, "__init__", counted("look", Look.__init__))
    monkeypatch.setattr(Job, "fresh", counted("fresh", Job.fresh))
    with open(tmp_path / "s.jsonl", "w", encoding="utf-8") as f:
        for i in range(200):
            tokens = ["早", "上"] if i % 2 else ["a", "b"]
            f.write(json.dumps({"tokens": tokens, "embeddings": [[1, i], [0, 1]]}) + "\n")
    course = tmp_path / "c.toml"
    text = 'examples_jsonl = "s.jsonl"\nscenes = ["Softmax"]\nformats = ["png"]\n'
    course.write_text(text + 'langs = ["default", "zh", "en"]\n')
    jobs, broken = expand(load_course(course), tmp_path / "o")
    assert broken == [] and len(jobs) == 200 * 2  # default is zh or en: two folders a line
    assert calls["check"] == 200 and calls["look"] == 2 * 3, calls
    assert {j.out_dir.name for j in jobs[:4]} == {"480p15", "480p15-zh", "480p15-en"}
    assert up_to_date(jobs) == [False] * 400 and calls["fresh"] == 0  # never rendered
    made = jobs[3]  # s-2 (Chinese), in English: rendered once, its record kept
    made.output.parent.mkdir(parents=True)
    made.output.write_bytes(b"png")
    cache.write_record(made.out_dir, made.name, {"key": made.key, "files": [made.output.name]})
    assert up_to_date(jobs) == [j is made for j in jobs]
    assert calls["fresh"] == 2, calls  # the two tasks of s-2, whose folder is there
    assert up_to_date(jobs) == [j.fresh() is not None for j in jobs]


def test_every_dask_scheduler_error_is_one_line_exit_2(tmp_path, cli):
    import pytest

    from scenes.pipeline.batch import SchedulerError, connect

    course = tmp_path / "c.toml"
    course.write_text('examples = ["zao-shang-hao"]\nscenes = ["Softmax"]\nformats = ["png"]\n')
    for address in ("not-an-address", "tcp://10.0.0.5"):  # distributed needs the port
        r = cli("batch", course, "--executor", "dask", "--scheduler", address, "--out", tmp_path)
        assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
        assert r.stderr == f"attn-explain: error: --scheduler: {address!r} is not an address; " + (
            "give tcp://HOST:PORT, e.g. tcp://10.0.0.5:8786\n"
        )
    with pytest.raises(SchedulerError, match=r"^--scheduler: cannot use the Dask scheduler "):
        connect("tcp://127.0.0.1:1", timeout="1s")  # nothing answers there


def test_jiebas_dictionary_cache_is_kept_in_the_user_cache_folder(tmp_path):
    """Chinese captions are cut into words by jieba; its 9 MB prefix dictionary was written to
    the temporary folder (each worker's own), so every render built it again."""
    import os

    cache, tmp = tmp_path / "cache", tmp_path / "tmp"
    tmp.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "ATTN_TEXT_CACHE"}
    code = "from scenes.mobjects.text import _words; print(_words('注意力机制的值向量'))"
    for _ in range(2):
        r = subprocess.run(
            [sys.executable, "-c", code],
            env={**env, "PYTHONPATH": str(ROOT), "XDG_CACHE_HOME": str(cache), "TMPDIR": str(tmp)},
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert r.returncode == 0 and "值向量" in r.stdout, r.stderr
        kept = list((cache / "attention-explainer").glob("jieba-*/jieba.cache"))
        assert len(kept) == 1 and kept[0].stat().st_size > 1_000_000, list(cache.rglob("*"))
        assert list(tmp.iterdir()) == [], "nothing of jieba's in the temporary folder"


# -- pack: nothing to render costs about a render with nothing to render
def test_pack_keeps_the_notes_and_the_page_it_worked_out(tmp_path, cli):
    import json

    args = ["zao-shang-hao", "--scene", "Scaling", "-q", "l", "--out", tmp_path]
    assert cli("render", *args).returncode == 0  # as `make demo`: a video without captions
    record = tmp_path / "zao-shang-hao" / "480p15" / ".keys" / "Scaling.mp4.json"
    assert not any("caption_other" in s for s in json.loads(record.read_text())["steps"])
    first = cli("pack", *args)
    assert first.returncode == 0, first.stderr
    page = Path(first.stdout.split()[-1])
    steps = json.loads(record.read_text())["steps"]  # the dry runs' results, kept
    assert steps and all("caption_other" in s and "numbers" in s for s in steps)
    written = page.stat().st_mtime_ns
    again = cli("pack", *args)
    assert again.returncode == 0 and again.stdout == first.stdout, again.stderr
    assert page.stat().st_mtime_ns == written, "nothing changed: the page is not written again"
    assert cli("pack", *args, "--digits", "2").returncode == 0
    assert page.stat().st_mtime_ns != written, "another --digits is another page"


def test_watch_renders_when_the_npz_an_example_names_appears(tmp_path, capsys):
    import attention_core as ac
    from scenes.kit.look import Look
    from scenes.kit.registry import find
    from scenes.pipeline import watch
    from scenes.pipeline.jobs import Request

    example = tmp_path / "t.toml"
    example.write_text('tokens = ["a", "b"]\narrays = "t.npz"\n', encoding="utf-8")

    def make_requests():
        ex = ac.load_example(example)
        return [Request(ex, [find("Scaling")], Look.for_example(ex), tmp_path / "out", fmt="png")]

    state = watch._State()
    assert watch._next_round(state, make_requests, example, 0.0, sys.stderr) is None
    assert "arrays: 't.npz' does not exist" in capsys.readouterr().err
    assert watch._next_round(state, make_requests, example, 0.0, sys.stderr) is None
    _save_arrays(tmp_path / "t.npz", [[1.0, 0.0], [0.0, 1.0]])  # the file it names, saved
    assert watch._next_round(state, make_requests, example, 0.0, sys.stderr)
    assert "t.toml is valid again" in capsys.readouterr().err
