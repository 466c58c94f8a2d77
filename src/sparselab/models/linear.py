"""Full-batch linear models (scores z = x W + b) trained with L-BFGS, for Martins & Astudillo (2016).

Objective: mean over examples of the loss + (l2 / 2) * ||W||_F^2 (the bias is not penalised).
Losses on the scores (computed with torch autograd on the n x K score matrix only; the linear
algebra stays in numpy / scipy.sparse so sparse text features stay sparse):

- ``logistic``: one-vs-rest binary cross-entropy with logits, summed over labels (torch BCE);
- ``softmax``:  Fenchel-Young loss at alpha=1 (cross-entropy) against a target distribution;
- ``sparsemax``: Fenchel-Young loss at alpha=2 (the sparsemax loss, Martins 2016 Eq. 26).

Features are standardised with statistics fitted on the training rows. For sparse inputs the
centring is applied implicitly (``X_s W = (X / sd) W - (mu / sd) W``), which keeps the matrix
sparse while computing exactly the standardised model. Optimiser: scipy L-BFGS-B with the
analytic gradient (``maxiter`` = the paper's "up to 100 epochs"), warm-started along an L2 path.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp
import torch
import torch.nn.functional as F
from scipy.optimize import minimize

LOSSES = ("logistic", "softmax", "sparsemax")
FY_ALPHA = {"softmax": 1.0, "sparsemax": 2.0}


class Standardizer:
    """Per-feature mean / std fitted on training rows (constant features get std 1)."""

    def __init__(self, X):
        if sp.issparse(X):
            X = X.tocsr()
            mu = np.asarray(X.mean(axis=0)).ravel()
            ex2 = np.asarray(X.multiply(X).mean(axis=0)).ravel()
            var = np.maximum(ex2 - mu ** 2, 0.0)
        else:
            mu = np.nanmean(X, axis=0)
            var = np.nanvar(X, axis=0)
            mu = np.where(np.isnan(mu), 0.0, mu)
            var = np.where(np.isnan(var), 0.0, var)
        sd = np.sqrt(var)
        sd[sd < 1e-12] = 1.0
        self.mu, self.sd = mu, sd

    def design(self, X) -> "Design":
        return Design(X, self.mu, self.sd)


class Design:
    """A standardised design matrix that supports X_s @ W and X_s.T @ G (dense or implicit-sparse)."""

    def __init__(self, X, mu, sd):
        self.sparse = sp.issparse(X)
        if self.sparse:
            self.Xs = (X.tocsr() @ sp.diags(1.0 / sd)).tocsr()
            self.shift = mu / sd
        else:
            X = np.where(np.isnan(X), mu, X)  # missing values -> training mean
            self.Xs = np.ascontiguousarray((X - mu) / sd)
            self.shift = None
        self.n, self.d = self.Xs.shape

    def rows(self, idx) -> "Design":
        out = object.__new__(Design)
        out.sparse, out.shift = self.sparse, self.shift
        out.Xs = self.Xs[idx]
        out.n, out.d = out.Xs.shape
        return out

    def matmul(self, W: np.ndarray) -> np.ndarray:
        out = np.asarray(self.Xs @ W)
        if self.sparse:
            out -= self.shift @ W
        return out

    def rmatmul(self, G: np.ndarray) -> np.ndarray:
        out = np.asarray(self.Xs.T @ G)
        if self.sparse:
            out -= np.outer(self.shift, G.sum(axis=0))
        return out


def loss_and_grad(Z: np.ndarray, T: np.ndarray, loss: str, omega_q: float | None = None) -> tuple[float, np.ndarray]:
    """Mean loss over rows and its gradient wrt the scores Z (n x K).

    For the Fenchel-Young losses the value and gradient come from ONE forward call of the
    mapping (``sparselab.mappings.softmax`` / ``sparsemax``):  grad = p - q and
    value = <z, p - q> - Omega(p) + Omega(q), with Omega(p) = sum p log p (alpha=1) or
    (||p||^2 - 1) / 2 (alpha=2); for alpha=1 this is logsumexp(z) - <z, q> + Omega(q).
    This equals ``sparselab.mappings.fy_loss`` (checked in tests/models/test_martins2016_models.py)
    at a fraction of the cost of autograd through it. ``omega_q``: precomputed sum of Omega(q).
    """
    n = Z.shape[0]
    if loss == "logistic":
        z = torch.from_numpy(Z).requires_grad_(True)
        value = F.binary_cross_entropy_with_logits(z, torch.from_numpy(T), reduction="sum") / n
        value.backward()
        return float(value.detach()), z.grad.numpy()
    if loss not in FY_ALPHA:
        raise ValueError(f"loss={loss!r} is unknown; valid: {', '.join(LOSSES)}")
    if omega_q is None:
        omega_q = omega(T, loss)
    z = torch.from_numpy(Z)
    if loss == "softmax":
        from sparselab.mappings import softmax

        P = softmax(z, dim=-1).numpy()
        total = float(torch.logsumexp(z, dim=-1).sum()) - float(np.sum(Z * T))
    else:
        from sparselab.mappings import sparsemax

        P = sparsemax(z, dim=-1).numpy()
        G0 = P - T
        total = float(np.sum(Z * G0)) - 0.5 * (float(np.sum(P * P)) - n)
    return (total + omega_q) / n, (P - T) / n


def omega(T: np.ndarray, loss: str) -> float:
    """Sum over rows of the regulariser Omega(q): sum q log q (softmax) or (||q||^2 - 1)/2 (sparsemax)."""
    if loss == "softmax":
        return float(_xlogx(T).sum())
    return 0.5 * (float(np.sum(T * T)) - T.shape[0])


def fy_loss_reference(Z: np.ndarray, T: np.ndarray, loss: str) -> float:
    """The same mean loss through ``sparselab.mappings.fy_loss`` (for tests)."""
    from sparselab.mappings import fy_loss

    return float(fy_loss(torch.from_numpy(Z), torch.from_numpy(T), FY_ALPHA[loss], reduction="mean"))


def _xlogx(P: np.ndarray) -> np.ndarray:
    return np.where(P > 0, P * np.log(np.where(P > 0, P, 1.0)), 0.0)


@dataclass
class LinearModel:
    W: np.ndarray  # d x K
    b: np.ndarray  # K
    n_iter: int = 0
    converged: bool = False

    def scores(self, design: Design) -> np.ndarray:
        return design.matmul(self.W) + self.b


def fit(design: Design, T: np.ndarray, loss: str, l2: float, init: LinearModel | None = None,
        max_iter: int = 100, tol: float = 1e-7) -> LinearModel:
    """Minimise mean loss + l2/2 ||W||^2 with L-BFGS-B (analytic gradient), from ``init`` if given."""
    T = np.ascontiguousarray(T, dtype=np.float64)
    d, K = design.d, T.shape[1]
    x0 = np.zeros(d * K + K) if init is None else np.concatenate([init.W.ravel(), init.b])
    omega_q = omega(T, loss) if loss in FY_ALPHA else None

    def fun(x):
        W = x[: d * K].reshape(d, K)
        b = x[d * K:]
        Z = design.matmul(W) + b
        value, G = loss_and_grad(Z, T, loss, omega_q)
        gW = design.rmatmul(G) + l2 * W
        return value + 0.5 * l2 * float(np.sum(W * W)), np.concatenate([gW.ravel(), G.sum(axis=0)])

    res = minimize(fun, x0, jac=True, method="L-BFGS-B",
                   options={"maxiter": int(max_iter), "gtol": tol, "ftol": 1e-10, "maxcor": 10})
    x = res.x
    return LinearModel(x[: d * K].reshape(d, K).copy(), x[d * K:].copy(), int(res.nit), bool(res.success))


def warm_path(design: Design, T: np.ndarray, loss: str, l2_values, max_iter: int = 100):
    """Yield (l2, model) from the strongest to the weakest penalty, each fit warm-started from the last.

    A generator, so callers that need only the path down to some L2 stop early.
    """
    prev = None
    for l2 in sorted((float(v) for v in l2_values), reverse=True):
        prev = fit(design, T, loss, l2, init=prev, max_iter=max_iter)
        yield l2, prev


def cv_path(X, fold_targets, loss: str, l2_values, folds, max_iter: int = 100, output=None,
            on_fit=None, on_fold=None) -> dict[float, np.ndarray]:
    """Out-of-fold outputs of every model on the warm-started L2 path, keyed by L2.

    For each fold ``(tr, ho)`` of ``folds`` (e.g. ``mulan.kfold_indices``): standardise with the
    statistics of ``X[tr]``, fit ``warm_path`` on the rows and targets ``fold_targets(tr)`` returns
    (``rows``: indices into ``tr``, or None for all of them), and store ``output(scores)`` of the
    held-out rows ``ho`` (default: the scores themselves). ``on_fit(model, n_rows)`` is called after
    every fit (to count iterations and samples), ``on_fold(k)`` after every fold.
    """
    l2_desc = sorted((float(v) for v in l2_values), reverse=True)
    n = X.shape[0]
    oof: dict[float, np.ndarray] = {}
    for k, (tr, ho) in enumerate(folds):
        st = Standardizer(X[tr])
        D_tr, D_ho = st.design(X[tr]), st.design(X[ho])
        rows, T = fold_targets(tr)
        D_fit = D_tr if rows is None else D_tr.rows(rows)
        for l2, model in warm_path(D_fit, T, loss, l2_desc, max_iter):
            if on_fit is not None:
                on_fit(model, D_fit.n)
            out = model.scores(D_ho)
            if output is not None:
                out = output(out)
            if l2 not in oof:
                oof[l2] = np.zeros((n, out.shape[1]))
            oof[l2][ho] = out
        if on_fold is not None:
            on_fold(k)
    return oof


def refit_path(X, X_eval, rows, T: np.ndarray, loss: str, l2_values, down_to: float, max_iter: int = 100,
               on_fit=None):
    """Refit on all of ``X`` along the same warm-started path as :func:`cv_path`, down to ``down_to``.

    Standardises with the statistics of every row of ``X``, fits on ``rows`` (None: all) with
    targets ``T``, and yields ``(l2, model, D_eval)`` from the strongest penalty to ``down_to``
    (``D_eval``: ``X_eval`` standardised the same way, for ``model.scores(D_eval)``).
    """
    st = Standardizer(X)
    D_all, D_eval = st.design(X), st.design(X_eval)
    D_fit = D_all if rows is None else D_all.rows(rows)
    for l2, model in warm_path(D_fit, T, loss, l2_values, max_iter):
        if on_fit is not None:
            on_fit(model, D_fit.n)
        yield l2, model, D_eval
        if l2 <= down_to:
            return


def fit_path(design: Design, T: np.ndarray, loss: str, l2_values, max_iter: int = 100) -> dict[float, LinearModel]:
    """Every model of the warm-started L2 path, keyed by L2."""
    return dict(warm_path(design, T, loss, l2_values, max_iter))


def distribution(Z: np.ndarray, loss: str, scale: float = 1.0) -> np.ndarray:
    """Per-row output: sigmoid (logistic), softmax, or sparsemax(scale * z)."""
    z = torch.from_numpy(np.ascontiguousarray(Z))
    if loss == "logistic":
        return torch.sigmoid(z).numpy()
    from sparselab.mappings import softmax, sparsemax

    if loss == "softmax":
        return softmax(z * scale, dim=-1).numpy()
    if loss == "sparsemax":
        return sparsemax(z * scale, dim=-1).numpy()
    raise ValueError(f"loss={loss!r} is unknown; valid: {', '.join(LOSSES)}")


def uniform_targets(Y: np.ndarray) -> np.ndarray:
    """Rows of Y (0/1) normalised to the uniform distribution over the gold labels (empty rows stay 0)."""
    Y = np.asarray(Y, dtype=np.float64)
    s = Y.sum(axis=1, keepdims=True)
    return np.divide(Y, s, out=np.zeros_like(Y), where=s > 0)
