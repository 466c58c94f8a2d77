"""Budget sparsemax: Euclidean projection onto the capped simplex (k-subsets).

    budget_b(z) = argmin_{p in [0, 1]^d, sum p = b} ||p - z||^2 = clip(z - tau, 0, 1),

tau such that sum_i clip(z_i - tau, 0, 1) = b, for a budget b in (0, d].  For an
integer b the set is the convex hull of the k-subsets of size b (the "budget"
factor of SparseMAP, used for k-subset retrieval in Santos et al. 2024, Sparse and
Structured Hopfield Networks); b = 1 is sparsemax (Martins & Astudillo 2016),
whose entries never exceed 1.

Threshold.  f(tau) = sum clip(z - tau, 0, 1) is piecewise linear and nonincreasing,
with slope -|A| on the piece where A = {0 < z_i - tau < 1} (the "free" entries) and
U = {z_i - tau >= 1} (capped at 1) are fixed; there the root is exact:
    tau = (sum_{A} z_i + |U| - b) / |A|.
We iterate that step (Newton on f; = Michelot's algorithm for sparsemax when no entry
is capped) from the lower end of the bracket (from max(z) - 1 when b <= 1) within the bracket
[min(z) - b/n, max(z) - b/n] (n finite entries: every entry gets >= b/n at the left
end, <= b/n at the right one), halving the bracket when a step leaves it (f is
neither convex nor concave, so plain Newton could cycle).  A step that keeps the
sets (A, U) lands on the exact root, so the result is exact, not a bisection
tolerance: iteration stops when f(tau) = b to rounding.  A piece with no free entry
and |U| = b (integer budget, a gap >= 1 in the scores) is a whole interval of roots,
all giving the same p (the top-b indicator).

Backward (the projection's Jacobian on the free set, as for sparsemax): with s the
indicator of A, J = diag(s) - s s^T/|A|, so J^T g = s * (g - mean_A g); 0 when A is
empty.  d p / d b = s/|A|, so the budget-gradient is mean_A g.

Masks: ``-inf`` entries get 0; a row with fewer finite entries than b has no feasible
point and raises ``ValueError``; a fully ``-inf`` row maps to zeros.
"""
from __future__ import annotations

import torch

from ._lastdim import apply_lastdim, support_size
from ._validate import canonical_dim, check_budget, check_input, check_n_iter

NEG_INF = float("-inf")
MAX_ITER = 200
TRACED_N_ITER = 24  # steps inside an enclosing torch.compile trace (see budget_lastdim)


def budget_lastdim(z: torch.Tensor, budget, n_iter=None) -> torch.Tensor:
    """p = clip(z - tau, 0, 1) with sum p = budget on the last dim (module docstring)."""
    fin = z != NEG_INF  # NaN counts as finite: its row becomes NaN, not infeasible
    n_fin = fin.sum(-1, keepdim=True)
    m = z.amax(-1, keepdim=True)
    masked = m == NEG_INF
    w = z - torch.where(masked, 0.0, m)
    if not torch.compiler.is_compiling():
        short = ~masked & (n_fin < budget)  # NaN rows compare False
        if bool(short.any()):
            raise ValueError(f"budget: exceeds the number of finite (unmasked) entries in "
                             f"{int(short.sum())} row(s) (min {int(n_fin[short].min())}); "
                             "the capped simplex is empty there")
    nf = n_fin.clamp_min(1).to(z.dtype)
    w_min = torch.where(fin, w, float("inf")).amin(-1, keepdim=True)
    lo = torch.where(masked, 0.0, w_min - budget / nf)
    hi = torch.where(masked, 0.0, -budget / nf)
    # Start at the better of two lower bounds: lo, and -1 when b <= 1 (the top entry alone gives 1).
    if isinstance(budget, float):
        t = lo.clamp_min(-1.0) if budget <= 1 else lo.clone()
    else:
        t = torch.where(budget <= 1, lo.clamp_min(-1.0), lo)
    traced = torch.compiler.is_compiling()
    if traced and n_iter is None:
        # inside a torch.compile trace: a fixed step count (eager needs at most 14), no host read
        n_iter = TRACED_N_ITER
    cap = MAX_ITER if n_iter is None else n_iter
    tol = 4 * torch.finfo(z.dtype).eps
    for _ in range(cap):
        d = w - t
        free = (d > 0) & (d < 1)
        up = d >= 1
        n_a = free.sum(-1, keepdim=True).to(z.dtype)
        n_u = up.sum(-1, keepdim=True).to(z.dtype)
        s_a = torch.where(free, w, 0.0).sum(-1, keepdim=True)
        f = n_u + s_a - n_a * t - budget  # f(t) - b
        lo = torch.where(f >= 0, t, lo)
        hi = torch.where(f <= 0, t, hi)
        done = (f.abs() <= tol * (n_u + n_a * (1 + t.abs()) + budget)) | masked | torch.isnan(f)
        if not traced and bool(done.all()):
            break
        t_new = (s_a + n_u - budget) / n_a.clamp_min(1)
        bad = ~((t_new > lo) & (t_new < hi)) | (n_a == 0)
        t = torch.where(done, t, torch.where(bad, (lo + hi) / 2, t_new))
    p = torch.clamp(w - t, min=0, max=1)
    # b = number of finite entries: every one is capped (exactly 1, whatever the rounding of t)
    p = torch.where((n_fin == budget) & fin & ~torch.isnan(m), 1.0, p)
    return torch.where(masked, 0.0, p)


class BudgetFunction(torch.autograd.Function):
    """Capped-simplex projection over the last dim (module docstring); backward
    J^T g = s * (g - mean_A g) on the free set A = {0 < p < 1}, budget-gradient mean_A g."""

    @staticmethod
    def forward(ctx, x, budget, n_iter):
        p = budget_lastdim(x, budget, n_iter)
        ctx.budget_shape = budget.shape if isinstance(budget, torch.Tensor) else None
        ctx.save_for_backward(p)
        return p

    @staticmethod
    def backward(ctx, g):
        (p,) = ctx.saved_tensors
        free = (p > 0) & (p < 1)
        gs = torch.where(free, g, 0.0)
        mean = gs.sum(-1, keepdim=True) / free.sum(-1, keepdim=True).clamp_min(1).to(g.dtype)
        dx = torch.where(free, g - mean, 0.0) if ctx.needs_input_grad[0] else None
        db = None
        if ctx.budget_shape is not None and ctx.needs_input_grad[1]:
            db = mean.sum_to_size(ctx.budget_shape)
        return dx, db, None


def _budget_kernel(x, budget, n_iter):
    return BudgetFunction.apply(x, budget, n_iter)


def budget_bisect(x: torch.Tensor, budget=2.0, dim: int = -1, n_iter=None, return_support_size: bool = False):
    """Budget sparsemax along ``dim``: the Euclidean projection onto the capped simplex
    (k-subsets; Santos et al. 2024), sparsemax (Martins & Astudillo 2016) at budget = 1:
        budget_b(z) = argmin_{p in [0,1]^d, sum p = b} ||p - z||^2 = clip(z - tau, 0, 1).

    ``budget``: float in (0, d] (d = ``x.shape[dim]``), or a tensor broadcastable to ``x`` with
    size 1 along ``dim`` (one per row); differentiable (dp/db = s/|A|).  The output sums to
    ``budget``, not 1.  ``n_iter``: max threshold steps; None iterates until exact.
    ``return_support_size``: also return k = |{i : p_i > 0}| along ``dim``.
    A budget outside (0, d], NaN or inf raises ``ValueError`` naming ``budget``, as does a
    row with fewer finite entries than the budget.  Fully ``-inf`` rows map to zeros; NaN in
    a row gives a NaN row; float16/bfloat16 are computed in float32.
    """
    check_input(x)
    n_iter = check_n_iter(n_iter)
    if x.ndim:
        budget = check_budget(budget, x, canonical_dim(x, dim))
    else:
        budget = check_budget(budget, x.reshape(1), 0)
    p = apply_lastdim(_budget_kernel, x, dim, n_iter, alpha=budget)
    return (p, support_size(p, dim)) if return_support_size else p
