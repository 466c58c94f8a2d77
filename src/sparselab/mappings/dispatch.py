"""``entmax(x, alpha)``: pick the exact special case when alpha allows it."""
from __future__ import annotations

import torch

from ._validate import canonical_dim, check_alpha, check_input
from .bisect import entmax_bisect
from .entmax15 import entmax15
from .softmax import softmax
from .sparsemax import sparsemax


def entmax(x: torch.Tensor, alpha=1.5, dim: int = -1, n_iter=None) -> torch.Tensor:
    """alpha-entmax along ``dim`` (Peters et al. 2019):
        argmax_{p in simplex} <p, z> + H^T_alpha(p) = [(alpha-1) z - tau]_+^{1/(alpha-1)}.
    alpha == 1 -> softmax, 1.5 -> exact entmax15 (Peters et al. 2019, Alg. 2),
    2 -> sparsemax (Martins & Astudillo 2016, Alg. 1), any other alpha (or a tensor
    alpha) -> ``entmax_bisect``."""
    check_input(x)
    if x.ndim:
        alpha = check_alpha(alpha, x, canonical_dim(x, dim))
    if isinstance(alpha, float):
        if alpha == 1.0:
            return softmax(x, dim)
        if alpha == 1.5:
            return entmax15(x, dim)
        if alpha == 2.0:
            return sparsemax(x, dim)
    return entmax_bisect(x, alpha, dim, n_iter=n_iter)
