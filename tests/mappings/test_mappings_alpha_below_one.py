"""alpha in (0, 1): the dense Tsallis maps p = ((alpha-1) z - tau)^{1/(alpha-1)}, tau < (alpha-1) max z.

entmax_bisect / entmax / fy_loss / Entmax(alpha_min=...) forward, backward and alpha-gradient,
against an independent float64 bisection written here.  Numerical tests take the `device`
fixture (tests/conftest.py)."""
import math

import pytest
import torch
from torch.autograd import gradcheck

import sparselab.mappings as M
from sparselab.mappings._validate import check_alpha_float

NEG_INF = float("-inf")
BELOW = [0.2, 0.5, 0.75]


def _x(*shape, dtype=torch.float64, seed=0, scale=2.0, device="cpu"):
    g = torch.Generator().manual_seed(seed)
    return (torch.randn(*shape, generator=g, dtype=dtype) * scale).to(device)


# ------------------------------------------------------------------ slow reference
def ref_entmax_row(z, alpha, iters=300):
    """Bisection on tau in float64 for one row (list of floats, -inf allowed), any alpha > 0.

    p_i = ((alpha-1) z_i - tau)^{1/(alpha-1)} where the base is positive (alpha < 1: every
    finite entry; alpha > 1: clipped at 0).  The largest p is 1 at tau = c max z - 1 and
    1/n at tau = c max z - n^{-c} (c = alpha - 1), which bracket the root.
    """
    fin = [v for v in z if v != NEG_INF]
    n = len(fin)
    if n == 0:
        return [0.0] * len(z)
    if alpha == 1.0:
        m = max(fin)
        e = [math.exp(v - m) if v != NEG_INF else 0.0 for v in z]
        s = sum(e)
        return [v / s for v in e]
    c = alpha - 1.0
    zmax = max(fin)

    def probs(tau):
        out = []
        for v in z:
            if v == NEG_INF:
                out.append(0.0)
                continue
            r = c * v - tau
            out.append(r ** (1.0 / c) if r > 0 else 0.0)
        return out

    ends = sorted([c * zmax - 1.0, c * zmax - n ** (-c)])
    a, b = ends
    fa = sum(probs(a)) - 1.0
    for _ in range(iters):
        mid = (a + b) / 2
        fm = sum(probs(mid)) - 1.0
        if (fm > 0) == (fa > 0):
            a, fa = mid, fm
        else:
            b = mid
    p = probs((a + b) / 2)
    s = sum(p)
    return [v / s for v in p]


def ref_entmax(x, alpha):
    """Rows of a 2-D tensor; alpha a float or an (N, 1) tensor."""
    rows = []
    for i, row in enumerate(x.detach().double().cpu().tolist()):
        a = alpha if isinstance(alpha, float) else float(alpha[i, 0])
        rows.append(ref_entmax_row(row, a))
    return torch.tensor(rows, dtype=torch.float64)


def ref_tsallis(p, alpha):
    p = p[p > 0]
    if alpha == 1.0:
        return float(-(p * p.log()).sum())
    return float((1 - (p ** alpha).sum()) / (alpha * (alpha - 1)))


# ------------------------------------------------------------------ forward
@pytest.mark.parametrize("alpha", BELOW + [0.05, 0.999])
def test_matches_reference_and_is_dense(alpha, device):
    x = _x(6, 9, seed=1, device=device)
    p = M.entmax_bisect(x, alpha)
    assert torch.allclose(p.cpu(), ref_entmax(x, alpha), atol=1e-12, rtol=1e-10)
    assert (p > 0).all()
    assert torch.allclose(p.sum(-1), torch.ones(6, dtype=torch.float64, device=device), atol=1e-13)
    assert torch.equal(M.entmax(x, alpha), p)


def test_float32_matches_reference(device):
    x = _x(8, 50, seed=2, dtype=torch.float32, device=device)
    for alpha in BELOW:
        p = M.entmax_bisect(x, alpha)
        assert p.dtype == torch.float32
        assert torch.allclose(p.double().cpu(), ref_entmax(x, alpha), atol=2e-6, rtol=1e-4)


def test_per_row_alpha_across_one_matches_reference(device):
    g = torch.Generator().manual_seed(3)
    x = _x(12, 7, seed=4, device=device)
    a = (0.05 + 2.5 * torch.rand(12, 1, generator=g, dtype=torch.float64)).to(device)
    p = M.entmax_bisect(x, a)
    assert torch.allclose(p.cpu(), ref_entmax(x, a.cpu()), atol=1e-12, rtol=1e-9)
    dense = (a < 1).squeeze(1)
    assert (p[dense] > 0).all()


def test_heavier_tails_than_softmax_and_monotone_in_alpha():
    x = _x(4, 10, seed=5)
    ps = [M.entmax_bisect(x, a) for a in (0.2, 0.5, 0.75, 1.0)]
    # The smallest probability of a row grows as alpha decreases below 1 (flatter, heavier tails).
    mins = [p.min(-1).values for p in ps]
    for lo, hi in zip(mins, mins[1:]):
        assert (lo > hi).all()


def test_approaches_softmax_from_below(device):
    x = _x(5, 8, seed=6, device=device)
    sm = torch.softmax(x, -1)
    errs = [(M.entmax_bisect(x, 1 - d) - sm).abs().max().item() for d in (1e-2, 1e-4, 1e-6)]
    assert errs[0] > errs[1] > errs[2] and errs[2] < 1e-5
    # the alpha-gradient is continuous through alpha = 1
    g = _x(5, 8, seed=7, device=device)

    def da(a0):
        a = torch.full((5, 1), a0, dtype=torch.float64, device=device, requires_grad=True)
        (M.entmax_bisect(x, a) * g).sum().backward()
        return a.grad

    assert torch.allclose(da(1 - 1e-6), da(1.0), atol=1e-5)
    assert torch.allclose(da(1 + 1e-6), da(1.0), atol=1e-5)


def test_matches_entmax_package():
    entmax = pytest.importorskip("entmax")
    x = _x(6, 11, seed=8)
    for alpha in BELOW:
        q = entmax.entmax_bisect(x, alpha, n_iter=200)
        assert torch.allclose(M.entmax_bisect(x, alpha), q, atol=1e-12)


# ------------------------------------------------------------------ gradients
@pytest.mark.parametrize("alpha0", BELOW)
def test_gradcheck_x_and_alpha(alpha0, device):
    x = _x(3, 6, seed=9, device=device).requires_grad_(True)
    a = torch.full((3, 1), alpha0, dtype=torch.float64, device=device, requires_grad=True)
    assert gradcheck(lambda x, a: M.entmax_bisect(x, a), (x, a), atol=1e-6, rtol=1e-5)
    assert gradcheck(lambda x: M.entmax_bisect(x, alpha0), (x,), atol=1e-6, rtol=1e-5)
    assert gradcheck(lambda x: M.entmax(x, alpha0), (x,), atol=1e-6, rtol=1e-5)


def test_gradcheck_random_per_row_alpha(device):
    g = torch.Generator().manual_seed(10)
    x = _x(6, 5, seed=11, device=device).requires_grad_(True)
    a = (0.05 + 2.5 * torch.rand(6, 1, generator=g, dtype=torch.float64)).to(device).requires_grad_(True)
    assert gradcheck(lambda x, a: M.entmax_bisect(x, a), (x, a), atol=1e-6, rtol=1e-5)


def test_masked_entries_and_rows(device):
    x = _x(4, 6, seed=12, device=device)
    x[0, 2] = NEG_INF
    x[1, :] = NEG_INF
    x[2, ::2] = NEG_INF
    x.requires_grad_(True)
    a = torch.full((4, 1), 0.5, dtype=torch.float64, device=device, requires_grad=True)
    p = M.entmax_bisect(x, a)
    assert torch.isfinite(p).all()
    assert p[0, 2] == 0 and (p[1] == 0).all() and (p[2, ::2] == 0).all()
    assert (p[0, [0, 1, 3, 4, 5]] > 0).all() and (p[2, 1::2] > 0).all()
    assert torch.allclose(p[[0, 2, 3]].sum(-1), torch.ones(3, dtype=torch.float64, device=device))
    ref = ref_entmax(x.detach(), 0.5)
    assert torch.allclose(p.detach().cpu(), ref, atol=1e-12)
    (p * _x(4, 6, seed=13, device=device)).sum().backward()
    assert torch.isfinite(x.grad).all() and torch.isfinite(a.grad).all()
    assert x.grad[0, 2] == 0 and (x.grad[1] == 0).all() and (x.grad[2, ::2] == 0).all()
    assert a.grad[1, 0] == 0


@pytest.mark.parametrize("dim", [0, 1, 2, -1])
def test_dim(dim, device):
    x = _x(3, 4, 5, seed=14, device=device)
    p = M.entmax_bisect(x, 0.6, dim=dim)
    ref = M.entmax_bisect(x.movedim(dim, -1), 0.6).movedim(-1, dim)
    assert torch.allclose(p, ref, atol=1e-14)
    shape = [3, 4, 5]
    shape[dim] = 1
    a = torch.full(shape, 0.6, dtype=torch.float64, device=device)
    assert torch.allclose(M.entmax_bisect(x, a, dim=dim), p, atol=1e-14)


def test_bf16_input(device):
    x = _x(4, 33, seed=15, dtype=torch.float32, device=device)
    p = M.entmax_bisect(x.bfloat16(), 0.5)
    assert p.dtype == torch.bfloat16
    ref = M.entmax_bisect(x.bfloat16().float(), 0.5)
    assert torch.allclose(p.float(), ref, atol=1e-2, rtol=1e-2)
    xb = x.bfloat16().requires_grad_(True)
    M.entmax_bisect(xb, 0.5)[:, 0].sum().backward()
    assert xb.grad.dtype == torch.bfloat16 and torch.isfinite(xb.grad.float()).all()


@pytest.mark.parametrize("alpha", [0.0, -1.0, float("nan"), float("inf")])
def test_bad_alpha_names_alpha(alpha):
    x = _x(2, 3)
    for fn in (lambda: M.entmax_bisect(x, alpha), lambda: M.entmax(x, alpha),
               lambda: M.fy_loss(x, torch.tensor([0, 1]), alpha),
               lambda: M.entmax_bisect(x, torch.full((2, 1), alpha, dtype=torch.float64)),
               lambda: check_alpha_float(alpha, "mapping.alpha")):
        with pytest.raises(ValueError, match="alpha"):
            fn()


def test_config_rule_accepts_below_one():
    assert check_alpha_float(0.75, "mapping.alpha") == 0.75
    assert check_alpha_float("0.05", "mapping.alpha") == 0.05


# ------------------------------------------------------------------ losses
@pytest.mark.parametrize("alpha", BELOW)
def test_fy_loss_value_and_gradient(alpha, device):
    x = _x(5, 7, seed=16, device=device).requires_grad_(True)
    t = torch.tensor([0, 3, 6, 2, 1], device=device)
    loss = M.fy_loss(x, t, alpha, reduction="none")
    p = ref_entmax(x.detach(), alpha)
    y = torch.nn.functional.one_hot(t.cpu(), 7).double()
    xd = x.detach().cpu()
    want = [float((xd[i] * (p[i] - y[i])).sum()) + ref_tsallis(p[i], alpha) - ref_tsallis(y[i], alpha)
            for i in range(5)]
    assert torch.allclose(loss.detach().cpu(), torch.tensor(want, dtype=torch.float64), atol=1e-10)
    assert (loss > 0).all()  # dense p*: never exactly the one-hot target
    loss.sum().backward()
    assert torch.allclose(x.grad.cpu(), p - y, atol=1e-12)


def test_fy_loss_gradcheck_alpha_below_one(device):
    g = torch.Generator().manual_seed(17)
    x = _x(4, 5, seed=18, device=device).requires_grad_(True)
    a = (0.05 + 2.5 * torch.rand(4, generator=g, dtype=torch.float64)).to(device).requires_grad_(True)
    t = torch.tensor([0, 4, 2, 1], device=device)
    assert gradcheck(lambda x, a: M.fy_loss(x, t, a, reduction="none"), (x, a), atol=1e-6, rtol=1e-5)
    y = torch.softmax(_x(4, 5, seed=19, device=device), -1)
    a2 = torch.full((4,), 0.4, dtype=torch.float64, device=device, requires_grad=True)
    assert gradcheck(lambda x, a: M.fy_loss(x, y, a, reduction="none"), (x, a2), atol=1e-6, rtol=1e-5)


def test_fy_loss_masked_and_module():
    x = _x(3, 5, seed=20)
    x[0, 4] = NEG_INF
    t = torch.tensor([0, 1, 2])
    loss = M.fy_loss(x, t, 0.5, reduction="none")
    assert torch.isfinite(loss).all()
    x[1, 1] = NEG_INF
    assert torch.isinf(M.fy_loss(x, t, 0.5, reduction="none")[1])
    assert torch.allclose(M.FYLoss(alpha=0.5)(_x(3, 5), t), M.fy_loss(_x(3, 5), t, 0.5))


# ------------------------------------------------------------------ module
def test_entmax_module_configurable_clamp():
    m = M.Entmax(learnable=True, num_heads=3)
    assert (m.alpha >= 1.01).all() and (m.alpha <= 2).all()
    m = M.Entmax(learnable=True, num_heads=3, alpha_min=0.5, alpha_max=2.0, alpha_init=0.75)
    assert torch.allclose(m.alpha, torch.full((3,), 0.75))
    with torch.no_grad():
        m.a.fill_(-50.0)
    assert torch.allclose(m.alpha, torch.full((3,), 0.5))
    with torch.no_grad():
        m.a.copy_(torch.tensor([-1.0, 0.0, 1.0]))
    x = _x(2, 3, 4, 6, dtype=torch.float32)
    p = m(x)
    for h in range(3):
        assert torch.allclose(p[:, h], M.entmax_bisect(x[:, h], m.alpha[h].item()), atol=1e-6)
    p.pow(2).sum().backward()
    assert (m.a.grad != 0).all()
    m = M.Entmax(learnable=True, alpha_min=1.2, alpha_max=3.0, alpha_init=2.5)
    assert abs(m.alpha.item() - 2.5) < 1e-6
    assert "alpha_min=1.2" in repr(m)
    with pytest.raises(ValueError, match="alpha_min"):
        M.Entmax(learnable=True, alpha_min=0.0)
    with pytest.raises(ValueError, match="alpha_max"):
        M.Entmax(learnable=True, alpha_min=1.5, alpha_max=1.2)
    with pytest.raises(ValueError, match="alpha_init"):
        M.Entmax(learnable=True, alpha_min=0.5, alpha_init=0.4)
