"""nn.Module wrappers: ``Entmax`` (fixed or learned alpha), ``Normmax``, ``FYLoss`` and ``NormmaxLoss``."""
from __future__ import annotations

import math

import torch
from torch import nn

from ._validate import check_alpha_float
from .dispatch import entmax
from .bisect import entmax_bisect
from .losses import fy_loss, normmax_loss, _REDUCTIONS
from .normmax import normmax_bisect

# Correia et al. 2019 (Adaptively Sparse Transformers) keep a learned alpha in
# [1.01, 2]: above 1 so the mapping stays sparse-capable and the alpha-gradient
# well conditioned, at most 2 (sparsemax).  The defaults of ``Entmax(alpha_min=,
# alpha_max=)``.
ALPHA_MIN, ALPHA_MAX = 1.01, 2.0


class Entmax(nn.Module):
    """alpha-entmax along ``dim`` (Peters et al. 2019) with a fixed or learned alpha.

    Fixed: ``Entmax(alpha=1.5)`` dispatches like :func:`entmax`.
    Learned (Correia et al. 2019; alpha-gradient of their Prop. 1): ``Entmax(learnable=True, num_heads=H)`` keeps a
    parameter ``a`` (shape (H,), or () without heads) and uses
    alpha = clamp(lo + (hi - lo) sigmoid(a), alpha_min, alpha_max),
    lo = min(1, alpha_min), hi = max(2, alpha_max); with the defaults
    (alpha_min=1.01, alpha_max=2) that is clamp(1 + sigmoid(a), 1.01, 2).
    Any 0 < alpha_min < alpha_max is allowed (alpha_min < 1 lets alpha learn the
    dense alpha < 1 maps).  ``a`` ~ N(0, 1) unless ``alpha_init`` (an initial
    alpha in (lo, hi)) is given.  With heads, the input is
    (B, H, ...) -- e.g. attention scores (B, H, Lq, Lk) -- and head h uses alpha[h].
    """

    def __init__(self, alpha: float = 1.5, dim: int = -1, learnable: bool = False,
                 num_heads=None, alpha_init=None, n_iter=None,
                 alpha_min: float = ALPHA_MIN, alpha_max: float = ALPHA_MAX):
        super().__init__()
        self.alpha_min = check_alpha_float(alpha_min, "alpha_min")
        self.alpha_max = check_alpha_float(alpha_max, "alpha_max")
        if not self.alpha_min < self.alpha_max:
            raise ValueError(f"alpha_max: must exceed alpha_min={self.alpha_min}, got {self.alpha_max}")
        self._lo = min(1.0, self.alpha_min)
        self._hi = max(2.0, self.alpha_max)
        self.dim = dim
        self.learnable = learnable
        self.num_heads = num_heads
        self.n_iter = n_iter
        if num_heads is not None and (not isinstance(num_heads, int) or num_heads < 1):
            raise ValueError(f"num_heads: expected None or a positive int, got {num_heads!r}")
        if learnable:
            shape = () if num_heads is None else (num_heads,)
            self.alpha_init = None
            if alpha_init is not None:
                a0 = check_alpha_float(alpha_init, "alpha_init")
                lo, hi = self._lo, self._hi
                if not lo < a0 < hi:
                    raise ValueError(
                        f"alpha_init: must lie in ({lo:g}, {hi:g}) for alpha = {lo:g} + {hi - lo:g} sigmoid(a), "
                        f"got {a0}")
                self.alpha_init = a0
            self.a = nn.Parameter(torch.empty(shape))
            self.reset_parameters()
            self.fixed_alpha = None
        else:
            if num_heads is not None or alpha_init is not None:
                raise ValueError("num_heads: only meaningful with learnable=True")
            self.fixed_alpha = check_alpha_float(alpha, "alpha")

    def reset_parameters(self) -> None:
        """Draw ``a`` again: a ~ N(0, 1), or logit((alpha_init - lo)/(hi - lo)) when an initial alpha is set
        (so that copies of one module, e.g. one per Transformer layer, get independent draws)."""
        if not self.learnable:
            return
        with torch.no_grad():
            if self.alpha_init is None:
                self.a.normal_()
            else:
                lo, hi = self._lo, self._hi
                self.a.fill_(math.log((self.alpha_init - lo) / (hi - self.alpha_init)))

    @property
    def alpha(self):
        """Current alpha (a float, or a tensor with one value per head)."""
        if not self.learnable:
            return self.fixed_alpha
        a = torch.sigmoid(self.a)
        if self._hi - self._lo != 1.0:
            a = a * (self._hi - self._lo)
        return torch.clamp(self._lo + a, self.alpha_min, self.alpha_max)

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
        # alpha lies in [alpha_min, alpha_max] by construction: no value check (a host sync per call)
        return entmax_bisect(x, alpha.reshape(shape), self.dim, n_iter=self.n_iter,
                             alpha_range=(self.alpha_min, self.alpha_max))

    def extra_repr(self) -> str:
        if self.learnable:
            return (f"dim={self.dim}, learnable=True, num_heads={self.num_heads}, "
                    f"alpha_min={self.alpha_min}, alpha_max={self.alpha_max}")
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


class Normmax(nn.Module):
    """alpha-normmax along ``dim`` as a normalizer module (Santos et al. 2024; Blondel et al. 2020):
        p = argmax_{p in simplex} <p, z> - ||p||_alpha;  see :func:`normmax_bisect`.
    ``alpha``: float > 1 or a tensor broadcastable to the input with size 1 along ``dim``."""

    def __init__(self, alpha=2.0, dim: int = -1, n_iter=None):
        super().__init__()
        if not isinstance(alpha, torch.Tensor):
            alpha = check_alpha_float(alpha)
            if alpha <= 1:
                raise ValueError(f"alpha: normmax needs alpha > 1, got {alpha}")
        self.alpha = alpha
        self.dim = dim
        self.n_iter = n_iter

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return normmax_bisect(x, self.alpha, self.dim, n_iter=self.n_iter)

    def extra_repr(self) -> str:
        return f"alpha={self.alpha}, dim={self.dim}"


class NormmaxLoss(nn.Module):
    """Fenchel-Young loss of alpha-normmax as a module (Blondel et al. 2020; Santos et al. 2024):
    L(z; y) = <z, p* - y> - ||p*||_alpha + ||y||_alpha; see :func:`normmax_loss`."""

    def __init__(self, alpha=2.0, reduction: str = "mean", ignore_index: int = -100, n_iter=None):
        super().__init__()
        if reduction not in _REDUCTIONS:
            raise ValueError(f"reduction: expected one of {_REDUCTIONS}, got {reduction!r}")
        if not isinstance(alpha, torch.Tensor):
            alpha = check_alpha_float(alpha)
            if alpha <= 1:
                raise ValueError(f"alpha: normmax needs alpha > 1, got {alpha}")
        self.alpha = alpha
        self.reduction = reduction
        self.ignore_index = ignore_index
        self.n_iter = n_iter

    def forward(self, scores: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
        return normmax_loss(scores, target, self.alpha, self.reduction, self.ignore_index, self.n_iter)

    def extra_repr(self) -> str:
        return f"alpha={self.alpha}, reduction={self.reduction!r}, ignore_index={self.ignore_index}"
