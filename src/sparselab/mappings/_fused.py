"""Sort-free, fixed-iteration kernels written for torch.compile (inductor).

Each function is a straight line of row reductions and elementwise ops with
no data-dependent Python control flow, so inductor fuses it into ONE C++ loop
over rows: a row (64-32000 floats) is read from memory once and then stays in
L1/L2 for every iteration.  What makes them fast is that they allocate a
single full-size output (on CPU a fresh large allocation costs as much as a
pass over the data), and never sort.

Every forward kernel returns an exactness flag per row, checked by the caller
(`_compile.run_forward`), which re-solves the rare unconverged rows with the
exact sort-based solver.  So the result is exact whatever K is; K only trades
speed against how often the fix-up runs.

Thresholds:
* sparsemax: Michelot's algorithm (= Newton on sum(z - tau)_+ = 1) from the
  lower bound tau = max - 1.  Each step is exact on the current support; when
  the support stops shrinking, tau is the exact Alg. 1 threshold.
* 1.5-entmax: Newton on ||(z/2 - tau)_+||_2 - 1 (convex, so it climbs
  monotonically from tau = max/2 - 1, and is nearly linear so it needs few
  steps), then the exact quadratic of Peters et al. 2019 (Alg. 2) on the
  detected support; exact iff the support of that root is the detected one.
* alpha-entmax (0 < alpha - 1 <= 1): a few transcendental-free lower-bound
  steps (power-mean inequality, = Michelot at alpha = 2), then Newton on
  ||u||_beta - 1, u = 1 + eps (w - t), beta = 1/eps (a norm for alpha <= 2, so
  convex; exact in one step at alpha = 1), see bisect.py for the
  parametrisation.  Exact when the residual |sum p - 1| is at the float32
  rounding floor; other rows continue eagerly from their threshold.
  alpha = 1 + 1/k (1.5, 2, 4/3, 5/4) uses u^k by multiplication.
"""
from __future__ import annotations

import torch

NEG_INF = float("-inf")

# Iteration counts, chosen by measurement on N(0,1) scores (attention 64,
# characters 100, vocabulary 32000 classes): the share of rows whose support is
# found after k steps.  Short rows need fewer steps than long ones (fewer
# candidates near the top).  Unconverged rows are fixed up exactly, so these
# only trade speed.  Values are (rows <= 1024, longer rows).
K_SPARSEMAX = (5, 7)
K_ENTMAX15 = (4, 6)
K_ALPHA_BOUND = 3  # transcendental-free lower-bound steps before Newton
K_ALPHA = 4


def _k(ks, z):
    return ks[0] if z.shape[-1] <= 1024 else ks[1]


def _shift(z):
    m = z.amax(-1, keepdim=True)
    masked = m == NEG_INF
    m = torch.where(masked, 0.0, m)
    return z - m, m, masked


def _keep_in_row_loop(row_value, w):
    """Return ``row_value`` (shape (R, 1)) as the result of a row reduction.

    Inductor schedules a per-row elementwise result (e.g. a Newton update of the
    threshold) as its own loop over the rows, which splits the fused kernel into
    one pass over all rows per iteration.  Recomputing it as a max over the row
    of ``row_value + 0`` (the 0 comes from ``w > 1``, always False as w <= 0,
    and opaque to the compiler) keeps every iteration inside one loop per row, so
    the row stays in L1/L2.  Cost: one extra cheap pass over a cached row.
    """
    zero = (w > 1.0).to(w.dtype)
    return (row_value + zero).amax(-1, keepdim=True)


# ------------------------------------------------------------------ sparsemax
# The kernels return raw per-row reductions and let the caller compare them:
# a per-row elementwise output (e.g. a bool "bad" flag) would be scheduled as a
# separate loop over rows and break inductor's fusion of the row loops.

def sparsemax_fwd(z):
    """(p, cnt, cnt_final); exact iff cnt_final == cnt (or the row is masked/NaN)."""
    w, _, masked = _shift(z)
    tau = torch.full_like(w[..., :1], -1.0)
    cnt = torch.ones_like(tau)
    for _ in range(_k(K_SPARSEMAX, z)):
        on = w > tau
        cnt = on.to(z.dtype).sum(-1, keepdim=True)
        # where, not w * mask: a -inf score times 0 would be NaN
        tau = (torch.where(on, w, 0.0).sum(-1, keepdim=True) - 1) / cnt
    p = torch.clamp(w - tau, min=0)
    # exact iff the support at tau equals the one tau was computed from
    cnt_final = (p > 0).to(z.dtype).sum(-1, keepdim=True)
    return torch.where(masked, 0.0, p), cnt, cnt_final


def sparsemax_bwd(p, g):
    on = p > 0
    gs = torch.where(on, g, 0.0)
    cnt = on.to(g.dtype).sum(-1, keepdim=True)
    return gs - torch.where(on, gs.sum(-1, keepdim=True) / cnt.clamp_min(1), 0.0)


# ------------------------------------------------------------------ 1.5-entmax
def entmax15_fwd(z):
    """(p, cnt, cnt_final, ss); exact iff cnt_final == cnt and ss <= 1."""
    w, _, masked = _shift(z)
    w = w * 0.5
    tau = torch.full_like(w[..., :1], -1.0)
    for _ in range(_k(K_ENTMAX15, z)):
        u = torch.clamp(w - tau, min=0)
        F = (u * u).sum(-1, keepdim=True)
        # Newton on sqrt(F) - 1: tau += (F - sqrt F) / sum(u)
        tau = _keep_in_row_loop(tau + (F - torch.sqrt(F)) / u.sum(-1, keepdim=True), w)
    # Exact quadratic on the detected support S = {w > tau}, in one pass with
    # values centred at tau (w - tau is in (0, 1] on S, so C - B^2/A is accurate
    # to ~1 ulp of 1, which is all that 1 - ss needs).  (No shared bool mask:
    # inductor would store it as a full-size buffer.)
    v = torch.clamp(w - tau, min=0)
    A = (v > 0).to(z.dtype).sum(-1, keepdim=True)
    B = v.sum(-1, keepdim=True)
    C = (v * v).sum(-1, keepdim=True)
    mean = B / A
    ss = C - B * mean
    tau_star = tau + mean - torch.sqrt(torch.clamp((1 - ss) / A, min=0))
    u = torch.clamp(w - tau_star, min=0)
    cnt_final = (u > 0).to(z.dtype).sum(-1, keepdim=True)
    return torch.where(masked, 0.0, u * u), A, cnt_final, ss


def entmax15_bwd(p, g):
    s = torch.sqrt(p)
    gs = g * s
    return gs - s * (gs.sum(-1, keepdim=True) / s.sum(-1, keepdim=True).clamp_min(1e-30))


# ------------------------------------------------------------------ alpha-entmax
def _power(v, eps, beta_int, accurate=True):
    """(p, s) at u = 1 + v: p = u^(1/eps), s = p / u (0 off the support).

    ``accurate=False`` uses log(u) instead of log1p(v) (2x cheaper in Sleef;
    relative error ~ulp/eps, harmless inside Newton iterations whose result is
    re-evaluated accurately at the end).
    """
    u = 1 + v
    if beta_int is not None:  # alpha = 1 + 1/k: u^k by multiplication
        s = torch.ones_like(u) if beta_int == 1 else u
        for _ in range(beta_int - 2):
            s = s * u
        s = torch.where(u > 0, s, 0.0)
        return s * u, s
    lu = torch.log1p(v) if accurate else torch.log(u)
    p = torch.exp(lu / eps)
    s = torch.where(u > 0, p / torch.where(u > 0, u, 1.0), 0.0)
    return p, s


def _expm1(y):
    """expm1 for per-row values.  Inductor lowers torch.expm1 to exp(y) - 1,
    which loses all relative accuracy as y -> 0 (exactly where Newton steps
    end); a short series covers |y| < 0.1 (relative error < 1e-6)."""
    small = y.abs() < 0.1
    ys = torch.where(small, y, 0.0)
    series = ys * (1 + ys * (0.5 + ys * (1.0 / 6 + ys * (1.0 / 24))))
    return torch.where(small, series, torch.exp(y) - 1)


def _norm_step(F, S, eps):
    """Newton step on ||u||_beta - 1 in t: -F expm1(-eps log F) / (eps S)."""
    return -F * _expm1(-eps * torch.log(F)) / (eps * S)


def make_alpha_fwd(beta_int):
    """Kernel for alpha = 1 + eps with eps > 0 (float or tensor (..., 1)).

    Returns (p, m, t, res, prev_res): p normalised, the row max m and the
    threshold t (both needed by the backward), and the last two residuals
    |sum p - 1| (the exactness test: see _compile.run_alpha_forward).
    """

    def alpha_fwd(z, eps, t0):
        w, m, masked = _shift(z)
        t = t0
        inv_eps = 1.0 / eps
        # Lower bounds without transcendentals (power-mean inequality): for any
        # set T of entries, t* >= mean_T(w) + (1 - |T|^-eps)/eps.  With
        # T = {w > t - 1/eps} (the entries that can still be in the support)
        # this is Michelot's step at alpha = 2 and gets close to t* elsewhere.
        for _ in range(K_ALPHA_BOUND):
            on = w > t - inv_eps
            cnt = on.to(z.dtype).sum(-1, keepdim=True)
            mean = torch.where(on, w, 0.0).sum(-1, keepdim=True) / cnt
            bound = mean - _expm1(-eps * torch.log(cnt)) * inv_eps
            t = _keep_in_row_loop(torch.maximum(t, bound), w)
        F = torch.ones_like(t)
        for _ in range(K_ALPHA):
            v = torch.clamp(eps * (w - t), min=-1)
            p, s = _power(v, eps, beta_int, accurate=False)
            F = p.sum(-1, keepdim=True)
            S = s.sum(-1, keepdim=True)
            t = _keep_in_row_loop(t + _norm_step(F, S, eps), w)
        v = torch.clamp(eps * (w - t), min=-1)
        p, _ = _power(v, eps, beta_int)
        Fn = p.sum(-1, keepdim=True)
        p = torch.where(masked, 0.0, p / Fn)
        return p, m, t, (Fn - 1).abs(), (F - 1).abs(), masked

    return alpha_fwd


def make_alpha_bwd(beta_int, need_alpha):
    """J^T g (and the alpha-gradient) from p, recomputing u = 1 + eps (x - m - t).

    s = p / u is p^{2-alpha} up to the row constant sum(p_raw) (the Jacobian
    is invariant to rescaling s).  log p = log(u)/eps - log(F) with F = 1 to the
    forward's tolerance: one transcendental per entry for the alpha-gradient.
    """

    def alpha_bwd(x, p, m, t, eps, g):
        v = torch.clamp(eps * (x - m - t), min=-1)
        u = 1 + v
        pos = (p > 0) & (u > 0)
        s = torch.where(pos, p / torch.where(pos, u, 1.0), 0.0)
        gs = g * s
        ssum = s.sum(-1, keepdim=True).clamp_min(1e-30)
        q = gs.sum(-1, keepdim=True) / ssum
        dx = gs - s * q
        if not need_alpha:
            return dx, None
        # log p from u: p = u^(1/eps) / F with F = 1 to ~1e-6 (the forward's
        # residual), so log p = log(u)/eps and p^(1-eps) = p/u = s, to float32
        # accuracy: one transcendental per entry.
        L = torch.where(pos, torch.log(torch.where(pos, u, 1.0)) / eps, 0.0)
        xx = -eps * L
        small = xx.abs() < 0.5
        xs = torch.where(small, xx, 0.0)
        acc = torch.full_like(xs, _PHI32[-1])
        for c in reversed(_PHI32[:-1]):
            acc = acc * xs + c
        t_series = p * L * L * acc
        # direct form (p^{1-eps} - p (1 + x)) / eps^2 with p^{1-eps} = s
        t_direct = (s - p * (1 + xx)) / (eps * eps)
        T = torch.where(pos, torch.where(small, t_series, t_direct), 0.0)
        ptil_g = q  # sum(g * s) / sum(s) = sum(g * p~)
        da = -(g * T).sum(-1, keepdim=True) + ptil_g * T.sum(-1, keepdim=True)
        return dx, da

    return alpha_bwd


# Phi(x) = sum_k x^k/(k+2)! on |x| < 1/2: 10 terms leave < 1e-11 (these kernels
# run in float32 only; the eager float64 path in bisect.py keeps 15 terms).
_PHI32 = [1.0 / __import__("math").factorial(k + 2) for k in range(10)]
