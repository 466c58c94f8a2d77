"""alpha-entmax for any alpha >= 1 by root finding on the threshold.

alpha-entmax (Peters, Niculae & Martins 2019, Eq. 6 / Def. 1):

    p_i = [(alpha - 1) z_i - tau]_+^{1/(alpha-1)},   tau such that sum_i p_i = 1.

Parametrisation.  With eps = alpha - 1, w = z - max(z) and tau = eps*t - 1,
    p_i(t) = (1 + eps (w_i - t))_+^{1/eps} = exp(log1p(eps (w_i - t)) / eps),
which is continuous at eps = 0, where it is exp(w_i - t) (softmax, t = logsumexp).
The root t* lies in [0, (1 - n^{-eps}) / eps] (Peters et al. 2019, Sec. 3.2
bracket, rescaled), f(t) = sum_i p_i(t) - 1 is decreasing, and convex for
alpha <= 2, so Newton's method started at t = 0 climbs monotonically to t*.
For alpha > 2 the steps are safeguarded by the bracket (bisection fallback).
Iteration stops when the step is below a few ulps of t (float exactness), or
after ``n_iter`` iterations when that is given; the output is renormalised.

Backward w.r.t. z: Peters et al. 2019 Prop. 2, s = p^{2-alpha},
    J^T g = s*g - s * sum(s*g)/sum(s).
Backward w.r.t. alpha: Correia, Niculae & Martins 2019, Prop. 1,
    dp_i/dalpha = (p_i - p~_i)/(alpha-1)^2 - (p_i log p_i - p~_i sum_j p_j log p_j)/(alpha-1),
p~ = s/sum(s).  Both terms blow up as alpha -> 1 while their sum stays finite;
we use the equivalent cancellation-free form (derived by substituting
(alpha-1) z_i = p_i^{alpha-1} + tau):
    dp_i/dalpha = -T_i + p~_i sum_j T_j,  T_i = p_i (log p_i)^2 Phi(-(alpha-1) log p_i),
    Phi(x) = (e^x - 1 - x)/x^2   (Phi(0) = 1/2, so at alpha = 1 the limit is
    dp_i/dalpha = (p_i/2) (sum_j p_j log^2 p_j - log^2 p_i)).
"""
from __future__ import annotations

import torch

from ._lastdim import apply_lastdim
from ._validate import check_alpha, check_n_iter, check_input, canonical_dim
from ._solvers import shift_by_max
from .entmax15 import entmax_backward_s

# Number of root-finding iterations used by the most recent forward call (max
# over rows).  A debugging hook; ``entmax_bisect(..., return_n_iter=True)`` is
# the supported way to read it.
last_n_iter: int = 0

# Hard cap when iterating to exactness.  Newton needs ~5-15; this only guards
# against pathological inputs.
MAX_ITER = 100


def _eval(w, eps, t):
    """p(t) and s(t) = dp/dw = p / (1 + eps (w - t)) for each entry.

    log1p keeps p accurate for alpha near 1 (log(u)/eps would amplify the
    rounding of u = 1 + eps (w - t) by 1/eps).
    """
    wt = w - t
    if isinstance(eps, float):
        if eps == 0.0:
            p = torch.exp(wt)
            return p, p
        v = torch.clamp(eps * wt, min=-1)
        p = torch.exp(torch.log1p(v) * (1.0 / eps))
    else:
        e0 = eps == 0
        eps_safe = torch.where(e0, 1.0, eps)
        v = torch.clamp(eps_safe * wt, min=-1)
        y = torch.where(e0, wt, torch.log1p(v) / eps_safe)
        v = torch.where(e0, 0.0, v)
        p = torch.exp(y)
    u = 1 + v
    s = torch.where(u > 0, p / torch.where(u > 0, u, 1.0), 0.0)
    return p, s


def _upper_bracket(n: int, eps, like: torch.Tensor):
    """t_hi = (1 - n^{-eps}) / eps, = log(n) at eps = 0."""
    import math

    logn = math.log(n)
    if isinstance(eps, float):
        val = logn if eps == 0 else -math.expm1(-eps * logn) / eps
        return torch.full(like.shape[:-1] + (1,), val, dtype=like.dtype, device=like.device)
    e0 = eps == 0
    eps_safe = torch.where(e0, 1.0, eps)
    val = torch.where(e0, logn, -torch.expm1(-eps_safe * logn) / eps_safe)
    return val.expand(like.shape[:-1] + (1,)).clone()


def entmax_alpha_lastdim(z: torch.Tensor, eps, n_iter=None) -> torch.Tensor:
    """Forward solver on the last dim.  ``eps = alpha - 1`` (float or tensor (...,1))."""
    global last_n_iter
    w, masked = shift_by_max(z)
    n = z.shape[-1]
    lo = torch.zeros(z.shape[:-1] + (1,), dtype=z.dtype, device=z.device)
    hi = _upper_bracket(n, eps, z)
    t = lo.clone()
    tol = 4 * torch.finfo(z.dtype).eps
    cap = MAX_ITER if n_iter is None else n_iter
    sqrt_eps = torch.finfo(z.dtype).eps ** 0.5
    f_prev = None
    it = 0
    while True:
        p, s = _eval(w, eps, t)
        if it >= cap:
            break
        f = p.sum(-1, keepdim=True) - 1
        S = s.sum(-1, keepdim=True)
        if n_iter is None and f_prev is not None:
            # Float exactness: the residual has stopped shrinking (rounding
            # noise of the sum), or the last step was below a few ulps of t.
            # Newton's residual decreases monotonically in exact arithmetic
            # (convex f, started left of the root), so a non-decreasing residual
            # near the root means we are at the rounding floor.
            af = f.abs()
            done = ((af >= f_prev) & (af <= sqrt_eps)) | (step <= tol * (1 + t.abs())) | (af == 0)
            done = done | masked | torch.isnan(af)  # NaN / fully masked rows
            if bool(done.all()):
                break
        lo = torch.where(f >= 0, t, lo)
        hi = torch.where(f < 0, t, hi)
        t_new = t + f / S
        # Safeguard (alpha > 2, or rounding): stay inside the bracket.
        bad = ~((t_new >= lo) & (t_new <= hi))
        t_new = torch.where(bad, (lo + hi) / 2, t_new)
        step = (t_new - t).abs()
        f_prev = f.abs()
        t = t_new
        it += 1
    last_n_iter = it
    p = p / p.sum(-1, keepdim=True)
    return torch.where(masked, 0.0, p)


# ----------------------------------------------------------------- backward
# Phi(x) = sum_k x^k / (k+2)!; 15 terms on |x| < 1/2 leave a truncation error
# below 1e-19, and the direct formula is accurate to ~10 ulp for |x| >= 1/2.
_PHI_COEFS = [1.0 / __import__("math").factorial(k + 2) for k in range(15)]
_SERIES_CUTOFF = 0.5


def _phi_series(x: torch.Tensor) -> torch.Tensor:
    """Phi(x) = (e^x - 1 - x)/x^2 by its Taylor series (for |x| < 1/2)."""
    acc = torch.full_like(x, _PHI_COEFS[-1])
    for c in reversed(_PHI_COEFS[:-1]):
        acc = acc * x + c
    return acc


def alpha_grad(p: torch.Tensor, s: torch.Tensor, logp: torch.Tensor, eps, g: torch.Tensor):
    """sum_i g_i dp_i/dalpha per row (keepdim), via T_i (see module docstring)."""
    pos = p > 0
    x = -eps * logp
    small = x.abs() < _SERIES_CUTOFF
    t_series = p * logp * logp * _phi_series(torch.where(small, x, 0.0))
    eps2 = eps * eps
    if isinstance(eps2, torch.Tensor):
        eps2 = torch.where(eps2 == 0, 1.0, eps2)
    elif eps2 == 0:
        eps2 = 1.0
    t_direct = (s - p * (1 + x)) / eps2
    T = torch.where(pos, torch.where(small, t_series, t_direct), 0.0)
    ssum = s.sum(-1, keepdim=True).clamp_min(torch.finfo(s.dtype).tiny)
    g_ptil = (g * s).sum(-1, keepdim=True) / ssum
    return -(g * T).sum(-1, keepdim=True) + g_ptil * T.sum(-1, keepdim=True)


class EntmaxBisectFunction(torch.autograd.Function):
    """alpha-entmax over the last dim; ``alpha`` a float or a tensor (..., 1)."""

    @staticmethod
    def forward(ctx, x, alpha, n_iter):
        eps = alpha - 1
        p = entmax_alpha_lastdim(x, eps, n_iter)
        if isinstance(alpha, torch.Tensor):
            ctx.save_for_backward(p, alpha)
            ctx.alpha_float = None
        else:
            ctx.save_for_backward(p)
            ctx.alpha_float = alpha
        return p

    @staticmethod
    def backward(ctx, g):
        if ctx.alpha_float is None:
            p, alpha = ctx.saved_tensors
        else:
            (p,) = ctx.saved_tensors
            alpha = ctx.alpha_float
        eps = alpha - 1
        pos = p > 0
        logp = torch.log(torch.where(pos, p, 1.0))
        s = torch.where(pos, torch.exp((1 - eps) * logp), 0.0)
        dx = entmax_backward_s(s, g) if ctx.needs_input_grad[0] else None
        da = None
        if ctx.alpha_float is None and ctx.needs_input_grad[1]:
            da = alpha_grad(p, s, logp, eps, g)
            da = da.sum_to_size(alpha.shape)
        return dx, da, None


def _bisect_kernel(x, alpha, n_iter):
    return EntmaxBisectFunction.apply(x, alpha, n_iter)


def entmax_bisect(x: torch.Tensor, alpha=1.5, dim: int = -1, n_iter=None, return_n_iter: bool = False):
    """alpha-entmax along ``dim`` for any alpha >= 1 (Peters et al. 2019, Eq. 6).

    ``alpha``: float, or tensor broadcastable to ``x`` with size 1 along ``dim``
    (one alpha per row / head); differentiable (Correia et al. 2019, Prop. 1).
    ``n_iter``: max root-finding iterations; None iterates to float exactness.
    ``return_n_iter``: also return the iterations used (max over rows).
    alpha = 1 gives softmax exactly (the limit), not a uniform distribution.
    Rows that are entirely ``-inf`` map to zeros; NaN in a row gives a NaN row.
    """
    global last_n_iter
    check_input(x)
    n_iter = check_n_iter(n_iter)
    d = canonical_dim(x, dim) if x.ndim else 0
    alpha = check_alpha(alpha, x, d) if x.ndim else check_alpha(alpha, x.reshape(1), 0)
    last_n_iter = 0
    if isinstance(alpha, float) and alpha == 1.0:
        from .softmax import softmax

        out = softmax(x, dim)
    else:
        out = apply_lastdim(_bisect_kernel, x, dim, n_iter, alpha=alpha)
    return (out, last_n_iter) if return_n_iter else out
