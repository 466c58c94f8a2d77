"""softmax with the package-wide conventions (all -inf rows -> zeros, any dim,
half precision computed in float32).  The arithmetic is torch's own softmax."""
from __future__ import annotations

import torch

from ._lastdim import apply_lastdim


def _softmax_lastdim(x: torch.Tensor) -> torch.Tensor:
    # torch gives NaN for a fully masked row (exp(-inf - -inf)); we give zeros,
    # with zero gradient.  amax keeps NaN rows NaN (our NaN policy).
    masked = x.amax(-1, keepdim=True) == float("-inf")
    # On the CPU reading masked.any() is free and saves two passes in the common case; on a GPU it
    # would be a host sync per call, so the masked path (same values) always runs there.
    if x.device.type == "cpu" and not torch.compiler.is_compiling() and not bool(masked.any()):
        return torch.softmax(x, dim=-1)  # common case: no extra passes
    # Feed the masked rows zeros so neither forward nor backward sees NaN.
    p = torch.softmax(torch.where(masked, 0.0, x), dim=-1)
    return torch.where(masked, 0.0, p)


def softmax(x: torch.Tensor, dim: int = -1) -> torch.Tensor:
    """softmax along ``dim``: p_i = exp(z_i) / sum_j exp(z_j) (Bridle 1990), which is
    alpha-entmax at alpha = 1 (Peters et al. 2019).  A fully ``-inf`` row returns
    zeros (torch: NaN)."""
    return apply_lastdim(_softmax_lastdim, x, dim)
