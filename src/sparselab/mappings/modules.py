"""nn.Module wrappers: ``Entmax`` (fixed or learned alpha) and ``FYLoss``."""
from __future__ import annotations

import math

import torch
from torch import nn

from ._validate import check_alpha_float
from .dispatch import entmax
from .bisect import entmax_bisect
from .losses import fy_loss, _REDUCTIONS

# Correia et al. 2019 (Adaptively Sparse Transformers) keep a learned alpha in
# [1.01, 2]: above 1 so the mapping stays sparse-capable and the alpha-gradient
# well conditioned, at most 2 (sparsemax).
ALPHA_MIN, ALPHA_MAX = 1.01, 2.0


class Entmax(nn.Module):
    """alpha-entmax along ``dim`` (Peters et al. 2019) with a fixed or learned alpha.

    Fixed: ``Entmax(alpha=1.5)`` dispatches like :func:`entmax`.
    Learned (Correia et al. 2019; alpha-gradient of their Prop. 1): ``Entmax(learnable=True, num_heads=H)`` keeps a
    parameter ``a`` (shape (H,), or () without heads) and uses
    alpha = clamp(1 + sigmoid(a), 1.01, 2).  ``a`` ~ N(0, 1) unless ``alpha_init``
    (an initial alpha in (1, 2)) is given.  With heads, the input is
    (B, H, ...) -- e.g. attention scores (B, H, Lq, Lk) -- and head h uses alpha[h].
    """

    def __init__(self, alpha: float = 1.5, dim: int = -1, learnable: bool = False,
                 num_heads=None, alpha_init=None, n_iter=None):
        super().__init__()
        self.dim = dim
        self.learnable = learnable
        self.num_heads = num_heads
        self.n_iter = n_iter
        if num_heads is not None and (not isinstance(num_heads, int) or num_heads < 1):
            raise ValueError(f"num_heads: expected None or a positive int, got {num_heads!r}")
        if learnable:
            shape = () if num_heads is None else (num_heads,)
            if alpha_init is None:
                a = torch.randn(shape)
            else:
                a0 = check_alpha_float(alpha_init, "alpha_init")
                if not 1.0 < a0 < 2.0:
                    raise ValueError(f"alpha_init: must lie in (1, 2) for alpha = 1 + sigmoid(a), got {a0}")
                a = torch.full(shape, math.log((a0 - 1) / (2 - a0)))  # logit(alpha - 1)
            self.a = nn.Parameter(a)
            self.fixed_alpha = None
        else:
            if num_heads is not None or alpha_init is not None:
                raise ValueError("num_heads: only meaningful with learnable=True")
            self.fixed_alpha = check_alpha_float(alpha, "alpha")

    @property
    def alpha(self):
        """Current alpha (a float, or a tensor with one value per head)."""
        if not self.learnable:
            return self.fixed_alpha
        return torch.clamp(1 + torch.sigmoid(self.a), ALPHA_MIN, ALPHA_MAX)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if not self.learnable:
            return entmax(x, self.fixed_alpha, self.dim, n_iter=self.n_iter)
        alpha = self.alpha
        d = self.dim % x.ndim
        if self.num_heads is None:
            shape = [1] * x.ndim
        else:
            if x.ndim < 2 or x.shape[1] != self.num_heads:
                raise ValueError(
                    f"x: expected (B, {self.num_heads}, ...) for num_heads={self.num_heads}, "
                    f"got {tuple(x.shape)}"
                )
            if d == 1:
                raise ValueError("dim: cannot normalise over the head dim with per-head alpha")
            shape = [1] * x.ndim
            shape[1] = self.num_heads
        return entmax_bisect(x, alpha.reshape(shape), self.dim, n_iter=self.n_iter)

    def extra_repr(self) -> str:
        if self.learnable:
            return f"dim={self.dim}, learnable=True, num_heads={self.num_heads}"
        return f"alpha={self.fixed_alpha}, dim={self.dim}"


class FYLoss(nn.Module):
    """Fenchel-Young (alpha-entmax) loss as a module (Blondel et al. 2020; Peters et al. 2019):
    L(z; y) = Omega*(z) + Omega(y) - <z, y> with Omega = -H^T_alpha; see :func:`fy_loss`."""

    def __init__(self, alpha=1.5, reduction: str = "mean", ignore_index: int = -100, n_iter=None):
        super().__init__()
        if reduction not in _REDUCTIONS:
            raise ValueError(f"reduction: expected one of {_REDUCTIONS}, got {reduction!r}")
        if not isinstance(alpha, torch.Tensor):
            alpha = check_alpha_float(alpha)
        self.alpha = alpha
        self.reduction = reduction
        self.ignore_index = ignore_index
        self.n_iter = n_iter

    def forward(self, scores: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
        return fy_loss(scores, target, self.alpha, self.reduction, self.ignore_index, self.n_iter)

    def extra_repr(self) -> str:
        return f"alpha={self.alpha}, reduction={self.reduction!r}, ignore_index={self.ignore_index}"
