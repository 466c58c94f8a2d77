"""``entmax(x, alpha)``: pick the exact special case when alpha allows it."""
from __future__ import annotations

import torch

from ._validate import canonical_dim, check_alpha, check_input
from ._lastdim import support_size
from .bisect import entmax_bisect
from .entmax15 import entmax15
from .softmax import softmax
from .sparsemax import sparsemax


# The one alpha -> kernel rule, shared by ``entmax`` (autograd mappings) and the losses (raw kernels).
EXACT_CASES = {1.0: "softmax", 1.5: "entmax15", 2.0: "sparsemax"}


def exact_case(alpha) -> str | None:
    """'softmax' (alpha = 1), 'entmax15' (1.5) or 'sparsemax' (2) when a float alpha has an exact
    solver (Martins & Astudillo 2016, Alg. 1; Peters et al. 2019, Alg. 2), else None: bisection
    (any other alpha, and every tensor alpha)."""
    return EXACT_CASES.get(alpha) if isinstance(alpha, float) else None


_MAPPINGS = {"softmax": softmax, "entmax15": entmax15, "sparsemax": sparsemax}


def entmax(x: torch.Tensor, alpha=1.5, dim: int = -1, n_iter=None, return_support_size: bool = False):
    """alpha-entmax along ``dim`` (Peters et al. 2019):
        argmax_{p in simplex} <p, z> + H^T_alpha(p) = [(alpha-1) z - tau]_+^{1/(alpha-1)}.
    alpha == 1 -> softmax, 1.5 -> exact entmax15 (Peters et al. 2019, Alg. 2),
    2 -> sparsemax (Martins & Astudillo 2016, Alg. 1), any other alpha (or a tensor
    alpha, including the dense maps at 0 < alpha < 1) -> ``entmax_bisect`` (see ``exact_case``).
    ``return_support_size=True`` returns ``(p, k)``, k = |{i : p_i > 0}| along ``dim`` (kept as size 1)."""
    check_input(x)
    if x.ndim:
        alpha = check_alpha(alpha, x, canonical_dim(x, dim))
    case = exact_case(alpha)
    if case is not None:
        p = _MAPPINGS[case](x, dim)
    else:
        p = entmax_bisect(x, alpha, dim, n_iter=n_iter)
    return (p, support_size(p, dim)) if return_support_size else p
