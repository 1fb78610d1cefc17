"""The core helpers the per-query scenes rely on: the informative row, the d = 64 score row,
the residual update."""

import numpy as np
import pytest

import attention_core as ac


def test_random_score_row_is_seeded_and_scaled_by_sqrt_d():
    row = ac.random_score_row()
    again = ac.random_score_row()
    assert row.d == ac.ROW_DIM == 64
    assert row.raw.shape == (6,)
    np.testing.assert_array_equal(row.raw, again.raw)
    np.testing.assert_allclose(row.scaled, row.raw / 8.0)
    rng = np.random.default_rng(0)
    q, K = rng.standard_normal(64), rng.standard_normal((6, 64))
    np.testing.assert_allclose(row.raw, K @ q)


def test_the_d64_row_saturates_unscaled_and_not_scaled():
    row = ac.random_score_row()
    raw, scaled = ac.softmax(row.raw), ac.softmax(row.scaled)
    assert raw.max() > 0.99 and ac.saturation(raw) < 0.01
    assert scaled.max() < 0.6 and ac.saturation(scaled) > 0.5


def test_random_score_row_variance_grows_with_d():
    raw = np.concatenate([ac.random_score_row(64, 50, s).raw for s in range(40)])
    assert 48 < raw.var() < 80


@pytest.mark.parametrize("bad", [dict(d=0), dict(n=1), dict(d=2.5)])
def test_random_score_row_rejects_bad_sizes(bad):
    with pytest.raises(ValueError):
        ac.random_score_row(**bad)


def test_informative_row_skips_one_hot_and_masked_rows():
    t = ac.trace_example(ac.PRESETS["causal"])
    i = ac.informative_row(t.heads[0].weights)
    assert i != 0  # the causal first row is one-hot
    assert t.heads[0].weights[i].max() < 0.99
    one_hot = np.array([[1.0, 0.0], [0.0, 1.0]])
    assert ac.informative_row(one_hot) == 0
    nan_row = np.array([[np.nan, np.nan], [0.3, 0.7]])
    assert ac.informative_row(nan_row) == 1


def test_informative_row_keeps_the_first_row_when_rows_are_alike():
    t = ac.trace_example(ac.PRESETS["zao-shang-hao"])
    assert ac.informative_row(t.heads[0].weights) == 0
    w = np.array([[0.9, 0.1], [0.5, 0.5], [0.52, 0.48]])
    assert ac.informative_row(w) == 1
    with pytest.raises(ValueError):
        ac.informative_row(np.zeros(3))


def test_residual_adds_the_output_to_the_embedding():
    t = ac.trace_example(ac.PRESETS["zao-shang-hao"])
    r = ac.residual(t.X, t.heads[0].output)
    np.testing.assert_allclose(r, t.X + t.heads[0].output)
    with pytest.raises(ValueError):
        ac.residual(np.zeros((2, 2)), np.zeros((2, 3)))
