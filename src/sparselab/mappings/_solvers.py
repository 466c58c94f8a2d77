"""Threshold solvers: forward passes on the last dim, no autograd.

Conventions shared by every solver:
  * rows are shifted by their max first (shift invariance), so the largest
    score is 0 and thresholds live in a bounded bracket;
  * a row whose max is ``-inf`` (fully masked) gets an all-zero output;
  * a NaN anywhere in a row makes the max NaN, and NaN then flows to every
    entry of that row (the softmax behaviour).
"""
from __future__ import annotations

import torch

from . import _compile, _fused

NEG_INF = float("-inf")


def shift_by_max(z: torch.Tensor):
    """Return (z - max, all_masked) with masked rows shifted by 0 instead of -inf."""
    m = z.amax(-1, keepdim=True)
    masked = m == NEG_INF
    m = torch.where(masked, 0.0, m)
    return z - m, masked


def traced_fix(p: torch.Tensor, bad: torch.Tensor, exact, *operands) -> torch.Tensor:
    """Inside a torch.compile trace: ``p`` with the rows flagged ``bad`` (shape (..., 1)) replaced by those of
    ``exact(*operands)``, which runs (on every row) only when some row is bad: a ``torch.cond``, so the graph
    has no host read (fullgraph=True holds) and the common case pays one pass, not the exact solver."""
    return torch.cond(bad.any(), lambda p, bad, *ops: torch.where(bad, exact(*ops), p),
                      lambda p, bad, *ops: p.clone(), (p, bad) + tuple(operands))


def _arange_like(z: torch.Tensor) -> torch.Tensor:
    return torch.arange(1, z.shape[-1] + 1, device=z.device, dtype=z.dtype)


def _last_true(cond: torch.Tensor) -> torch.Tensor:
    """Largest 1-based k with cond[..., k-1] true (0 if none), keepdim.

    The support-size conditions are monotone in exact arithmetic; taking the
    largest index rather than a count is robust to a stray rounding flip.
    """
    k = torch.arange(1, cond.shape[-1] + 1, device=cond.device)
    return torch.where(cond, k, 0).amax(-1, keepdim=True)


# --------------------------------------------------------------------- sparsemax
def sparsemax_tau_sorted(zs: torch.Tensor):
    """Alg. 1 of Martins & Astudillo (2016) on rows sorted in descending order.

    Returns (tau, k): threshold and support size (keepdim).
    """
    cs = zs.cumsum(-1)
    k = _last_true(1 + _arange_like(zs) * zs > cs)
    tau = (cs.gather(-1, (k - 1).clamp_min(0)) - 1) / k.clamp_min(1).to(zs.dtype)
    return tau, k


def sparsemax_lastdim(z: torch.Tensor) -> torch.Tensor:
    """Exact sparsemax over the last dim (fused sort-free kernel when compiled)."""
    if torch.compiler.is_compiling():  # traced into the caller's graph: the same kernel, checked by a cond
        p, cnt, cnt_final = _fused.sparsemax_fwd(z)
        return traced_fix(p, (cnt_final != cnt) & (cnt > 0), sparsemax_sort, z)
    if _compile.use_compiled(z):
        out = _compile.run_rows(_fused.sparsemax_fwd, z)
        if out is not None:
            p, cnt, cnt_final = out
            bad = (cnt_final != cnt) & (cnt > 0)  # cnt = 0: masked; NaN rows compare False
            if bool(bad.any()):
                _compile.fix_rows(p, z, bad, sparsemax_sort)
            return p
    return sparsemax_sort(z)


def sparsemax_sort(z: torch.Tensor) -> torch.Tensor:
    w, masked = shift_by_max(z)
    zs = torch.sort(w, dim=-1, descending=True).values
    tau, _ = sparsemax_tau_sorted(zs)
    p = torch.clamp(w - tau, min=0)
    return torch.where(masked, 0.0, p)


# ---------------------------------------------------------------- 1.5-entmax
def entmax15_tau_sorted(zs: torch.Tensor):
    """Alg. 2 of Peters, Niculae & Martins (2019) on rows of z/2 sorted descending.

    For each k: mean_k, ss_k = sum_{j<=k} (z_(j) - mean_k)^2,
    tau_k = mean_k - sqrt((1 - ss_k)/k); the support size is the largest k with
    tau_k <= z_(k).  Returns (tau, k) keepdim.
    """
    rho = _arange_like(zs)
    mean = zs.cumsum(-1) / rho
    mean_sq = (zs * zs).cumsum(-1) / rho
    ss = rho * (mean_sq - mean * mean)
    delta = (1 - ss) / rho
    tau = mean - torch.sqrt(torch.clamp(delta, min=0))
    k = _last_true(tau <= zs)
    tau_star = tau.gather(-1, (k - 1).clamp_min(0))
    return tau_star, k


def entmax15_lastdim(z: torch.Tensor) -> torch.Tensor:
    """Exact 1.5-entmax over the last dim (fused sort-free kernel when compiled)."""
    if torch.compiler.is_compiling():  # traced into the caller's graph: the same kernel, checked by a cond
        p, cnt, cnt_final, ss = _fused.entmax15_fwd(z)
        return traced_fix(p, ((cnt_final != cnt) | (ss > 1)) & (cnt > 0), entmax15_sort, z)
    if _compile.use_compiled(z):
        out = _compile.run_rows(_fused.entmax15_fwd, z)
        if out is not None:
            p, cnt, cnt_final, ss = out
            bad = ((cnt_final != cnt) | (ss > 1)) & (cnt > 0)
            if bool(bad.any()):
                _compile.fix_rows(p, z, bad, entmax15_sort)
            return p
    return entmax15_sort(z)


def entmax15_sort(z: torch.Tensor) -> torch.Tensor:
    w, masked = shift_by_max(z)
    w = w / 2
    zs = torch.sort(w, dim=-1, descending=True).values
    tau, _ = entmax15_tau_sorted(zs)
    p = torch.clamp(w - tau, min=0)
    p = p * p
    return torch.where(masked, 0.0, p)
