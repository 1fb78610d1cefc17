"""Issue 30 item 8: EncoderBlock on a trained MiniLM layer is the model's own block.

`from-model … --all-heads` writes the layer's own feed-forward and LayerNorms (``[block]``: W_1,
b_1, W_2, b_2, gamma_1, beta_1, gamma_2, beta_2 in the .npz, ε in the TOML); `trace_encoder` then
computes H = LayerNorm(X + A) with the model's γ, β, ε, F = GELU(H W_1 + b_1) W_2 + b_2 and
Y = LayerNorm(H + F), which equals transformers' BertLayer. Examples without a block keep the
illustrative ReLU block; a decoder's (SmolLM2) layer is refused with the reason.
"""

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from test_model import hf, needs_model  # noqa: F401  (hf: the fixture, transformers' BertModel)

import attention_core as ac
from attention_core.example.block_fields import BERT_EPS, BLOCK_ARRAYS
from scenes.kit.registry import BY_NAME

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
LAYER = EXAMPLES / "minilm-cat-layer1.toml"


@pytest.fixture(scope="module")
def layer():
    return ac.load_example(LAYER)


def _bert_layer_output(hf, X: np.ndarray, float64: bool) -> np.ndarray:  # noqa: F811
    torch, model = hf
    if float64:
        model.double()
    try:
        dtype = torch.float64 if float64 else torch.float32
        with torch.no_grad():
            out = model.encoder.layer[0](torch.tensor(X[None], dtype=dtype))
    finally:
        model.float()
    out = out[0] if isinstance(out, tuple) else out
    return out[0].double().numpy()


@needs_model
def test_the_trained_layers_block_is_transformers_bert_layer(layer, hf):  # noqa: F811
    """Y of the committed layer 1 equals BertLayer's output on the same input: 1e-5 with the
    model in float32 (measured 1.4e-6), 1e-12 in float64 (measured 2.4e-15)."""
    enc = ac.trace_encoder(layer)
    assert enc.activation == "gelu" and layer.block.eps == BERT_EPS == 1e-12
    np.testing.assert_allclose(
        enc.output, _bert_layer_output(hf, layer.embeddings, False), atol=1e-5
    )
    np.testing.assert_allclose(
        enc.output, _bert_layer_output(hf, layer.embeddings, True), atol=1e-12
    )


def test_the_block_is_layer_norm_gelu_and_the_models_own_weights(layer):
    """Each step as the brief writes it, from the example's own arrays."""
    b, enc = layer.block, ac.trace_encoder(layer)
    H = ac.layer_norm(enc.X + enc.attention.output, b.gamma_1, b.beta_1, eps=1e-12)
    np.testing.assert_allclose(enc.norm1, H, atol=1e-12)
    F = ac.gelu(H @ b.W_1 + b.b_1) @ b.W_2 + b.b_2
    np.testing.assert_allclose(enc.ff_out, F, atol=1e-12)
    np.testing.assert_allclose(
        enc.output, ac.layer_norm(H + F, b.gamma_2, b.beta_2, eps=1e-12), atol=1e-12
    )
    W, seeded = ac.encoder_weights(layer)
    assert not seeded["W_1"] and not seeded["W_2"] and W["W_1"].shape == (384, 1536)


def test_an_example_without_a_block_keeps_the_illustrative_relu_block(layer):
    """Presets, hand-written examples and a layer without its block: ReLU, seeded W_1, W_2, no
    γ, β, ε = 1e-5 — exactly the block before this change."""
    for ex in (ac.PRESETS["two-heads"], replace(layer, block=None)):
        W, seeded = ac.encoder_weights(ex)
        enc = ac.trace_encoder(ex)
        assert enc.activation == "relu" and seeded["W_1"] and seeded["W_2"]
        H = ac.layer_norm(enc.X + enc.attention.output)
        F = np.maximum(H @ W["W_1"], 0) @ W["W_2"]
        np.testing.assert_allclose(enc.output, ac.layer_norm(H + F), atol=1e-12)


def _block(d=4, d_ff=8):
    rng = np.random.default_rng(3)
    return {
        "W_1": rng.normal(size=(d, d_ff)),
        "b_1": rng.normal(size=d_ff),
        "W_2": rng.normal(size=(d_ff, d)),
        "b_2": rng.normal(size=d),
        "gamma_1": np.ones(d),
        "beta_1": np.zeros(d),
        "gamma_2": np.ones(d),
        "beta_2": np.zeros(d),
    }


def _example(block):
    two = ac.PRESETS["two-heads"]
    return ac.Example(
        tokens=two.tokens, embeddings=two.embeddings, heads=2, weights=two.weights, block=block
    )


@pytest.mark.parametrize(
    "change, message",
    [
        ({"W_1": np.zeros((3, 8))}, r"^block\.W_1: shape 3×8; it needs 4 rows \(d_model\)"),
        ({"W_1": np.zeros((4, 65))}, r"^block\.W_1: shape 4×65; .* at most 64 columns \(d_ff\)"),
        ({"W_2": np.zeros((8, 3))}, r"^block\.W_2: shape 8×3; it needs 8×4"),
        ({"b_1": np.zeros(4)}, r"^block\.b_1: 4 numbers; it needs 8$"),
        ({"beta_2": np.zeros(5)}, r"^block\.beta_2: 5 numbers; it needs 4$"),
        ({"gamma_1": np.zeros((4, 1))}, r"^block\.gamma_1: expected a row of numbers"),
        ({"b_2": None}, r"^block\.b_2: missing; a block gives W_1, b_1, W_2, b_2, gamma_1"),
        ({"gama_2": np.zeros(2)}, r"^block\.gama_2: unknown key; did you mean 'gamma_2'\?"),
        ({"eps": 0}, r"^block\.eps: 0; give a small number above 0"),
        ({"W_2": np.full((8, 4), np.nan)}, r"^block\.W_2\[0, 0\]: NaN or infinity"),
    ],
)
def test_block_fields_are_checked_with_one_line_naming_the_field(change, message):
    block = {**_block(), **change}
    block = {k: v for k, v in block.items() if v is not None}
    with pytest.raises(ValueError, match=message) as info:
        _example(block)
    assert "\n" not in str(info.value)


def test_a_block_round_trips_and_its_arrays_come_from_the_sidecar(tmp_path):
    ex = _example({**_block(), "eps": 1e-6})
    again = ac.Example.from_dict(ex.to_dict())
    for key in BLOCK_ARRAYS:
        np.testing.assert_array_equal(getattr(again.block, key), getattr(ex.block, key))
    assert again.block.eps == 1e-6 and _example(None).block is None
    eye = np.eye(4)
    arrays = dict(embeddings=ex.embeddings, W_q=eye, W_k=eye, W_v=eye, W_o=eye, **_block())
    np.savez(tmp_path / "b.npz", **arrays)
    tokens = ", ".join(f'"{t}"' for t in ex.tokens)
    text = f'tokens = [{tokens}]\nheads = 2\narrays = "b.npz"\n[block]\neps = 1e-6\n'
    (tmp_path / "b.toml").write_text(text, encoding="utf-8")
    loaded = ac.load_example(tmp_path / "b.toml")
    assert loaded.block.eps == 1e-6
    np.testing.assert_array_equal(loaded.block.W_2, _block()["W_2"])
    (tmp_path / "b.toml").write_text(text + "b_1 = [0.0]\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"^block\.b_1: given both in the file and in 'b\.npz'"):
        ac.load_example(tmp_path / "b.toml")


def test_a_decoder_layer_is_refused_with_the_reason():
    """SmolLM2 (pre-norm, RMSNorm, SwiGLU) has no post-norm encoder block to show; a made-up
    rotary example keeps its own reason."""
    why = BY_NAME["EncoderBlock"].why_not(ac.load_example(EXAMPLES / "smollm2-induction.toml"))
    assert (
        why == "this example is a decoder layer (pre-norm, RMSNorm, SwiGLU): not an encoder block"
    )
    assert "decoder layer" not in BY_NAME["EncoderBlock"].why_not(ac.PRESETS["rotary"])


def test_the_explorers_copy_of_an_example_keeps_its_block(tmp_path):
    """The lecture page writes the example as TOML around new embeddings: a block (a dict in
    to_dict) is a [block] table there, read back as the same block (it was `block = ["W_1", …]`)."""
    from scenes.outputs import explorer

    zao = ac.PRESETS["zao-shang-hao"]
    ex = ac.Example(tokens=zao.tokens, embeddings=zao.embeddings, block=_block(d=2, d_ff=3))
    head, tail = explorer.toml_parts(ex)
    path = tmp_path / "copy.toml"
    path.write_text(head + f"embeddings = {ex.embeddings.tolist()}\n" + tail, encoding="utf-8")
    back = ac.load_example(path)
    for key in BLOCK_ARRAYS:
        np.testing.assert_array_equal(getattr(back.block, key), getattr(ex.block, key))
