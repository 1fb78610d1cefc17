"""Every validation error of the example model: through load_example and through the CLI."""

import json

import numpy as np
import pytest

import attention_core as ac

BASE = {"tokens": ["早", "上", "好"], "embeddings": [[1.2, 0.8], [0.9, 1.1], [0.7, 1.3]]}


def with_(**changes):
    data = json.loads(json.dumps(BASE))
    for k, v in changes.items():
        if v is None:
            data.pop(k, None)
        else:
            data[k] = v
    return data


# (case id, example data or raw file text, file name, the field the message must name, a phrase)
CASES = [
    ("ragged", with_(embeddings=[[1.2, 0.8], [0.9], [0.7, 1.3]]), "embeddings", "ragged"),
    ("count", with_(tokens=["早", "上"]), "embeddings", "2 tokens"),
    ("nan-toml", 'tokens = ["a"]\nembeddings = [[nan, 1.0]]\n', "embeddings", "NaN"),
    ("inf-toml", 'tokens = ["a"]\nembeddings = [[inf, 1.0]]\n', "embeddings", "infinity"),
    ("nan-json", '{"tokens": ["a"], "embeddings": [[NaN, 1.0]]}', "example", "finite"),
    (
        "too-big",
        with_(embeddings=[[1.2, 2e6], [0.9, 1.1], [0.7, 1.3]]),
        "embeddings",
        "2000000.0 is beyond the limit |x| ≤ 1,000,000",
    ),
    (
        "too-many",
        with_(tokens=[str(i) for i in range(25)], embeddings=[[1.0, 0.0]] * 25),
        "tokens",
        "25 tokens; at most 24",
    ),
    ("long-label", with_(tokens=["abcdefghijklm", "上", "好"]), "tokens[0]", "at most 12"),
    ("empty-tokens", with_(tokens=[], embeddings=[]), "tokens", "empty"),
    ("blank-label", with_(tokens=["  ", "上", "好"]), "tokens[0]", "empty"),
    ("label-type", with_(tokens=[1, "上", "好"]), "tokens[0]", "text"),
    ("newline-label", with_(tokens=["a\nb", "上", "好"]), "tokens[0]", "control"),
    ("empty-matrix", with_(embeddings=[[], [], []]), "embeddings[0]", "empty"),
    (
        "string-number",
        with_(embeddings=[["1", 0.8], [0.9, 1.1], [0.7, 1.3]]),
        "embeddings[0][0]",
        "number",
    ),
    (
        "bool-number",
        with_(embeddings=[[True, 0.8], [0.9, 1.1], [0.7, 1.3]]),
        "embeddings[0][0]",
        "number",
    ),
    (
        "wrong-weights",
        with_(
            weights={
                "W_q": [[1, 0, 0], [0, 1, 0], [0, 0, 1]],
                "W_k": [[1, 0], [0, 1]],
                "W_v": [[1, 0], [0, 1]],
            }
        ),
        "weights.W_q",
        "rows",
    ),
    (
        "wk-vs-wq",
        with_(
            weights={
                "W_q": [[1, 0], [0, 1]],
                "W_k": [[1, 0, 0], [0, 1, 0]],
                "W_v": [[1, 0], [0, 1]],
            }
        ),
        "weights.W_k",
        "equal",
    ),
    (
        "missing-wv",
        with_(weights={"W_q": [[1, 0], [0, 1]], "W_k": [[1, 0], [0, 1]]}),
        "weights.W_v",
        "missing",
    ),
    ("heads", with_(heads=3), "heads", "divide"),
    ("heads-zero", with_(heads=0), "heads", "outside"),
    ("heads-type", with_(heads="2"), "heads", "whole number"),
    ("unknown-preset", None, "example", "known presets"),
    ("bad-toml", 'tokens = ["a"\nembeddings = 3', "example", "not valid TOML"),
    ("bad-json", '{"tokens": ["a"], }', "example", "not valid JSON"),
    ("unknown-key", with_(tokns=["a"]), "tokns", "did you mean 'tokens'"),
    ("unknown-weight-key", with_(weights={"Wq": [[1]]}), "weights.Wq", "did you mean 'W_q'"),
    ("mask-shape", with_(mask=[[1, 0], [1, 1]]), "mask", "expected 3×3"),
    ("mask-name", with_(mask="triangle"), "mask", "causal"),
    ("mask-row", with_(mask=[[1, 0, 0], [0, 0, 0], [1, 1, 1]]), "mask", "row 1"),
    ("padding-len", with_(padding=[1, 0]), "padding", "3 entries"),
    ("padding-all", with_(padding=[0, 0, 0]), "padding", "every position"),
    ("d_k-without-seed", with_(d_k=3), "d_k", "seed"),
    ("seed-type", with_(seed=1.5), "seed", "whole number"),
    ("pe-type", with_(positional_encoding="yes"), "positional_encoding", "true or false"),
    ("source-half", with_(source_tokens=["good"]), "source_embeddings", "both"),
    (
        "source-dims",
        with_(source_tokens=["good"], source_embeddings=[[1.0, 2.0, 3.0]]),
        "source_embeddings",
        "d_model",
    ),
    (
        "causal-cross",
        with_(source_tokens=["good"], source_embeddings=[[1.0, 2.0]], mask="causal"),
        "mask",
        "cross",
    ),
    ("too-wide", with_(embeddings=[[1.0] * 17] * 3), "embeddings", "at most 16"),
    ("not-a-table", "[1, 2, 3]", "example", "one object"),
    ("title-type", with_(title=5), "title", "text"),
    # each head's model-level scores (from-model writes them; issue 40)
    ("head-scores-count", with_(head_scores=[]), "head_scores", "list of 1 table"),
    (
        "head-scores-keys",
        with_(head_scores=[{"previous": 0.1, "induction": 0.9}]),
        "head_scores[1]",
        "previous, duplicate, induction, copying",
    ),
    (
        "head-scores-range",
        with_(head_scores=[dict(previous=0.1, duplicate=0.0, induction=1.5, copying=0.2)]),
        "head_scores[1].induction",
        "outside [0, 1]",
    ),
]


def _materialize(data, write_example, case_id):
    if data is None:
        return "no-such-preset"
    if isinstance(data, str):
        suffix = (
            ".json" if case_id.endswith("json") or data.lstrip().startswith(("{", "[")) else ".toml"
        )
        return write_example(data, name=f"case{suffix}")
    return write_example(data, name="case.json")


@pytest.mark.parametrize("case_id,data,field,phrase", CASES, ids=[c[0] for c in CASES])
def test_load_example_names_field(case_id, data, field, phrase, write_example):
    path = _materialize(data, write_example, case_id)
    with pytest.raises(ValueError) as exc:
        ac.load_example(path)
    msg = str(exc.value)
    assert msg.startswith(field), msg
    assert phrase in msg, msg
    assert "\n" not in msg


@pytest.mark.parametrize("case_id,data,field,phrase", CASES, ids=[c[0] for c in CASES])
def test_cli_reports_one_line_exit_2(case_id, data, field, phrase, write_example, cli):
    path = _materialize(data, write_example, case_id)
    r = cli("numbers", path)
    assert r.returncode == 2, r.stdout + r.stderr
    assert r.stdout == ""
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1, r.stderr
    assert lines[0].startswith(f"attn-explain: error: {field}") and phrase in lines[0]
    assert "Traceback" not in r.stderr


def test_file_problems(tmp_path):
    (tmp_path / "x.txt").write_text("tokens = []")
    with pytest.raises(ValueError, match=r"must end in \.toml or \.json"):
        ac.load_example(tmp_path / "x.txt")
    (tmp_path / "bin.toml").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\xff\xfe")
    with pytest.raises(ValueError, match="not UTF-8"):
        ac.load_example(tmp_path / "bin.toml")
    (tmp_path / "big.toml").write_text("# " + "x" * 1_100_000)
    with pytest.raises(ValueError, match="at most"):
        ac.load_example(tmp_path / "big.toml")
    with pytest.raises(ValueError, match="folder"):
        ac.load_example(tmp_path)


def test_unknown_preset_suggests_the_close_one():
    with pytest.raises(ValueError, match="did you mean 'zao-shang-hao'"):
        ac.load_example("zao-shang-ha")


def test_file_example_is_named_by_its_stem_and_round_trips(write_example):
    path = write_example({**BASE, "title": "mine", "seed": 3, "d_k": 3}, name="my lesson.json")
    ex = ac.load_example(path)
    assert ex.name == "my-lesson"
    again = ac.Example.from_dict(ex.to_dict(), name=ex.name)
    np.testing.assert_array_equal(again.weights.W_q, ex.weights.W_q)
    assert again.weights.W_q.shape == (2, 3)


def test_toml_documented_format_loads(write_example):
    path = write_example("""
title = "早上好"
tokens = ["早", "上", "好"]
embeddings = [[1.2, 0.8], [0.9, 1.1], [0.7, 1.3]]
heads = 1
mask = "causal"
padding = [1, 1, 0]
positional_encoding = true
[weights]
W_q = [[1.0, 0.0], [0.0, 1.0]]
W_k = [[1.0, 0.5], [0.0, 1.0]]
W_v = [[1.0, 0.0], [0.0, 1.0]]
""")
    tr = ac.trace_example(ac.load_example(path))
    assert tr.pe is not None and tr.mask is not None
    assert tr.attention.weights[2, 2] == 0.0 and tr.attention.weights[0, 1] == 0.0


def test_per_head_weights_form(write_example):
    r = np.random.default_rng(0)
    W = {k: r.standard_normal((2, 2, 3)).round(3).tolist() for k in ("W_q", "W_k", "W_v")}
    ex = ac.load_example(write_example({**BASE, "heads": 2, "weights": W}, name="ph.json"))
    tr = ac.trace_example(ex)
    assert ex.weights.form == "independent" and tr.output.shape == (3, 6)
    bad = {**BASE, "heads": 2, "weights": {**W, "W_o": [[1.0] * 2] * 6}}
    with pytest.raises(ValueError, match="weights.W_o"):
        ac.load_example(write_example(bad, name="ph2.json"))


def test_split_form_needs_w_o_for_several_heads(write_example):
    data = {
        "tokens": ["a", "b"],
        "embeddings": [[1, 0, 0, 1], [0, 1, 1, 0]],
        "heads": 2,
        "weights": {k: np.eye(4).tolist() for k in ("W_q", "W_k", "W_v")},
    }
    with pytest.raises(ValueError, match="weights.W_o: needed"):
        ac.load_example(write_example(data, name="s.json"))


def test_examples_accept_extremes():
    ex = ac.Example(tokens=["a", "b"], embeddings=[[1e6, -1e6], [-0.0, 5e-324]])
    tr = ac.trace_example(ex)
    assert np.all(np.isfinite(tr.attention.weights))
    np.testing.assert_allclose(tr.attention.weights.sum(axis=1), 1.0)


# a file's numbers, and what else a row may hold: every kind of refusal the walk names
_CELLS = [0, -0.0, 1, 0.5, 1e6, -1e6, 1e6 + 0.5, -1000001, 10**19, float("nan"), float("-inf")]
_CELLS += [True, "1", None, [1.0]]


def test_plain_rows_are_checked_in_one_pass_as_the_walk_checks_them():
    """A list of lists of numbers (what a JSONL line gives) is checked in one pass; a tuple of
    tuples still goes through check_nested's walk. Both take or refuse each matrix alike, with
    the same message: the one pass never accepts what the walk refuses."""
    import itertools

    from attention_core.example.validation import check_matrix

    def outcome(value):
        try:
            return check_matrix("embeddings", value).tolist()
        except ValueError as exc:
            return str(exc)

    pairs = list(itertools.product(_CELLS, repeat=2))
    matrices = [[[a, b]] for a, b in pairs] + [[[a], [b]] for a, b in pairs]
    matrices += [[[1, 2], [3]], [[1], [2, 3]], [[]], [], [[1, 2], "ab"], [[1, 2], (3, 4)]]
    for matrix in matrices:
        as_tuples = tuple(tuple(r) if isinstance(r, list) else r for r in matrix)
        assert outcome(matrix) == outcome(as_tuples), matrix
    good = 2 * 6 * 6 + 1  # six good cells in pairs, and a tuple row among lists
    assert sum(isinstance(outcome(m), list) for m in matrices) == good
    assert str(check_matrix("embeddings", [[-0.0]])[0, 0]) == "0.0"  # −0.0 printed as 0.0
