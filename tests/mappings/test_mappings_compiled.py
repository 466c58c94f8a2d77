"""The torch.compile'd kernels (`_fused.py`) against the eager exact solvers.

Inputs here are above `_compile.MIN_NUMEL`, so the default (compiled) path
runs; the reference is the same call with compilation switched off, and the
reference `entmax` package (test oracle only) at the benchmark shapes.  The first
run on a machine compiles C++ (roughly a minute for this file on 2 cores);
inductor's cache makes later runs fast.
"""
import contextlib

import pytest
import torch

import sparselab.mappings as M
from sparselab.mappings import _compile
from sparselab.mappings import bisect as bisect_mod

NEG_INF = float("-inf")
pytestmark = pytest.mark.skipif(not _compile.ENABLED, reason="SPARSELAB_COMPILE=0")


@contextlib.contextmanager
def eager():
    old = _compile.ENABLED
    _compile.ENABLED = False
    try:
        yield
    finally:
        _compile.ENABLED = old


def _scores(shape, seed=0, scale=2.0):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(shape, generator=g) * scale
    flat = x.view(-1, shape[-1])
    flat[1, ::3] = NEG_INF  # a masked row part
    flat[2] = NEG_INF  # a fully masked row
    return x


def _run(fn, x, g, alpha=None):
    xx = x.clone().requires_grad_(True)
    args = (xx,) if alpha is None else (xx, alpha.clone().requires_grad_(True))
    y = fn(*args)
    (y * g).sum().backward()
    return y.detach(), xx.grad, (args[1].grad if alpha is not None else None)


def _close(a, b, tol=2e-6):
    assert a.shape == b.shape
    same = (torch.isnan(a) & torch.isnan(b)) | (a == b)  # NaN rows, +inf losses
    err = torch.where(same, 0.0, (a - b).abs()).max().item()
    scale = max(1.0, torch.where(torch.isfinite(b), b.abs(), 0.0).max().item())
    assert err <= tol * scale, f"{err:.3g} > {tol * scale:.3g}"


CASES = {
    "sparsemax": (M.sparsemax, None),
    "entmax15": (M.entmax15, None),
    "bisect_1.5": (lambda x: M.entmax_bisect(x, 1.5), None),  # alpha = 1 + 1/2: integer power
    "bisect_1.3": (lambda x: M.entmax_bisect(x, 1.3), None),
    "bisect_row_alpha": (lambda x, a: M.entmax_bisect(x, a), "rows"),
}


# The shapes of every compiled-path test here (the benchmark's attention scores and output layer): the kernels mark
# the rows (and an attention row's length) dynamic, so each kernel compiles once for this file, in one process,
# and the later tests (the package comparison, the fix-up, the losses) reuse it on a cold cache.
SHAPES = {"attention": (4, 8, 32, 64), "output": (4, 32000)}


@pytest.mark.parametrize("shape", list(SHAPES.values()), ids=list(SHAPES))
@pytest.mark.parametrize("name", list(CASES))
def test_compiled_matches_eager(name, shape):
    fn, kind = CASES[name]
    x = _scores(shape)
    g = torch.randn(shape, generator=torch.Generator().manual_seed(1))
    alpha = None
    if kind == "rows":
        alpha = 1.05 + 0.9 * torch.rand(shape[:-1] + (1,), generator=torch.Generator().manual_seed(2))
    n_before = len(_compile._compiled)
    got = _run(fn, x, g, alpha)
    assert len(_compile._compiled) >= max(n_before, 1) and not _compile._failed
    with eager():
        ref = _run(fn, x, g, alpha)
    for a, b in zip(got, ref):
        if b is not None:
            _close(a, b, tol=2e-5 if kind == "rows" else 2e-6)
    p = got[0].view(-1, shape[-1])
    assert (p[2] == 0).all() and (p[1, ::3] == 0).all()
    assert torch.allclose(p[[0, 1, 3]].sum(-1), torch.ones(3), atol=1e-5)


def test_nan_row_and_dim_and_bf16_on_compiled_path():
    x = torch.randn(64, 1000, generator=torch.Generator().manual_seed(3))
    x[5, 7] = float("nan")
    for fn in (M.sparsemax, M.entmax15, lambda v, dim=-1: M.entmax_bisect(v, 1.3, dim=dim)):
        p = fn(x)
        assert torch.isnan(p[5]).all() and torch.isfinite(p[[0, 6]]).all()
        xt = x.t().contiguous()
        assert torch.allclose(fn(xt, dim=0), p.t(), atol=1e-6, equal_nan=True)
        pb = fn(x.to(torch.bfloat16))
        assert pb.dtype == torch.bfloat16
        assert (pb.float()[[0, 6]].sum(-1) - 1).abs().max() < 1e-2


def test_fix_up_of_rows_needing_many_iterations():
    """Rows z = -c * arange(n) make Michelot / Newton need ~log2(1/c) steps,
    more than the fixed K of the kernels: they must be re-solved exactly."""
    n = SHAPES["output"][1]
    rows = [-c * torch.arange(n, dtype=torch.float32) for c in (1e-4, 3e-5, 1e-5)]
    x = torch.stack(rows + [torch.randn(n)])
    for fn in (M.sparsemax, M.entmax15, lambda v: M.entmax_bisect(v, 1.3)):
        p = fn(x)
        with eager():
            ref = fn(x)
        _close(p, ref, tol=1e-6)
        assert torch.allclose(p.sum(-1), torch.ones(4), atol=1e-5)
    p, n_iter = M.entmax_bisect(x, 1.3, return_n_iter=True)
    assert n_iter >= 1


@pytest.mark.parametrize("alpha", [1.5, 2.0, "rows"])
def test_compiled_losses_match_eager(alpha):
    x = torch.randn(64, SHAPES["output"][1], generator=torch.Generator().manual_seed(4)) * 2
    x[3, 10] = NEG_INF
    t = torch.randint(0, SHAPES["output"][1], (64,), generator=torch.Generator().manual_seed(5))
    t[7] = -100
    t[3] = 10  # -inf gold -> +inf
    a = torch.linspace(1.1, 1.9, 64).reshape(64, 1) if alpha == "rows" else alpha

    def run():
        xx = x.clone().requires_grad_(True)
        aa = a.clone().requires_grad_(True) if alpha == "rows" else a
        rows = M.fy_loss(xx, t, aa, reduction="none")
        rows[torch.isfinite(rows)].sum().backward()
        return rows.detach(), xx.grad, (aa.grad if alpha == "rows" else None)

    got = run()
    with eager():
        ref = run()
    assert got[0][3] == float("inf") and got[0][7] == 0
    for u, v in zip(got, ref):
        if v is not None:
            _close(u, v, tol=2e-5)


def test_bisection_iteration_count_on_compiled_path():
    x = torch.randn(256, 1000, generator=torch.Generator().manual_seed(6))
    p, n = M.entmax_bisect(x, 1.3, return_n_iter=True)
    assert n <= 12 and bisect_mod.last_n_iter == n
    with eager():
        ref = M.entmax_bisect(x.double(), 1.3)
    assert (p.double() - ref).abs().max() < 1e-6


def test_alpha_above_two_runs_each_newton_evaluation_compiled():
    """alpha > 2 (no fused kernel): the eager loop's evaluations run compiled, with the loop's iterations and its
    answer to float32 rounding (forward, backward; masked entries and a fully masked row)."""
    x = _scores(SHAPES["output"])
    g = torch.randn(x.shape, generator=torch.Generator().manual_seed(8))
    def fn(v):
        return M.entmax_bisect(v, 2.25)

    got, n_got = _run(fn, x, g), bisect_mod.last_n_iter
    assert (bisect_mod._sums, _compile.BACKEND) in _compile._compiled and not _compile._failed
    with eager():
        ref, n_ref = _run(fn, x, g), bisect_mod.last_n_iter
    assert n_got == n_ref
    for a, b in zip(got, ref):
        if b is not None:
            _close(a, b, tol=2e-6)
    assert (got[0][2] == 0).all() and (got[0][1, ::3] == 0).all()


def _backward_graphs(x, g, alpha):
    """Graphs dynamo compiles during the backward of entmax_bisect(x, alpha) (the forward runs first)."""
    from torch._dynamo.utils import counters

    y = M.entmax_bisect(x.clone().requires_grad_(True), alpha)
    before = counters["stats"]["unique_graphs"]
    y.backward(g)
    return counters["stats"]["unique_graphs"] - before


def test_fixed_alpha_backward_keeps_one_graph_per_alpha(monkeypatch):
    """Under torch's default specialize_float=False the second float alpha recompiled the shared backward with eps
    symbolic, and every later alpha ran that slower graph.  With eps specialised each new alpha compiles its own
    graph and a repeated alpha reuses its graph.  Alphas unique to this test, so graphs left by other tests in the
    process do not count: without the fix the third alpha compiles nothing.  Graphs and guards are Dynamo's, the
    same under any backend: aot_eager counts them without generating C++ for 6 graphs (35 s of a cold cache);
    inductor's numbers for these kernels are test_compiled_matches_eager's."""
    monkeypatch.setattr(_compile, "BACKEND", "aot_eager")
    x = _scores((4, 8, 32, 64))
    g = torch.randn(x.shape, generator=torch.Generator().manual_seed(7))
    counts = [_backward_graphs(x, g, a) for a in (1.37, 1.23, 1.37, 1.23, 1.29)]
    assert counts[0] >= 1 and counts[1] >= 1 and counts[4] >= 1, counts
    assert counts[2] == counts[3] == 0, counts
    with eager():
        ref = _run(lambda v: M.entmax_bisect(v, 1.29), x, g)
    _close(_run(lambda v: M.entmax_bisect(v, 1.29), x, g)[1], ref[1])


# The reference package's function for each case of CASES compared with it (the package is imported in the test:
# without it only that test is skipped)
PACKAGE = {
    "sparsemax": lambda pkg: pkg.sparsemax,
    "entmax15": lambda pkg: pkg.entmax15,
    "bisect_1.5": lambda pkg: lambda v: pkg.entmax_bisect(v, 1.5),
    "bisect_row_alpha": lambda pkg: pkg.entmax_bisect,
}


@pytest.mark.parametrize("shape", list(SHAPES.values()), ids=list(SHAPES))
@pytest.mark.parametrize("name", [*PACKAGE, "entmax15_loss"])
def test_compiled_path_matches_package(name, shape):
    """The default (compiled) path at the benchmark shapes, float32, against the reference ``entmax`` package on
    finite inputs (where the package is correct), to 1e-5: forward, backward and the alpha-gradient."""
    entmax_pkg = pytest.importorskip("entmax")
    x = torch.randn(shape, generator=torch.Generator().manual_seed(11), dtype=torch.float64).mul(2.0).float()
    g = torch.randn(shape, generator=torch.Generator().manual_seed(12), dtype=torch.float64).float()
    alpha = None
    if name == "entmax15_loss":
        x = x.reshape(-1, shape[-1])
        t = torch.randint(0, shape[-1], (x.shape[0],), generator=torch.Generator().manual_seed(14))
        g = torch.randn(x.shape[0], generator=torch.Generator().manual_seed(15))
        ours, ref = (lambda s: M.entmax15_loss(s, t, reduction="none")), (lambda s: entmax_pkg.entmax15_loss(s, t))
    else:
        (ours, kind), ref = CASES[name], PACKAGE[name](entmax_pkg)
        if kind == "rows":
            alpha = 1.1 + 0.8 * torch.rand(shape[:-1] + (1,), generator=torch.Generator().manual_seed(13))
    got, want = _run(ours, x, g, alpha), _run(ref, x, g, alpha)
    assert not _compile._failed
    for u, v in zip(got, want):
        if v is not None:
            _close(u, v, tol=1e-5)
