"""torch.compile(fullgraph=True) through every mapping (issue 59): a small attention layer is compiled with
each normalizer, forward and backward, and compared with eager. fullgraph=True raises on any graph break
(a host read such as ``.item()`` or ``bool(tensor)``), so passing is the "no graph breaks" claim of
docs/mappings.md.

Most cases compile with the ``aot_eager`` backend: Dynamo's full-graph capture and AOTAutograd's joint
forward/backward trace are what a graph break or a data-dependent branch fails, and they take seconds. The
learned-alpha layer (the case users compile), entmax15 and sparsemax also go through inductor, to C++, in one
compiled function (about 55 CPU-s with a cold cache), marked slow."""
from __future__ import annotations

import pytest
import torch

import sparselab.mappings as M
from sparselab.mappings import bisect

B, H, L, D = 2, 4, 16, 8


class Attention(torch.nn.Module):
    def __init__(self, normalizer):
        super().__init__()
        self.qkv = torch.nn.Linear(H * D, 3 * H * D)
        self.normalizer = normalizer

    def forward(self, x, alpha=None):
        q, k, v = self.qkv(x).view(x.shape[0], x.shape[1], 3, H, D).permute(2, 0, 3, 1, 4)
        scores = q @ k.transpose(-1, -2) * D ** -0.5
        p = self.normalizer(scores) if alpha is None else self.normalizer(scores, alpha)
        return p @ v


def _row_alpha(dtype=torch.float32):
    g = torch.Generator().manual_seed(3)
    return (1.1 + 0.8 * torch.rand(B, H, L, 1, generator=g, dtype=dtype)).requires_grad_()


CASES = {
    "sparsemax": lambda: (M.sparsemax, None),
    "entmax15": lambda: (M.entmax15, None),
    "softmax": lambda: (M.softmax, None),
    "entmax_bisect float alpha 1.3": lambda: (lambda s: M.entmax_bisect(s, 1.3), None),
    "entmax_bisect float alpha 1.5": lambda: (lambda s: M.entmax_bisect(s, 1.5), None),
    "entmax_bisect float alpha 2.5": lambda: (lambda s: M.entmax_bisect(s, 2.5), None),
    "entmax_bisect float alpha 0.7": lambda: (lambda s: M.entmax_bisect(s, 0.7), None),
    "entmax_bisect per-row tensor alpha": lambda: (lambda s, a: M.entmax_bisect(s, a), _row_alpha()),
    "entmax_bisect per-row tensor alpha, alpha_range": lambda: (
        lambda s, a: M.entmax_bisect(s, a, alpha_range=(1.1, 1.9)), _row_alpha()),
    "entmax dispatch alpha 1.5": lambda: (lambda s: M.entmax(s, 1.5), None),
    "Entmax learned alpha per head": lambda: (M.Entmax(learnable=True, num_heads=H, alpha_init=1.5), None),
    "Entmax learned alpha, alpha_min 0.8": lambda: (
        M.Entmax(learnable=True, num_heads=H, alpha_init=1.2, alpha_min=0.8), None),
    "normmax_bisect": lambda: (lambda s: M.normmax_bisect(s, 2.0), None),
    "budget_bisect": lambda: (lambda s: M.budget_bisect(s, 2.0), None),
}


def _check(name, backend, dtype=torch.float32, tol=2e-5):
    torch.manual_seed(0)
    normalizer, alpha = CASES[name]()
    if alpha is not None:
        alpha = alpha.detach().to(dtype).requires_grad_()
    layer = Attention(normalizer).to(dtype)
    x = torch.randn(B, L, H * D, dtype=dtype)
    params = list(layer.parameters()) + ([alpha] if alpha is not None else [])

    def loss(module):
        out = module(x) if alpha is None else module(x, alpha)
        return (out * torch.linspace(-1, 1, out.shape[-1], dtype=dtype)).sum(), out

    (l_eager, out_eager) = loss(layer)
    g_eager = torch.autograd.grad(l_eager, params)
    torch._dynamo.reset()
    compiled = torch.compile(layer, fullgraph=True, backend=backend)
    (l_c, out_c) = loss(compiled)
    g_c = torch.autograd.grad(l_c, params)
    torch.testing.assert_close(out_c, out_eager, atol=tol, rtol=tol)
    for ge, gc in zip(g_eager, g_c):
        torch.testing.assert_close(gc, ge, atol=10 * tol, rtol=10 * tol)


@pytest.mark.parametrize("name", list(CASES))
def test_fullgraph_attention_layer_matches_eager(name):
    _check(name, "aot_eager")


@pytest.mark.parametrize("name", ["entmax_bisect per-row tensor alpha", "entmax_bisect float alpha 2.5",
                                  "Entmax learned alpha per head"])
def test_fullgraph_float64(name):
    # Dynamo's capture (the traced fixed-step path) run eagerly: the float64 numbers of that path; AOTAutograd's
    # joint trace of the same cases is the float32 test above
    _check(name, "eager", dtype=torch.float64, tol=1e-9)


def test_fullgraph_fix_up_branch_is_exact():
    """The torch.cond branch that continues rows the fused kernel left short (eager: fix-up rows)."""
    torch.manual_seed(0)
    # alpha close to 1 on widely spread scores: rows whose residual stays above the kernel's tolerance
    x = torch.randn(64, 100) * 10
    f = torch.compile(lambda s: M.entmax_bisect(s, 1.01), fullgraph=True, backend="aot_eager")
    torch._dynamo.reset()
    torch.testing.assert_close(f(x), M.entmax_bisect(x.double(), 1.01).float(), atol=1e-6, rtol=0)
    torch.testing.assert_close(f(x).sum(-1), torch.ones(64), atol=1e-5, rtol=0)


def test_fullgraph_masked_and_nan_rows():
    x = torch.randn(4, 10)
    x[1] = float("-inf")
    x[2, 3] = float("nan")
    x[3, 5:] = float("-inf")
    for fn in (M.sparsemax, M.entmax15, lambda s: M.entmax_bisect(s, 1.3), lambda s: M.entmax_bisect(s, 2.5)):
        torch._dynamo.reset()
        out = torch.compile(fn, fullgraph=True, backend="eager")(x)     # the captured path's values, as above
        torch.testing.assert_close(out, fn(x), atol=1e-6, rtol=0, equal_nan=True)
        assert (out[1] == 0).all() and torch.isnan(out[2]).all() and (out[3, 5:] == 0).all()


@pytest.mark.slow
def test_fullgraph_inductor_learned_alpha_layer_entmax15_and_sparsemax():
    """Through inductor to C++, forward and backward: the case users compile (the learned-alpha layer: the traced
    fused kernel, its cond and backward) and entmax15 and sparsemax (the reference package breaks the graph on
    both), in one compiled function, so that inductor's cost per graph (about 40 CPU-s cold) is paid once."""
    torch.manual_seed(0)
    layer = Attention(M.Entmax(learnable=True, num_heads=H, alpha_init=1.5))
    x = torch.randn(B, L, H * D)
    v = (torch.randn(6, 10, generator=torch.Generator().manual_seed(0)) * 2).requires_grad_(True)
    params = [*layer.parameters(), v]

    def outputs(module):
        return module(x), M.entmax15(v) + M.sparsemax(v, dim=0)

    def grads(out, y):
        return torch.autograd.grad((out * torch.linspace(-1, 1, out.shape[-1])).sum() + y.pow(2).sum(), params)

    out_e, y_e = outputs(layer)
    g_eager = grads(out_e, y_e)
    torch._dynamo.reset()
    out_c, y_c = torch.compile(outputs, fullgraph=True)(layer)
    g_c = grads(out_c, y_c)
    torch.testing.assert_close(out_c, out_e, atol=2e-5, rtol=2e-5)
    torch.testing.assert_close(y_c, y_e, atol=1e-6, rtol=0)
    for ge, gc in zip(g_eager[:-1], g_c[:-1]):
        torch.testing.assert_close(gc, ge, atol=2e-4, rtol=2e-4)
    torch.testing.assert_close(g_c[-1], g_eager[-1], atol=1e-5, rtol=0)


def test_traced_iteration_counts_cover_eager():
    """The fixed step counts of the traced generic path reach the eager loop's answer (float64, alpha > 2)."""
    torch.manual_seed(1)
    x = torch.randn(256, 64, dtype=torch.float64) * 3
    for alpha in (2.5, 4.0, 0.5):
        exact = M.entmax_bisect(x, alpha)
        n = bisect.TRACED_N_ITER[(torch.float64, alpha <= 2)]
        assert (M.entmax_bisect(x, alpha, n_iter=n) - exact).abs().max() < 1e-12, alpha


@pytest.mark.parametrize("loss", ["sparsemax_loss", "entmax15_loss", "softmax_loss", "fy_loss 1.3", "fy_loss tensor",
                                  "normmax_loss"])
def test_fullgraph_losses_match_eager(loss):
    torch.manual_seed(0)
    z = torch.randn(8, 12, requires_grad=True)
    y = torch.randint(0, 12, (8,))
    a = torch.full((8, 1), 1.3, requires_grad=True)
    f = {"sparsemax_loss": lambda z: M.sparsemax_loss(z, y), "entmax15_loss": lambda z: M.entmax15_loss(z, y),
         "softmax_loss": lambda z: M.softmax_loss(z, y), "fy_loss 1.3": lambda z: M.fy_loss(z, y, 1.3),
         "fy_loss tensor": lambda z: M.fy_loss(z, y, a), "normmax_loss": lambda z: M.normmax_loss(z, y, 2.0)}[loss]
    le = f(z)
    ge = torch.autograd.grad(le, z)
    torch._dynamo.reset()
    lc = torch.compile(f, fullgraph=True, backend="aot_eager")(z)
    gc = torch.autograd.grad(lc, z)
    torch.testing.assert_close(lc, le, atol=1e-5, rtol=1e-5)
    torch.testing.assert_close(gc[0], ge[0], atol=1e-5, rtol=1e-5)


@pytest.mark.parametrize("case", ["float alpha 2.5", "tensor alpha", "float64 alpha 1.3, warm start"])
def test_traced_newton_loop_takes_the_eager_fixed_count_steps(case):
    """The traced fixed-count Newton (a while_loop) gives _newton's numbers for the same count, bit for bit."""
    g = torch.Generator().manual_seed(4)
    dtype = torch.float64 if "float64" in case else torch.float32
    z = torch.randn(32, 20, generator=g, dtype=dtype) * 3
    z[3] = float("-inf")                                    # a fully masked row stays 0
    eps = {"float alpha 2.5": 1.5, "tensor alpha": (0.1 + 0.8 * torch.rand(32, 1, generator=g)).to(dtype),
           "float64 alpha 1.3, warm start": 0.3}[case]
    t0 = torch.rand(32, 1, generator=g, dtype=dtype) * 0.1 if "warm" in case else None
    p, m, t = bisect._newton_traced(z, eps, 7, t0)
    p_ref, m_ref, t_ref, it = bisect._newton(z, eps, 7, t0)
    assert it == 7
    for a, b in ((p, p_ref), (m, m_ref), (t, t_ref)):
        torch.testing.assert_close(a, b, atol=0, rtol=0, equal_nan=True)
    assert (p[3] == 0).all()


def test_traced_graph_holds_one_newton_step():
    """A learned alpha's fix-up and the generic path trace one loop step, not TRACED_N_ITER copies of it."""
    graphs = []

    def keep(gm, example_inputs):
        graphs.append(gm)
        return gm.forward

    x = torch.randn(4, 10)
    for fn in (lambda s: M.entmax_bisect(s, 2.5), M.Entmax(learnable=True, num_heads=1, alpha_init=1.5)):
        graphs.clear()
        torch._dynamo.reset()
        torch.compile(fn, fullgraph=True, backend=keep)(x.view(1, 1, 4, 10) if isinstance(fn, M.Entmax) else x)
        code = [line for g in graphs for line in g.print_readable(print_output=False).splitlines()
                if not line.strip().startswith("#")]
        assert any("while_loop" in line for line in code)
        calls = sum(line.count("log1p(") for line in code)
        assert 1 <= calls <= 4, calls     # unrolled, one per step: 16 (fix-up) or 40 (alpha > 2)
