"""Run a row-wise kernel along any ``dim`` and in any floating dtype.

The kernels in this package work on the last dimension only (rows are then
contiguous, which is what makes reductions cheap).  This wrapper moves
``dim`` to the end, upcasts half precision to float32, applies the kernel and
undoes both.  Autograd sees the moves and casts as ordinary ops.
"""
from __future__ import annotations

from typing import Callable

import torch

from ._validate import canonical_dim, check_input, compute_dtype


def support_size(p: torch.Tensor, dim: int) -> torch.Tensor:
    """Number of nonzero entries of ``p`` along ``dim``, kept as size 1 (int64, no grad);
    the ``return_support_size=True`` output (upstream ``entmax``'s shape).  NaN rows count 0."""
    if p.ndim == 0:
        return (p > 0).long()
    return (p.detach() > 0).sum(dim, keepdim=True)


def apply_lastdim(kernel: Callable, x: torch.Tensor, dim: int, *args, alpha=None):
    """``kernel(x_lastdim, *args)`` or ``kernel(x_lastdim, alpha_lastdim, *args)``.

    ``alpha``, when a tensor, must already be validated (same ndim as ``x``, size
    1 along ``dim``); it is moved the same way as ``x``.
    """
    check_input(x)
    squeeze = x.ndim == 0
    if squeeze:
        x = x.unsqueeze(0)
        if isinstance(alpha, torch.Tensor):
            alpha = alpha.reshape(1)
    dim = canonical_dim(x, dim)
    out_dtype = x.dtype
    cdtype = compute_dtype(x.dtype)
    if x.dtype != cdtype:
        x = x.to(cdtype)
    last = x.ndim - 1
    if dim != last:
        x = x.movedim(dim, -1)
        if isinstance(alpha, torch.Tensor):
            alpha = alpha.movedim(dim, -1)
    if isinstance(alpha, torch.Tensor) and alpha.dtype != cdtype:
        alpha = alpha.to(cdtype)
    if x.numel() == 0:
        # Nothing to normalise; keep the graph connected for autograd.
        y = x * 0
    elif alpha is None:
        y = kernel(x, *args)
    else:
        y = kernel(x, alpha, *args)
    if dim != last:
        y = y.movedim(-1, dim)
    if y.dtype != out_dtype:
        y = y.to(out_dtype)
    if squeeze:
        y = y.squeeze(0)
    return y
