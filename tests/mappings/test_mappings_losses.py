"""Fenchel-Young losses: cross_entropy conventions, alpha = 1 parity, gradients.

Every test takes the `device` fixture (tests/conftest.py): CPU always, CUDA too when present."""
import pytest
import torch
import torch.nn.functional as F
from torch.autograd import gradcheck

import sparselab.mappings as M

NEG_INF = float("-inf")


def _x(*shape, dtype=torch.float64, seed=0, scale=2.0, device="cpu"):
    return (torch.randn(*shape, generator=torch.Generator().manual_seed(seed), dtype=dtype) * scale).to(device)


def _t(n, c, seed=1, shape=None, device="cpu"):
    g = torch.Generator().manual_seed(seed)
    return torch.randint(0, c, shape if shape is not None else (n,), generator=g).to(device)


@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
@pytest.mark.parametrize(
    "shape", [(7,), (4, 7), (4, 7, 3), (2, 7, 3, 5)], ids=["C", "NC", "NCd", "NCdd"]
)
def test_alpha1_equals_cross_entropy_index_targets(shape, reduction, device):
    x = _x(*shape, device=device)
    tshape = () if len(shape) == 1 else (shape[0],) + shape[2:]
    t = _t(0, shape[0 if len(shape) == 1 else 1], shape=tshape, device=device)
    if len(shape) > 1:
        t.view(-1)[::3] = -100  # default ignore_index
    xa, xb = x.clone().requires_grad_(True), x.clone().requires_grad_(True)
    ours = M.fy_loss(xa, t, 1.0, reduction=reduction)
    ref = F.cross_entropy(xb, t, reduction=reduction)
    assert ours.shape == ref.shape
    assert torch.allclose(ours, ref, atol=1e-12)
    ours.sum().backward()
    ref.sum().backward()
    assert torch.allclose(xa.grad, xb.grad, atol=1e-12)
    assert torch.allclose(M.softmax_loss(x, t, reduction=reduction), ref, atol=1e-12)


@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
@pytest.mark.parametrize("shape", [(4, 7), (4, 7, 3)], ids=["NC", "NCd"])
def test_alpha1_probability_targets_is_ce_minus_entropy(shape, reduction, device):
    """FY loss of softmax with probability target y = CE(z, y) - H(y) = KL(y || softmax z)."""
    x = _x(*shape, device=device)
    y = torch.softmax(_x(*shape, seed=3, device=device), dim=1)
    ours = M.fy_loss(x, y, 1.0, reduction=reduction)
    H = -(y * torch.log(y)).sum(1)
    ce = F.cross_entropy(x, y, reduction="none")
    ref = {"none": ce - H, "mean": (ce - H).mean(), "sum": (ce - H).sum()}[reduction]
    assert torch.allclose(ours, ref, atol=1e-12)
    kl = F.kl_div(torch.log_softmax(x, 1), y, reduction="none").sum(1)
    assert torch.allclose(M.fy_loss(x, y, 1.0, reduction="none"), kl, atol=1e-12)
    # one-hot probability targets coincide with index targets
    t = _t(0, shape[1], shape=(shape[0],) + shape[2:], device=device)
    onehot = F.one_hot(t, shape[1]).movedim(-1, 1).to(x.dtype)
    for alpha in (1.0, 1.5, 2.0, 1.3):
        assert torch.allclose(
            M.fy_loss(x, onehot, alpha, reduction=reduction), M.fy_loss(x, t, alpha, reduction=reduction), atol=1e-12
        )


@pytest.mark.parametrize("alpha", [1.0, 1.25, 1.5, 2.0, 2.5])
def test_fy_loss_definition(alpha, device):
    """L = Omega*(z) + Omega(y) - <z, y> with Omega = -H_alpha, probability targets."""
    x = _x(5, 6, device=device)
    y = torch.softmax(_x(5, 6, seed=4, device=device) * 2, -1)
    y[0] = 0
    y[0, 2] = 1  # a one-hot row among label proportions
    p = M.entmax(x, alpha)
    H = lambda q: M.tsallis_entropy(q, alpha)  # noqa: E731
    ref = (x * p).sum(-1) + H(p) - H(y) - (x * y).sum(-1)
    assert torch.allclose(M.fy_loss(x, y, alpha, reduction="none"), ref, atol=1e-12)


def test_named_losses(device):
    x, t = _x(6, 9, device=device), _t(6, 9, device=device)
    assert torch.equal(M.entmax15_loss(x, t), M.fy_loss(x, t, 1.5))
    assert torch.equal(M.sparsemax_loss(x, t), M.fy_loss(x, t, 2.0))
    assert torch.equal(M.softmax_loss(x, t), M.fy_loss(x, t, 1.0))


@pytest.mark.parametrize("alpha0", [1.0 + 1e-5, 1.2, 1.5, 2.0, 3.0])
@pytest.mark.parametrize("target_kind", ["index", "prob"])
def test_gradcheck_loss_scores_and_alpha(alpha0, target_kind, device):
    x = _x(4, 6, device=device).requires_grad_(True)
    if target_kind == "index":
        t = torch.tensor([0, 5, -100, 2], device=device)
    else:
        t = torch.softmax(_x(4, 6, seed=7, device=device) * 3, -1)
        t[1] = 0
        t[1, 3] = 1
    a = torch.full((4,), alpha0, dtype=torch.float64, device=device, requires_grad=True)
    assert gradcheck(lambda x, a: M.fy_loss(x, t, a, reduction="none"), (x, a), atol=1e-6, rtol=1e-5)


def test_ignored_rows_have_zero_loss_and_grad_and_mean_skips_them(device):
    x = _x(5, 4, device=device).requires_grad_(True)
    t = torch.tensor([1, -100, 2, -100, 0], device=device)
    rows = M.fy_loss(x, t, 1.5, reduction="none")
    assert rows[1] == 0 and rows[3] == 0
    mean = M.fy_loss(x, t, 1.5)
    assert torch.allclose(mean, rows.sum() / 3)
    mean.backward()
    assert (x.grad[[1, 3]] == 0).all()
    t2 = torch.tensor([1, 7, 2, 7, 0], device=device)
    assert torch.allclose(M.fy_loss(x, t2, 1.5, ignore_index=7), mean)


def test_all_ignored_mean_is_nan_like_cross_entropy(device):
    x, t = _x(3, 4, device=device), torch.full((3,), -100, device=device)
    assert torch.isnan(M.fy_loss(x, t, 1.5)) and torch.isnan(F.cross_entropy(x, t))


@pytest.mark.parametrize("alpha", [1.0, 1.5, 2.0, 1.3])
def test_neg_inf_scores_in_losses(alpha, device):
    x = _x(3, 6, device=device).clone()
    x[:, 4] = NEG_INF
    t = torch.tensor([0, 1, 4], device=device)
    xr = x.clone().requires_grad_(True)
    loss = M.fy_loss(xr, t, alpha, reduction="none")
    assert torch.isfinite(loss[:2]).all()  # -inf on a non-gold class: finite
    assert loss[2] == float("inf")  # -inf gold: +inf, like cross_entropy
    assert F.cross_entropy(x, t, reduction="none")[2] == float("inf")
    loss[:2].sum().backward()
    assert torch.isfinite(xr.grad).all() and (xr.grad[:2, 4] == 0).all()


def test_empty_batch_losses(device):
    x = torch.zeros(0, 5, dtype=torch.float64, device=device, requires_grad=True)
    t = torch.zeros(0, dtype=torch.long, device=device)
    assert M.fy_loss(x, t, 1.5, reduction="none").shape == (0,)
    assert M.fy_loss(x, t, 1.5, reduction="sum") == 0
    assert torch.isnan(M.fy_loss(x, t, 1.5)) and torch.isnan(F.cross_entropy(x, t))


def test_half_precision_loss(device):
    x = _x(8, 50, dtype=torch.float32, device=device).to(torch.bfloat16).requires_grad_(True)
    t = _t(8, 50, device=device)
    loss = M.entmax15_loss(x, t)
    assert loss.dtype == torch.bfloat16
    ref = M.entmax15_loss(x.detach().float(), t)
    assert abs(loss.float().item() - ref.item()) < 1e-2 * max(1, ref.item())
    loss.backward()
    assert x.grad.dtype == torch.bfloat16


@pytest.mark.parametrize("alpha_shape", [(6,), (6, 1)])
def test_per_row_alpha_shapes(alpha_shape, device):
    x, t = _x(6, 5, device=device), _t(6, 5, device=device)
    a = torch.linspace(1.1, 2.0, 6, dtype=torch.float64, device=device).reshape(alpha_shape).requires_grad_(True)
    rows = M.fy_loss(x, t, a, reduction="none")
    assert rows.shape == (6,)
    for i in range(6):
        ai = a.detach().flatten()[i].item()
        assert torch.allclose(rows[i], M.fy_loss(x[i : i + 1], t[i : i + 1], ai, reduction="none")[0], atol=1e-12)
    rows.sum().backward()
    assert a.grad.shape == a.shape and torch.isfinite(a.grad).all()
