"""Argument checks shared by the mappings and losses.

Every check raises ``ValueError`` whose message starts with the name of the
offending argument, so callers (configs, CLI) can point at the right knob.
"""
from __future__ import annotations

import math

import torch

_LOW_PRECISION = (torch.float16, torch.bfloat16)


def check_input(x, name: str = "x") -> None:
    if not isinstance(x, torch.Tensor):
        raise ValueError(f"{name}: expected a torch.Tensor, got {type(x).__name__}")
    if not x.is_floating_point():
        raise ValueError(f"{name}: expected a floating-point tensor, got {x.dtype}")


def canonical_dim(x: torch.Tensor, dim: int, name: str = "dim") -> int:
    if not isinstance(dim, int) or isinstance(dim, bool):
        raise ValueError(f"{name}: expected an int, got {dim!r}")
    nd = max(x.ndim, 1)
    if not -nd <= dim < nd:
        raise ValueError(f"{name}: {dim} is out of range for a tensor with {x.ndim} dims")
    return dim % nd


def compute_dtype(dtype: torch.dtype) -> torch.dtype:
    """Half precision is computed in float32 (the thresholds need the mantissa)."""
    return torch.float32 if dtype in _LOW_PRECISION else dtype


def check_alpha_float(alpha: float, name: str = "alpha") -> float:
    """The one rule for a scalar alpha (mappings, losses, and config keys such as
    ``mapping.alpha``): a finite number > 0 (1 = softmax, 1.5 = entmax15, 2 = sparsemax;
    0 < alpha < 1 is the dense, heavier-tailed Tsallis map)."""
    if isinstance(alpha, bool):
        raise ValueError(f"{name}: expected a number > 0, got a bool")
    try:
        alpha = float(alpha)
    except (TypeError, ValueError):
        raise ValueError(f"{name}: expected a number > 0, got {alpha!r}") from None
    if math.isnan(alpha):
        raise ValueError(f"{name}: must not be NaN")
    if alpha <= 0:
        raise ValueError(f"{name}: must be > 0 (got {alpha}); the Tsallis alpha-entropy needs alpha > 0")
    if math.isinf(alpha):
        raise ValueError(f"{name}: must be finite (got {alpha})")
    return alpha


def check_alpha(alpha, x: torch.Tensor, dim: int, name: str = "alpha"):
    """Return ``alpha`` as a Python float, or as a tensor broadcastable to ``x``
    with size 1 along ``dim`` (one alpha per row / head).

    ``dim`` must already be canonical (non-negative).
    """
    if isinstance(alpha, bool):
        raise ValueError(f"{name}: expected a float or a tensor, got a bool")
    if isinstance(alpha, (int, float)):
        return check_alpha_float(alpha, name)
    if not isinstance(alpha, torch.Tensor):
        raise ValueError(f"{name}: expected a float or a tensor, got {type(alpha).__name__}")
    if not alpha.is_floating_point():
        alpha = alpha.to(compute_dtype(x.dtype))
    if alpha.ndim > x.ndim:
        raise ValueError(
            f"{name}: shape {tuple(alpha.shape)} has more dims than the input {tuple(x.shape)}"
        )
    shape = (1,) * (x.ndim - alpha.ndim) + tuple(alpha.shape)
    for i, (a, s) in enumerate(zip(shape, x.shape)):
        if i == dim and a != 1:
            raise ValueError(
                f"{name}: shape {tuple(alpha.shape)} must have size 1 along dim {dim} "
                f"of the input {tuple(x.shape)} (one alpha per row)"
            )
        if a not in (1, s):
            raise ValueError(
                f"{name}: shape {tuple(alpha.shape)} does not broadcast to the input "
                f"{tuple(x.shape)}"
            )
    # Value checks need a host sync; skip them while tracing (torch.compile),
    # where a data-dependent branch would break the graph.
    if not torch.compiler.is_compiling():
        with torch.no_grad():
            if bool(torch.isnan(alpha).any()):
                raise ValueError(f"{name}: must not contain NaN")
            if bool((alpha <= 0).any()):
                raise ValueError(f"{name}: every value must be > 0 (min is {alpha.min().item()})")
            if bool(torch.isinf(alpha).any()):
                raise ValueError(f"{name}: must be finite")
    return alpha.reshape(shape)


def check_n_iter(n_iter, name: str = "n_iter"):
    if n_iter is None:
        return None
    if isinstance(n_iter, bool) or not isinstance(n_iter, int) or n_iter < 1:
        raise ValueError(f"{name}: expected None or a positive int, got {n_iter!r}")
    return n_iter
