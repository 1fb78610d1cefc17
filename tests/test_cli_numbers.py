"""`attn-explain numbers` through the installed console script."""

import json
import subprocess
import sys

import numpy as np

import attention_core as ac

KEYS = {"tokens", "X", "Q", "K", "V", "scores", "scaled", "masked", "weights", "output"}


def test_table_walks_through_every_step(cli):
    r = cli("numbers", "zao-shang-hao")
    assert r.returncode == 0, r.stderr
    out = r.stdout
    for step in (
        "X — embeddings",
        "Q = X·W_q",
        "K = X·W_k",
        "V = X·W_v",
        "scores = Q·Kᵀ",
        "scaled = scores / √d_k",
        "weights = softmax",
        "output = weights·V",
    ):
        assert step in out
    assert "2.080  1.960  1.880" in out and "0.359  0.330  0.312" in out
    assert "identity, so Q = K = V = X" in out
    assert out.index("scores") < out.index("scaled") < out.index("weights = ") < out.index("output")


def test_default_example_is_zao_shang_hao(cli):
    assert cli("numbers").stdout == cli("numbers", "zao-shang-hao").stdout


def test_json_has_the_specified_keys_at_full_precision(cli):
    r = cli("numbers", "zao-shang-hao", "--json")
    data = json.loads(r.stdout)
    assert set(data) >= KEYS
    assert data["tokens"] == ["早", "上", "好"]
    t = ac.trace_example(ac.PRESETS["zao-shang-hao"]).attention
    np.testing.assert_array_equal(data["weights"], t.weights)  # full precision, not rounded
    assert data["masked"] == t.scaled.tolist()
    assert "seed" not in data and "heads" not in data


def test_json_masked_is_null_where_blocked_and_seed_is_printed(cli):
    data = json.loads(cli("numbers", "causal", "--json").stdout)
    assert data["masked"][0][1] is None and data["masked"][1][0] is not None
    assert data["weights"][0][1] == 0.0
    seeded = json.loads(cli("numbers", "numpy-3x4", "--json").stdout)
    assert seeded["seed"] == ac.PRESETS["numpy-3x4"].weights.seed
    assert "seed = 0" in cli("numbers", "numpy-3x4").stdout


def test_json_multi_head_and_cross(cli):
    data = json.loads(cli("numbers", "two-heads", "--json").stdout)
    assert len(data["heads"]) == 2 and all(KEYS - {"tokens", "X"} <= set(h) for h in data["heads"])
    tr = ac.trace_example(ac.PRESETS["two-heads"])
    np.testing.assert_array_equal(data["concat"], tr.multihead.concat)
    np.testing.assert_array_equal(data["output"], tr.multihead.output)
    np.testing.assert_array_equal(data["heads"][1]["weights"], tr.heads[1].weights)
    cross = json.loads(cli("numbers", "cross-zh-en", "--json").stdout)
    assert cross["source_tokens"] == ["good", "morning"]
    assert np.array(cross["weights"]).shape == (3, 2)


def test_markdown_escapes_labels(cli, write_example):
    path = write_example(
        {"tokens": ["a|b", "<b>x</b>", "*em*"], "embeddings": [[1, 0], [0, 1], [1, 1]]},
        name="md.json",
    )
    r = cli("numbers", path, "--markdown")
    assert r.returncode == 0, r.stderr
    rows = [line for line in r.stdout.splitlines() if line.startswith("| a")]
    assert rows and all(line.startswith("| a\\|b |") for line in rows)
    assert "<b>" not in r.stdout and "&lt;b&gt;x&lt;/b&gt;" in r.stdout
    assert "\\*em\\*" in r.stdout
    for block in r.stdout.split("\n\n"):  # every row of a table has the header's cell count
        rows = [line.replace("\\|", "") for line in block.splitlines() if line.startswith("|")]
        assert len({row.count("|") for row in rows}) <= 1, block


def test_json_and_markdown_together_is_an_error(cli):
    r = cli("numbers", "--json", "--markdown")
    assert r.returncode == 2 and r.stderr.count("\n") == 1


def test_cli_import_does_not_import_manim():
    code = "import sys, scenes.cli, scenes.outputs.numbers_report; print('manim' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_help_and_presets(cli):
    assert cli("--help").returncode == 0
    r = cli("presets")
    assert all(name in r.stdout for name in ac.PRESETS)


def test_json_gives_each_heads_reading(cli):
    """Each self-attention head's reading, from attention_core.read_head (the one classifier)."""
    data = json.loads(cli("numbers", "two-heads", "--json").stdout)
    tr = ac.trace_example(ac.PRESETS["two-heads"])
    for h, head in enumerate(data["heads"]):
        want = ac.read_head(tr.heads[h].weights, tr.example.tokens)
        assert head["reading"]["pattern"] == want.pattern
        assert head["reading"]["mass"] == want.mass
    assert data["heads"][1]["reading"]["token"] == "好"
    cross = json.loads(cli("numbers", "cross-zh-en", "--json").stdout)
    assert cross["reading"] is None  # a reading is of self-attention
