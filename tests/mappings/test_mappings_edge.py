"""Edge cases, gradchecks and argument errors for sparselab.mappings.

The numerical tests take the `device` fixture (tests/conftest.py): CPU always, CUDA too when present."""
import pytest
import torch
from torch.autograd import gradcheck

import sparselab.mappings as M

NEG_INF = float("-inf")
MAPS = {
    "softmax": M.softmax,
    "sparsemax": M.sparsemax,
    "entmax15": M.entmax15,
    "bisect_1.3": lambda x, dim=-1: M.entmax_bisect(x, 1.3, dim=dim),
    "bisect_row_alpha": lambda x, dim=-1: M.entmax_bisect(
        x, torch.full([1] * x.ndim, 1.7, dtype=torch.float64, device=x.device), dim=dim
    ),
}


def _x(*shape, dtype=torch.float64, seed=0, scale=2.0, device="cpu"):
    return (torch.randn(*shape, generator=torch.Generator().manual_seed(seed), dtype=dtype) * scale).to(device)


# ------------------------------------------------------------------ gradcheck
@pytest.mark.parametrize("name", ["softmax", "sparsemax", "entmax15", "bisect_1.3"])
def test_gradcheck_x(name, device):
    x = _x(3, 6, device=device).requires_grad_(True)
    assert gradcheck(MAPS[name], (x,))


@pytest.mark.parametrize("alpha0", [1.0 + 1e-5, 1.01, 1.3, 1.5, 2.0, 2.5])
def test_gradcheck_x_and_alpha(alpha0, device):
    x = _x(3, 6, seed=1, device=device).requires_grad_(True)
    a = torch.full((3, 1), alpha0, dtype=torch.float64, device=device, requires_grad=True)
    assert gradcheck(lambda x, a: M.entmax_bisect(x, a), (x, a), atol=1e-6, rtol=1e-5)


def test_alpha_grad_at_exactly_one_is_the_limit(device):
    """gradcheck cannot step below alpha=1; compare with a one-sided difference."""
    x = _x(4, 9, seed=2, device=device)
    g = _x(4, 9, seed=3, device=device)
    a = torch.ones(4, 1, dtype=torch.float64, device=device, requires_grad=True)
    (M.entmax_bisect(x, a) * g).sum().backward()
    h = 1e-7
    fd = ((M.entmax_bisect(x, 1 + h) - M.entmax_bisect(x, 1.0)) * g).sum(-1, keepdim=True) / h
    assert torch.allclose(a.grad, fd, atol=1e-5)


def test_gradcheck_tsallis_entropy(device):
    p = torch.softmax(_x(3, 5, device=device), -1).requires_grad_(True)
    a = torch.tensor([[1.2], [1.5], [2.5]], dtype=torch.float64, device=device, requires_grad=True)
    assert gradcheck(lambda p, a: M.tsallis_entropy(p, a), (p, a))


# ------------------------------------------------------------------ edge cases
@pytest.mark.parametrize("name", list(MAPS))
def test_ties(name, device):
    x = torch.zeros(2, 5, dtype=torch.float64, device=device)
    assert torch.allclose(MAPS[name](x), torch.full((2, 5), 0.2, dtype=torch.float64, device=device))
    x = torch.tensor([[3.0, 3.0, -5.0, -5.0]], dtype=torch.float64, device=device)
    p = MAPS[name](x)
    assert p[0, 0] == p[0, 1] and abs(p.sum().item() - 1) < 1e-12


@pytest.mark.parametrize("name", list(MAPS))
def test_huge_magnitudes(name, device):
    x = torch.tensor([[1e4, -1e4, 0.0, 1e4 - 0.5], [-1e4, -1e4 + 1, -1e4, -1e4]], dtype=torch.float64, device=device)
    p = MAPS[name](x)
    assert torch.isfinite(p).all() and torch.allclose(p.sum(-1), torch.ones(2, dtype=torch.float64, device=device))
    assert p[0, 1] == 0


@pytest.mark.parametrize("name", list(MAPS))
def test_neg_inf_mask_gets_zero_prob_and_zero_grad(name, device):
    x = _x(3, 8, device=device).clone()
    x[:, ::3] = NEG_INF
    x.requires_grad_(True)
    p = MAPS[name](x)
    assert (p[:, ::3] == 0).all()
    assert torch.allclose(p.sum(-1), torch.ones(3, dtype=torch.float64, device=device))
    (p * _x(3, 8, seed=5, device=device)).sum().backward()
    assert (x.grad[:, ::3] == 0).all() and torch.isfinite(x.grad).all()


@pytest.mark.parametrize("name", list(MAPS))
def test_fully_masked_row_is_zero_with_zero_grad(name, device):
    x = _x(3, 8, device=device).clone()
    x[1] = NEG_INF
    x.requires_grad_(True)
    p = MAPS[name](x)
    assert (p[1] == 0).all()
    assert torch.allclose(p[[0, 2]].sum(-1), torch.ones(2, dtype=torch.float64, device=device))
    (p * _x(3, 8, seed=6, device=device)).sum().backward()
    assert torch.isfinite(x.grad).all() and (x.grad[1] == 0).all()


@pytest.mark.parametrize("name", list(MAPS))
def test_nan_in_row_propagates_to_that_row_only(name, device):
    x = _x(3, 8, device=device).clone()
    x[1, 4] = float("nan")
    p = MAPS[name](x)
    assert torch.isnan(p[1]).all()
    assert torch.isfinite(p[[0, 2]]).all()


@pytest.mark.parametrize("name", list(MAPS))
def test_empty_batch(name, device):
    x = torch.zeros(0, 7, dtype=torch.float64, device=device, requires_grad=True)
    p = MAPS[name](x)
    assert p.shape == (0, 7)
    p.sum().backward()
    assert x.grad.shape == (0, 7)


@pytest.mark.parametrize("name", list(MAPS))
@pytest.mark.parametrize("dim", [0, 1, -2])
def test_other_dims_match_transposed(name, dim, device):
    x = _x(5, 6, 7, device=device)
    f = MAPS[name]
    p = f(x, dim=dim)
    ref = f(x.movedim(dim, -1)).movedim(-1, dim)
    assert torch.allclose(p, ref, atol=1e-12)
    assert torch.allclose(p.sum(dim), torch.ones((), device=device).double())


@pytest.mark.parametrize("name", list(MAPS))
def test_non_contiguous_and_length_one_rows(name, device):
    x = _x(8, 6, device=device).t()  # non-contiguous
    assert not x.is_contiguous()
    assert torch.allclose(MAPS[name](x), MAPS[name](x.contiguous()), atol=1e-12)
    one = _x(4, 1, device=device)
    assert (MAPS[name](one) == 1).all()


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16])
@pytest.mark.parametrize("name", list(MAPS))
def test_half_precision_computed_in_float32(name, dtype, device):
    x = _x(16, 50, dtype=torch.float32, device=device)
    xh = x.to(dtype).requires_grad_(True)
    p = MAPS[name](xh)
    assert p.dtype == dtype
    ref = MAPS[name](xh.detach().float())
    assert (p.float() - ref).abs().max() < 1e-2
    assert (p.float().sum(-1) - 1).abs().max() < 1e-2
    p.float().sum().backward()
    assert xh.grad.dtype == dtype


def test_entmax_dispatch(device):
    x = _x(4, 9, device=device)
    assert torch.equal(M.entmax(x, 1.0), M.softmax(x))
    assert torch.equal(M.entmax(x, 1.5), M.entmax15(x))
    assert torch.equal(M.entmax(x, 2.0), M.sparsemax(x))
    assert torch.allclose(M.entmax(x, 1.7), M.entmax_bisect(x, 1.7))
    a = torch.full((4, 1), 1.5, dtype=torch.float64, device=device)
    assert torch.allclose(M.entmax(x, a), M.entmax15(x), atol=1e-12)


# ------------------------------------------------------------------ modules
def test_entmax_module_learned_alpha_per_head(device):
    torch.manual_seed(0)
    m = M.Entmax(learnable=True, num_heads=4).to(device)
    x = _x(2, 4, 5, 6, dtype=torch.float32, device=device)
    p = m(x)
    assert p.shape == x.shape
    assert torch.allclose(p.sum(-1), torch.ones(2, 4, 5, device=device))
    a = m.alpha
    assert a.shape == (4,) and (a >= 1.01).all() and (a <= 2).all()
    for h in range(4):
        assert torch.allclose(p[:, h], M.entmax_bisect(x[:, h], a[h].item()), atol=1e-6)
    (p * _x(2, 4, 5, 6, dtype=torch.float32, seed=9, device=device)).sum().backward()
    assert m.a.grad is not None and (m.a.grad != 0).all()


def test_entmax_module_init_and_fixed():
    m = M.Entmax(learnable=True, num_heads=3, alpha_init=1.5)
    assert torch.allclose(m.alpha, torch.full((3,), 1.5))
    assert M.Entmax(alpha=2.0).alpha == 2.0
    x = _x(3, 7, dtype=torch.float32)
    assert torch.equal(M.Entmax(alpha=1.5)(x), M.entmax15(x))


def test_fyloss_module():
    s, t = _x(4, 6), torch.tensor([0, 1, 2, 3])
    assert torch.allclose(M.FYLoss(alpha=1.5)(s, t), M.entmax15_loss(s, t))


# ------------------------------------------------------------------ bad inputs
@pytest.mark.parametrize("alpha", [0.0, float("nan"), float("inf"), -1.0])
def test_bad_float_alpha(alpha):
    with pytest.raises(ValueError, match="alpha"):
        M.entmax_bisect(_x(2, 3), alpha)
    with pytest.raises(ValueError, match="alpha"):
        M.entmax(_x(2, 3), alpha)
    with pytest.raises(ValueError, match="alpha"):
        M.fy_loss(_x(2, 3), torch.tensor([0, 1]), alpha)


def test_bad_tensor_alpha():
    x = _x(4, 5)
    with pytest.raises(ValueError, match="alpha"):
        M.entmax_bisect(x, torch.tensor([[0.0]] * 4))
    with pytest.raises(ValueError, match="alpha"):
        M.entmax_bisect(x, torch.tensor([[float("nan")]] * 4))
    with pytest.raises(ValueError, match="alpha"):
        M.entmax_bisect(x, torch.full((4, 5), 1.5))  # not size 1 along dim
    with pytest.raises(ValueError, match="alpha"):
        M.entmax_bisect(x, torch.full((3, 1), 1.5))  # does not broadcast
    with pytest.raises(ValueError, match="alpha"):
        M.fy_loss(x, torch.tensor([0, 1, 2, 3]), torch.full((3,), 1.5))


def test_other_bad_arguments():
    x = _x(4, 5)
    with pytest.raises(ValueError, match="dim"):
        M.sparsemax(x, dim=2)
    with pytest.raises(ValueError, match="x"):
        M.entmax15(torch.ones(3, 4, dtype=torch.long))
    with pytest.raises(ValueError, match="n_iter"):
        M.entmax_bisect(x, 1.5, n_iter=0)
    with pytest.raises(ValueError, match="reduction"):
        M.fy_loss(x, torch.tensor([0, 1, 2, 3]), reduction="elementwise_mean")
    with pytest.raises(ValueError, match="target"):
        M.fy_loss(x, torch.tensor([0, 1, 2]))
    with pytest.raises(ValueError, match="target"):
        M.fy_loss(x, torch.tensor([0, 1, 2, 7]))
    with pytest.raises(ValueError, match="num_heads"):
        M.Entmax(learnable=True, num_heads=0)
    with pytest.raises(ValueError, match="alpha_init"):
        M.Entmax(learnable=True, alpha_init=2.5)
    with pytest.raises(ValueError, match="x"):
        M.Entmax(learnable=True, num_heads=3)(_x(2, 4, 5, 5))
