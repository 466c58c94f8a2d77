"""budget_bisect: the Euclidean projection onto the capped simplex {p in [0,1]^d : sum p = b}, against an
exact enumeration of the (capped, free, zero) splits written here; budget = 1 is sparsemax; backward
and budget-gradient; masks, dim, half precision and bad budgets.

Numerical tests take the `device` fixture (tests/conftest.py): CPU always, CUDA too when present."""
import pytest
import torch
from torch.autograd import gradcheck

import sparselab.mappings as M

NEG_INF = float("-inf")
BUDGETS = [0.5, 1.0, 2.0, 3.5, 7.0]


def _x(*shape, dtype=torch.float64, seed=0, scale=2.0, device="cpu"):
    g = torch.Generator().manual_seed(seed)
    return (torch.randn(*shape, generator=g, dtype=dtype) * scale).to(device)


# ------------------------------------------------------------------ slow reference
def ref_budget_row(z, b):
    """Exact by enumeration (float64): on the finite entries sorted in descending order the
    solution caps the top `a` at 1, keeps c - a free entries at z - tau, zeros the rest, with
    tau = (sum of the free entries + a - b)/(c - a); the first (a, c) whose conditions hold
    is the projection (it is unique).  c = a is the flat piece: a = b, any tau in between."""
    idx = [i for i, v in enumerate(z) if v != NEG_INF]
    zs = sorted((z[i] for i in idx), reverse=True)
    n = len(zs)
    for a in range(n + 1):
        for c in range(a, n + 1):
            if c == a:
                if a != b:
                    continue
                tau = zs[a] if a < n else zs[-1] - 1  # any point of [zs[a], zs[a-1] - 1]
                if a and zs[a - 1] - 1 < tau:
                    continue
            else:
                tau = (sum(zs[a:c]) + a - b) / (c - a)
            tol = 1e-12
            if (all(v - tau >= 1 - tol for v in zs[:a]) and all(-tol < v - tau < 1 + tol for v in zs[a:c])
                    and all(v - tau <= tol for v in zs[c:])):
                return [min(max(v - tau, 0.0), 1.0) if v != NEG_INF else 0.0 for v in z]
    raise AssertionError("no split satisfies the KKT conditions")


def ref_budget(x, b):
    rows = x.detach().double().cpu().tolist()
    bs = [b] * len(rows) if isinstance(b, float) else b.reshape(-1).tolist()
    return torch.tensor([ref_budget_row(r, bb) for r, bb in zip(rows, bs)], dtype=torch.float64)


# ------------------------------------------------------------------ forward
@pytest.mark.parametrize("scale", [0.3, 1.0, 5.0])
@pytest.mark.parametrize("budget", BUDGETS)
def test_matches_enumeration(budget, scale, device):
    x = _x(30, 10, seed=1, scale=scale, device=device)
    p = M.budget_bisect(x, budget)
    assert torch.allclose(p.cpu(), ref_budget(x, budget), atol=1e-13, rtol=0)
    assert (p >= 0).all() and (p <= 1).all()
    assert torch.allclose(p.sum(-1), torch.full((30,), budget, dtype=x.dtype, device=device), atol=1e-13)


def test_is_the_closest_point():
    """Other feasible points of the capped simplex (the reference projections of perturbed
    scores) are never closer to z than p."""
    z = _x(8, seed=2)
    p = M.budget_bisect(z, 3.0)
    d = (p - z).norm().item()
    g = torch.Generator().manual_seed(3)
    for _ in range(200):
        y = (z + 0.3 * torch.randn(8, generator=g, dtype=torch.float64)).tolist()
        q = torch.tensor(ref_budget_row(y, 3.0), dtype=torch.float64)
        assert (q >= 0).all() and (q <= 1).all() and abs(q.sum().item() - 3) < 1e-12
        assert (q - z).norm().item() >= d - 1e-12


def test_budget_one_is_sparsemax(device):
    for scale in (0.1, 1.0, 10.0):
        x = _x(40, 13, seed=4, scale=scale, device=device)
        assert torch.allclose(M.budget_bisect(x, 1.0), M.sparsemax(x), atol=1e-14)


def test_extremes_topk_and_full_budget(device):
    x = torch.tensor([[5.0, 0.0, 3.0, -4.0, 1.5], [0.1, 0.2, 0.3, 0.4, 0.5]], dtype=torch.float64, device=device)
    p, k = M.budget_bisect(x, 2.0, return_support_size=True)
    assert p[0].tolist() == [1.0, 0.0, 1.0, 0.0, 0.0] and k[0, 0] == 2  # gap >= 1: the top-2 indicator
    assert (M.budget_bisect(x, 5.0) == 1).all()
    ties = torch.zeros(1, 4, dtype=torch.float64, device=device)
    assert torch.allclose(M.budget_bisect(ties, 3.0), torch.full((1, 4), 0.75, dtype=torch.float64, device=device))


def test_tensor_budget_per_row_and_float32(device):
    x = _x(12, 20, seed=5, dtype=torch.float32, device=device)
    b = torch.linspace(0.5, 15.0, 12, device=device).reshape(12, 1)
    p = M.budget_bisect(x, b)
    assert p.dtype == torch.float32
    assert torch.allclose(p.double().cpu(), ref_budget(x, b.cpu()), atol=1e-5)
    assert torch.allclose(p.sum(-1, keepdim=True), b, atol=1e-4)
    for i in (0, 5, 11):
        assert torch.equal(M.budget_bisect(x[i:i + 1], b[i, 0].item()), p[i:i + 1])


def test_matches_entmax_package():
    entmax = pytest.importorskip("entmax")
    x = _x(10, 9, seed=6)
    for b in (1.0, 2.0, 4.5):
        assert torch.allclose(M.budget_bisect(x, b), entmax.budget_bisect(x, b, n_iter=200), atol=1e-12)


# ------------------------------------------------------------------ gradients
@pytest.mark.parametrize("budget", [0.7, 1.0, 2.0, 3.5])
def test_gradcheck_x(budget, device):
    x = _x(4, 7, seed=7, device=device).requires_grad_(True)
    assert gradcheck(lambda x: M.budget_bisect(x, budget), (x,))


def test_gradcheck_x_and_budget(device):
    x = _x(4, 7, seed=8, device=device).requires_grad_(True)
    b = torch.tensor([[0.6], [1.5], [2.5], [4.2]], dtype=torch.float64, device=device, requires_grad=True)
    assert gradcheck(lambda x, b: M.budget_bisect(x, b), (x, b))


def test_backward_is_centred_on_the_free_set(device):
    x = _x(5, 9, seed=9, device=device).requires_grad_(True)
    g = _x(5, 9, seed=10, device=device)
    p = M.budget_bisect(x, 3.0)
    (p * g).sum().backward()
    free = (p > 0) & (p < 1)
    want = torch.where(free, g - (g * free).sum(-1, keepdim=True) / free.sum(-1, keepdim=True), 0.0)
    assert torch.allclose(x.grad, want, atol=1e-14)
    assert torch.allclose(x.grad.sum(-1), torch.zeros(5, dtype=torch.float64, device=device), atol=1e-13)


# ------------------------------------------------------------------ edge cases
def test_masked_entries_rows_and_infeasible_rows(device):
    x = _x(4, 7, seed=11, device=device)
    x[0, 2] = NEG_INF
    x[1, :] = NEG_INF
    x[2, ::2] = NEG_INF  # 3 finite entries left
    x.requires_grad_(True)
    p = M.budget_bisect(x, 2.5)
    assert p[0, 2] == 0 and (p[1] == 0).all() and (p[2, ::2] == 0).all()
    assert torch.allclose(p[[0, 2, 3]].sum(-1), torch.full((3,), 2.5, dtype=torch.float64, device=device))
    keep = [0, 2, 3]
    assert torch.allclose(p.detach()[keep].cpu(), ref_budget(x.detach()[keep], 2.5), atol=1e-13)
    (p * _x(4, 7, seed=12, device=device)).sum().backward()
    assert torch.isfinite(x.grad).all() and x.grad[0, 2] == 0 and (x.grad[1] == 0).all()
    with pytest.raises(ValueError, match="budget"):
        M.budget_bisect(x.detach(), 3.5)  # row 2 has only 3 finite entries


def test_nan_row_empty_and_length_one(device):
    x = _x(3, 6, seed=13, device=device)
    x[1, 3] = float("nan")
    for b in (2.0, 6.0):
        p = M.budget_bisect(x, b)
        assert torch.isnan(p[1]).all() and torch.isfinite(p[[0, 2]]).all()
    e = torch.zeros(0, 5, dtype=torch.float64, device=device, requires_grad=True)
    M.budget_bisect(e, 2.0).sum().backward()
    assert e.grad.shape == (0, 5)
    assert torch.allclose(M.budget_bisect(_x(4, 1, device=device), 0.25), torch.full((4, 1), 0.25).double().to(device))


@pytest.mark.parametrize("dim", [0, 1, -2])
def test_dim(dim, device):
    x = _x(5, 6, 7, seed=14, device=device)
    p = M.budget_bisect(x, 2.5, dim=dim)
    assert torch.allclose(p, M.budget_bisect(x.movedim(dim, -1), 2.5).movedim(-1, dim), atol=1e-14)
    assert torch.allclose(p.sum(dim), torch.full((), 2.5, dtype=torch.float64, device=device))


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16])
def test_half_precision_computed_in_float32(dtype, device):
    x = _x(16, 50, dtype=torch.float32, device=device)
    xh = x.to(dtype).requires_grad_(True)
    p = M.budget_bisect(xh, 4.0)
    assert p.dtype == dtype
    assert (p.float() - M.budget_bisect(xh.detach().float(), 4.0)).abs().max() < 1e-2
    assert (p.float().sum(-1) - 4).abs().max() < 0.1
    p.float()[:, 0].sum().backward()
    assert xh.grad.dtype == dtype and torch.isfinite(xh.grad.float()).all()


@pytest.mark.parametrize("budget", [0.0, -1.0, 7.5, float("nan"), float("inf"), True])
def test_bad_budget_names_budget(budget):
    x = _x(2, 7)
    with pytest.raises(ValueError, match="budget"):
        M.budget_bisect(x, budget)
    if not isinstance(budget, bool):
        with pytest.raises(ValueError, match="budget"):
            M.budget_bisect(x, torch.full((2, 1), budget, dtype=torch.float64))


def test_other_bad_arguments():
    x = _x(4, 5)
    with pytest.raises(ValueError, match="budget"):
        M.budget_bisect(x, torch.full((4, 5), 2.0))  # not size 1 along dim
    with pytest.raises(ValueError, match="budget"):
        M.budget_bisect(x, "2")
    with pytest.raises(ValueError, match="dim"):
        M.budget_bisect(x, 2.0, dim=2)
    with pytest.raises(ValueError, match="n_iter"):
        M.budget_bisect(x, 2.0, n_iter=0)
    with pytest.raises(ValueError, match="x"):
        M.budget_bisect(torch.ones(3, 4, dtype=torch.long), 2.0)
