"""Model-level head scores (issue 40): previous, duplicate, induction and copying for every head of
both real models (attention_core.readings.head_scores, attention_core.models.model_scores).

(a) The scores equal ones computed here independently — TransformerLens' detection patterns and
``mul`` score written again in torch, copying from the eigenvalues of the full d × d W_V W_O —
from transformers' own attention (eager, ``output_attentions=True``, float64) and its own weights
(v_proj / value, o_proj / output.dense, input_layernorm) on sequences this file makes, to 1e-5:
SmolLM2's first three layers (transformers' own GGUF loader, for those layers only) and all of
MiniLM's. (b) Hand-built patterns score what they should. (c) The heads the SmolLM2 examples
name are high, and among the top five of 270, on their score. (d) A damaged scores file is
rebuilt. Nothing here skips: without the [model] extra the tests that need it fail.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import numpy as np
import pytest

import attention_core as ac
from attention_core.models import model_scores as ms
from attention_core.readings import head_scores as hs

ROOT = Path(__file__).resolve().parent.parent
SMOL_LAYERS = 3  # SmolLM2's layers compared with transformers (each needs those before it)
TOL = 1e-5


# -- an independent reference: TransformerLens' detect_head ("mul"), written again in torch -------
def _tl_patterns(torch, ids) -> dict:
    """previous, duplicate, induction detection patterns as TransformerLens builds them."""
    tokens = torch.tensor(ids)
    n = len(ids)
    previous = torch.zeros(n, n, dtype=torch.float64)
    previous[1:, :-1] = torch.eye(n - 1, dtype=torch.float64)
    same = (tokens[None, :] == tokens[:, None]).to(torch.float64)
    same.fill_diagonal_(0.0)
    duplicate = torch.tril(same)
    moved = torch.roll(duplicate, shifts=1, dims=1)
    moved[:, 0] = 0.0
    return {
        "previous": torch.tril(previous),
        "duplicate": duplicate,
        "induction": torch.tril(moved),
    }


def _tl_score(attention, pattern, exclude_current: bool) -> float:
    a = attention.clone()
    a[:, 0] = 0.0  # exclude_bos
    if exclude_current:
        a.fill_diagonal_(0.0)
    return float((a * pattern).sum() / a.sum())


def _reference_scores(torch, runs) -> dict[str, np.ndarray]:
    """Mean over the sequences of each head's score; ``runs``: (ids, attentions (L, H, n, n))."""
    flags = {"previous": False, "duplicate": True, "induction": True}
    per = {k: [] for k in flags}
    for ids, att in runs:
        patterns = _tl_patterns(torch, ids)
        for k, flag in flags.items():
            per[k].append([[_tl_score(h, patterns[k], flag) for h in layer] for layer in att])
    return {k: np.mean(v, axis=0) for k, v in per.items()}


def _full_copying(torch, W_V, W_O) -> float:
    """Σλ / Σ|λ| over all d eigenvalues of the d × d matrix W_V W_O (row vectors)."""
    lam = torch.linalg.eigvals(W_V @ W_O)
    return float((lam.sum() / lam.abs().sum()).real)


def _small_copying(torch, W_V, W_O) -> float:
    lam = torch.linalg.eigvals(W_O @ W_V)
    return float((lam.sum() / lam.abs().sum()).real)


def _test_sequences(vocab: range, before=(), after=(), lead=0) -> list[list[int]]:
    """Sequences of this file's own: a short repeat, and a text-like one with an adjacent
    duplicate (whose induction cell is the diagonal) and a token said three times."""
    rng = np.random.default_rng(2024)
    r = [int(x) for x in rng.choice(np.arange(vocab.start, vocab.stop), 9, replace=False)]
    x = r[:lead]
    a, b, c, d, e, f, g = r[2:]
    return [
        [*before, *x, a, b, c, d, e, a, b, c, d, e, *after],
        [*before, *x, a, b, b, c, a, b, d, c, a, e, f, g, *after],
    ]


def _ours(model: str, seqs, upto=None) -> hs.ModelScores:
    runs = ms.attention_runs(model, seqs, upto=upto)
    return hs.score_heads(model, runs, ms.ov_circuits(model, upto=upto))


def _compare(got: hs.ModelScores, want: dict, copying: np.ndarray) -> None:
    for kind, values in want.items():
        np.testing.assert_allclose(got.scores[kind], values, atol=TOL, rtol=0, err_msg=kind)
    np.testing.assert_allclose(got.scores["copying"], copying, atol=TOL, rtol=0)


# -- (a) SmolLM2 against transformers -------------------------------------------------------------
@pytest.fixture(scope="module")
def smol_reference():
    """transformers' LlamaForCausalLM with the first SMOL_LAYERS layers, float64, eager, its
    weights dequantized by transformers' own GGUF loader (only those layers' tensors)."""
    torch = __import__("torch")
    from transformers import LlamaConfig, LlamaForCausalLM
    from transformers.modeling_gguf_pytorch_utils import load_gguf_checkpoint

    from attention_core.models import smollm2_files

    path = smollm2_files.gguf_path()
    shape = dict(hidden_size=576, intermediate_size=1536, num_attention_heads=9)
    shape.update(num_key_value_heads=3, vocab_size=49152, tie_word_embeddings=True)
    with torch.device("meta"):  # names the tensors to read: those of SMOL_LAYERS layers
        names = LlamaForCausalLM(LlamaConfig(num_hidden_layers=SMOL_LAYERS, **shape))
    loaded = load_gguf_checkpoint(str(path), return_tensors=True, model_to_load=names)
    read = loaded["config"]
    assert {k: read[k] for k in shape} == shape
    config = LlamaConfig(
        num_hidden_layers=SMOL_LAYERS, rms_norm_eps=read["rms_norm_eps"],
        rope_parameters={"rope_type": "default", "rope_theta": read["rope_theta"]}, **shape,
    )  # fmt: skip
    config._attn_implementation = "eager"
    model = LlamaForCausalLM(config).to(torch.float64).eval()
    result = model.load_state_dict(loaded["tensors"], strict=False)
    assert result.missing_keys == ["lm_head.weight"] and not result.unexpected_keys  # tied
    seqs = _test_sequences(ms.FRAMES["smollm2"].vocab, lead=1)
    runs = []
    with torch.no_grad():
        for ids in seqs:
            out = model.model(torch.tensor([ids]), output_attentions=True)
            runs.append((ids, [a[0] for a in out.attentions]))
    return torch, model, seqs, runs


@pytest.mark.xdist_group("head_scores_smollm2")
def test_smollm2_scores_equal_transformers(smol_reference):
    """(One test: the reference is loaded once whichever worker runs it.)"""
    torch, model, seqs, runs = smol_reference
    want = _reference_scores(torch, runs)
    copying = np.zeros((SMOL_LAYERS, 9))
    for layer in range(SMOL_LAYERS):
        block = model.model.layers[layer]
        g = block.input_layernorm.weight.detach()
        Wv = block.self_attn.v_proj.weight.detach()  # (3 · 64, 576), (out, in)
        Wo = block.self_attn.o_proj.weight.detach()  # (576, 9 · 64)
        for h in range(9):
            grp = h // 3
            W_V = (Wv[grp * 64 : (grp + 1) * 64] * g[None, :]).T  # RMSNorm gain folded in
            W_O = Wo[:, h * 64 : (h + 1) * 64].T
            copying[layer, h] = _small_copying(torch, W_V, W_O)
            if (layer, h) in ((0, 0), (2, 7)):  # the full 576 × 576 product, for two heads
                assert abs(_full_copying(torch, W_V, W_O) - copying[layer, h]) < TOL
    _compare(_ours("smollm2", seqs, upto=SMOL_LAYERS), want, copying)
    # the layer-by-layer pass over all the sequences gives llama_forward's weights exactly
    from attention_core.models import smollm2_files
    from attention_core.models.llama import llama_forward

    (ids, layers), = ms.attention_runs("smollm2", seqs[1:], upto=2)  # fmt: skip
    trace = llama_forward(smollm2_files.load_weights(), ids, upto=2)
    for got, layer in zip(layers, trace.layers, strict=True):
        np.testing.assert_array_equal(got, layer.weights)


# -- (a) MiniLM against transformers --------------------------------------------------------------
@pytest.fixture(scope="module")
def minilm_reference():
    torch = __import__("torch")
    from transformers import BertModel

    from attention_core.models import minilm_files

    model = BertModel.from_pretrained(str(minilm_files.model_dir()), attn_implementation="eager")
    model = model.to(torch.float64).eval()
    seqs = _test_sequences(ms.FRAMES["minilm"].vocab, before=(101,), after=(102,))
    runs = []
    with torch.no_grad():
        for ids in seqs:
            out = model(torch.tensor([ids]), output_attentions=True)
            runs.append((ids, [a[0] for a in out.attentions]))
    return torch, model, seqs, runs


@pytest.mark.xdist_group("head_scores_minilm")
def test_minilm_scores_equal_transformers(minilm_reference):
    torch, model, seqs, runs = minilm_reference
    want = _reference_scores(torch, runs)
    copying = np.zeros((6, 12))
    for layer in range(6):
        att = model.encoder.layer[layer].attention
        Wv, Wo = att.self.value.weight.detach(), att.output.dense.weight.detach()  # (out, in)
        for h in range(12):
            W_V, W_O = Wv[h * 32 : (h + 1) * 32].T, Wo[:, h * 32 : (h + 1) * 32].T
            copying[layer, h] = _small_copying(torch, W_V, W_O)
            if (layer, h) in ((0, 0), (5, 7)):
                assert abs(_full_copying(torch, W_V, W_O) - copying[layer, h]) < TOL
    _compare(_ours("minilm", seqs), want, copying)


# -- the sequences --------------------------------------------------------------------------------
@pytest.mark.xdist_group("head_scores_minilm")
def test_ordinary_vocabularies_hold_no_special_token():
    from attention_core.models import minilm_files, smollm2_files

    smol = ms.FRAMES["smollm2"].vocab
    types = smollm2_files.load_index().token_types
    assert len(types) == smol.stop and set(types[smol.start :]) == {1}  # normal tokens only
    assert set(types[: smol.start]) == {3}  # the control tokens all lie below
    mini = ms.FRAMES["minilm"]
    tok = minilm_files._tokenizer()
    assert tok.get_vocab_size() == mini.vocab.stop
    assert not [i for i in mini.vocab if re.fullmatch(r"\[.+\]", tok.id_to_token(i))]
    assert mini.before == (tok.token_to_id("[CLS]"),) and mini.after == (tok.token_to_id("[SEP]"),)


def test_repeated_sequences_follow_the_recipe():
    recipe = hs.Recipe(count=3, length=5, seed=1)
    seqs = hs.repeated_sequences(range(10, 50), (1,), (2,), lead=1, recipe=recipe)
    assert len(seqs) == 3
    for s in seqs:
        assert len(s) == 1 + 1 + 5 + 5 + 1 and s[0] == 1 and s[-1] == 2
        x, r, again = s[1], s[2:7], s[7:12]
        assert list(r) == list(again) and len(set(r) | {x}) == 6
        assert all(10 <= t < 50 for t in s[1:-1])
    again = hs.repeated_sequences(range(10, 50), (1,), (2,), lead=1, recipe=recipe)
    assert all((a == b).all() for a, b in zip(seqs, again))
    other = hs.repeated_sequences(range(10, 50), (1,), (2,), lead=1, recipe=hs.Recipe(3, 5, 2))
    assert any((a != b).any() for a, b in zip(seqs, other))
    with pytest.raises(ValueError, match="distinct"):
        hs.repeated_sequences(range(3), recipe=recipe)
    assert "3 sequences of 5" in hs.describe_sequences("a vocabulary", 13, recipe)


# -- (b) hand-built patterns ----------------------------------------------------------------------
def _causal_rows(rows: dict[int, dict[int, float]], n: int) -> np.ndarray:
    A = np.zeros((n, n))
    for i in range(n):
        A[i] = 0.0
        for j, w in rows.get(i, {0: 1.0}).items():
            A[i, j] = w
    return A


REPEAT = [5, 11, 12, 13, 14, 11, 12, 13, 14]  # a first token, then r r with r = 11 … 14


def _scores(A, ids=REPEAT) -> dict[str, float]:
    layers = [np.asarray(A)[None]]
    return {k: float(v[0, 0]) for k, v in hs.sequence_scores(ids, layers).items()}


def test_a_previous_token_head_scores_previous_one():
    n = len(REPEAT)
    A = _causal_rows({i: {i - 1: 1.0} for i in range(1, n)}, n)
    assert _scores(A) == {"previous": 1.0, "duplicate": 0.0, "induction": 0.0}
    half = 0.5 * A + 0.5 * _causal_rows({}, n)  # half of each row on the first token
    assert _scores(half)["previous"] == pytest.approx(1.0)  # excluded, the rest renormalised


def test_an_induction_head_and_a_duplicate_head_score_one():
    n = len(REPEAT)
    induction = _causal_rows({i: {i - 3: 1.0} for i in range(5, n)}, n)  # the token after A
    duplicate = _causal_rows({i: {i - 4: 1.0} for i in range(5, n)}, n)  # A itself
    assert _scores(induction) == {"previous": 0.0, "duplicate": 0.0, "induction": 1.0}
    assert _scores(duplicate) == {"previous": 0.0, "duplicate": 1.0, "induction": 0.0}
    both = 0.5 * induction + 0.5 * duplicate
    assert _scores(both) == pytest.approx({"previous": 0.0, "duplicate": 0.5, "induction": 0.5})


def test_weight_on_the_token_itself_counts_against_previous_only():
    n = len(REPEAT)
    A = _causal_rows({i: {i - 4: 0.5, i: 0.5} for i in range(5, n)}, n)
    s = _scores(A)
    assert s["duplicate"] == 1.0  # exclude_current_token: the diagonal left out
    B = _causal_rows({i: {i - 1: 0.5, i: 0.5} for i in range(2, n)}, n)
    assert _scores(B)["previous"] == pytest.approx(0.5)


def test_a_sink_or_a_self_head_scores_zero_not_nan():
    n = len(REPEAT)
    sink = _causal_rows({}, n)
    itself = np.eye(n)
    assert _scores(sink) == {"previous": 0.0, "duplicate": 0.0, "induction": 0.0}
    assert _scores(itself) == {"previous": 0.0, "duplicate": 0.0, "induction": 0.0}


def test_uniform_causal_attention_scores_by_hand():
    n = 7
    A = np.tril(np.ones((n, n))) / np.arange(1, n + 1)[:, None]
    want = sum(1 / (i + 1) for i in range(2, n)) / sum(i / (i + 1) for i in range(1, n))
    assert hs.pattern_share(A, hs.previous_pattern(n)) == pytest.approx(want, abs=1e-12)


def test_patterns_on_a_small_sequence():
    ids = [7, 8, 7, 8, 8]
    dup = {(2, 0), (3, 1), (4, 1), (4, 3)}
    ind = {(2, 1), (3, 2), (4, 2), (4, 4)}  # (4, 4): token 3 equals token 4, so its next is 4
    assert set(zip(*np.nonzero(hs.duplicate_pattern(ids)))) == dup
    assert set(zip(*np.nonzero(hs.induction_pattern(ids)))) == ind
    assert set(zip(*np.nonzero(hs.previous_pattern(5)))) == {(i, i - 1) for i in range(1, 5)}


def test_a_batch_of_heads_scores_as_each_alone():
    rng = np.random.default_rng(0)
    A = rng.random((4, 6, 6))
    P = hs.induction_pattern([1, 2, 3, 1, 2, 3])
    batch = hs.pattern_share(A, P, True)
    assert [hs.pattern_share(a, P, True) for a in A] == pytest.approx(list(batch), abs=1e-15)


def test_copying_score_of_hand_built_circuits():
    rng = np.random.default_rng(3)
    W_V = rng.normal(size=(10, 3))
    back = np.linalg.pinv(W_V)  # W_V W_O projects onto W_V's columns: eigenvalues 1, 1, 1, 0 …
    assert hs.copying_score(W_V, back) == pytest.approx(1.0)
    assert hs.copying_score(W_V, -4.0 * back) == pytest.approx(-1.0)
    turn = np.array([[0.0, -1.0], [1.0, 0.0]])  # eigenvalues ±i: moves, copies nothing
    assert hs.copying_score(np.eye(6)[:, :2], turn @ np.eye(6)[:2]) == pytest.approx(0.0)
    assert hs.copying_score(np.zeros((6, 2)), np.zeros((2, 6))) == 0.0
    W_O = rng.normal(size=(3, 10))  # the small product's eigenvalues are the big one's nonzero
    lam = np.linalg.eigvals(W_V @ W_O)
    assert hs.copying_score(W_V, W_O) == pytest.approx(lam.sum().real / np.abs(lam).sum())


def test_model_scores_of_top_and_arrays():
    rng = np.random.default_rng(1)
    scores = {k: rng.random((2, 3)) for k in hs.SCORE_KINDS}
    m = hs.ModelScores("toy", "some sequences", "v0", scores)
    assert m.shape == (2, 3)
    assert m.of(1, 2) == hs.HeadScores(*(scores[k][1, 2] for k in hs.SCORE_KINDS))
    top = m.top("induction", 2)
    assert [v for *_, v in top] == sorted(scores["induction"].ravel())[::-1][:2]
    assert all(scores["induction"][la, h] == v for la, h, v in top)
    back = hs.ModelScores.from_arrays(m.as_arrays())
    assert (back.model, back.sequences, back.recipe) == ("toy", "some sequences", "v0")
    assert back.of(0, 1) == m.of(0, 1)
    with pytest.raises(ValueError, match="outside"):
        m.of(2, 0)
    bad = dict(m.as_arrays(), copying=np.full((2, 3), 1.5))
    with pytest.raises(ValueError, match="outside"):
        hs.ModelScores.from_arrays(bad)
    with pytest.raises(ValueError, match="not a scores file"):
        hs.ModelScores.from_arrays({"previous": scores["previous"]})


# -- (c) the heads the examples name --------------------------------------------------------------
def _named_head(example: str) -> tuple[int, int]:
    data = tomllib.loads((ROOT / "examples" / example).read_text(encoding="utf-8"))
    layer, head = re.search(r"layer (\d+), head (\d+)", data["source"]).groups()
    return int(layer) - 1, int(head) - 1  # from 0


@pytest.mark.xdist_group("head_scores_minilm")
def test_the_example_heads_score_high_on_their_kind():
    """The induction head and the previous-token head the SmolLM2 examples name (one test: the
    scores are computed once, when the cache is cold, whichever worker runs it)."""
    scores = ac.model_scores("smollm2")
    assert scores.shape == (30, 9)
    assert "said twice" in scores.sequences and scores.recipe == hs.RECIPE.key
    for example, kind, at_least in (
        ("smollm2-induction.toml", "induction", 0.7),
        ("smollm2-previous.toml", "previous", 0.9),
    ):
        layer, head = _named_head(example)
        value = getattr(scores.of(layer, head), kind)
        assert value >= at_least, (example, layer, head, value)
        assert (layer, head) in [(la, h) for la, h, _ in scores.top(kind, 5)], example


# -- (d) the cache --------------------------------------------------------------------------------
@pytest.mark.xdist_group("head_scores_minilm")
def test_a_damaged_scores_file_is_rebuilt(tmp_path, capfd):
    first = ac.model_scores("minilm", cache_root=tmp_path)
    folder = ms.scores_folder("minilm", hs.RECIPE.key, tmp_path)
    path = folder / ms.SCORES_FILE
    assert path.is_file() and (folder / "COMPLETE").is_file()
    again = ac.model_scores("minilm", cache_root=tmp_path)  # read back: the same numbers
    assert all((first.scores[k] == again.scores[k]).all() for k in hs.SCORE_KINDS)
    assert capfd.readouterr().err == ""
    raw = path.read_bytes()
    path.write_bytes(raw[: len(raw) // 2])  # truncated
    rebuilt = ac.model_scores("minilm", cache_root=tmp_path)
    assert "damaged" in capfd.readouterr().err and len(path.read_bytes()) == len(raw)
    assert all((first.scores[k] == rebuilt.scores[k]).all() for k in hs.SCORE_KINDS)


def test_every_damage_is_noticed_and_rebuilt_once(tmp_path, capfd):
    """The cache alone, with a cheap computation: a byte changed (the size kept), the file
    gone, the manifest garbled — each rebuilt once, with one line on stderr."""
    made = []

    def compute():
        made.append(1)
        return {"x": np.arange(1000.0)}

    def read():
        return ms.cached_scores("minilm", "test", compute, root=tmp_path)["x"]

    assert (read() == np.arange(1000.0)).all() and len(made) == 1
    folder = ms.scores_folder("minilm", "test", tmp_path)
    path = folder / ms.SCORES_FILE
    raw = path.read_bytes()
    damages = [
        lambda: path.write_bytes(raw[:200] + bytes([raw[200] ^ 0xFF]) + raw[201:]),
        path.unlink,
        lambda: (folder / "COMPLETE").write_text("{", encoding="utf-8"),
    ]
    for k, damage in enumerate(damages, start=2):
        damage()
        assert (read() == np.arange(1000.0)).all() and len(made) == k
        err = capfd.readouterr().err
        assert err.count("\n") == 1 and "damaged" in err and "rebuilt" in err
    assert (read() == np.arange(1000.0)).all() and len(made) == 4  # intact: read, not made
