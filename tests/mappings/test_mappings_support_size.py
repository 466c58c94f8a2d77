"""``return_support_size=True``: (p, k) with k = (p > 0).sum(dim, keepdim=True), default return unchanged.

Numerical tests take the `device` fixture (tests/conftest.py)."""
import pytest
import torch

import sparselab.mappings as M

NEG_INF = float("-inf")

MAPS = {
    "sparsemax": lambda x, dim, **kw: M.sparsemax(x, dim=dim, **kw),
    "entmax15": lambda x, dim, **kw: M.entmax15(x, dim=dim, **kw),
    "bisect_1.3": lambda x, dim, **kw: M.entmax_bisect(x, 1.3, dim=dim, **kw),
    "bisect_0.5": lambda x, dim, **kw: M.entmax_bisect(x, 0.5, dim=dim, **kw),
    "bisect_row_alpha": lambda x, dim, **kw: M.entmax_bisect(x, _row_alpha(x, dim), dim=dim, **kw),
    "entmax_1.5": lambda x, dim, **kw: M.entmax(x, 1.5, dim=dim, **kw),
    "entmax_2": lambda x, dim, **kw: M.entmax(x, 2.0, dim=dim, **kw),
    "entmax_1.7": lambda x, dim, **kw: M.entmax(x, 1.7, dim=dim, **kw),
    "entmax_1": lambda x, dim, **kw: M.entmax(x, 1.0, dim=dim, **kw),
}


def _row_alpha(x, dim):
    """One alpha per row in [0.3, 2.5] (dense and sparse rows), size 1 along dim."""
    shape = list(x.shape)
    shape[dim] = 1
    g = torch.Generator().manual_seed(7)
    return (0.3 + 2.2 * torch.rand(shape, generator=g, dtype=x.dtype)).to(x.device)


def _x(*shape, dtype=torch.float64, seed=0, scale=3.0, device="cpu"):
    g = torch.Generator().manual_seed(seed)
    return (torch.randn(*shape, generator=g, dtype=dtype) * scale).to(device)


@pytest.mark.parametrize("name", list(MAPS))
@pytest.mark.parametrize("dim", [0, 1, -1])
def test_support_size_matches_nonzeros(name, dim, device):
    x = _x(4, 5, 9, seed=1, device=device)
    x[1, 2, :] = NEG_INF  # a fully masked row along dim=-1
    x[0, 0, 3] = NEG_INF
    fn = MAPS[name]
    p_plain = fn(x, dim)
    p, k = fn(x, dim, return_support_size=True)
    assert torch.equal(p, p_plain)
    assert k.dtype == torch.int64 and k.shape == (p > 0).sum(dim, keepdim=True).shape
    assert torch.equal(k, (p > 0).sum(dim, keepdim=True))


def test_support_size_values_and_extremes(device):
    x = torch.tensor([[3.0, 0.0, -5.0, -5.0], [1.0, 1.0, 1.0, 1.0], [NEG_INF] * 4], device=device)
    for fn in (M.sparsemax, M.entmax15, lambda x, **kw: M.entmax_bisect(x, 1.5, **kw)):
        p, k = fn(x, return_support_size=True)
        assert k.tolist() == [[1], [4], [0]]
    _, k = M.entmax_bisect(x, 0.5, return_support_size=True)
    assert k.tolist() == [[4], [4], [0]]  # alpha < 1: dense on the finite entries


def test_support_size_with_grad_half_and_n_iter(device):
    x = _x(6, 20, seed=2, device=device).requires_grad_(True)
    p, k = M.sparsemax(x, return_support_size=True)
    (p * _x(6, 20, seed=3, device=device)).sum().backward()
    assert x.grad is not None and not k.requires_grad
    xb = _x(6, 20, seed=4, dtype=torch.float32, device=device).bfloat16()
    for fn in (M.sparsemax, M.entmax15):
        p, k = fn(xb, return_support_size=True)
        assert p.dtype == torch.bfloat16 and torch.equal(k, (p > 0).sum(-1, keepdim=True))
    p, it, k = M.entmax_bisect(x, 1.3, return_n_iter=True, return_support_size=True)
    assert isinstance(it, int) and it >= 1 and torch.equal(k, (p > 0).sum(-1, keepdim=True))
    p2, it2 = M.entmax_bisect(x, 1.3, return_n_iter=True)
    assert torch.equal(p, p2) and it == it2


def test_support_size_large_compiled_path():
    # >= 32768 elements: the fused kernels when compilation is on, the eager solvers otherwise.
    x = _x(512, 64, seed=5, dtype=torch.float32)
    for fn in (M.sparsemax, M.entmax15, lambda x, **kw: M.entmax_bisect(x, 1.3, **kw)):
        p, k = fn(x, return_support_size=True)
        assert torch.equal(k, (p > 0).sum(-1, keepdim=True))
        assert (k >= 1).all() and (k < 64).all()
