"""`attn-explain batch`: a course file expanded into tasks, run on the local pool and on a Dask
LocalCluster (2 worker processes) with the same content keys; a worker killed mid-batch; a
broken example; a finished course re-run renders nothing; --collect; the manifest."""

import json
import os
import signal
import threading
import time
from pathlib import Path

import pytest

from scenes.pipeline.batch import run_batch
from scenes.pipeline.course import expand, load_course

COURSE = """\
name = "week-1"
examples = ["zao-shang-hao", "mine.toml"]
scenes = ["Embeddings", "Softmax"]
langs = ["zh", "en"]
formats = ["png"]
"""
MINE = 'tokens = ["a", "b"]\nembeddings = [[1.0, 0.2], [0.3, 0.9]]\n'


@pytest.fixture
def course_dir(tmp_path):
    (tmp_path / "course.toml").write_text(COURSE, encoding="utf-8")
    (tmp_path / "mine.toml").write_text(MINE, encoding="utf-8")
    return tmp_path


def manifest(out: Path) -> dict:
    return json.loads((out / "week-1" / "manifest.json").read_text(encoding="utf-8"))


def keys(out: Path) -> dict:
    return {t["label"]: t["key"] for t in manifest(out)["tasks"]}


def test_a_course_expands_into_one_task_per_combination(course_dir):
    course = load_course(course_dir / "course.toml")
    jobs, broken = expand(course, course_dir / "r")
    assert broken == [] and len(jobs) == 2 * 2 * 2  # examples × langs × scenes
    # zao-shang-hao defaults to zh, mine (Latin labels) to en: the other language is marked
    assert {(j.example.name, j.out_dir.name) for j in jobs} == {
        ("zao-shang-hao", "480p15"),
        ("zao-shang-hao", "480p15-en"),
        ("mine", "480p15"),
        ("mine", "480p15-zh"),
    }


@pytest.mark.parametrize(
    "text,field",
    [
        ('examples = ["zao-shang-hao"]\nlangs = ["fr"]\n', "course.langs"),
        ('examples = ["zao-shang-hao"]\nformats = "avi"\n', "course.formats"),
        ('examples = ["zao-shang-hao"]\nscenes = ["Nope"]\n', "--scene"),
        ('langs = ["zh"]\n', "course.examples"),
        ('examples = ["zao-shang-hao"]\nexampels = 1\n', "course.exampels"),
        ("examples = [\n", "course"),
    ],
)
def test_a_bad_course_file_is_one_line(cli, tmp_path, text, field):
    (tmp_path / "c.toml").write_text(text, encoding="utf-8")
    r = cli("batch", tmp_path / "c.toml", "--out", tmp_path / "r")
    assert r.returncode == 2 and r.stderr.count("\n") == 1, r.stderr
    assert r.stderr.startswith(f"attn-explain: error: {field}") and "Traceback" not in r.stderr
    assert not (tmp_path / "r").exists()


def test_dry_run_prints_the_plan_only(cli, course_dir):
    r = cli("batch", course_dir / "course.toml", "--dry-run", "--out", course_dir / "r")
    assert r.returncode == 0
    assert len(r.stdout.strip().splitlines()) == 8 and "8 tasks" in r.stderr
    assert not (course_dir / "r").exists()


def test_local_batch_with_a_broken_example_then_a_rerun_renders_nothing(cli, course_dir):
    text = COURSE.replace('"mine.toml"]', '"mine.toml", "broken.toml"]')
    (course_dir / "course.toml").write_text(text, encoding="utf-8")
    (course_dir / "broken.toml").write_text('tokens = ["a"]\nembeddings = [[nan, 1]]\n')
    out = course_dir / "r"
    r = cli("batch", course_dir / "course.toml", "--out", out, timeout=600)
    assert r.returncode == 1, r.stderr
    assert (
        r.stderr.strip()
        .splitlines()[-1]
        .startswith("attn-explain: error: broken.toml: embeddings[0, 0]: NaN")
    )
    m = manifest(out)
    assert m["counts"] == {"rendered": 8, "reused": 0, "failed": 1}
    for task in m["tasks"]:
        if task["status"] == "rendered":
            assert Path(task["output"]).is_file() and task["size"] > 0 and task["key"]
    again = cli("batch", course_dir / "course.toml", "--out", out)
    assert "0 rendered, 8 up to date, 1 failed" in again.stderr


@pytest.fixture(scope="module")
def cluster():
    from distributed import LocalCluster

    with LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as c:
        yield c


@pytest.mark.slow
def test_dask_localcluster_equals_the_local_executor(cluster, cli, course_dir):
    local = cli("batch", course_dir / "course.toml", "--out", course_dir / "local")
    assert local.returncode == 0, local.stderr
    r = cli(
        "batch",
        course_dir / "course.toml",
        "--executor",
        "dask",
        "--scheduler",
        cluster.scheduler_address,
        "--out",
        course_dir / "dask",
        timeout=600,
    )
    assert r.returncode == 0, r.stderr
    m = manifest(course_dir / "dask")
    assert m["counts"] == {"rendered": 8, "reused": 0, "failed": 0}
    assert keys(course_dir / "dask") == keys(course_dir / "local")
    for task in m["tasks"]:
        assert Path(task["output"]).is_file()
    again = cli(
        "batch",
        course_dir / "course.toml",
        "--executor",
        "dask",
        "--scheduler",
        cluster.scheduler_address,
        "--out",
        course_dir / "dask",
    )
    assert "0 rendered, 8 up to date" in again.stderr


@pytest.mark.slow
def test_dask_collect_sends_the_files_back(cluster, course_dir):
    course = load_course(course_dir / "course.toml")
    out = course_dir / "collected"
    jobs, broken = expand(course, out)
    report = run_batch(
        course.name,
        jobs,
        broken,
        out,
        executor="dask",
        scheduler=cluster.scheduler_address,
        collect=True,
        quiet=True,
    )
    assert report.counts()["rendered"] == 8
    for job in jobs:
        assert job.output.is_file() and job.fresh()  # written here, with its record


@pytest.mark.slow
def test_a_worker_killed_mid_batch_costs_only_a_retry(cluster, course_dir):
    from distributed import Client

    course = load_course(course_dir / "course.toml")
    out = course_dir / "killed"
    jobs, broken = expand(course, out)
    from scenes.pipeline.batch import start_renderer

    with Client(cluster.scheduler_address) as client:
        workers = client.run(os.getpid)
        # a scratch name ends in its render process's pid: the worker that owns it is mid-task
        owner = {str(pid): workers[a] for a, pid in client.run(start_renderer).items()}
        killed = []

        def kill_a_worker_mid_task():
            end = time.monotonic() + 120
            while time.monotonic() < end:
                for p in out.rglob(".tmp-*"):
                    worker = owner.get(p.name.rsplit("-", 1)[-1])
                    if worker:
                        os.kill(worker, signal.SIGKILL)
                        killed.append(p.name)
                        return
                time.sleep(0.01)

        threading.Thread(target=kill_a_worker_mid_task, daemon=True).start()
        report = run_batch(
            course.name, jobs, broken, out, executor="dask", client=client, quiet=True
        )
    assert killed, "no worker was killed mid-task"
    assert report.counts() == {"rendered": 8, "reused": 0, "failed": 0}
    assert all(job.output.is_file() for job in jobs)
    # each task recorded once, and every output as its record says (sizes and hashes)
    labels = [t["label"] for t in manifest(out)["tasks"]]
    assert len(labels) == len(set(labels)) == 8
    assert all(job.fresh(verify=True) for job in jobs)


def readme_course(folder: Path) -> Path:
    """The worked course file of docs/courses.md, written to ``folder``."""
    page = Path(__file__).resolve().parent.parent / "docs" / "courses.md"
    text = page.read_text(encoding="utf-8")
    start = text.index("```toml\n# week-1.toml\n") + len("```toml\n")
    path = folder / "week-1.toml"
    path.write_text(text[start : text.index("```", start)], encoding="utf-8")
    return path


@pytest.mark.slow
def test_the_readme_course_renders_locally_and_on_a_localcluster(cluster, cli, tmp_path):
    course = readme_course(tmp_path)
    local = cli("batch", course, "--out", tmp_path / "local", timeout=600)
    assert local.returncode == 0, local.stderr
    dask = cli(
        "batch",
        course,
        "--executor",
        "dask",
        "--scheduler",
        cluster.scheduler_address,
        "--out",
        tmp_path / "dask",
        timeout=600,
    )
    assert dask.returncode == 0, dask.stderr
    assert len(keys(tmp_path / "dask")) == 8
    assert keys(tmp_path / "dask") == keys(tmp_path / "local")


@pytest.mark.slow
def test_each_dask_worker_keeps_one_warm_render_process(cluster, course_dir):
    """Tasks cost their render, not an import: every task of two batches runs in the same
    long-lived render process of its worker, and the manifest tells task time from render time."""
    from distributed import Client

    from scenes.pipeline.batch import start_renderer

    course = load_course(course_dir / "course.toml")
    out = course_dir / "warm"
    jobs, broken = expand(course, out)
    with Client(cluster.scheduler_address) as client:
        run_batch(course.name, jobs, broken, out, executor="dask", client=client, quiet=True)
        before = client.run(start_renderer)  # the pids of the render processes (none started)
        report = run_batch(
            course.name, jobs, broken, out, executor="dask", client=client, quiet=True, force=True
        )
        assert client.run(start_renderer) == before
    assert report.counts()["rendered"] == 8
    for task in manifest(out)["tasks"]:
        assert 0 < task["render_seconds"] <= task["seconds"] < task["render_seconds"] + 1.0
