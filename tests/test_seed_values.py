"""The source texts' hand-worked numbers that are right, and docs/design.md's corrections of the
rest."""

import numpy as np

import attention_core as ac


def zao():
    return ac.trace_example(ac.PRESETS["zao-shang-hao"]).attention


def test_raw_and_scaled_scores_of_zao_text_002():
    t = zao()
    np.testing.assert_allclose(t.scores[0], [2.08, 1.96, 1.88], atol=1e-12)
    np.testing.assert_allclose(t.scaled[0].round(2), [1.47, 1.39, 1.33])


def test_identity_weights_mean_q_k_v_equal_x():
    t = zao()
    np.testing.assert_array_equal(t.Q, t.K)
    np.testing.assert_array_equal(t.V, ac.PRESETS["zao-shang-hao"].embeddings)


def test_corrected_softmax_output_and_share():
    t = zao()
    # text 002 says [0.34, 0.33, 0.33]; the truth (docs/design.md, "The numbers the source texts
    # got wrong"):
    np.testing.assert_allclose(t.weights[0], [0.359, 0.330, 0.311], atol=1e-3)
    assert not np.allclose(t.weights[0], [0.34, 0.33, 0.33], atol=5e-3)
    np.testing.assert_allclose(t.output[0], [0.945, 1.055], atol=5e-4)  # not ≈[0.93, 1.05]
    share = ac.share_from_others(t.weights)[0]
    assert round(share * 100) == 64  # not 66 %


def test_weight_matrix_is_not_symmetric_and_shang_attends_most_to_hao():
    w = zao().weights
    assert not np.allclose(w, w.T, atol=1e-3)
    assert np.argmax(w[1]) == 2  # 上 → 好
    assert round(w[1, 2], 3) == 0.344 and round(w[1, 1], 3) == 0.335


def test_dot_product_variance_grows_with_d_as_text_002_table():
    res = ac.dot_product_variance([16, 32, 64], samples=4000, seed=0)
    for r in res:  # text 002: 15.8, 31.7, 63.5 — i.e. ≈ d
        assert 0.85 * r.d < r.raw_variance < 1.15 * r.d
        assert 0.85 < r.scaled_variance < 1.15
    ratios = [r.raw_variance / r.d for r in res]
    assert max(ratios) / min(ratios) < 1.3
    again = ac.dot_product_variance([16, 32, 64], samples=4000, seed=0)
    np.testing.assert_array_equal(res[2].raw, again[2].raw)


def test_preset_facts():
    p = ac.PRESETS
    assert set(p) >= {"zao-shang-hao", "numpy-3x4", "two-heads", "causal", "padding", "cross-zh-en"}
    X000 = [[1.0, 0.5, -1.2, 0.8], [0.6, -0.3, 1.5, -0.7], [-0.9, 1.1, 0.4, -1.0]]
    np.testing.assert_array_equal(p["numpy-3x4"].embeddings, X000)
    assert p["numpy-3x4"].weights.W_q.shape == (4, 3) and p["numpy-3x4"].weights.seed is not None
    two = p["two-heads"]
    assert two.d_model == 4 and two.heads == 2
    w = two.weights
    h1, h2 = w.head(0, 2), w.head(1, 2)
    assert all(m.shape == (4, 2) for m in h1 + h2)
    assert max(np.max(np.abs(a - b)) for a, b in zip(h1, h2)) >= 0.1
    pad = ac.trace_example(p["padding"])
    assert np.all(pad.attention.weights[:, 3] == 0.0)
    cross = ac.trace_example(p["cross-zh-en"])
    assert cross.attention.weights.shape == (3, 2)
    causal = ac.trace_example(p["causal"])
    assert np.all(np.triu(causal.attention.weights, 1) == 0)
