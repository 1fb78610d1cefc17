"""The render pipeline through the real `attn-explain` script: content keys and reuse, --force,
bounded workers (a hang is killed), --preview, variants in their own folders, stills, fonts,
transparency, init, and the new options' bad input."""

import itertools
import subprocess
import sys
import time
from pathlib import Path

import faults
import pytest
from PIL import Image
from test_cli_render import files_under

import attention_core as ac
from scenes.kit.look import ASPECTS, LANGS, THEME_NAMES, Look
from scenes.kit.registry import SCENES, find
from scenes.pipeline import cache
from scenes.pipeline.jobs import Job


def leftovers(root):
    return [p for p in root.rglob("*") if p.name.startswith(".tmp-")]


# -- looks and keys (no rendering) --------------------------------------------------------------
def test_every_look_has_its_own_folder():
    ex = ac.PRESETS["zao-shang-hao"]
    looks = [
        Look.for_example(ex, quality=q, lang=lang, theme=t, aspect=a, transparent=alpha)
        for q, lang, t, a, alpha in itertools.product(
            "lmhpk", LANGS, THEME_NAMES, ASPECTS, (False, True)
        )
    ]
    folders = [look.folder(ex) for look in looks]
    assert len(set(folders)) == len(folders)
    assert Look.for_example(ex).folder(ex) == "480p15"
    assert Look.for_example(ex, lang="en", theme="light").folder(ex) == "480p15-en-light"
    english = ac.Example(name="en", tokens=["a", "b"], embeddings=[[1.0, 0.0], [0.0, 1.0]])
    assert (
        Look.for_example(english).lang == "en"
        and Look.for_example(english).folder(english) == "480p15"
    )


def test_content_key_changes_with_everything_that_shapes_the_output(tmp_path):
    ex = ac.PRESETS["zao-shang-hao"]
    base = Job(find("Softmax"), ex, Look.for_example(ex), tmp_path)
    changed_example = ac.Example.from_dict(
        {**ex.to_dict(), "embeddings": [[1.2, 0.8], [0.9, 1.1], [0.7, 1.31]]}, name=ex.name
    )
    variants = [
        Job(find("Scaling"), ex, base.look, tmp_path),
        Job(base.scene, changed_example, base.look, tmp_path),
        Job(base.scene, ex, Look.for_example(ex, lang="en"), tmp_path),
        Job(base.scene, ex, Look.for_example(ex, theme="light"), tmp_path),
        Job(base.scene, ex, Look.for_example(ex, aspect="4:3"), tmp_path),
        Job(base.scene, ex, Look.for_example(ex, quality="m"), tmp_path),
        Job(base.scene, ex, base.look, tmp_path, fmt="webm"),
        Job(base.scene, ex, base.look, tmp_path, kind="stills"),
    ]
    keys = [base.key] + [j.key for j in variants]
    assert len(set(keys)) == len(keys)
    assert (
        Job(base.scene, ac.PRESETS["zao-shang-hao"], Look.for_example(ex), tmp_path).key == base.key
    )
    # the scenes' code and Manim's version are part of every key
    assert len(cache.code_digest()) == 64 and cache.tool_versions()["manim"].startswith("0.21")


def test_a_record_needs_its_key_and_all_its_files(tmp_path):
    (tmp_path / "a.mp4").write_bytes(b"x")
    cache.write_record(tmp_path, "a.mp4", {"key": "k1", "files": ["a.mp4"]})
    assert cache.fresh_record(tmp_path, "a.mp4", "k1")
    assert cache.fresh_record(tmp_path, "a.mp4", "k2") is None
    (tmp_path / "a.mp4").unlink()
    assert cache.fresh_record(tmp_path, "a.mp4", "k1") is None
    (tmp_path / ".keys" / "b.json").write_text("{not json")
    assert cache.fresh_record(tmp_path, "b", "k1") is None


def test_preview_prints_the_outputs_and_writes_nothing(cli, tmp_path):
    r = cli(
        "render", "--preview", "--captions", "--stills", "--scene", "Softmax", "--out", tmp_path
    )
    assert r.returncode == 0, r.stderr
    lines = r.stdout.strip().splitlines()
    assert lines == [
        f"to render   {tmp_path}/zao-shang-hao/480p15/Softmax.mp4",
        f"to render   {tmp_path}/zao-shang-hao/480p15/stills",
    ]
    assert not tmp_path.joinpath("zao-shang-hao").exists()


def test_planning_and_an_up_to_date_rerun_never_import_manim(tmp_path):
    """The is-it-rendered decision runs without Manim (records made here by hand)."""
    ex = ac.PRESETS["zao-shang-hao"]
    job = Job(
        find("Embeddings"),
        ex,
        Look.for_example(ex),
        tmp_path / ex.name / "480p15",
        kind="png",
        fmt="png",
    )
    job.out_dir.mkdir(parents=True)
    job.output.write_bytes(b"png")
    cache.write_record(job.out_dir, job.name, {"key": job.key, "files": [job.name]})
    code = (
        "import sys; from scenes.cli import main; "
        f"rc = main(['render', '--scene', 'Embeddings', '--format', 'png', '--out', "
        f"{str(tmp_path)!r}]); print(rc, 'manim' in sys.modules)"
    )
    t0 = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    elapsed = time.perf_counter() - t0
    assert out.stdout.strip().splitlines()[-1] == "0 False", out.stderr
    assert "1 up to date" in out.stderr
    print(f"up-to-date re-run: {elapsed:.2f} s (not asserted: see BENCHMARKS.md)")


# -- real renders (one png each: a few seconds) ---------------------------------------------------
def test_rerun_reuses_force_rerenders_and_a_failure_keeps_the_old_file(cli, tmp_path):
    args = ("render", "--scene", "Embeddings", "--format", "png", "--out", tmp_path)
    first = cli(*args)
    assert first.returncode == 0, first.stderr
    png = tmp_path / "zao-shang-hao" / "480p15" / "Embeddings.png"
    before = png.read_bytes()
    # an up-to-date output is not rendered again: an injected failure is never reached
    again = cli(*args, env=faults.env("fail:Embeddings"))
    assert again.returncode == 0, again.stderr
    assert "0 rendered, 1 up to date" in again.stderr and again.stdout == first.stdout
    # --force renders; when that render fails, the previous file stays as it was
    forced = cli(*args, "--force", env=faults.env("fail:Embeddings"))
    assert forced.returncode == 1
    assert (
        forced.stderr.strip()
        .splitlines()[-1]
        .startswith(
            "attn-explain: error: rendering Embeddings (png) failed: RuntimeError: injected failure"
        )
    )
    assert "Traceback" not in forced.stderr
    assert png.read_bytes() == before and not leftovers(tmp_path)
    assert cli(*args, "--force").returncode == 0


def test_a_hung_render_is_killed_and_reported(cli, tmp_path):
    t0 = time.perf_counter()
    r = cli(
        "render",
        "--scene",
        "Embeddings",
        "--scene",
        "Softmax",
        "--format",
        "png",
        "--timeout",
        "12",
        "-j",
        "2",
        "--out",
        tmp_path,
        env=faults.env("hang:Embeddings"),
        timeout=120,
    )
    assert time.perf_counter() - t0 < 90
    assert r.returncode == 1
    last = r.stderr.strip().splitlines()[-1]
    assert last == (
        "attn-explain: error: rendering Embeddings (png) failed: timed out after 12 s "
        "(--timeout); the worker was killed"
    )
    assert "Traceback" not in r.stderr
    out = tmp_path / "zao-shang-hao" / "480p15"
    assert files_under(tmp_path) == [(out / "Softmax.png").relative_to(tmp_path)]
    assert not leftovers(tmp_path)


def test_stills_one_png_per_step_in_order_light_theme_and_square(cli, tmp_path):
    r = cli(
        "render",
        "--stills",
        "--theme",
        "light",
        "--aspect",
        "1:1",
        "--scene",
        "Softmax",
        "--scene",
        "Embeddings",
        "--out",
        tmp_path,
    )
    assert r.returncode == 0, r.stderr
    folder = tmp_path / "zao-shang-hao" / "480p15-light-1x1" / "stills"
    names = sorted(p.name for p in folder.iterdir())
    place = {s.name: f"{k + 1:02d}" for k, s in enumerate(SCENES)}  # files sort in teaching order
    steps = {
        "Embeddings": ["plane", "tokens", "compare"],
        "Softmax": ["exp", "share", "rows", "sharper", "saturation"],
    }
    assert names == sorted(
        f"{place[scene]}-{scene}-{k + 1:02d}-{key}.png"
        for scene, keys in steps.items()
        for k, key in enumerate(keys)
    )
    img = Image.open(folder / names[0]).convert("RGB")
    assert img.size == (480, 480)
    assert img.getpixel((2, 2)) == (255, 255, 255)  # the light theme's white
    assert not (folder.parent / "Softmax.mp4").exists()  # stills only: no video encoded


def test_transparent_png_has_an_alpha_background(cli, tmp_path):
    r = cli(
        "render", "--transparent", "--format", "png", "--scene", "Embeddings", "--out", tmp_path
    )
    assert r.returncode == 0, r.stderr
    img = Image.open(tmp_path / "zao-shang-hao" / "480p15-alpha" / "Embeddings.png")
    assert img.mode == "RGBA" and img.getpixel((2, 2))[3] == 0


def test_a_missing_font_falls_back_with_one_warning(cli, tmp_path):
    r = cli(
        "render",
        "--font",
        "No Such Font",
        "--format",
        "png",
        "--scene",
        "Embeddings",
        "--out",
        tmp_path,
    )
    assert r.returncode == 0, r.stderr
    warnings = [line for line in r.stderr.splitlines() if "warning" in line]
    assert warnings == [
        "attn-explain: warning: font 'No Such Font' is not installed; using "
        "'Noto Sans CJK SC' instead (install it, e.g. `apt-get install "
        "fonts-noto-cjk`, or choose --font)"
    ]
    # the fallback's own folder (the default font here): the font asked for is not in the picture
    assert files_under(tmp_path) == [Path("zao-shang-hao/480p15/Embeddings.png")]


@pytest.mark.parametrize(
    "args,field",
    [
        (["--aspect", "2:1"], "--aspect"),
        (["--slides", "--slides-format", "doc"], "--slides-format"),
        (["--transparent"], "--transparent"),
        (["--transparent", "--format", "gif"], "--transparent"),
        (["--captions", "--format", "png"], "--captions"),
        (["--jobs", "0"], "Invalid value for '-j' / '--jobs'"),
        (["--timeout", "0"], "Invalid value for '--timeout'"),
        (["--font", " "], "--font"),
    ],
)
def test_bad_new_options_are_one_line(cli, tmp_path, args, field):
    r = cli("render", *args, "--out", tmp_path)
    assert r.returncode == 2, r.stderr
    assert r.stderr.count("\n") == 1 and field in r.stderr and "Traceback" not in r.stderr
    assert files_under(tmp_path) == []


# -- init -----------------------------------------------------------------------------------------
def test_init_writes_the_default_example_commented(cli, tmp_path):
    path = tmp_path / "lesson.toml"
    r = cli("init", path)
    assert r.returncode == 0 and r.stdout.strip() == str(path)
    text = path.read_text(encoding="utf-8")
    assert text.count("#") > 20  # explained
    mine = ac.load_example(str(path))
    assert mine.name == "lesson"
    assert mine.to_dict() == ac.PRESETS["zao-shang-hao"].to_dict()
    again = cli("init", path)
    assert again.returncode == 2 and "--force" in again.stderr
    assert cli("init", path, "--force").returncode == 0
    bad = cli("init", tmp_path / "lesson.txt")
    assert bad.returncode == 2 and bad.stderr.startswith("attn-explain: error: FILE:")
