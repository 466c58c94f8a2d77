"""sparsemax (Martins & Astudillo, 2016): Euclidean projection onto the simplex.

    sparsemax(z) = argmin_{p in simplex} ||p - z||^2 = [z - tau]_+

Forward: the threshold ``tau`` of Alg. 1 (sort, cumulative sums, support size
k(z) = max{k : 1 + k z_(k) > sum_{j<=k} z_(j)}, tau = (sum_{j<=k} z_(j) - 1)/k).
Backward: the sparsemax Jacobian of Martins & Astudillo 2016, J = diag(s) - s s^T / |S| with s the
support indicator, so J^T g = s * (g - mean_{S} g).
"""
from __future__ import annotations

import torch

from ._lastdim import apply_lastdim, support_size
from . import _compile, _fused, _solvers


class SparsemaxFunction(torch.autograd.Function):
    """Row-wise sparsemax over the last dim, with the sparse Jacobian-vector product."""

    @staticmethod
    def forward(ctx, x):
        p = _solvers.sparsemax_lastdim(x)
        ctx.save_for_backward(p)
        return p

    @staticmethod
    def backward(ctx, g):
        (p,) = ctx.saved_tensors
        if _compile.use_compiled(g):
            out = _compile.run(_fused.sparsemax_bwd, _compile.rows2d(p), _compile.rows2d(g))
            if out is not None:
                return out.reshape(p.shape)
        return sparsemax_backward(p, g)


def sparsemax_backward(p: torch.Tensor, g: torch.Tensor) -> torch.Tensor:
    """J^T g for sparsemax: g minus its mean over the support, zero off it."""
    supp = p > 0
    g = torch.where(supp, g, 0.0)
    k = supp.sum(-1, keepdim=True).clamp_min(1)
    mean = g.sum(-1, keepdim=True) / k
    return torch.where(supp, g - mean, 0.0)


def sparsemax(x: torch.Tensor, dim: int = -1, return_support_size: bool = False):
    """sparsemax along ``dim`` (Martins & Astudillo 2016, Alg. 1 and its Jacobian):
        sparsemax(z) = argmin_{p in simplex} ||p - z||^2 = [z - tau]_+.

    ``return_support_size=True`` returns ``(p, k)`` with k = |{i : p_i > 0}| along ``dim``
    (the support size k(z) of Alg. 1; int64, shape of ``x`` with ``dim`` kept as size 1).

    Rows that are entirely ``-inf`` map to all zeros; a NaN anywhere in a row makes
    that whole row NaN.  float16/bfloat16 are computed in float32.
    """
    p = apply_lastdim(SparsemaxFunction.apply, x, dim)
    return (p, support_size(p, dim)) if return_support_size else p
