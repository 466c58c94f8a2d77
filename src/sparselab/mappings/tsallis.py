"""Tsallis alpha-entropies (Tsallis 1988; the regulariser of alpha-entmax in Peters
et al. 2019) and their
derivative in alpha, in a form that is stable as alpha -> 1.

    H_alpha(p) = (1 - sum_i p_i^alpha) / (alpha (alpha - 1)),   H_1 = Shannon.

For p on the simplex, 1 - sum p^alpha = -sum p (p^{alpha-1} - 1), so with
eps = alpha - 1 and L = log p:
    H_alpha(p) = -(1/alpha) sum_i p_i L_i e1(eps L_i),   e1(y) = expm1(y)/y,
which is smooth through eps = 0.  Its alpha-derivative is
    dH/dalpha = E/alpha^2 - E'/alpha,  E = sum p L e1(eps L),
    E' = sum p L^2 psi(eps L),  psi(y) = (y e^y - expm1(y))/y^2  (psi(0) = 1/2).
"""
from __future__ import annotations

import math

import torch

from ._validate import canonical_dim, check_alpha, check_input, compute_dtype

# psi(y) = sum_{k>=1} k y^{k-1}/(k+1)!; 16 terms on |y| < 1/2 leave < 1e-19 and
# the direct formula is accurate to ~10 ulp for |y| >= 1/2.
_PSI_COEFS = [k / math.factorial(k + 1) for k in range(1, 17)]


def _psi(y: torch.Tensor) -> torch.Tensor:
    small = y.abs() < 0.5
    ys = torch.where(small, y, 0.0)
    acc = torch.full_like(y, _PSI_COEFS[-1])
    for c in reversed(_PSI_COEFS[:-1]):
        acc = acc * ys + c
    yb = torch.where(small, 1.0, y)
    direct = (yb * torch.exp(yb) - torch.expm1(yb)) / (yb * yb)
    return torch.where(small, acc, direct)


def _e1(y: torch.Tensor) -> torch.Tensor:
    nz = y != 0
    yb = torch.where(nz, y, 1.0)
    return torch.where(nz, torch.expm1(yb) / yb, 1.0)


def tsallis_lastdim(p: torch.Tensor, alpha, need_dalpha: bool = False):
    """(H_alpha(p), dH/dalpha or None) along the last dim, keepdim=False.

    ``alpha``: float or tensor (..., 1).  Special cases avoid logs where possible.
    """
    pos = p > 0
    if isinstance(alpha, float) and not need_dalpha:
        if alpha == 2.0:
            return (1 - (p * p).sum(-1)) / 2, None
        if alpha == 1.5:
            return (1 - (p * torch.sqrt(p)).sum(-1)) / 0.75, None
    eps = alpha - 1
    L = torch.log(torch.where(pos, p, 1.0))
    y = eps * L
    E = torch.where(pos, p * L * _e1(y), 0.0).sum(-1, keepdim=True)
    H = -E / alpha
    dH = None
    if need_dalpha:
        Ep = torch.where(pos, p * L * L * _psi(y), 0.0).sum(-1, keepdim=True)
        dH = E / (alpha * alpha) - Ep / alpha
        dH = dH.squeeze(-1)
    return H.squeeze(-1), dH


class TsallisEntropyFunction(torch.autograd.Function):
    """H^T_alpha over the last dim (Tsallis 1988); grads w.r.t. p (on the simplex) and
    alpha, both of the stable form in the module docstring (on the simplex its p-gradient
    equals that of the definition up to a constant, which the simplex tangent ignores)."""

    @staticmethod
    def forward(ctx, p, alpha):
        need = isinstance(alpha, torch.Tensor)
        H, dH = tsallis_lastdim(p, alpha, need_dalpha=need)
        ctx.alpha_is_tensor = need
        if need:
            ctx.save_for_backward(p, alpha, dH)
        else:
            ctx.save_for_backward(p)
            ctx.alpha = alpha
        return H

    @staticmethod
    def backward(ctx, g):
        if ctx.alpha_is_tensor:
            p, alpha, dH = ctx.saved_tensors
        else:
            (p,) = ctx.saved_tensors
            alpha, dH = ctx.alpha, None
        eps = alpha - 1
        pos = p > 0
        L = torch.log(torch.where(pos, p, 1.0))
        # d/dp_i of -(1/alpha) sum p L e1(eps L) = -(1/alpha) (L e1(eps L) + p^eps)
        gp = -(L * _e1(eps * L) + torch.exp(eps * L)) / alpha
        gp = torch.where(pos, gp, 0.0) * g.unsqueeze(-1)
        ga = None
        if ctx.alpha_is_tensor and ctx.needs_input_grad[1]:
            ga = (dH * g).unsqueeze(-1).sum_to_size(alpha.shape)
        return gp, ga


def tsallis_entropy(p: torch.Tensor, alpha=1.5, dim: int = -1) -> torch.Tensor:
    """Tsallis alpha-entropy along ``dim`` (Tsallis 1988; as used by Peters et al. 2019):
        H^T_alpha(p) = (1 - sum_i p_i^alpha) / (alpha (alpha - 1)),  H^T_1 = -sum_i p_i log p_i.

    ``p`` is assumed to lie on the simplex (the stable form uses sum p = 1).
    ``alpha``: float, or tensor broadcastable to ``p`` with size 1 along ``dim``;
    differentiable w.r.t. both.  Returns a tensor with ``dim`` removed.
    """
    check_input(p, "p")
    d = canonical_dim(p, dim)
    alpha = check_alpha(alpha, p, d)
    out_dtype = p.dtype
    cd = compute_dtype(p.dtype)
    p = p.to(cd).movedim(d, -1)
    if isinstance(alpha, torch.Tensor):
        alpha = alpha.to(cd).movedim(d, -1)
    return TsallisEntropyFunction.apply(p, alpha).to(out_dtype)
