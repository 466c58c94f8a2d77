"""alpha-normmax: the map regularised by the alpha-norm of p (alpha > 1).

    normmax_alpha(z) = argmax_{p in simplex} <p, z> - ||p||_alpha

Omega(p) = ||p||_alpha is the (negative) norm entropy H(p) = 1 - ||p||_alpha of
Blondel et al. 2020 (Fenchel-Young losses, generalized entropies); the map is
called alpha-normmax in Santos et al. 2024 (Sparse and Structured Hopfield
Networks), where alpha = 2 is the notable case.

Closed form.  KKT on the support: d||p||_alpha/dp_i = (p_i/||p||_alpha)^{alpha-1}
= z_i - tau.  With beta = 1/(alpha-1), q = alpha/(alpha-1) = 1 + beta and
u = (z - tau)_+, that is p_i = ||p||_alpha u_i^beta, and ||p||_alpha =
||p||_alpha (sum_i u_i^q)^{1/alpha} fixes the threshold:

    p = u^beta / sum_j u_j^beta,   tau such that ||u||_q = (sum_i u_i^q)^{1/q} = 1.

Limits: alpha -> inf (q -> 1, beta -> 0): tau -> the sparsemax threshold and p ->
the uniform distribution over the sparsemax support (the top scores); alpha ->
1+: p -> argmax (||p||_1 = 1 on the simplex).  At alpha = 2, sum u^2 = 1 is the
threshold equation of 1.5-entmax on 2z (Peters et al. 2019, Alg. 2), so
normmax_2(z) = sqrt(entmax15(2z)) / sum sqrt(entmax15(2z)) (the tests use this).

Root finding.  With w = z - max(z), tau lies in [-1, -n^{-1/q}] (the top entry
alone gives ||u||_q >= 1 at tau = -1; every u_i <= n^{-1/q} at the right end).
g(tau) = ||u(tau)||_q - 1 is convex and decreasing (a norm, monotone on the
nonnegative orthant, of the convex (w - tau)_+), so Newton from tau = -1 climbs
monotonically to the root (the entmax_bisect scheme of bisect.py, on this g);
it is exact after one step once the support is found as q -> 1, and takes 3-8
steps otherwise.  Iteration stops at float exactness (residual at its rounding
floor, or a step of a few ulps), after ``n_iter`` steps when that is given; p is
normalised exactly.  The name keeps upstream entmax's ``normmax_bisect``.

Backward: implicit differentiation of the KKT system at the solution, in closed
form (not autograd through the iterations: those are a solver detail, stopped at
a data-dependent step, while the fixed point is what p depends on; the closed
form costs two row reductions).  With r = p/u on the support (0 elsewhere) and
h = g - <p, g>:
    J^T g = beta (r*h - p sum(r*h))                   (J is symmetric),
equal to (1/(alpha-1)) ||p||_alpha^{alpha-1} (s*h - p sum(s*h)), s = p^{2-alpha}.
alpha-gradient (dtau/dbeta = <p, u log u>/q from d/dbeta sum u^q = 0, dbeta/dalpha = -beta^2):
    sum_i g_i dp_i/dalpha = -beta^2 (<p*h, log u> - (beta/q) <p, u log u> <r, h>).
"""
from __future__ import annotations

import math

import torch

from ._lastdim import apply_lastdim, support_size
from ._solvers import shift_by_max
from ._validate import canonical_dim, check_input, check_n_iter, check_normmax_alpha

MAX_ITER = 100
TRACED_N_ITER = 16  # steps inside an enclosing torch.compile trace (see normmax_lastdim)


def _state(w, t, beta):
    """u = (w - t)_+, a = u^beta (0 off the support) and log u (0 off the support)."""
    u = torch.clamp(w - t, min=0)
    pos = u > 0
    lu = torch.log(torch.where(pos, u, 1.0))
    a = torch.where(pos, torch.exp(beta * lu), 0.0)
    return u, a, lu


def normmax_lastdim(z: torch.Tensor, alpha, n_iter=None):
    """Safeguarded Newton on tau (module docstring).  Returns (p, m, t, iterations):
    the row max m and threshold t at which p was evaluated (the backward needs u)."""
    beta = 1.0 / (alpha - 1)
    q = 1.0 + beta
    inv_q = 1.0 / q
    w, masked = shift_by_max(z)
    m = torch.where(masked, 0.0, z.amax(-1, keepdim=True))
    n = z.shape[-1]
    lo = torch.full(z.shape[:-1] + (1,), -1.0, dtype=z.dtype, device=z.device)
    if isinstance(alpha, float):
        hi = torch.full_like(lo, -math.exp(-math.log(n) * inv_q))
    else:
        hi = (-torch.exp(-math.log(n) * inv_q)).expand(lo.shape).clone()
    t = lo.clone()
    tol = 4 * torch.finfo(z.dtype).eps
    sqrt_eps = torch.finfo(z.dtype).eps ** 0.5
    traced = torch.compiler.is_compiling()
    if traced and n_iter is None:
        # inside a torch.compile trace: a fixed step count, no host read (eager needs at most 11)
        n_iter = TRACED_N_ITER
    cap = MAX_ITER if n_iter is None else n_iter
    f_prev = step = None
    it = 0
    while True:
        u, a, _ = _state(w, t, beta)
        if it >= cap:
            break
        F = (a * u).sum(-1, keepdim=True)  # sum u^q
        A = a.sum(-1, keepdim=True)  # sum u^beta = -(1/q) dF/dtau
        f = F - 1
        if n_iter is None and f_prev is not None:
            af = f.abs()
            done = ((af >= f_prev) & (af <= sqrt_eps)) | (step <= tol * (1 + t.abs())) | (af == 0)
            if bool((done | masked | torch.isnan(af)).all()):
                break
        lo = torch.where(f >= 0, t, lo)
        hi = torch.where(f < 0, t, hi)
        # Newton on ||u||_q - 1: step = (N - 1) N^beta / A, N = F^{1/q} (expm1: no cancellation near N = 1)
        logF = torch.log(F)
        t_new = t + torch.expm1(logF * inv_q) * torch.exp(logF * (beta * inv_q)) / A
        bad = ~((t_new >= lo) & (t_new <= hi))  # rounding (or NaN): stay inside the bracket
        t_new = torch.where(bad, (lo + hi) / 2, t_new)
        step = (t_new - t).abs()
        f_prev = f.abs()
        t = t_new
        it += 1
    p = a / a.sum(-1, keepdim=True)
    return torch.where(masked, 0.0, p), m, t, it


class NormmaxFunction(torch.autograd.Function):
    """alpha-normmax over the last dim (Santos et al. 2024; Blondel et al. 2020 norm entropy),
    backward by implicit differentiation: J^T g = beta (r*h - p sum(r*h)), r = p/(z - tau)_+,
    h = g - <p, g>; ``alpha`` a float > 1 or a tensor (..., 1)."""

    @staticmethod
    def forward(ctx, x, alpha, n_iter):
        p, m, t, _ = normmax_lastdim(x, alpha, n_iter)
        ctx.alpha_float = None if isinstance(alpha, torch.Tensor) else alpha
        ctx.save_for_backward(x, p, m, t, *(() if ctx.alpha_float is not None else (alpha,)))
        return p

    @staticmethod
    def backward(ctx, g):
        if ctx.alpha_float is None:
            x, p, m, t, alpha = ctx.saved_tensors
        else:
            (x, p, m, t), alpha = ctx.saved_tensors, ctx.alpha_float
        beta = 1.0 / (alpha - 1)
        u, _, lu = _state(x - m, t, beta)
        pos = p > 0
        r = torch.where(pos, p / torch.where(pos, u, 1.0), 0.0)
        h = g - (g * p).sum(-1, keepdim=True)
        rh = r * h
        rh_sum = rh.sum(-1, keepdim=True)
        dx = beta * (rh - p * rh_sum) if ctx.needs_input_grad[0] else None
        da = None
        if ctx.alpha_float is None and ctx.needs_input_grad[1]:
            q = 1 + beta
            ulu = (p * u * lu).sum(-1, keepdim=True)
            dbeta = (p * h * lu).sum(-1, keepdim=True) - (beta / q) * ulu * rh_sum
            da = (-beta * beta * dbeta).sum_to_size(alpha.shape)
        return dx, da, None


def _normmax_kernel(x, alpha, n_iter):
    return NormmaxFunction.apply(x, alpha, n_iter)


def normmax_bisect(x: torch.Tensor, alpha=2.0, dim: int = -1, n_iter=None, return_support_size: bool = False):
    """alpha-normmax along ``dim`` (Santos et al. 2024; the norm entropy of Blondel et al. 2020):
        normmax_alpha(z) = argmax_{p in simplex} <p, z> - ||p||_alpha
                         = u^beta / sum(u^beta),  u = (z - tau)_+,  ||u||_{alpha/(alpha-1)} = 1,
    beta = 1/(alpha-1).  Sparse; alpha = 2 is the usual choice; large alpha approaches the
    uniform distribution over the sparsemax support (the top scores), alpha -> 1 the argmax.

    ``alpha``: float > 1, or a tensor broadcastable to ``x`` with size 1 along ``dim`` (one per
    row); differentiable.  ``n_iter``: max Newton steps on tau; None iterates to float exactness.
    ``return_support_size``: also return k = |{i : p_i > 0}| along ``dim`` (int64, ``dim`` kept).
    alpha <= 1, NaN or inf raise ``ValueError`` naming ``alpha``.  Rows that are entirely ``-inf``
    map to zeros; NaN in a row gives a NaN row; float16/bfloat16 are computed in float32.
    """
    check_input(x)
    n_iter = check_n_iter(n_iter)
    if x.ndim:
        alpha = check_normmax_alpha(alpha, x, canonical_dim(x, dim))
    else:
        alpha = check_normmax_alpha(alpha, x.reshape(1), 0)
    p = apply_lastdim(_normmax_kernel, x, dim, n_iter, alpha=alpha)
    return (p, support_size(p, dim)) if return_support_size else p
