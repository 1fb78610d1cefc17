"""`attn-explain render` and `attn-explain scenes` through the installed console script."""

import os
import subprocess
import sys
from pathlib import Path

import av
import pytest
from conftest import ROOT

import attention_core as ac
from scenes.kit.registry import SCENES, applicable


def files_under(path: Path):
    """The files a user sees: everything but the content-key records (``.keys/``)."""
    return (
        sorted(
            p.relative_to(path) for p in path.rglob("*") if p.is_file() and ".keys" not in p.parts
        )
        if path.exists()
        else []
    )


# the single-head story, in the order it is taught (other scenes may come between them)
SINGLE_HEAD = [
    "Embeddings",
    "Projections",
    "DotProducts",
    "Scaling",
    "Softmax",
    "WeightedSum",
    "AttentionMatrix",
    "Overview",
]


def test_scenes_lists_every_scene_in_teaching_order(cli):
    r = cli("scenes")
    assert r.returncode == 0
    lines = r.stdout.strip().splitlines()
    assert [line.split()[0] for line in lines] == [s.name for s in SCENES]
    names = [s.name for s in SCENES]
    assert sorted(SINGLE_HEAD, key=names.index) == SINGLE_HEAD


@pytest.mark.parametrize(
    "args,field",
    [
        (["--scene", "Nope"], "--scene"),
        (["-q", "x"], "-q/--quality"),
        (["--format", "avi"], "--format"),
        (["--lang", "fr"], "--lang"),
        (["--theme", "blue"], "--theme"),
        (["no-such-preset"], "example"),
    ],
)
def test_bad_render_input_is_one_line_and_writes_nothing(cli, tmp_path, args, field):
    out = tmp_path / "renders"
    r = cli("render", *args, "--out", out)
    assert r.returncode == 2, r.stderr
    assert r.stderr.count("\n") == 1 and r.stderr.startswith(f"attn-explain: error: {field}")
    assert "Traceback" not in r.stderr
    assert files_under(out) == []


def test_unwritable_out_is_reported(cli, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    r = cli("render", "--scene", "Embeddings", "--out", blocker / "sub")
    assert r.returncode == 2 and "--out" in r.stderr and r.stderr.count("\n") == 1
    assert blocker.read_text() == "not a folder"


def test_png_is_the_final_frame(cli, tmp_path):
    r = cli("render", "--scene", "AttentionMatrix", "--format", "png", "--out", tmp_path)
    assert r.returncode == 0, r.stderr
    png = tmp_path / "zao-shang-hao" / "480p15" / "AttentionMatrix.png"
    assert png.exists() and r.stdout.strip() == str(png)
    from PIL import Image

    assert Image.open(png).size == (854, 480)
    assert files_under(tmp_path) == [png.relative_to(tmp_path)]  # no temporary leftovers


@pytest.mark.slow
def test_smoke_render_every_scene_at_lowest_quality(cli, tmp_path):
    r = cli("render", "zao-shang-hao", "-q", "l", "--out", tmp_path, timeout=1200)
    assert r.returncode == 0, r.stderr[-2000:]
    folder = tmp_path / "zao-shang-hao" / "480p15"
    default = applicable(ac.PRESETS["zao-shang-hao"])  # the scenes that apply
    assert files_under(tmp_path) == [
        Path("zao-shang-hao/480p15") / f"{s.name}.mp4"
        for s in sorted(default, key=lambda s: s.name)
    ]
    for s in default:
        with av.open(str(folder / f"{s.name}.mp4")) as video:
            stream = video.streams.video[0]
            assert (stream.width, stream.height) == (854, 480)
            seconds = float(video.duration) / av.time_base
            assert 3 < seconds < 120, (s.name, seconds)


@pytest.mark.slow
def test_user_example_file_renders(cli, tmp_path, write_example):
    path = write_example(
        'title = "mine"\ntokens = ["a", "b"]\n'
        "embeddings = [[1.0, 0.2, 0.1], [0.3, 0.9, -0.4]]\nseed = 3\n",
        name="my-lesson.toml",
    )
    r = cli("render", path, "--scene", "DotProducts", "--out", tmp_path / "r")
    assert r.returncode == 0, r.stderr[-2000:]
    assert (tmp_path / "r" / "my-lesson" / "480p15" / "DotProducts.mp4").exists()


@pytest.mark.slow
@pytest.mark.parametrize("scene", SCENES, ids=[s.name for s in SCENES])
def test_plain_manim_render_works(scene, tmp_path):
    """Each scene file also renders with plain `manim render` (last frame, the example from
    $ATTN_EXAMPLE)."""
    manim = Path(sys.executable).parent / "manim"
    env = {
        **os.environ,
        "ATTN_EXAMPLE": "cross-zh-en" if scene.name == "DotProducts" else "zao-shang-hao",
    }
    r = subprocess.run(
        [
            str(manim),
            "render",
            "-ql",
            "-s",
            "--disable_caching",
            str(ROOT / scene.path),
            scene.name,
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )
    assert r.returncode == 0, r.stderr[-2000:]
    assert list((tmp_path / "media" / "images").rglob("*.png"))


@pytest.mark.slow
def test_new_scenes_render_a_users_example_with_heads_mask_and_source(cli, tmp_path, write_example):
    """MultiHeadSplit, CausalMask, PositionalEncoding, EncoderBlock from a user's file with
    several heads and a mask; CrossAttention from one with a source sequence."""
    own = write_example(
        'tokens = ["I", "like", "tea", "a lot"]\n'
        "embeddings = [[1, 0.2, 0.1, -0.3], [0.3, 0.9, -0.4, 0.2], "
        "[0.5, 0.5, 0.5, 0.5], [-0.2, 0.1, 0.8, 0.4]]\n"
        'heads = 2\nseed = 5\nmask = "causal"\npositional_encoding = true\n',
        name="lesson.toml",
    )
    cross = write_example(
        'tokens = ["你", "好"]\nembeddings = [[1.0, 0.1], [0.2, 0.9]]\n'
        'source_tokens = ["hello", "there", "friend"]\n'
        "source_embeddings = [[0.9, 0.3], [0.1, 1.0], [0.5, 0.5]]\n",
        name="translate.toml",
    )
    for path, scenes in (
        (own, ["MultiHeadSplit", "CausalMask", "PositionalEncoding", "EncoderBlock"]),
        (cross, ["CrossAttention"]),
    ):
        args = [a for s in scenes for a in ("--scene", s)]
        r = cli("render", path, *args, "--format", "png", "--out", tmp_path, timeout=900)
        assert r.returncode == 0, r.stderr[-2000:]
        for s in scenes:
            assert (tmp_path / path.stem / "480p15" / f"{s}.png").exists()


def test_render_takes_the_scenes_that_apply(cli, tmp_path):
    """zao-shang-hao (one head, no mask, no source): no MultiHeadSplit, CrossAttention,
    CausalMask; two-heads: MultiHeadSplit; asking for one that does not apply says why."""
    zao = cli("render", "zao-shang-hao", "--preview", "--out", tmp_path)
    assert zao.returncode == 0, zao.stderr
    for absent in ("MultiHeadSplit", "CrossAttention", "CausalMask", "HeadGallery"):
        assert absent not in zao.stdout
    assert "Softmax.mp4" in zao.stdout
    two = cli("render", "two-heads", "--preview", "--out", tmp_path)
    assert "MultiHeadSplit.mp4" in two.stdout and "CrossAttention" not in two.stdout
    listing = cli("scenes", "zao-shang-hao").stdout
    line = next(x for x in listing.splitlines() if x.startswith("MultiHeadSplit"))
    assert "skipped" in line and "heads" in line
    bad = cli("render", "zao-shang-hao", "--scene", "CrossAttention", "--out", tmp_path)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
    assert "does not apply to zao-shang-hao" in bad.stderr and "second sequence" in bad.stderr
    assert not any(tmp_path.rglob("*.mp4"))
