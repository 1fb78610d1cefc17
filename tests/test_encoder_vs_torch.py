"""layer_norm, feed_forward and encoder_block against torch.nn.TransformerEncoderLayer."""

import numpy as np
import pytest
import torch

import attention_core as ac

rng = np.random.default_rng(7)


def torch_layer(d, heads, d_ff, W, gamma1, gamma2):
    layer = torch.nn.TransformerEncoderLayer(
        d,
        heads,
        dim_feedforward=d_ff,
        dropout=0.0,
        activation="relu",
        batch_first=True,
        norm_first=False,
        bias=False,
        dtype=torch.float64,
    )
    with torch.no_grad():
        sa = layer.self_attn
        sa.in_proj_weight.copy_(torch.from_numpy(np.concatenate([W["q"].T, W["k"].T, W["v"].T])))
        sa.out_proj.weight.copy_(torch.from_numpy(W["o"].T))
        layer.linear1.weight.copy_(torch.from_numpy(W["1"].T))
        layer.linear2.weight.copy_(torch.from_numpy(W["2"].T))
        layer.norm1.weight.copy_(torch.from_numpy(gamma1))
        layer.norm2.weight.copy_(torch.from_numpy(gamma2))
    return layer.eval()


@pytest.mark.parametrize(
    "n,heads,per_head,d_ff",
    [(1, 1, 2, 3), (3, 2, 2, 8), (5, 4, 3, 16), (12, 8, 2, 32), (7, 1, 6, 5)],
)
@pytest.mark.parametrize("masked", [False, True])
def test_encoder_block_matches_torch(n, heads, per_head, d_ff, masked):
    d = heads * per_head
    X = rng.standard_normal((n, d))
    W = {k: rng.standard_normal((d, d)) for k in "qkvo"}
    W["1"], W["2"] = rng.standard_normal((d, d_ff)), rng.standard_normal((d_ff, d))
    g1, g2 = rng.uniform(0.5, 1.5, d), rng.uniform(0.5, 1.5, d)
    mask = ac.causal_mask(n) if masked else None
    trace = ac.encoder_block(
        X, W["q"], W["k"], W["v"], W["o"], W["1"], W["2"], heads, mask=mask, gamma1=g1, gamma2=g2
    )
    layer = torch_layer(d, heads, d_ff, W, g1, g2)
    with torch.no_grad():
        ref = layer(
            torch.from_numpy(X)[None], src_mask=None if mask is None else torch.from_numpy(~mask)
        )[0].numpy()
    np.testing.assert_allclose(trace.output, ref, atol=1e-9, rtol=1e-9)
    np.testing.assert_allclose(trace.norm1, ac.layer_norm(X + trace.attention.output, g1))


def test_layer_norm_matches_torch():
    x = rng.standard_normal((4, 6)) * 10 + 3
    g, b = rng.standard_normal(6), rng.standard_normal(6)
    ref = torch.nn.functional.layer_norm(
        torch.from_numpy(x), (6,), torch.from_numpy(g), torch.from_numpy(b)
    ).numpy()
    np.testing.assert_allclose(ac.layer_norm(x, g, b), ref, atol=1e-12)
    plain = ac.layer_norm(x)
    np.testing.assert_allclose(plain.mean(axis=1), 0, atol=1e-12)
    np.testing.assert_allclose(plain.var(axis=1), 1, atol=1e-4)
    with pytest.raises(ValueError, match="gamma"):
        ac.layer_norm(x, gamma=[1.0, 2.0])


def test_feed_forward_is_relu_between_two_maps():
    x = rng.standard_normal((3, 4))
    W1, W2 = rng.standard_normal((4, 8)), rng.standard_normal((8, 4))
    hidden, relu, out = ac.feed_forward(x, W1, W2)
    assert np.all(relu >= 0) and np.all(relu[hidden < 0] == 0)
    np.testing.assert_allclose(out, np.maximum(x @ W1, 0) @ W2)
    with pytest.raises(ValueError, match="W_2"):
        ac.feed_forward(x, W1, W2.T)
