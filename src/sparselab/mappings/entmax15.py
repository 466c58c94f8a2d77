"""1.5-entmax (Peters, Niculae & Martins, 2019): alpha-entmax at alpha = 1.5.

    entmax15(z) = argmax_{p in simplex} <p, z> + H^T_{1.5}(p) = [z/2 - tau]_+^2

Forward: the exact threshold of Alg. 2 (sort-based; a quadratic in tau on the
support).  Backward: the alpha-entmax Jacobian (Peters et al. 2019, Prop. 1) at
alpha = 1.5, with s = p^{2-alpha} = sqrt(p):
    J^T g = s * g - s * (sum(s * g) / sum(s)).
"""
from __future__ import annotations

import torch

from ._lastdim import apply_lastdim, support_size
from . import _compile, _fused, _solvers


class Entmax15Function(torch.autograd.Function):
    """Row-wise 1.5-entmax over the last dim, with its Jacobian-vector product."""

    @staticmethod
    def forward(ctx, x):
        p = _solvers.entmax15_lastdim(x)
        ctx.save_for_backward(p)
        return p

    @staticmethod
    def backward(ctx, g):
        (p,) = ctx.saved_tensors
        if _compile.use_compiled(g):
            out = _compile.run(_fused.entmax15_bwd, _compile.rows2d(p), _compile.rows2d(g))
            if out is not None:
                return out.reshape(p.shape)
        return entmax_backward_s(torch.sqrt(p), g)


def entmax_backward_s(s: torch.Tensor, g: torch.Tensor) -> torch.Tensor:
    """J^T g = s*g - s * sum(s*g)/sum(s), for s = p^{2-alpha} (0 off the support).

    A fully masked row has sum(s) = 0; clamping the denominator keeps its
    gradient at exactly 0 instead of 0/0.
    """
    gs = g * s
    ssum = s.sum(-1, keepdim=True)
    q = gs.sum(-1, keepdim=True) / ssum.clamp_min(torch.finfo(s.dtype).tiny)
    return gs - s * q


def entmax15(x: torch.Tensor, dim: int = -1, return_support_size: bool = False):
    """Exact 1.5-entmax along ``dim`` (Peters et al. 2019, Alg. 2):
        entmax15(z) = [z/2 - tau]_+^2,  sum = 1.

    ``return_support_size=True`` returns ``(p, k)`` with k = |{i : p_i > 0}| along ``dim``
    (int64, shape of ``x`` with ``dim`` kept as size 1).

    Rows that are entirely ``-inf`` map to all zeros; a NaN anywhere in a row makes
    that whole row NaN.  float16/bfloat16 are computed in float32.
    """
    p = apply_lastdim(Entmax15Function.apply, x, dim)
    return (p, support_size(p, dim)) if return_support_size else p
