"""Properties that hold for every input (hypothesis), and the geometry helpers."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

import attention_core as ac

finite = st.floats(-100, 100, allow_nan=False, allow_infinity=False)


@st.composite
def qkv(draw):
    m, n, d = draw(st.integers(1, 8)), draw(st.integers(1, 8)), draw(st.integers(1, 6))
    Q = draw(arrays(np.float64, (m, d), elements=finite))
    K = draw(arrays(np.float64, (n, d), elements=finite))
    V = draw(arrays(np.float64, (n, d), elements=finite))
    mask = draw(arrays(np.bool_, (m, n)))
    mask[np.arange(m), draw(st.integers(0, n - 1))] = True
    return Q, K, V, mask


@settings(max_examples=150, deadline=None)
@given(qkv())
def test_rows_sum_to_one_and_blocked_are_exactly_zero(case):
    Q, K, V, mask = case
    t = ac.scaled_dot_product_attention(Q, K, V, mask=mask)
    np.testing.assert_allclose(t.weights.sum(axis=1), 1.0, atol=1e-12)
    assert np.all(t.weights[~mask] == 0.0)
    assert np.all(t.weights >= 0)
    assert np.all(np.isfinite(t.output))


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 8), st.integers(1, 5), st.integers(0, 2**31), st.randoms())
def test_self_attention_is_permutation_equivariant(n, d, seed, rnd):
    r = np.random.default_rng(seed)
    X = r.standard_normal((n, d))
    W = [r.standard_normal((d, d)) for _ in range(3)]
    perm = np.array(rnd.sample(range(n), n))
    out = ac.self_attention(X, *W).output
    out_perm = ac.self_attention(X[perm], *W).output
    np.testing.assert_allclose(out_perm, out[perm], atol=1e-10)


def test_positional_encoding_breaks_permutation_equivariance():
    X = np.array([[1.2, 0.8], [0.9, 1.1], [0.7, 1.3]])
    pe = ac.sinusoidal_positional_encoding(3, 2)
    eye = np.eye(2)
    perm = [2, 0, 1]
    out = ac.self_attention(X + pe, eye, eye, eye).output
    out_perm = ac.self_attention(X[perm] + pe, eye, eye, eye).output
    assert not np.allclose(out_perm, out[perm], atol=1e-6)


@settings(max_examples=150, deadline=None)
@given(
    arrays(np.float64, st.tuples(st.integers(1, 5), st.integers(1, 7)), elements=finite),
    st.floats(-1e6, 1e6, allow_nan=False),
)
def test_softmax_is_shift_invariant(x, c):
    np.testing.assert_allclose(ac.softmax(x + c), ac.softmax(x), atol=1e-9)


@settings(max_examples=100, deadline=None)
@given(
    arrays(
        np.float64,
        st.tuples(st.integers(1, 4), st.integers(1, 6)),
        elements=st.floats(-1e300, 1e300, allow_nan=False, allow_infinity=False),
    )
)
def test_softmax_finite_for_huge_scores(x):
    s = ac.softmax(x)
    assert np.all(np.isfinite(s))
    np.testing.assert_allclose(s.sum(axis=1), 1.0, atol=1e-9)


def test_fully_blocked_row_names_the_row():
    mask = np.array([[True, False], [False, False]])
    with pytest.raises(ValueError, match="row 1"):
        ac.scaled_dot_product_attention(np.ones((2, 2)), np.ones((2, 2)), np.ones((2, 2)), mask)


def test_bad_shapes_name_the_argument():
    with pytest.raises(ValueError, match="K"):
        ac.scaled_dot_product_attention(np.ones((2, 3)), np.ones((2, 2)), np.ones((2, 2)))
    with pytest.raises(ValueError, match="mask"):
        ac.scaled_dot_product_attention(
            np.ones((2, 2)), np.ones((3, 2)), np.ones((3, 2)), mask=np.ones((2, 2), bool)
        )
    with pytest.raises(ValueError, match="Q"):
        ac.scaled_dot_product_attention([[np.nan]], [[1.0]], [[1.0]])
    with pytest.raises(ValueError, match="num_heads"):
        ac.multi_head_attention(np.ones((2, 4)), *(np.eye(4),) * 4, num_heads=3)
    with pytest.raises(ValueError, match="x"):
        ac.softmax([-np.inf, -np.inf])


def test_masks():
    np.testing.assert_array_equal(ac.causal_mask(3), [[1, 0, 0], [1, 1, 0], [1, 1, 1]])
    np.testing.assert_array_equal(ac.padding_mask([1, 1, 0]), [[1, 1, 0]] * 3)
    np.testing.assert_array_equal(ac.padding_mask(2, 3), [[1, 1, 0]] * 3)
    assert ac.padding_mask([True, False], n_queries=4).shape == (4, 2)
    with pytest.raises(ValueError, match="keep"):
        ac.padding_mask([0, 0])


# -- geometry -------------------------------------------------------------------------------------
@settings(max_examples=100, deadline=None)
@given(st.integers(2, 16), st.integers(0, 2**31))
def test_pair_plane_preserves_dot_angle_and_lengths(d, seed):
    r = np.random.default_rng(seed)
    q, k = r.standard_normal(d), r.standard_normal(d)
    p = ac.pair_plane(q, k)
    assert np.isclose(p.q @ p.k, q @ k, atol=1e-9)
    assert np.isclose(np.linalg.norm(p.k), np.linalg.norm(k))
    assert np.isclose(ac.angle(p.q, p.k), ac.angle(q, k), atol=1e-7)
    assert p.q[1] == 0 and p.k[1] >= 0
    np.testing.assert_allclose(p.basis.T @ p.basis, np.eye(2), atol=1e-9)


def test_dot_product_is_length_times_shadow():
    q, k = np.array([1.2, 0.8]), np.array([0.9, 1.1])
    assert np.isclose(ac.norm(q) * ac.scalar_projection(k, q), q @ k)
    assert np.isclose(ac.norm(q) * ac.norm(k) * np.cos(ac.angle(q, k)), 1.96)
    np.testing.assert_allclose(ac.projection(k, q), (q @ k) / (q @ q) * q)
    p = ac.pair_plane(q, 2 * q)  # parallel vectors still get a plane
    assert np.isclose(p.k[1], 0) and np.isclose(p.q @ p.k, 2 * q @ q)
    with pytest.raises(ValueError):
        ac.angle([0, 0], [1, 0])


def test_plane_view_is_exact_in_2d_and_reports_what_it_keeps():
    X = np.array([[1.2, 0.8], [0.9, 1.1]])
    v = ac.plane_view(X)
    assert v.exact and v.kept == 1.0
    np.testing.assert_array_equal(v.coords, X)
    r = np.random.default_rng(1)
    flat = r.standard_normal((6, 2)) @ r.standard_normal((2, 5))  # rank 2 in 5-D: kept = 1
    assert np.isclose(ac.plane_view(flat).kept, 1.0)
    full = r.standard_normal((6, 5))
    v = ac.plane_view(full)
    assert 0 < v.kept < 1
    assert np.isclose(v.kept, np.sum(v.coords**2) / np.sum(full**2))
    np.testing.assert_array_equal(ac.plane_view(full).coords, v.coords)  # deterministic


def test_convex_hull():
    hull = ac.convex_hull_2d([[0, 0], [1, 0], [0, 1], [0.2, 0.2], [1, 1]])
    assert len(hull) == 4 and [0.2, 0.2] not in hull.tolist()


def test_positional_encoding_at_fractional_positions_agrees_at_integers():
    pe = ac.sinusoidal_positional_encoding(5, 6)
    np.testing.assert_allclose(ac.positional_encoding_at([0, 1, 2, 3, 4], 6), pe)
    assert ac.positional_encoding_at([0.5], 6).shape == (1, 6)


def test_shuffle_check_shows_why_positions_matter():
    check = ac.shuffle_check(ac.PRESETS["zao-shang-hao"])
    assert check.equal_without and not check.equal_with
    assert check.perm == (2, 1, 0) and check.diff_with > 0.01
    with pytest.raises(ValueError, match="self-attention"):
        ac.shuffle_check(ac.PRESETS["cross-zh-en"])
    with pytest.raises(ValueError, match="perm"):
        ac.shuffle_check(ac.PRESETS["zao-shang-hao"], perm=[0, 0, 1])


def test_encoder_for_presets_uses_their_weights():
    for name in ("zao-shang-hao", "two-heads", "numpy-3x4-two-heads", "causal"):
        ex = ac.PRESETS[name]
        W, seeded = ac.encoder_weights(ex)
        enc = ac.trace_encoder(ex)
        assert enc.output.shape == (ex.n, ex.d_model)
        assert seeded["W_1"] and seeded["W_2"]
        np.testing.assert_allclose(enc.output.mean(axis=1), 0, atol=1e-9)  # LayerNorm, no γ
    W, seeded = ac.encoder_weights(ac.PRESETS["two-heads"])
    np.testing.assert_array_equal(W["W_o"], ac.PRESETS["two-heads"].weights.W_o)
    assert not seeded["W_o"]


def test_illustrative_projections_are_distinct_seeded_maps():
    W_q, W_k = ac.illustrative_projections(2, ac.ILLUSTRATIVE_SEED)
    assert np.array_equal(W_q, ac.illustrative_weights(2, ac.ILLUSTRATIVE_SEED))
    again = ac.illustrative_projections(2, ac.ILLUSTRATIVE_SEED)
    assert np.array_equal(W_k, again[1])  # seeded: the same every time
    assert not np.allclose(W_q, W_k)
    X = np.array([[1.2, 0.8], [0.9, 1.1], [0.7, 1.3]])
    Q, K, S = ac.illustrative_queries_keys(X)
    assert not np.allclose(Q, K, atol=0.05)  # q(x) and k(x) differ for each token
    np.testing.assert_allclose(S, (X @ W_q) @ (X @ W_k).T)
    for d in (1, 3, 6):
        W_q, W_k = ac.illustrative_projections(d, 3)
        assert W_q.shape == W_k.shape == (d, d) and not np.allclose(W_q, W_k)


@settings(max_examples=20, deadline=None)
@given(st.integers(2, 256), st.integers(0, 2**31))
def test_random_directions_cos_has_spread_one_over_root_d(d, seed):
    """Issue 38 (he → farmer, d_k 64): cos θ = 0.14 is said against random directions. Drawn
    at random in d dimensions, cos θ has standard deviation 1/√d (``random_cos_spread``), so
    ``cos_against_random`` (cos θ · √d) has standard deviation 1 over random pairs."""
    r = np.random.default_rng(seed)
    q, k = r.standard_normal((2, 4000, d))
    cos = np.sum(q * k, axis=1) / (np.linalg.norm(q, axis=1) * np.linalg.norm(k, axis=1))
    assert np.std(cos) == pytest.approx(ac.random_cos_spread(d), rel=0.08)
    ratios = [ac.cos_against_random(a, b) for a, b in zip(q[:400], k[:400])]
    assert np.allclose(ratios, cos[:400] * np.sqrt(d))
    assert np.std([ac.cos_against_random(a, b) for a, b in zip(q, k)]) == pytest.approx(1, rel=0.08)


def test_cos_against_random_names_the_units():
    assert ac.random_cos_spread(64) == 0.125
    assert ac.cos_against_random([1, 0, 0, 0], [0, 1, 0, 0]) == 0.0
    assert ac.cos_against_random([1, 0, 0, 0], [2, 0, 0, 0]) == pytest.approx(2.0)
    with pytest.raises(ValueError):
        ac.random_cos_spread(0)
