"""Linear models of Martins 2016: loss values, gradients and learning a separable problem."""
from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

from sparselab.models import linear
from sparselab.tasks.multilabel import predict


def toy(n_per=40, seed=0):
    """3 well-separated Gaussian blobs in 4-d, one label each (multi-label Y with single labels)."""
    rng = np.random.default_rng(seed)
    centers = np.array([[4, 0, 0, 0], [0, 4, 0, 0], [0, 0, 4, 0]], dtype=float)
    X = np.concatenate([c + rng.normal(scale=0.5, size=(n_per, 4)) for c in centers])
    Y = np.repeat(np.eye(3, dtype=np.int8), n_per, axis=0)
    return X, Y


@pytest.mark.parametrize("loss", ["softmax", "sparsemax"])
def test_fy_loss_value_and_gradient_match_mappings(loss):
    rng = np.random.default_rng(1)
    Z = rng.normal(size=(20, 6)) * 2
    Y = (rng.random((20, 6)) < 0.4).astype(float)
    Y[:, 0] = 1
    T = linear.uniform_targets(Y)
    value, G = linear.loss_and_grad(Z, T, loss)
    assert value == pytest.approx(linear.fy_loss_reference(Z, T, loss), rel=1e-10, abs=1e-12)
    import torch

    from sparselab.mappings import fy_loss

    z = torch.from_numpy(Z).requires_grad_(True)
    fy_loss(z, torch.from_numpy(T), linear.FY_ALPHA[loss], reduction="mean").backward()
    np.testing.assert_allclose(G, z.grad.numpy(), atol=1e-12)


def test_sparse_design_equals_dense_standardisation():
    rng = np.random.default_rng(2)
    X = (rng.random((30, 8)) < 0.3) * rng.random((30, 8))
    W = rng.normal(size=(8, 3))
    G = rng.normal(size=(30, 3))
    st_d, st_s = linear.Standardizer(X), linear.Standardizer(sp.csr_matrix(X))
    np.testing.assert_allclose(st_d.mu, st_s.mu)
    np.testing.assert_allclose(st_d.sd, st_s.sd)
    Dd, Ds = st_d.design(X), st_s.design(sp.csr_matrix(X))
    np.testing.assert_allclose(Dd.matmul(W), Ds.matmul(W), atol=1e-10)
    np.testing.assert_allclose(Dd.rmatmul(G), Ds.rmatmul(G), atol=1e-10)


@pytest.mark.parametrize("loss, threshold", [("logistic", 0.5), ("softmax", 0.5), ("sparsemax", 2.0)])  # t=2: a margin >= 1 at t=1 becomes 2
def test_each_loss_learns_a_separable_problem(loss, threshold):
    X, Y = toy(seed=0)
    Xte, Yte = toy(n_per=30, seed=1)
    st = linear.Standardizer(X)
    T = Y.astype(float) if loss == "logistic" else linear.uniform_targets(Y)
    model = linear.fit(st.design(X), T, loss, l2=1e-3, max_iter=100)
    pred = predict(model.scores(st.design(Xte)), loss, threshold)
    exact = (pred == Yte.astype(bool)).all(axis=1).mean()
    assert exact >= 0.98, f"{loss}: exact-match rate {exact}"
    # and the untrained model (zero weights) does not get there: the assertion is about learning
    zero = linear.LinearModel(np.zeros_like(model.W), np.zeros_like(model.b))
    assert (predict(zero.scores(st.design(Xte)), loss, threshold) == Yte.astype(bool)).all(axis=1).mean() < 0.5


def test_sparsemax_loss_fits_label_proportions_exactly_when_separable():
    X, Y = toy(seed=0)
    st = linear.Standardizer(X)
    model = linear.fit(st.design(X), linear.uniform_targets(Y), "sparsemax", l2=1e-6, max_iter=100)
    P = linear.distribution(model.scores(st.design(X)), "sparsemax")
    assert np.abs(P - Y).max() < 1e-3  # the sparsemax loss reaches zero: sparse outputs hit one-hot targets


def test_warm_started_path_returns_one_model_per_l2():
    X, Y = toy(n_per=10)
    st = linear.Standardizer(X)
    models = linear.fit_path(st.design(X), Y.astype(float), "logistic", [1e-2, 1.0, 1e2], max_iter=50)
    assert sorted(models) == [1e-2, 1.0, 1e2]
    norms = [np.linalg.norm(models[l].W) for l in (1e2, 1.0, 1e-2)]
    assert norms[0] < norms[1] < norms[2]  # weaker penalty, larger weights


def test_unknown_loss_is_rejected():
    with pytest.raises(ValueError, match="logistic, softmax, sparsemax"):
        linear.loss_and_grad(np.zeros((2, 2)), np.zeros((2, 2)), "hinge")


def test_cv_path_and_refit_path_equal_the_hand_written_loops():
    """The shared CV / refit helpers of both Martins tasks compute exactly what their loops did."""
    from sparselab.data.mulan import kfold_indices

    X, Y = toy(n_per=12, seed=3)
    T = linear.uniform_targets(Y)
    l2s = [1e-2, 1.0, 1e2]
    fits = []
    oof = linear.cv_path(X, lambda tr: (np.arange(len(tr))[::2], T[tr][::2]), "sparsemax", l2s,
                         kfold_indices(len(X), 3, 0), max_iter=30,
                         output=lambda Z: linear.distribution(Z, "sparsemax"),
                         on_fit=lambda m, n: fits.append((m.n_iter, n)))
    ref = {l2: np.zeros_like(T) for l2 in l2s}
    for tr, ho in kfold_indices(len(X), 3, 0):
        st = linear.Standardizer(X[tr])
        D_fit = st.design(X[tr]).rows(np.arange(len(tr))[::2])
        for l2, model in linear.warm_path(D_fit, T[tr][::2], "sparsemax", l2s, 30):
            ref[l2][ho] = linear.distribution(model.scores(st.design(X[ho])), "sparsemax")
    assert sorted(oof) == sorted(l2s) and all(np.array_equal(oof[l2], ref[l2]) for l2 in l2s)
    assert len(fits) == 9 and all(n == len(range(0, 24, 2)) for _, n in fits)
    path = list(linear.refit_path(X, X[:5], None, T, "softmax", l2s, down_to=1.0, max_iter=30))
    assert [l2 for l2, _, _ in path] == [1e2, 1.0]  # stops at the chosen L2
    st = linear.Standardizer(X)
    want = linear.fit_path(st.design(X), T, "softmax", [1e2, 1.0], max_iter=30)[1.0]
    _, got, D_eval = path[-1]
    assert np.array_equal(got.W, want.W) and np.array_equal(got.scores(D_eval), want.scores(st.design(X[:5])))
