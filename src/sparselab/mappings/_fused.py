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
* alpha-entmax: Newton on ||u||_beta - 1, u = 1 + eps (w - t), beta = 1/eps
  (a norm for alpha <= 2, so convex; exact in one step at alpha = 1), see
  bisect.py for the parametrisation.  Exact when the residual reaches the
  rounding floor.
"""
from __future__ import annotations

import torch

NEG_INF = float("-inf")

K_SPARSEMAX = 8
K_ENTMAX15 = 8
K_ALPHA = 6


def _shift(z):
    m = z.amax(-1, keepdim=True)
    masked = m == NEG_INF
    m = torch.where(masked, 0.0, m)
    return z - m, m, masked


# ------------------------------------------------------------------ sparsemax
def sparsemax_fwd(z):
    w, _, masked = _shift(z)
    tau = torch.full_like(masked, -1.0, dtype=z.dtype)
    cnt = torch.ones_like(tau)
    for _ in range(K_SPARSEMAX):
        on = w > tau
        cnt = on.to(z.dtype).sum(-1, keepdim=True)
        # where, not w * mask: a -inf score times 0 would be NaN
        tau = (torch.where(on, w, 0.0).sum(-1, keepdim=True) - 1) / cnt
    p = torch.clamp(w - tau, min=0)
    # exact iff the support at tau equals the one tau was computed from
    cnt_final = (p > 0).to(z.dtype).sum(-1, keepdim=True)
    bad = (cnt_final != cnt) & ~masked & ~torch.isnan(tau)
    return torch.where(masked, 0.0, p), bad


def sparsemax_bwd(p, g):
    s = (p > 0).to(g.dtype)
    gs = g * s
    return gs - s * (gs.sum(-1, keepdim=True) / s.sum(-1, keepdim=True).clamp_min(1))


# ------------------------------------------------------------------ 1.5-entmax
def entmax15_fwd(z):
    w, _, masked = _shift(z)
    w = w * 0.5
    tau = torch.full_like(masked, -1.0, dtype=z.dtype)
    for _ in range(K_ENTMAX15):
        u = torch.clamp(w - tau, min=0)
        F = (u * u).sum(-1, keepdim=True)
        # Newton on sqrt(F) - 1: tau += (F - sqrt F) / sum(u)
        tau = tau + (F - torch.sqrt(F)) / u.sum(-1, keepdim=True)
    on = w > tau
    cnt = on.to(z.dtype).sum(-1, keepdim=True)
    mean = torch.where(on, w, 0.0).sum(-1, keepdim=True) / cnt
    d = torch.where(on, w - mean, 0.0)
    ss = (d * d).sum(-1, keepdim=True)
    disc = (1 - ss) / cnt
    tau_star = mean - torch.sqrt(torch.clamp(disc, min=0))
    u = torch.clamp(w - tau_star, min=0)
    cnt_final = (u > 0).to(z.dtype).sum(-1, keepdim=True)
    bad = ((cnt_final != cnt) | (disc < 0)) & ~masked & ~torch.isnan(tau_star)
    return torch.where(masked, 0.0, u * u), bad


def entmax15_bwd(p, g):
    s = torch.sqrt(p)
    gs = g * s
    return gs - s * (gs.sum(-1, keepdim=True) / s.sum(-1, keepdim=True).clamp_min(1e-30))


# ------------------------------------------------------------------ alpha-entmax
def _power(v, eps, beta_int):
    """(p, s) at u = 1 + v: p = u^(1/eps), s = p / u (0 off the support)."""
    u = 1 + v
    if beta_int is not None:  # alpha = 1 + 1/k: u^k by multiplication
        s = torch.ones_like(u) if beta_int == 1 else u
        for _ in range(beta_int - 2):
            s = s * u
        s = torch.where(u > 0, s, 0.0)
        return s * u, s
    p = torch.exp(torch.log1p(v) / eps)
    s = torch.where(u > 0, p / torch.where(u > 0, u, 1.0), 0.0)
    return p, s


def _norm_step(F, S, eps):
    """Newton step on ||u||_beta - 1 in t: -F expm1(-eps log F) / (eps S)."""
    return -F * torch.expm1(-eps * torch.log(F)) / (eps * S)


def make_alpha_fwd(beta_int):
    """Kernel for alpha = 1 + eps with eps > 0 (float or tensor (..., 1)).

    Returns (p, m, t, res, prev_res): p normalised, the row max m and the
    threshold t (both needed by the backward), and the last two residuals
    |sum p - 1| (the exactness test: see _compile.run_alpha_forward).
    """

    def alpha_fwd(z, eps, t0):
        w, m, masked = _shift(z)
        t = t0
        F = torch.ones_like(t)
        F_prev = F
        for _ in range(K_ALPHA):
            v = torch.clamp(eps * (w - t), min=-1)
            p, s = _power(v, eps, beta_int)
            F_prev = F
            F = p.sum(-1, keepdim=True)
            S = s.sum(-1, keepdim=True)
            t = t + _norm_step(F, S, eps)
        v = torch.clamp(eps * (w - t), min=-1)
        p, _ = _power(v, eps, beta_int)
        Fn = p.sum(-1, keepdim=True)
        p = torch.where(masked, 0.0, p / Fn)
        return p, m, t, (Fn - 1).abs(), (F - 1).abs(), masked

    return alpha_fwd


def make_alpha_bwd(beta_int, need_alpha):
    """J^T g (and the alpha-gradient) from p, recomputing u = 1 + eps (x - m - t).

    s = p / u is p^{2-alpha} up to the row constant sum(p_raw) (the Jacobian
    is invariant to rescaling s).  log p = log1p(v)/eps - log(F): one
    transcendental per entry for the alpha-gradient.
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
        # log p exactly as the forward produced it (p is already normalised)
        L = torch.log(torch.where(pos, p, 1.0))
        xx = -eps * L
        small = xx.abs() < 0.5
        xs = torch.where(small, xx, 0.0)
        acc = torch.full_like(xs, _PHI[-1])
        for c in reversed(_PHI[:-1]):
            acc = acc * xs + c
        t_series = p * L * L * acc
        # direct form (p^{1-eps} - p (1 + x)) / eps^2; exp((1-eps) L) cannot overflow
        t_direct = (torch.exp((1 - eps) * L) - p * (1 + xx)) / (eps * eps)
        T = torch.where(pos, torch.where(small, t_series, t_direct), 0.0)
        ptil_g = q  # sum(g * s) / sum(s) = sum(g * p~)
        da = -(g * T).sum(-1, keepdim=True) + ptil_g * T.sum(-1, keepdim=True)
        return dx, da

    return alpha_bwd


_PHI = [1.0 / __import__("math").factorial(k + 2) for k in range(15)]
