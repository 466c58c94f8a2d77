"""The synthetic label-proportion generator (Martins 2016, Figure 3)."""
from __future__ import annotations

import math

import numpy as np
import pytest

from sparselab.data import synthetic


@pytest.mark.parametrize("K", [10, 50])
@pytest.mark.parametrize("mixture", ["uniform", "random"])
def test_counts_labels_and_proportions(K, mixture):
    train, test, phi = synthetic.make_dataset(K, 200, mixture, seed=3, n_train=300, n_test=100)
    assert phi.shape == (K, K)  # vocabulary size = K
    np.testing.assert_allclose(phi.sum(1), 1.0)
    assert train.counts.shape == (300, K) and test.counts.shape == (100, K)
    assert train.proportions.shape == (300, K)
    np.testing.assert_allclose(train.proportions.sum(1), 1.0)
    assert (train.proportions >= 0).all()
    assert (train.n_labels >= 1).all() and ((train.proportions > 0).sum(1) == train.n_labels).all()
    assert (train.counts.sum(1) == train.lengths).all() and (train.lengths >= 1).all()
    assert abs(train.lengths.mean() - 200) < 5  # Poisson(200)
    assert (train.n_labels <= K).all()
    # Poisson(1) truncated to {1..K} has mean ~ 1 / (1 - e^-1) = 1.582 (sd 0.81; 300 documents: SE 0.047)
    assert 1.44 < train.n_labels.mean() < 1.72
    if mixture == "uniform":
        nz = train.proportions[train.proportions > 0]
        per_doc = np.repeat(1.0 / train.n_labels, train.n_labels)
        np.testing.assert_allclose(np.sort(nz), np.sort(per_doc))


@pytest.mark.parametrize("K", [2, 3, 10])
def test_label_counts_follow_a_poisson_truncated_to_one_to_K(K):
    """Rejection sampling: no count is 0 or above K, and the frequency of every k in 1..K is within 4 binomial
    standard errors sqrt(p_k (1 - p_k) / n) of the truncated Poisson(1) probability p_k = e^-1 / k! / Z."""
    n = 200_000
    counts = synthetic.label_counts(n, K, np.random.default_rng(7))
    assert counts.shape == (n,) and counts.min() >= 1 and counts.max() <= K
    pois = np.array([math.exp(-1.0) / math.factorial(k) for k in range(1, K + 1)])
    p = pois / pois.sum()
    freq = np.bincount(counts, minlength=K + 1)[1:] / n
    tol = 4 * np.sqrt(p * (1 - p) / n)
    assert (np.abs(freq - p) <= tol).all(), (freq, p, tol)
    # not the clipped max(1, Poisson(1)) of before: that puts 2 e^-1 = 0.74 on k = 1; the truncation (K = 10) 0.58
    if K == 10:
        assert abs(freq[0] - 1 / (math.e - 1)) < 0.01


def test_label_counts_are_seeded_and_need_a_label():
    a = synthetic.label_counts(1000, 5, np.random.default_rng(0))
    assert (a == synthetic.label_counts(1000, 5, np.random.default_rng(0))).all()
    assert (synthetic.label_counts(50, 1, np.random.default_rng(0)) == 1).all()
    with pytest.raises(ValueError, match="at least one label"):
        synthetic.label_counts(5, 0, np.random.default_rng(0))


def test_seed_determinism_and_frequencies():
    a = synthetic.make_dataset(10, 400, "random", seed=1, n_train=50, n_test=10)
    b = synthetic.make_dataset(10, 400, "random", seed=1, n_train=50, n_test=10)
    assert (a[0].counts == b[0].counts).all() and np.allclose(a[2], b[2])
    f = synthetic.frequencies(a[0].counts)
    np.testing.assert_allclose(f.sum(1), 1.0)


def test_unknown_mixture_is_rejected():
    with pytest.raises(ValueError, match="uniform, random"):
        synthetic.make_dataset(10, 200, "zipf", seed=0, n_train=5, n_test=5)
