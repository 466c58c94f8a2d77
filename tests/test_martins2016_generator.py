"""The synthetic label-proportion generator (Martins 2016, Figure 3)."""
from __future__ import annotations

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
    assert 1.2 < train.n_labels.mean() < 1.6  # max(1, Poisson(1)) has mean 1 + e^-1 ~ 1.37
    if mixture == "uniform":
        nz = train.proportions[train.proportions > 0]
        per_doc = np.repeat(1.0 / train.n_labels, train.n_labels)
        np.testing.assert_allclose(np.sort(nz), np.sort(per_doc))


def test_seed_determinism_and_frequencies():
    a = synthetic.make_dataset(10, 400, "random", seed=1, n_train=50, n_test=10)
    b = synthetic.make_dataset(10, 400, "random", seed=1, n_train=50, n_test=10)
    assert (a[0].counts == b[0].counts).all() and np.allclose(a[2], b[2])
    f = synthetic.frequencies(a[0].counts)
    np.testing.assert_allclose(f.sum(1), 1.0)


def test_unknown_mixture_is_rejected():
    with pytest.raises(ValueError, match="uniform, random"):
        synthetic.make_dataset(10, 200, "zipf", seed=0, n_train=5, n_test=5)
