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


def check_alpha(alpha, x: torch.Tensor, dim: int, name: str = "alpha", trusted: bool = False):
    """Return ``alpha`` as a Python float, or as a tensor broadcastable to ``x``
    with size 1 along ``dim`` (one alpha per row / head).

    ``dim`` must already be canonical (non-negative).  ``trusted``: the caller
    guarantees a tensor's values (a module's learned alpha, clamped to its
    range); only its shape is checked, and the value check, a host sync per call
    on a GPU, is skipped.
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
    if not trusted and not torch.compiler.is_compiling():
        with torch.no_grad():
            # one host sync on the valid path (NaN fails alpha > 0); diagnose only on failure
            if not bool(((alpha > 0) & (alpha < math.inf)).all()):
                if bool(torch.isnan(alpha).any()):
                    raise ValueError(f"{name}: must not contain NaN")
                if bool((alpha <= 0).any()):
                    raise ValueError(f"{name}: every value must be > 0 (min is {alpha.min().item()})")
                raise ValueError(f"{name}: must be finite")
    return alpha.reshape(shape)


def check_n_iter(n_iter, name: str = "n_iter"):
    if n_iter is None:
        return None
    if isinstance(n_iter, bool) or not isinstance(n_iter, int) or n_iter < 1:
        raise ValueError(f"{name}: expected None or a positive int, got {n_iter!r}")
    return n_iter


def check_normmax_alpha(alpha, x: torch.Tensor, dim: int, name: str = "alpha"):
    """``check_alpha`` plus alpha > 1: the alpha-norm regulariser of normmax is a norm (convex)
    only for alpha >= 1, and at alpha = 1 it is constant on the simplex (argmax, no gradient)."""
    alpha = check_alpha(alpha, x, dim, name)
    if isinstance(alpha, float):
        if alpha <= 1:
            raise ValueError(f"{name}: normmax needs alpha > 1 (got {alpha}); ||p||_1 = 1 on the simplex")
    elif not torch.compiler.is_compiling():
        with torch.no_grad():
            if bool((alpha <= 1).any()):
                raise ValueError(f"{name}: normmax needs every alpha > 1 (min is {alpha.min().item()})")
    return alpha


def check_budget(budget, x: torch.Tensor, dim: int, name: str = "budget"):
    """A float, or a tensor broadcastable to ``x`` with size 1 along ``dim`` (one per row),
    with every value in (0, d], d = x.shape[dim] (the capped simplex is empty outside)."""
    if isinstance(budget, bool):
        raise ValueError(f"{name}: expected a float or a tensor, got a bool")
    d = x.shape[dim]
    if isinstance(budget, (int, float)):
        budget = float(budget)
        if math.isnan(budget) or not 0 < budget <= d:
            raise ValueError(f"{name}: must lie in (0, {d}] (the size of dim {dim}), got {budget}")
        return budget
    if not isinstance(budget, torch.Tensor):
        raise ValueError(f"{name}: expected a float or a tensor, got {type(budget).__name__}")
    b = check_alpha(budget, x, dim, name)  # shape rules, NaN, > 0, finite
    if not torch.compiler.is_compiling():
        with torch.no_grad():
            if bool((b > d).any()):
                raise ValueError(f"{name}: must lie in (0, {d}] (the size of dim {dim}), max is {b.max().item()}")
    return b
