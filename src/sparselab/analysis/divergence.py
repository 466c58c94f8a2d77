"""Divergences between probability vectors (torch, any device, batched over leading dims)."""
from __future__ import annotations

import torch


def kl_divergence(p: torch.Tensor, q: torch.Tensor, dim: int = -1) -> torch.Tensor:
    """KL(p || q) = sum_i p_i log(p_i / q_i), natural log, with 0 log 0 = 0 (sparse p is fine)."""
    ratio = torch.where(p > 0, p / torch.where(p > 0, q, torch.ones_like(q)), torch.ones_like(p))
    return (p * torch.log(ratio)).sum(dim)


def js_divergence(p: torch.Tensor, q: torch.Tensor, dim: int = -1) -> torch.Tensor:
    """Jensen–Shannon divergence JS(p, q) = ½ KL(p || m) + ½ KL(q || m), m = ½ (p + q).

    Natural log, so values lie in [0, log 2]. Symmetric and finite for sparse inputs, which
    is why Martins & Astudillo (2016, §4.2) report it for sparsemax predictions and Correia
    et al. (2019, §5) use it to measure how different attention heads are.
    """
    m = 0.5 * (p + q)
    return 0.5 * kl_divergence(p, m, dim) + 0.5 * kl_divergence(q, m, dim)
