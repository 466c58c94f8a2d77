"""Fused attention kernels (Triton): ``entmax_attention``, α-entmax attention with a learned α per head.

Triton is an optional dependency (``pip install 'sparselab[kernels]'``; CUDA builds of torch bring it):
``available()`` says whether it imports, and ``entmax_attention`` raises ImportError without it.
``sparselab.mappings`` stays torch-only; this package is where the fused kernels live.
"""
from __future__ import annotations

import functools
import importlib.util

from ._limits import MAX_HEAD_DIM, MAX_KEYS, SHORT_ROW_KEYS, supports

__all__ = ["available", "entmax_attention", "supports", "MAX_KEYS", "SHORT_ROW_KEYS", "MAX_HEAD_DIM"]


@functools.lru_cache(maxsize=None)   # asked once per attention call by the model
def available() -> bool:
    """Whether Triton is installed (the kernels run on CUDA, or on CPU under TRITON_INTERPRET=1)."""
    return importlib.util.find_spec("triton") is not None


def entmax_attention(q, k, v, alpha, **kwargs):
    """Fused α-entmax attention; see :func:`sparselab.kernels.attention.entmax_attention`
    (Peters et al. 2019; learned α per head: Correia et al. 2019, Prop. 1)."""
    from .attention import entmax_attention as fused   # imports triton: only when called

    return fused(q, k, v, alpha, **kwargs)
