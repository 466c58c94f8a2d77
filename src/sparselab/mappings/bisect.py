"""alpha-entmax for any alpha > 0 by root finding on the threshold.

alpha-entmax (Peters, Niculae & Martins 2019; the definition and its closed form):

    p_i = [(alpha - 1) z_i - tau]_+^{1/(alpha-1)},   tau such that sum_i p_i = 1.

Parametrisation.  With eps = alpha - 1, w = z - max(z) and tau = eps*t - 1,
    p_i(t) = (1 + eps (w_i - t))_+^{1/eps} = exp(log1p(eps (w_i - t)) / eps),
which is continuous at eps = 0, where it is exp(w_i - t) (softmax, t = logsumexp).
The root t* lies in [0, (1 - n^{-eps}) / eps] (the bisection bracket of Peters
et al. 2019, rescaled).  Instead of bisecting we take Newton steps on
g(t) = ||u(t)||_beta - 1 = (sum_i p_i)^eps - 1, u = (1 + eps (w - t))_+,
beta = 1/eps: for alpha <= 2 it is a norm of a convex vector function, hence
convex and decreasing, so Newton climbs monotonically from t = 0; it is nearly
piecewise linear (exact in one step at alpha = 1, and exact once the support
is found at alpha = 2), so 3-7 steps reach float exactness instead of ~24
(float32) / ~50 (float64) bisections.  For alpha > 2 plain Newton steps on
sum p - 1 are safeguarded by the bracket (bisection fallback).

alpha in (0, 1) (eps < 0; the Tsallis-regularised map of Peters et al. 2019 is
still argmax_p <p, z> + H^T_alpha(p), H^T_alpha concave for alpha > 0, but dense:
its derivative p^{alpha-1}/(1-alpha) is infinite at p = 0).  Then
1/(alpha-1) < 0, so (alpha-1) z_i - tau must be positive for every entry,
tau < (alpha-1) max(z); here u_i = 1 + |eps| (t - w_i) >= 1 + |eps| t > 0 for
every t >= 0, p_i = u_i^{-1/|eps|} is positive with a polynomial tail
(heavier than softmax), and a -inf score gives u = inf, p = 0.  The same
bracket holds: sum p >= p_max = 1 at t = 0, and sum p <= n (1 + |eps| t)^{1/eps}
= 1 at t_hi = (1 - n^{-eps})/eps = (n^{|eps|} - 1)/|eps|.  The same Newton step
applies: g(t) = (sum p)^eps - 1 is a power mean of u with exponent 1/eps < 0,
concave and increasing in t, so Newton from t = 0 again climbs monotonically.
alpha < 1 always runs the eager loop (the fused kernels cover 0 < eps <= 1).
Iteration stops at float exactness: the residual |sum p - 1| stops shrinking
(rounding floor) or the step is below a few ulps of t; or after ``n_iter``
steps when that is given.  The output is renormalised.

Large float32 inputs run the same iteration as one fused torch.compile kernel
(`_fused.make_alpha_fwd`, fixed step count, residual-checked, unconverged rows
continue here); ``n_iter`` given, float64, alpha > 2 or small inputs run the
eager loop below; for a float alpha > 2 on a large float32 input each of its evaluations runs compiled
(`_sums`, `_probs`).

Backward w.r.t. z: Peters et al. 2019, Prop. 1, s = p^{2-alpha},
    J^T g = s*g - s * sum(s*g)/sum(s).
Backward w.r.t. alpha: Correia, Niculae & Martins 2019, Prop. 1,
    dp_i/dalpha = (p_i - p~_i)/(alpha-1)^2 - (p_i log p_i - p~_i sum_j p_j log p_j)/(alpha-1),
p~ = s/sum(s).  Both terms blow up as alpha -> 1 while their sum stays finite;
we use the equivalent cancellation-free form (derived by substituting
(alpha-1) z_i = p_i^{alpha-1} + tau):
    dp_i/dalpha = -T_i + p~_i sum_j T_j,  T_i = p_i (log p_i)^2 Phi(-(alpha-1) log p_i),
    Phi(x) = (e^x - 1 - x)/x^2   (Phi(0) = 1/2, so at alpha = 1 the limit is
    dp_i/dalpha = (p_i/2) (sum_j p_j log^2 p_j - log^2 p_i)).
Neither derivation uses the sign of alpha - 1 (only p_i = ((alpha-1) z_i - tau)^{1/(alpha-1)}
on the support and sum p = 1), so both hold for alpha in (0, 1), where the support is
every finite entry.
"""
from __future__ import annotations

import torch
from torch._higher_order_ops.while_loop import while_loop

from ._lastdim import apply_lastdim, support_size
from ._validate import check_alpha, check_n_iter, check_input, canonical_dim
from . import _compile, _fused
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


def _e1(y):
    nz = y != 0
    yb = torch.where(nz, y, 1.0)
    return torch.where(nz, torch.expm1(yb) / yb, 1.0)


def _newton_step(F, S, f, eps):
    """Newton step in t.  eps <= 1: on ||u||_beta - 1, i.e. F log(F) e1(-eps log F) / S
    (stable through eps = 0); eps > 1: plain Newton on sum p - 1, f / S."""
    logF = torch.log(F)
    norm_step = F * logF * _e1(-eps * logF) / S
    if isinstance(eps, float):
        return norm_step if eps <= 1 else f / S
    return torch.where(eps <= 1, norm_step, f / S)


def _beta_int(eps):
    """k if alpha = 1 + 1/k for k in 1..4 (then u^beta is a few multiplications)."""
    if isinstance(eps, float) and eps > 0:
        k = round(1.0 / eps)
        if 1 <= k <= 4 and abs(1.0 / k - eps) == 0.0:
            return k
    return None


def _compiled_ok(z, eps, n_iter, eps_range=None):
    """Whether the fused kernels apply (0 < eps <= 1).  ``eps_range`` (lo, hi): bounds the caller
    guarantees for a tensor eps; inside (0, 1] they decide without reading eps (no host sync)."""
    if n_iter is not None or not _compile.use_compiled(z):
        return False
    if isinstance(eps, float):
        return 0.0 < eps <= 1.0
    if eps.dtype != z.dtype:
        return False
    if eps_range is not None and 0.0 < eps_range[0] and eps_range[1] <= 1.0:
        return True
    with torch.no_grad():
        return bool(((eps > 0) & (eps <= 1)).all())


def entmax_alpha_lastdim(z: torch.Tensor, eps, n_iter=None, return_state: bool = False, compiled_ok=None):
    """Forward solver on the last dim.  ``eps = alpha - 1`` (float or tensor (...,1)).
    ``compiled_ok``: the caller's ``_compiled_ok(z, eps, None)`` if it has it (saves a sync).

    Returns p, or (p, m, t) with the row max m and threshold t at which p was
    evaluated (the compiled backward recomputes u from them).
    """
    global last_n_iter
    if torch.compiler.is_compiling():  # inside a caller's trace (the losses' projection): fixed step counts
        p, m, t = _traced_forward(z, eps, n_iter, None)
        return (p, m, t) if return_state else p
    ok = _compiled_ok(z, eps, n_iter) if compiled_ok is None else (compiled_ok and n_iter is None)
    if ok:
        k = _beta_int(eps)
        fn = _ALPHA_FWD.get(k)
        if fn is None:
            fn = _ALPHA_FWD[k] = _fused.make_alpha_fwd(k)
        t0 = torch.zeros(z.shape[:-1] + (1,), dtype=z.dtype, device=z.device)
        e2 = eps if isinstance(eps, float) else _compile.rows2d(eps.expand(t0.shape))
        out = _compile.run_rows(fn, z, e2, _compile.rows2d(t0))
        if out is not None:
            p, m, t, res, _, masked = out
            it = _fused.K_ALPHA_BOUND + _fused.K_ALPHA
            # exact once the residual is at float32 rounding level; else carry on
            # eagerly from t for the (rare) rows that are not there yet.
            bad = ~((res <= _RES_TOL) | masked | torch.isnan(res))
            rows = bad.reshape(-1).nonzero().squeeze(1)
            if rows.numel():
                n = z.shape[-1]
                e_rows = eps if isinstance(eps, float) else eps.expand(t.shape).reshape(-1, 1)[rows]
                p_r, m_r, t_r, it_r = _newton(z.reshape(-1, n)[rows], e_rows, None, t.reshape(-1, 1)[rows])
                p.view(-1, n)[rows] = p_r
                m.view(-1, 1)[rows] = m_r
                t.view(-1, 1)[rows] = t_r
                it += it_r
            last_n_iter = it
            return (p, m, t) if return_state else p
    p, m, t, it = _newton(z, eps, n_iter, None)
    last_n_iter = it
    return (p, m, t) if return_state else p


_ALPHA_FWD: dict = {}
_RES_TOL = 2e-6  # |sum p - 1| at the float32 rounding floor (checked rows only)

# ------------------------------------------- inside a user's torch.compile trace
# No host reads there (a ``.item()`` or ``bool(tensor)`` is a graph break, an error under fullgraph=True):
# * float32 with 0 < alpha - 1 <= 1 (a float alpha there, or a tensor alpha whose ``alpha_range`` lies
#   there, e.g. ``Entmax(learnable=True)``): the fused kernel, as in eager; its rare rows short of float
#   exactness continue for ``TRACED_N_ITER`` safeguarded Newton steps inside a ``torch.cond`` (taken
#   only when there are such rows), where eager continues them to exactness;
# * otherwise (float64, alpha < 1, alpha > 2, a tensor alpha of unknown range): the eager safeguarded
#   Newton for a fixed ``TRACED_N_ITER[dtype, alpha known <= 2]`` steps (eager stops at exactness after
#   at most 12 float64 steps for alpha <= 2, 37 for alpha in (2, 4]); ``alpha_range`` or ``n_iter``
#   shortens it.
TRACED_N_ITER = {(torch.float32, True): 16, (torch.float32, False): 40,
                 (torch.float64, True): 20, (torch.float64, False): 60}


def _eps_in_unit(eps, eps_range) -> bool:
    """0 < eps <= 1 known without reading a tensor."""
    if isinstance(eps, float):
        return 0.0 < eps <= 1.0
    return eps_range is not None and 0.0 < eps_range[0] and eps_range[1] <= 1.0


def _traced_fused(z, eps, n_iter, eps_range) -> bool:
    """Whether the traced forward runs the fused kernel (and the backward its formulas)."""
    return n_iter is None and z.dtype == torch.float32 and _eps_in_unit(eps, eps_range)


def _traced_forward(z, eps, n_iter, eps_range):
    """(p, m, t): the forward without data-dependent Python branches (see above)."""
    if _traced_fused(z, eps, n_iter, eps_range):
        k = _beta_int(eps)
        fn = _ALPHA_FWD.get(k)
        if fn is None:
            fn = _ALPHA_FWD[k] = _fused.make_alpha_fwd(k)
        t0 = torch.zeros(z.shape[:-1] + (1,), dtype=z.dtype, device=z.device)
        p, m, t, res, _, masked = fn(z, eps, t0)
        bad = ~((res <= _RES_TOL) | masked | torch.isnan(res))
        n_more = TRACED_N_ITER[(torch.float32, True)]
        if isinstance(eps, float):
            def more(p, t, bad, z):
                p2, _, t2 = _newton_traced(z, eps, n_more, t)
                return torch.where(bad, p2, p), torch.where(bad, t2, t)

            def keep(p, t, bad, z):
                return p.clone(), t.clone()
            ops = (p, t, bad, z)
        else:
            def more(p, t, bad, z, e):
                p2, _, t2 = _newton_traced(z, e, n_more, t)
                return torch.where(bad, p2, p), torch.where(bad, t2, t)

            def keep(p, t, bad, z, e):
                return p.clone(), t.clone()
            ops = (p, t, bad, z, eps)
        p, t = torch.cond(bad.any(), more, keep, ops)
        return p, m, t
    if n_iter is None:
        le2 = (eps <= 1.0) if isinstance(eps, float) else (eps_range is not None and eps_range[1] <= 1.0)
        n_iter = TRACED_N_ITER[(torch.float64 if z.dtype == torch.float64 else torch.float32, le2)]
    return _newton_traced(z, eps, n_iter, None)


def _newton_traced(z, eps, n_iter: int, t_init):
    """(p, m, t): ``_newton`` for a fixed ``n_iter`` (no convergence test) as one ``while_loop``.

    Unrolled, the traced graph held ``n_iter`` copies of the step (16 to 60), each traced by Dynamo and AOTAutograd
    and fused by inductor into one C++ function of thousands of lines (numbers in docs/mappings.md). The same
    steps in the same order as ``_newton(z, eps, n_iter, t_init)``."""
    w, masked, m, lo, hi, t = _start(z, eps, t_init)

    def unfinished(it, t, lo, hi):
        return it < n_iter

    def step(it, t, lo, hi):
        p, s = _eval(w, eps, t)
        F, S = p.sum(-1, keepdim=True), s.sum(-1, keepdim=True)
        return (it + 1,) + _update(F, S, F - 1, t, lo, hi, eps)

    it0 = torch.zeros((), dtype=torch.int64, device=z.device)
    _, t, _, _ = while_loop(unfinished, step, (it0, t, lo, hi))
    return _normalised(w, masked, eps, t), m, t


def _start(z, eps, t_init):
    """(w, masked, m, lo, hi, t): the shifted scores, the fully masked rows, the max, the bracket and the first t."""
    w, masked = shift_by_max(z)
    m = torch.where(masked, 0.0, z.amax(-1, keepdim=True))
    lo = torch.zeros(z.shape[:-1] + (1,), dtype=z.dtype, device=z.device)
    hi = _upper_bracket(z.shape[-1], eps, z)
    t = lo.clone() if t_init is None else t_init.clone()
    return w, masked, m, lo, hi, t


def _update(F, S, f, t, lo, hi, eps):
    """(t, lo, hi) after one safeguarded Newton step from the sums F, S at t (f = F - 1)."""
    lo = torch.where(f >= 0, t, lo)
    hi = torch.where(f < 0, t, hi)
    t_new = t + _newton_step(F, S, f, eps)
    bad = ~((t_new >= lo) & (t_new <= hi))      # alpha > 2, or rounding: stay inside the bracket
    return torch.where(bad, (lo + hi) / 2, t_new), lo, hi


def _normalised(w, masked, eps, t, p=None):
    """The probabilities at t (``p``, when the last evaluation already gave them), normalised; 0 on masked rows."""
    p = _eval(w, eps, t)[0] if p is None else p
    return torch.where(masked, 0.0, p / p.sum(-1, keepdim=True))


def _sums(w, t, eps: float):
    """(sum p, sum s) at t: one Newton evaluation of _eval without its full-size temporaries (compiled, alpha > 2)."""
    p, s = _eval(w, eps, t)
    return p.sum(-1, keepdim=True), s.sum(-1, keepdim=True)


def _probs(w, t, eps: float):
    """(p at t, normalised,): the compiled counterpart of the eager loop's last evaluation."""
    p = _eval(w, eps, t)[0]
    return (p / p.sum(-1, keepdim=True),)


def _fused_step(z: torch.Tensor, eps, n_iter) -> bool:
    """alpha > 2 (a float) on a large float32 input: each Newton evaluation runs as one compiled kernel (the fused
    kernels cover 0 < eps <= 1 only; eagerly, each evaluation is ~10 passes over the scores: 4.9x the forward and
    backward time at an MT output layer, benchmarks/probes/bench_alpha_above_two.py). The loop, its safeguard and
    its stopping rule stay eager."""
    return n_iter is None and isinstance(eps, float) and eps > 1.0 and _compile.use_compiled(z)


def _newton(z, eps, n_iter, t_init):
    """Eager safeguarded Newton; returns (p, m, t, iterations)."""
    w, masked, m, lo, hi, t = _start(z, eps, t_init)
    tol = 4 * torch.finfo(z.dtype).eps
    sqrt_eps = torch.finfo(z.dtype).eps ** 0.5
    cap = MAX_ITER if n_iter is None else n_iter
    f_prev = step = None      # the previous residual and step: set together after the first iteration
    it = 0
    fused = _fused_step(z, eps, n_iter)      # alpha > 2: p is then formed once, after the loop
    p = None
    while True:
        sums = _compile.run_rows(_sums, w, _compile.rows2d(t), eps) if fused else None
        if sums is None:        # eager (or the compile failed: eager from here on)
            fused = False
            p, s = _eval(w, eps, t)
            F, S = p.sum(-1, keepdim=True), s.sum(-1, keepdim=True)
        else:
            F, S = sums
        t_eval = t
        if it >= cap:
            break
        f = F - 1
        if n_iter is None and f_prev is not None:
            # Float exactness: the residual has stopped shrinking (rounding
            # noise of the sum), or the last step was below a few ulps of t.
            # Newton's residual decreases monotonically in exact arithmetic
            # (convex g, started left of the root), so a non-decreasing residual
            # near the root means we are at the rounding floor.
            af = f.abs()
            done = ((af >= f_prev) & (af <= sqrt_eps)) | (step <= tol * (1 + t.abs())) | (af == 0)
            done = done | masked | torch.isnan(af)  # NaN / fully masked rows
            if bool(done.all()):
                break
        t_new, lo, hi = _update(F, S, f, t, lo, hi, eps)
        step = (t_new - t).abs()
        f_prev = f.abs()
        t = t_new
        it += 1
    fused_p = _compile.run_rows(_probs, w, _compile.rows2d(t_eval), eps) if fused else None
    if fused_p is not None:
        return torch.where(masked, 0.0, fused_p[0]), m, t_eval, it
    return _normalised(w, masked, eps, t_eval, p), m, t_eval, it      # p None: the compile failed after the loop


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
    """alpha-entmax over the last dim (Peters et al. 2019; backward Prop. 1, alpha-gradient
    Correia et al. 2019, Prop. 1); ``alpha`` a float or a tensor (..., 1)."""

    @staticmethod
    def forward(ctx, x, alpha, n_iter, eps_range=None):
        eps = alpha - 1
        ctx.alpha_float = None if isinstance(alpha, torch.Tensor) else alpha
        if torch.compiler.is_compiling():
            # traced into the caller's graph: fixed step counts, no host reads (fullgraph=True holds)
            ctx.compiled_ok = False
            # (set before the forward's torch.cond: Dynamo drops ctx attributes set after it)
            ctx.traced_fused = _traced_fused(x, eps, n_iter, eps_range)
            p, m, t = _traced_forward(x, eps, n_iter, eps_range)
            ctx.save_for_backward(*((x, p, m, t) + ((alpha,) if ctx.alpha_float is None else ())))
            return p
        ctx.traced_fused = False
        # eligibility for the fused kernels (a host sync for a tensor alpha without a
        # guaranteed range), decided once for the forward and the backward (same x and alpha)
        ctx.compiled_ok = _compiled_ok(x, eps, None, eps_range)
        p, m, t = entmax_alpha_lastdim(x, eps, n_iter, return_state=True, compiled_ok=ctx.compiled_ok)
        tensors = (x, p, m, t) + ((alpha,) if ctx.alpha_float is None else ())
        ctx.save_for_backward(*tensors)
        return p

    @staticmethod
    def backward(ctx, g):
        if ctx.alpha_float is None:
            x, p, m, t, alpha = ctx.saved_tensors
        else:
            x, p, m, t = ctx.saved_tensors
            alpha = ctx.alpha_float
        eps = alpha - 1
        need_alpha = ctx.alpha_float is None and ctx.needs_input_grad[1]
        if ctx.traced_fused:
            # the fused backward's formulas, traced into the caller's graph (float32, 0 < eps <= 1)
            dx, da = _fused.make_alpha_bwd(None, need_alpha)(x, p, m, t, eps, g)
            return dx, (da.sum_to_size(alpha.shape) if need_alpha else None), None, None
        if ctx.compiled_ok and g.dtype == x.dtype and _compile.use_compiled(g):
            fn = _ALPHA_BWD.get(need_alpha)
            if fn is None:
                fn = _ALPHA_BWD[need_alpha] = _fused.make_alpha_bwd(None, need_alpha)
            r2 = _compile.rows2d
            e2 = eps if isinstance(eps, float) else r2(eps.expand(m.shape))
            out = _compile.run(fn, r2(x), r2(p), r2(m), r2(t), e2, r2(g))
            if out is not None:
                dx, da = out
                dx = dx.reshape(x.shape)
                if need_alpha:
                    da = da.reshape(m.shape).sum_to_size(alpha.shape)
                return dx, da, None, None
        pos = p > 0
        logp = torch.log(torch.where(pos, p, 1.0))
        s = torch.where(pos, torch.exp((1 - eps) * logp), 0.0)
        dx = entmax_backward_s(s, g) if ctx.needs_input_grad[0] else None
        da = None
        if need_alpha:
            da = alpha_grad(p, s, logp, eps, g)
            da = da.sum_to_size(alpha.shape)
        return dx, da, None, None


_ALPHA_BWD: dict = {}


def _bisect_kernel(x, alpha, n_iter, eps_range):
    return EntmaxBisectFunction.apply(x, alpha, n_iter, eps_range)


def entmax_bisect(x: torch.Tensor, alpha=1.5, dim: int = -1, n_iter=None, return_n_iter: bool = False,
                  return_support_size: bool = False, *, alpha_range=None):
    """alpha-entmax along ``dim`` for any alpha > 0: p = [(alpha-1) z - tau]_+^{1/(alpha-1)}
    (Peters et al. 2019, alpha-entmax closed form; gradient Prop. 1).  For 0 < alpha < 1
    the map is dense, p = ((alpha-1) z - tau)^{1/(alpha-1)} with tau < (alpha-1) max(z)
    (heavier tails than softmax).

    ``alpha``: float, or tensor broadcastable to ``x`` with size 1 along ``dim``
    (one alpha per row / head); differentiable (Correia et al. 2019, Prop. 1).
    ``n_iter``: max root-finding iterations; None iterates to float exactness.
    ``return_n_iter``: also return the iterations used (max over rows).
    ``return_support_size``: also return k = |{i : p_i > 0}| along ``dim`` (int64, shape
    of ``x`` with ``dim`` kept as size 1; every finite entry when alpha <= 1).  With both
    flags the result is ``(p, n_iter, k)``.
    alpha = 1 gives softmax exactly (the limit), not a uniform distribution.
    alpha <= 0, NaN or inf raise ``ValueError`` naming ``alpha``.
    ``alpha_range``: (lo, hi) with 0 < lo < hi < inf that a tensor ``alpha`` is guaranteed to lie in
    (``Entmax``'s learned alpha is clamped to it).  Its values are then not checked, and the choice of
    kernel follows from the range: no host sync per call on a GPU for either.
    Rows that are entirely ``-inf`` map to zeros; NaN in a row gives a NaN row.
    """
    global last_n_iter
    check_input(x)
    n_iter = check_n_iter(n_iter)
    d = canonical_dim(x, dim) if x.ndim else 0
    trusted = alpha_range is not None and isinstance(alpha, torch.Tensor)
    if trusted:
        lo, hi = (float(v) for v in alpha_range)
        if not 0 < lo <= hi < float("inf"):
            raise ValueError(f"alpha_range: expected 0 < lo <= hi < inf, got {alpha_range!r}")
    alpha = (check_alpha(alpha, x, d, trusted=trusted) if x.ndim
             else check_alpha(alpha, x.reshape(1), 0, trusted=trusted))
    eps_range = (lo - 1.0, hi - 1.0) if trusted else None
    last_n_iter = 0
    if isinstance(alpha, float) and alpha == 1.0:
        from .softmax import softmax

        out = softmax(x, dim)
    else:
        out = apply_lastdim(_bisect_kernel, x, dim, n_iter, eps_range, alpha=alpha)
    res = (out,)
    if return_n_iter:
        res += (last_n_iter,)
    if return_support_size:
        res += (support_size(out, dim),)
    return res if len(res) > 1 else out
