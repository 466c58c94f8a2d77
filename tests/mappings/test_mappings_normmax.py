"""alpha-normmax: p = argmax_{p in simplex} <p, z> - ||p||_alpha (alpha > 1), its backward, alpha-gradient,
Fenchel-Young loss and module, against an independent float64 bisection written here, the
alpha = 2 identity with 1.5-entmax, and (when installed) the reference `entmax` package.

Numerical tests take the `device` fixture (tests/conftest.py): CPU always, CUDA too when present."""
import math

import pytest
import torch
from torch.autograd import gradcheck

import sparselab.mappings as M

NEG_INF = float("-inf")
ALPHAS = [1.05, 1.5, 2.0, 3.0, 10.0, 1e3]


def _x(*shape, dtype=torch.float64, seed=0, scale=2.0, device="cpu"):
    g = torch.Generator().manual_seed(seed)
    return (torch.randn(*shape, generator=g, dtype=dtype) * scale).to(device)


# ------------------------------------------------------------------ slow reference
def ref_normmax_row(z, alpha, iters=200):
    """KKT form by plain bisection in float64: p = u^(1/(alpha-1)) / sum, u = (z - tau)_+,
    tau with sum u^(alpha/(alpha-1)) = 1, bracketed by max z - 1 (sum >= 1) and max z (sum = 0)."""
    fin = [v for v in z if v != NEG_INF]
    if not fin:
        return [0.0] * len(z)
    top = max(fin)
    q, beta = alpha / (alpha - 1), 1 / (alpha - 1)

    def mass(tau):
        return sum(max(v - tau, 0.0) ** q for v in fin)

    lo, hi = top - 1.0, top
    for _ in range(iters):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if mass(mid) >= 1 else (lo, mid)
    tau = (lo + hi) / 2
    a = [max(v - tau, 0.0) ** beta if v != NEG_INF else 0.0 for v in z]
    return [v / sum(a) for v in a]


def ref_normmax(x, alpha):
    rows = x.detach().double().cpu().tolist()
    al = [alpha] * len(rows) if isinstance(alpha, float) else alpha.reshape(-1).tolist()
    return torch.tensor([ref_normmax_row(r, a) for r, a in zip(rows, al)], dtype=torch.float64)


def ref_objective(p, z, alpha):
    return float((p * z).sum() - (p ** alpha).sum() ** (1 / alpha))


# ------------------------------------------------------------------ forward
@pytest.mark.parametrize("alpha", ALPHAS)
def test_matches_reference_bisection(alpha, device):
    x = _x(20, 9, seed=1, device=device)
    p = M.normmax_bisect(x, alpha)
    assert torch.allclose(p.cpu(), ref_normmax(x, alpha), atol=1e-12, rtol=0)
    assert (p >= 0).all() and torch.allclose(p.sum(-1), torch.ones(20, dtype=x.dtype, device=device), atol=1e-14)


@pytest.mark.parametrize("alpha", [1.3, 2.0, 4.0])
def test_solves_the_optimisation_problem(alpha):
    """No point of the simplex near p* (random perturbations within the face) has a higher objective."""
    z = _x(9, seed=2)
    p = M.normmax_bisect(z, alpha)
    best = ref_objective(p, z, alpha)
    g = torch.Generator().manual_seed(3)
    for _ in range(200):
        d = torch.randn(9, generator=g, dtype=torch.float64) * 1e-3
        q = torch.clamp(p + d - d.mean(), min=0)
        q = q / q.sum()
        assert ref_objective(q, z, alpha) <= best + 1e-12


def test_alpha_two_is_sqrt_of_entmax15_at_twice_the_scores(device):
    """sum (z - tau)_+^2 = 1 is the 1.5-entmax threshold equation of 2z (Peters et al. 2019, Alg. 2)."""
    x = _x(30, 11, seed=4, device=device)
    s = torch.sqrt(M.entmax15(2 * x))
    assert torch.allclose(M.normmax_bisect(x, 2.0), s / s.sum(-1, keepdim=True), atol=1e-14)


def test_large_alpha_is_uniform_on_the_top_scores(device):
    x = _x(25, 10, seed=5, device=device)
    supp = (M.sparsemax(x) > 0).double()
    uniform = supp / supp.sum(-1, keepdim=True)
    errs = [(M.normmax_bisect(x, a) - uniform).abs().max().item() for a in (1e2, 1e4, 1e6)]
    assert errs[0] > errs[1] > errs[2] and errs[2] < 1e-5
    assert torch.equal(M.normmax_bisect(x, 1e6) > 0, supp > 0)


def test_alpha_near_one_approaches_argmax(device):
    x = _x(10, 8, seed=6, device=device)
    onehot = torch.nn.functional.one_hot(x.argmax(-1), 8).double()
    errs = [(M.normmax_bisect(x, 1 + e) - onehot).abs().max().item() for e in (0.3, 0.1, 0.01)]
    assert errs[0] > errs[1] > errs[2] and errs[2] < 1e-3


def test_sparsity_and_ties(device):
    x = torch.tensor([[3.0, 0.0, -5.0, 2.5], [1.0, 1.0, 1.0, 1.0], [2.0, 2.0, -3.0, -3.0]],
                     dtype=torch.float64, device=device)
    p, k = M.normmax_bisect(x, 2.0, return_support_size=True)
    assert p[0, 2] == 0 and p[0, 1] == 0 and k.tolist() == [[2], [4], [2]]
    assert torch.allclose(p[1], torch.full((4,), 0.25, dtype=x.dtype, device=device))
    assert p[2, 0] == p[2, 1] == 0.5


def test_float32_and_per_row_alpha(device):
    x = _x(16, 50, seed=7, dtype=torch.float32, device=device)
    for a in (1.2, 2.0, 50.0):
        p = M.normmax_bisect(x, a)
        assert p.dtype == torch.float32
        assert torch.allclose(p.double().cpu(), ref_normmax(x, a), atol=1e-6)
    a = torch.linspace(1.1, 20.0, 16, dtype=torch.float64, device=device).reshape(16, 1)
    xd = x.double()
    p = M.normmax_bisect(xd, a)
    assert torch.allclose(p.cpu(), ref_normmax(xd, a.cpu()), atol=1e-12)
    for i in (0, 7, 15):
        assert torch.allclose(p[i], M.normmax_bisect(xd[i], a[i, 0].item()), atol=1e-14)


def test_matches_entmax_package():
    entmax = pytest.importorskip("entmax")
    x = _x(12, 10, seed=8)
    for a in (1.5, 2.0, 5.0):
        assert torch.allclose(M.normmax_bisect(x, a), entmax.normmax_bisect(x, a, n_iter=200), atol=1e-12)


def test_n_iter_caps_the_steps():
    x = _x(8, 40, seed=9)
    exact = M.normmax_bisect(x, 1.5)
    rough = M.normmax_bisect(x, 1.5, n_iter=1)
    assert torch.allclose(rough.sum(-1), torch.ones(8, dtype=x.dtype))  # still normalised
    assert (rough - exact).abs().max() > 1e-6


# ------------------------------------------------------------------ gradients
@pytest.mark.parametrize("alpha", [1.2, 1.5, 2.0, 3.0, 8.0])
def test_gradcheck_x(alpha, device):
    x = _x(3, 7, seed=10, device=device).requires_grad_(True)
    assert gradcheck(lambda x: M.normmax_bisect(x, alpha), (x,), atol=1e-6, rtol=1e-5)


def test_gradcheck_x_and_alpha(device):
    x = _x(5, 6, seed=11, device=device).requires_grad_(True)
    a = torch.tensor([[1.2], [1.7], [2.0], [3.5], [9.0]], dtype=torch.float64, device=device, requires_grad=True)
    assert gradcheck(lambda x, a: M.normmax_bisect(x, a), (x, a), atol=1e-6, rtol=1e-5)


def test_backward_equals_upstream_jacobian_form(device):
    """J^T g = (1/(alpha-1)) ||p||_alpha^{alpha-1} (s*h - p sum(s*h)), s = p^{2-alpha}, h = g - <p, g>."""
    alpha = 1.6
    x = _x(6, 9, seed=12, device=device).requires_grad_(True)
    g = _x(6, 9, seed=13, device=device)
    p = M.normmax_bisect(x, alpha)
    (p * g).sum().backward()
    p = p.detach()
    s = torch.where(p > 0, p ** (2 - alpha), 0.0)
    h = g - (g * p).sum(-1, keepdim=True)
    norm = (p ** alpha).sum(-1, keepdim=True) ** (1 / alpha)
    want = norm ** (alpha - 1) / (alpha - 1) * (s * h - p * (s * h).sum(-1, keepdim=True))
    assert torch.allclose(x.grad, want, atol=1e-12)


# ------------------------------------------------------------------ edge cases
def test_masked_entries_and_rows(device):
    x = _x(4, 7, seed=14, device=device)
    x[0, 2] = NEG_INF
    x[1, :] = NEG_INF
    x[2, ::2] = NEG_INF
    x.requires_grad_(True)
    a = torch.full((4, 1), 2.5, dtype=torch.float64, device=device, requires_grad=True)
    p = M.normmax_bisect(x, a)
    assert p[0, 2] == 0 and (p[1] == 0).all() and (p[2, ::2] == 0).all()
    assert torch.allclose(p[[0, 2, 3]].sum(-1), torch.ones(3, dtype=torch.float64, device=device))
    assert torch.allclose(p.detach().cpu(), ref_normmax(x, 2.5), atol=1e-12)
    (p * _x(4, 7, seed=15, device=device)).sum().backward()
    assert torch.isfinite(x.grad).all() and torch.isfinite(a.grad).all()
    assert x.grad[0, 2] == 0 and (x.grad[1] == 0).all() and (x.grad[2, ::2] == 0).all() and a.grad[1, 0] == 0


def test_nan_row_huge_scores_empty_and_length_one(device):
    x = _x(3, 6, seed=16, device=device)
    x[1, 3] = float("nan")
    p = M.normmax_bisect(x, 2.0)
    assert torch.isnan(p[1]).all() and torch.isfinite(p[[0, 2]]).all()
    big = torch.tensor([[1e4, -1e4, 0.0, 1e4 - 0.5]], dtype=torch.float64, device=device)
    p = M.normmax_bisect(big, 2.0)
    assert torch.isfinite(p).all() and p[0, 1] == 0 and abs(p.sum().item() - 1) < 1e-14
    e = torch.zeros(0, 5, dtype=torch.float64, device=device, requires_grad=True)
    M.normmax_bisect(e, 2.0).sum().backward()
    assert e.grad.shape == (0, 5)
    assert (M.normmax_bisect(_x(4, 1, device=device), 3.0) == 1).all()


@pytest.mark.parametrize("dim", [0, 1, -2])
def test_dim(dim, device):
    x = _x(5, 6, 7, seed=17, device=device)
    p = M.normmax_bisect(x, 1.7, dim=dim)
    assert torch.allclose(p, M.normmax_bisect(x.movedim(dim, -1), 1.7).movedim(-1, dim), atol=1e-14)
    shape = [5, 6, 7]
    shape[dim] = 1
    a = torch.full(shape, 1.7, dtype=torch.float64, device=device)
    assert torch.allclose(M.normmax_bisect(x, a, dim=dim), p, atol=1e-14)


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16])
def test_half_precision_computed_in_float32(dtype, device):
    x = _x(16, 50, dtype=torch.float32, device=device)
    xh = x.to(dtype).requires_grad_(True)
    p = M.normmax_bisect(xh, 2.0)
    assert p.dtype == dtype
    assert (p.float() - M.normmax_bisect(xh.detach().float(), 2.0)).abs().max() < 1e-2
    p.float()[:, 0].sum().backward()
    assert xh.grad.dtype == dtype and torch.isfinite(xh.grad.float()).all()


@pytest.mark.parametrize("alpha", [1.0, 0.5, 0.0, -1.0, float("nan"), float("inf")])
def test_bad_alpha_names_alpha(alpha):
    x = _x(2, 3)
    for fn in (lambda: M.normmax_bisect(x, alpha),
               lambda: M.normmax_bisect(x, torch.full((2, 1), alpha, dtype=torch.float64)),
               lambda: M.normmax_loss(x, torch.tensor([0, 1]), alpha),
               lambda: M.Normmax(alpha)):
        with pytest.raises(ValueError, match="alpha"):
            fn()


def test_other_bad_arguments():
    x = _x(4, 5)
    with pytest.raises(ValueError, match="alpha"):
        M.normmax_bisect(x, torch.full((4, 5), 2.0))  # not size 1 along dim
    with pytest.raises(ValueError, match="dim"):
        M.normmax_bisect(x, 2.0, dim=3)
    with pytest.raises(ValueError, match="n_iter"):
        M.normmax_bisect(x, 2.0, n_iter=0)
    with pytest.raises(ValueError, match="x"):
        M.normmax_bisect(torch.ones(3, 4, dtype=torch.long), 2.0)
    with pytest.raises(ValueError, match="reduction"):
        M.normmax_loss(x, torch.tensor([0, 1, 2, 3]), reduction="elementwise_mean")
    with pytest.raises(ValueError, match="target"):
        M.normmax_loss(x, torch.tensor([0, 1, 2, 9]))


# ------------------------------------------------------------------ loss
@pytest.mark.parametrize("alpha", [1.5, 2.0, 4.0])
def test_loss_value_and_gradient(alpha, device):
    x = _x(6, 7, seed=18, device=device).requires_grad_(True)
    t = torch.tensor([0, 3, 6, 2, 1, 5], device=device)
    loss = M.normmax_loss(x, t, alpha, reduction="none")
    p = ref_normmax(x, alpha)
    xd = x.detach().cpu()
    y = torch.nn.functional.one_hot(t.cpu(), 7).double()
    want = [ref_objective(p[i], xd[i], alpha) - float(xd[i, t[i]]) + 1.0 for i in range(6)]
    assert torch.allclose(loss.detach().cpu(), torch.tensor(want, dtype=torch.float64), atol=1e-12)
    assert (loss >= -1e-14).all()
    loss.sum().backward()
    assert torch.allclose(x.grad.cpu(), p - y, atol=1e-12)


def test_loss_matches_entmax_package():
    entmax = pytest.importorskip("entmax")
    x, t = _x(8, 9, seed=19), torch.arange(8)
    for a in (1.5, 2.0, 3.0):
        ref = entmax.normmax_bisect_loss(x, t, a, n_iter=200)
        assert torch.allclose(M.normmax_loss(x, t, a, reduction="none"), ref, atol=1e-12)


@pytest.mark.parametrize("margin", [-0.5, 0.2])
def test_loss_zero_iff_margin_one(margin, device):
    x = _x(5, 6, seed=20, device=device)
    gold = 2
    others = torch.cat([x[:, :gold], x[:, gold + 1:]], 1)
    x[:, gold] = others.max(-1).values + 1 + margin
    t = torch.full((5,), gold, device=device)
    for a in (1.5, 2.0, 7.0):
        loss = M.normmax_loss(x, t, a, reduction="none")
        if margin > 0:
            assert (loss.abs() <= 1e-14).all() and (M.normmax_bisect(x, a)[:, gold] == 1).all()
        else:
            assert (loss > 1e-6).all()


def test_loss_gradcheck_alpha_and_probability_targets(device):
    x = _x(4, 5, seed=21, device=device).requires_grad_(True)
    a = torch.tensor([1.3, 2.0, 3.0, 6.0], dtype=torch.float64, device=device, requires_grad=True)
    t = torch.tensor([0, 4, 2, 1], device=device)
    assert gradcheck(lambda x, a: M.normmax_loss(x, t, a, reduction="none"), (x, a), atol=1e-6, rtol=1e-5)
    y = torch.softmax(_x(4, 5, seed=22, device=device), -1)
    assert gradcheck(lambda x, a: M.normmax_loss(x, y, a, reduction="none"), (x, a), atol=1e-6, rtol=1e-5)
    z = x.detach().clone().requires_grad_(True)
    loss = M.normmax_loss(z, y, 2.0, reduction="none")
    assert (loss >= -1e-14).all()
    loss.sum().backward()
    assert torch.allclose(z.grad, M.normmax_bisect(x.detach(), 2.0) - y, atol=1e-12)


def test_loss_conventions_masks_and_module(device):
    x = _x(3, 5, 2, seed=23, device=device)  # classes on dim 1
    t = torch.tensor([[0, 1], [2, -100], [4, 3]], device=device)
    rows = M.normmax_loss(x, t, 2.0, reduction="none")
    assert rows.shape == (3, 2) and rows[1, 1] == 0
    assert torch.allclose(M.normmax_loss(x, t, 2.0), rows.sum() / 5)
    assert torch.allclose(M.normmax_loss(x, t, 2.0, reduction="sum"), rows.sum())
    flat = M.normmax_loss(x.movedim(1, -1).reshape(6, 5), t.reshape(6), 2.0, reduction="none")
    assert torch.allclose(flat, rows.reshape(6))
    z = _x(3, 5, seed=24, device=device)
    z[0, 4] = NEG_INF
    z[1, 1] = NEG_INF
    loss = M.normmax_loss(z, torch.tensor([0, 1, 2], device=device), 2.0, reduction="none")
    assert torch.isfinite(loss[[0, 2]]).all() and loss[1] == math.inf
    s, tt = _x(4, 6, seed=25, device=device), torch.tensor([0, 1, 2, 3], device=device)
    assert torch.equal(M.NormmaxLoss(alpha=3.0)(s, tt), M.normmax_loss(s, tt, 3.0))
    assert torch.equal(M.Normmax(alpha=3.0, dim=0)(s), M.normmax_bisect(s, 3.0, dim=0))
