"""Host reads of device values (a sync per call on a GPU) in the mappings' hot paths (issue 19, item 8).

On the CPU a host read costs nothing, so these tests count the calls that would sync on a GPU
(``Tensor.__bool__``, ``item``, ``nonzero``) with the kernels already compiled. What remains per call, and
why, is listed in ``sparselab/mappings/README.md`` ("Host syncs").
"""
import contextlib

import pytest
import torch

import sparselab.mappings as M
from sparselab.mappings import _compile

READS = ("__bool__", "item", "nonzero", "tolist")


@contextlib.contextmanager
def count_host_reads(monkeypatch):
    counts = dict.fromkeys(READS, 0)
    for name in READS:
        orig = getattr(torch.Tensor, name)

        def wrapped(self, *a, _orig=orig, _name=name, **k):
            counts[_name] += 1
            return _orig(self, *a, **k)

        monkeypatch.setattr(torch.Tensor, name, wrapped)
    yield counts
    monkeypatch.undo()


def _x(seed=0):
    return torch.randn(4, 2, 64, 128, generator=torch.Generator().manual_seed(seed))  # above MIN_NUMEL


@pytest.mark.skipif(not _compile.ENABLED, reason="SPARSELAB_COMPILE=0")
def test_learned_alpha_reads_the_device_once_per_call(monkeypatch):
    """The module's learned alpha is in [alpha_min, alpha_max] by construction: neither the value check nor the
    kernel choice reads it. The one read left is the exactness check of the fused kernel's rows."""
    torch.manual_seed(0)
    m = M.Entmax(learnable=True, num_heads=2)
    x = _x()
    m(x).sum().backward()  # compile outside the count
    with count_host_reads(monkeypatch) as counts:
        y = m(x)
    assert sum(counts.values()) == 1 and counts["nonzero"] == 1, counts
    # the same values as the checked functional call
    assert torch.equal(y, M.entmax_bisect(x, m.alpha.reshape(1, 2, 1, 1)))


@pytest.mark.skipif(not _compile.ENABLED, reason="SPARSELAB_COMPILE=0")
@pytest.mark.parametrize("name", ["sparsemax", "entmax15", "bisect_1.5"])
def test_fixed_alpha_kernels_read_the_device_once_per_call(monkeypatch, name):
    """The compiled sort-free kernels read once per call, the exactness check, and once more only to re-solve rows
    it found (sparsemax/1.5-entmax: `any` then the rows' `nonzero`; bisection: the rows' `nonzero` itself). A
    training step's count (`tests/training/test_host_syncs.py`) runs eager; this is the compiled path's, per call."""
    fn = {"sparsemax": M.sparsemax, "entmax15": M.entmax15, "bisect_1.5": lambda v: M.entmax_bisect(v, 1.5)}[name]
    x = _x(2)
    assert _compile.use_compiled(x)
    fn(x)  # compile outside the count
    fixed = []
    monkeypatch.setattr(_compile, "fix_rows", lambda p, *a, _f=_compile.fix_rows: fixed.append(1) or _f(p, *a))
    with count_host_reads(monkeypatch) as counts:
        y = fn(x)
    check = "nonzero" if name.startswith("bisect") else "__bool__"
    assert counts[check] == 1 and counts["item"] == counts["tolist"] == 0, counts
    assert sum(counts.values()) == 1 + len(fixed), (counts, len(fixed))
    assert torch.allclose(y.sum(-1), torch.ones(y.shape[:-1]), atol=1e-5)


def test_invalid_alpha_still_fails_clearly():
    x = _x()
    with pytest.raises(ValueError, match="alpha: must not contain NaN"):
        M.entmax_bisect(x, torch.full((1, 2, 1, 1), float("nan")))
    with pytest.raises(ValueError, match="alpha: every value must be > 0"):
        M.entmax_bisect(x, torch.full((1, 2, 1, 1), -1.0))
    with pytest.raises(ValueError, match="alpha_range"):
        M.entmax_bisect(x, torch.full((1, 2, 1, 1), 1.5), alpha_range=(0.0, 2.0))


def test_alpha_range_gives_the_checked_result():
    x = _x(1)
    a = torch.linspace(1.05, 1.95, 2).reshape(1, 2, 1, 1)
    assert torch.equal(M.entmax_bisect(x, a, alpha_range=(1.01, 2.0)), M.entmax_bisect(x, a))
    b = torch.tensor([0.7, 1.4]).reshape(1, 2, 1, 1)  # a range below 1: the kernel choice reads alpha again
    assert torch.equal(M.entmax_bisect(x, b, alpha_range=(0.5, 2.0)), M.entmax_bisect(x, b))


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")
def test_softmax_does_not_sync_on_cuda():
    x = _x().cuda()
    x[0, 0, 0] = float("-inf")
    M.softmax(x)
    torch.cuda.set_sync_debug_mode("error")
    try:
        p = M.softmax(x)
    finally:
        torch.cuda.set_sync_debug_mode(0)
    assert torch.all(p[0, 0, 0] == 0) and torch.allclose(p[0, 0, 1:].sum(-1), torch.ones(63, device="cuda"))
