"""attention_core against PyTorch, the independent reference, on many random shapes (float64)."""

import numpy as np
import pytest
import torch
import torch.nn.functional as F

import attention_core as ac

TOL = 1e-10
rng = np.random.default_rng(20261201)


def random_mask(m, n):
    mask = rng.random((m, n)) < 0.6
    mask[np.arange(m), rng.integers(0, n, m)] = True  # every row keeps at least one key
    return mask


def torch_weights(Q, K, mask=None, scale=True):
    q, k = torch.from_numpy(Q), torch.from_numpy(K)
    s = q @ k.T / (np.sqrt(Q.shape[1]) if scale else 1.0)
    if mask is not None:
        s = s.masked_fill(~torch.from_numpy(mask), float("-inf"))
    return torch.softmax(s, dim=-1).numpy()


SHAPES = [
    (
        int(rng.integers(1, 13)),
        int(rng.integers(1, 13)),
        int(rng.integers(1, 17)),
        int(rng.integers(1, 17)),
    )
    for _ in range(40)
]


@pytest.mark.parametrize("m,n,d_k,d_v", SHAPES)
@pytest.mark.parametrize("masked", [False, True])
def test_sdpa_matches_torch(m, n, d_k, d_v, masked):
    Q, K, V = (rng.standard_normal(s) for s in ((m, d_k), (n, d_k), (n, d_v)))
    mask = random_mask(m, n) if masked else None
    t = ac.scaled_dot_product_attention(Q, K, V, mask=mask)
    ref = F.scaled_dot_product_attention(
        torch.from_numpy(Q),
        torch.from_numpy(K),
        torch.from_numpy(V),
        attn_mask=None if mask is None else torch.from_numpy(mask),
    ).numpy()
    assert t.output.shape == (m, d_v)
    np.testing.assert_allclose(t.output, ref, atol=TOL, rtol=0)
    np.testing.assert_allclose(t.weights, torch_weights(Q, K, mask), atol=TOL, rtol=0)
    np.testing.assert_allclose(t.scores, Q @ K.T, atol=TOL, rtol=0)
    if mask is not None:
        assert np.all(t.weights[~mask] == 0.0)
        assert np.all(np.isneginf(t.masked[~mask]))


@pytest.mark.parametrize("n", [1, 2, 5, 12])
def test_causal_matches_torch_is_causal(n):
    Q, K, V = (rng.standard_normal((n, 3)) for _ in range(3))
    t = ac.scaled_dot_product_attention(Q, K, V, mask=ac.causal_mask(n))
    ref = F.scaled_dot_product_attention(*(torch.from_numpy(a) for a in (Q, K, V)), is_causal=True)
    np.testing.assert_allclose(t.output, ref.numpy(), atol=TOL, rtol=0)
    assert np.all(np.triu(t.weights, 1) == 0.0)


def test_unscaled_matches_torch_scale_one():
    Q, K, V = (rng.standard_normal((4, 5)) for _ in range(3))
    t = ac.scaled_dot_product_attention(Q, K, V, scale=False)
    ref = F.scaled_dot_product_attention(*(torch.from_numpy(a) for a in (Q, K, V)), scale=1.0)
    np.testing.assert_allclose(t.output, ref.numpy(), atol=TOL, rtol=0)
    np.testing.assert_array_equal(t.scaled, t.scores)


def torch_mha(X, W_q, W_k, W_v, W_o, heads, mask=None, source=None):
    E = X.shape[1]
    mha = torch.nn.MultiheadAttention(E, heads, bias=False, batch_first=True, dtype=torch.float64)
    with torch.no_grad():
        mha.in_proj_weight.copy_(torch.from_numpy(np.concatenate([W_q.T, W_k.T, W_v.T])))
        mha.out_proj.weight.copy_(torch.from_numpy(W_o.T))
    x = torch.from_numpy(X)[None]
    s = x if source is None else torch.from_numpy(source)[None]
    out, w = mha(
        x,
        s,
        s,
        need_weights=True,
        average_attn_weights=False,
        attn_mask=None if mask is None else torch.from_numpy(~mask),
    )  # torch: True = block
    return out[0].detach().numpy(), w[0].detach().numpy()


MHA_CASES = [
    (h, int(rng.integers(1, 13)), int(rng.integers(1, 13)), int(rng.integers(1, 5)))
    for h in (1, 2, 4, 8)
    for _ in range(6)
]


@pytest.mark.parametrize("heads,m,n,per_head", MHA_CASES)
@pytest.mark.parametrize("kind", ["self", "masked", "cross"])
def test_multi_head_matches_torch(heads, m, n, per_head, kind):
    E = heads * per_head
    X = rng.standard_normal((m, E))
    W_q, W_k, W_v, W_o = (rng.standard_normal((E, E)) for _ in range(4))
    source = rng.standard_normal((n, E)) if kind == "cross" else None
    keys = n if kind == "cross" else m
    mask = random_mask(m, keys) if kind == "masked" else None
    t = ac.multi_head_attention(X, W_q, W_k, W_v, W_o, heads, mask=mask, source=source)
    ref_out, ref_w = torch_mha(X, W_q, W_k, W_v, W_o, heads, mask=mask, source=source)
    np.testing.assert_allclose(t.output, ref_out, atol=TOL * 10, rtol=TOL)
    assert len(t.heads) == heads
    for h, head in enumerate(t.heads):
        np.testing.assert_allclose(head.weights, ref_w[h], atol=TOL, rtol=0)
        assert head.d_k == per_head
    assert t.concat.shape == (m, E)


def test_cross_attention_rectangular():
    X, S = rng.standard_normal((3, 2)), rng.standard_normal((5, 2))
    W = [rng.standard_normal((2, 2)) for _ in range(3)]
    t = ac.cross_attention(X, S, *W)
    assert t.weights.shape == (3, 5)
    ref = F.scaled_dot_product_attention(
        torch.from_numpy(X @ W[0]), torch.from_numpy(S @ W[1]), torch.from_numpy(S @ W[2])
    )
    np.testing.assert_allclose(t.output, ref.numpy(), atol=TOL, rtol=0)


def test_independent_heads_is_text_000_concat():
    X = rng.standard_normal((3, 4))
    Ws = [rng.standard_normal((2, 4, 3)) for _ in range(3)]
    t = ac.independent_heads_attention(X, *Ws)
    expected = np.concatenate(
        [
            F.scaled_dot_product_attention(*(torch.from_numpy(X @ w[h]) for w in Ws)).numpy()
            for h in range(2)
        ],
        axis=1,
    )
    np.testing.assert_allclose(t.output, expected, atol=TOL, rtol=0)
    assert t.W_o is None and t.output.shape == (3, 6)


def test_example_trace_matches_torch_for_every_preset():
    for name, ex in ac.PRESETS.items():
        tr = ac.trace_example(ex)
        if tr.multihead is None:
            head = tr.attention
            ref = F.scaled_dot_product_attention(
                *(torch.from_numpy(a) for a in (head.Q, head.K, head.V)),
                attn_mask=None if tr.mask is None else torch.from_numpy(tr.mask),
            )
            np.testing.assert_allclose(tr.output, ref.numpy(), atol=TOL, rtol=0, err_msg=name)
        elif ex.weights.form == "split":
            w = ex.weights
            out, _ = torch_mha(tr.X, w.W_q, w.W_k, w.W_v, w.W_o, ex.heads, mask=tr.mask)
            np.testing.assert_allclose(tr.output, out, atol=TOL * 10, rtol=TOL, err_msg=name)


def test_positional_encoding_matches_reference_formula():
    n, d = 7, 6
    pe = ac.sinusoidal_positional_encoding(n, d)
    pos = torch.arange(n, dtype=torch.float64)[:, None]
    div = torch.exp(torch.arange(0, d, 2, dtype=torch.float64) * (-np.log(10000.0) / d))
    ref = torch.zeros(n, d, dtype=torch.float64)
    ref[:, 0::2], ref[:, 1::2] = torch.sin(pos * div), torch.cos(pos * div)
    np.testing.assert_allclose(pe, ref.numpy(), atol=1e-12)
    assert ac.sinusoidal_positional_encoding(3, 5).shape == (3, 5)


def test_softmax_matches_torch_and_is_stable():
    for scale in (1.0, 1e4, 1e12, 1e300):
        x = rng.standard_normal((4, 6)) * scale
        s = ac.softmax(x)
        assert np.all(np.isfinite(s))
        np.testing.assert_allclose(s.sum(axis=1), 1.0, atol=1e-12)
        np.testing.assert_allclose(
            s, torch.softmax(torch.from_numpy(x), dim=-1).numpy(), atol=1e-12
        )
    np.testing.assert_array_equal(ac.softmax([1e4, -1e4]), [1.0, 0.0])
